// Partial evaluation over OPA's compliance cases (../shared/compliance) with an unknown that no
// case reads: each residual must be the case's answer itself (one query per result, each binding
// the query's vars to OPA's values), or a RegoError with a code (pe_unsupported for what the
// partial evaluator does not do). Never a crash, never another answer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { RegoError } from "regoc";
import type { Term } from "../../../../compiler/ast/nodes.js";
import { termToValue } from "../../../../compiler/compile.js";
import { partialEval } from "../../../../compiler/partial/index.js";
import { toJSON } from "../../../../runtime/value/json.js";
import { describeWithShared, sharedDir } from "../../../support/shared.js";

interface Case {
  note: string;
  query?: string;
  modules?: string[];
  input?: unknown;
  data?: unknown;
  input_term?: string;
  want_result?: Record<string, unknown>[];
  want_error?: string;
  want_error_code?: string;
  sort_bindings?: boolean;
}

/** JSON text with object keys sorted; with `sortArrays`, arrays sorted too (OPA's sort_bindings). */
function canonical(v: unknown, sortArrays = false): string {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x, sortArrays));
    return `[${(sortArrays ? items.sort() : items).join(",")}]`;
  }
  if (v !== null && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k], sortArrays)}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** A residual query that only binds query vars to constants, as a result row; else undefined. */
function asRow(query: readonly { terms: unknown; negated: boolean }[]): Record<string, unknown> | undefined {
  const row: Record<string, unknown> = {};
  for (const e of query) {
    const ts = e.terms as Term[];
    if (e.negated || !Array.isArray(ts) || ts.length !== 3) return undefined;
    const [op, name, value] = ts as [Term, Term, Term];
    if (op.type !== "ref" || op.value[0]?.value !== "eq" || name.type !== "var") return undefined;
    try {
      row[name.value] = toJSON(termToValue(value));
    } catch {
      return undefined;
    }
  }
  return row;
}

describeWithShared("partial evaluation: OPA's compliance cases with an unrelated unknown", function () {
  this.timeout(120_000);
  it("answer as OPA or fail with a RegoError, never crash", async () => {
    const dir = join(sharedDir, "compliance");
    const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as { file: string }[];
    let answered = 0;
    let refused = 0;
    const wrong: string[] = [];
    for (const { file } of index) {
      const doc = JSON.parse(readFileSync(join(dir, file.replace(/^TestData\//, "")), "utf8")) as { cases: Case[] };
      for (const c of doc.cases) {
        if (!c.query || c.want_error || c.want_error_code || c.input_term || !c.want_result) continue;
        const modules: Record<string, string> = {};
        (c.modules ?? []).forEach((m, i) => (modules[`m${i}.rego`] = m));
        let rows: (Record<string, unknown> | undefined)[];
        try {
          const r = await partialEval({ modules, query: c.query, input: c.input, data: c.data ?? {}, unknowns: ["input.__never_read__"] });
          if (r.support.length > 0) continue;
          rows = r.queries.map(asRow);
        } catch (e) {
          if (!(e instanceof RegoError)) wrong.push(`${c.note}: crashed: ${String(e)}`);
          refused++;
          continue;
        }
        // a residual over the whole input (a case that reads `input` itself) is not an answer
        if (rows.some((row) => row === undefined)) continue;
        const norm = (rs: unknown[]): string => rs.map((x) => canonical(x, c.sort_bindings)).sort().join("\n");
        if (norm(rows) === norm(c.want_result)) answered++;
        else wrong.push(`${c.note}: ${norm(rows)} ≠ ${norm(c.want_result)}`);
      }
    }
    expect(wrong, wrong.slice(0, 10).join("\n")).to.deep.equal([]);
    // as measured when this test was written; refusals are pe_unsupported (or the case's own
    // evaluation errors) and may only go down
    expect(answered).to.be.at.least(1660);
    expect(refused).to.be.at.most(126);
  });
});
