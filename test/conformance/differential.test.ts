// Differential test: for every compliance case, OPA's plan and the plan our frontend makes from
// the case's Rego source are both compiled by our code generator and evaluated on the case's
// input; they must give the same result set, or fail with the same error code. Cases where OPA's
// plan itself fails (cannot be prepared, or does not give the case's expected answer) are
// skipped, and listed with the reason at the end of the run.
import { expect } from "chai";
import { join } from "node:path";
import { loadCases, type ComplianceCase } from "../../compiler/compliance/cases.js";
import { compareResults } from "../../compiler/compliance/compare.js";
import { planFrontend, regoFrontend } from "../../compiler/compliance/frontends.js";
import { runCase, type Evaluable, type Frontend } from "../../compiler/compliance/run.js";
import { RegoError } from "../../runtime/errors.js";
import type { Value } from "../../runtime/value/value.js";
import { describeWithShared, haveShared, sharedDir } from "../support/shared.js";

const cases: ComplianceCase[] = haveShared ? loadCases(join(sharedDir, "compliance")) : [];

type Result = { rows: readonly Value[] } | { error: string };

async function evaluate(frontend: Frontend, c: ComplianceCase): Promise<Result> {
  let prepared: Evaluable;
  try {
    prepared = await frontend.prepare(c);
  } catch (e) {
    return { error: e instanceof RegoError ? `prepare:${e.code}` : `prepare:crash` };
  }
  const input = c.input_term !== undefined ? frontend.parseInputTerm(c.input_term) : c.input;
  try {
    return { rows: await prepared.evaluate({ input, data: c.data ?? {}, strictBuiltinErrors: c.strict_error === true }) };
  } catch (e) {
    return { error: e instanceof RegoError ? e.code : "crash" };
  }
}

describeWithShared("differential: OPA's plan vs our plan, both through our code generator", () => {
  const skipped: { note: string; reason: string }[] = [];
  after(() => {
    if (skipped.length === 0) return;
    process.stdout.write(`      skipped ${skipped.length} case(s) where OPA's own plan fails:\n`);
    for (const s of skipped) process.stdout.write(`        - ${s.note}: ${s.reason}\n`);
  });
  for (const c of cases) {
    if (c.plan === undefined) continue;
    it(c.note, async function () {
      const baseline = await runCase(planFrontend, c);
      if (baseline.status !== "pass") {
        skipped.push({ note: c.note, reason: `${baseline.kind}: ${baseline.reason}`.slice(0, 160) });
        this.skip();
      }
      const opa = await evaluate(planFrontend, c);
      const ours = await evaluate(regoFrontend, c);
      if ("error" in opa || "error" in ours) {
        expect("error" in ours ? ours.error : "no error").to.equal("error" in opa ? opa.error : "no error");
        return;
      }
      const cmp = compareResults(ours.rows, opa.rows, c.sort_bindings === true);
      if (!cmp.ok) expect.fail(cmp.diff);
    });
  }
});
