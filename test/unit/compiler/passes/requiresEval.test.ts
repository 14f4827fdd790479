// requiresEval (RewriteComprehensionTerms, RewriteRefsInHead, RewriteWithValues) answers as a walk
// of visit.ts looking for a ref or a comprehension does, on every term of every compliance module
// and on hand-written ones (template strings with comprehensions and `with` inside included).
import { expect } from "chai";
import type { Term } from "../../../../compiler/ast/nodes.js";
import { requiresEval } from "../../../../compiler/passes/rewriteComprehensionTerms.js";
import { isComprehension } from "../../../../compiler/ast/terms.js";
import { walkTerms } from "../../../../compiler/ast/visit.js";
import { parseModuleResult } from "../../../../compiler/syntax/index.js";
import { complianceModules } from "../../../support/complianceModules.js";
import { describeWithShared } from "../../../support/shared.js";

function reference(t: Term): boolean {
  let found = false;
  walkTerms(t, (x) => {
    if (found) return true;
    if (x.type === "ref" || isComprehension(x)) found = true;
    return found;
  });
  return found;
}

function checkEveryTerm(text: string, where: string): number {
  const r = parseModuleResult(text, { file: "m.rego" });
  if (!r.module) return 0;
  let n = 0;
  walkTerms(r.module, (t) => {
    expect(requiresEval(t), `${where}: ${JSON.stringify(t.location.text)}`).to.equal(reference(t));
    n++;
  });
  return n;
}

describe("passes: requiresEval", () => {
  it("finds refs and comprehensions wherever the walk of visit.ts does", () => {
    const n = checkEveryTerm(
      `package a
p := [1, {"a": [2, x]}, {3}] if { x := 1 }
q := $"a {1} b {x}" if { x := 1 }
r := $"{ [y | some y in [1]] }"
s := $"{ f(1) with input as 2 }"
t := {"k": [y | y := 1]}
u := f(1)
v := {1: input}
f(x) := x
`,
      "hand-written",
    );
    expect(n).to.be.greaterThan(20);
    expect(requiresEval(undefined)).to.equal(false);
  });

  describeWithShared("on the compliance modules", () => {
    it("answers as the walk does for every term", function () {
      this.timeout(120_000);
      let n = 0;
      for (const m of complianceModules()) n += checkEveryTerm(m.text, m.name);
      expect(n).to.be.greaterThan(10_000);
    });
  });
});
