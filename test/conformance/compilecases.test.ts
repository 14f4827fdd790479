// OPA's compiler cases (../shared/opa/compilecases, YAML: modules or a query in, diagnostics out),
// run through our passes (matching rules in compilecases.support.ts). Failing cases are listed
// with a reason in known-failures/compilecases.json; a listed case that passes fails the run (the
// list only shrinks). The compiled form (`want`, `want_stages`) is not compared: generated
// variable names are OPA's, and the corpus calls those assertions optional.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeWithShared, haveShared, repoRoot } from "../support/shared.js";
import { judge, loadCompileCases, runCompileCase } from "./compilecases.support.js";

const knownPath = join(repoRoot, "test", "conformance", "known-failures", "compilecases.json");

function readKnown(): Map<string, string> {
  try {
    const list = JSON.parse(readFileSync(knownPath, "utf8")) as { note: string; reason: string }[];
    return new Map(list.map((k) => [k.note, k.reason]));
  } catch {
    return new Map();
  }
}

const cases = haveShared ? loadCompileCases() : [];
const known = readKnown();

describeWithShared("OPA compiler cases (compilecases, ratchet)", () => {
  const results = { pass: 0, fail: 0, errorCases: 0, errorPass: 0 };
  after(() => {
    const total = results.pass + results.fail;
    const pct = (n: number, d: number): string => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`);
    process.stdout.write(
      `      compilecases: ${results.pass}/${total} give OPA's diagnostics (${pct(results.pass, total)}); ` +
        `with want_errors: ${results.errorPass}/${results.errorCases} (${pct(results.errorPass, results.errorCases)})\n`,
    );
  });
  it("known failures list only existing cases", () => {
    const keys = new Set(cases.map((c) => c.key));
    expect([...known.keys()].filter((k) => !keys.has(k))).to.deep.equal([]);
  });
  for (const c of cases) {
    it(c.key, () => {
      let reason: string | undefined;
      try {
        reason = judge(c, runCompileCase(c));
      } catch (e) {
        reason = `crash: ${(e as Error).stack ?? String(e)}`.slice(0, 600);
      }
      if (c.want_errors) results.errorCases++;
      if (reason === undefined) {
        results.pass++;
        if (c.want_errors) results.errorPass++;
        expect(known.get(c.key), `passes now: remove it from ${knownPath}`).to.equal(undefined);
      } else {
        results.fail++;
        if (!known.has(c.key)) expect.fail(reason);
      }
    });
  }
});
