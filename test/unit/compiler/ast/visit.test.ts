// The AST visitor: terms and expressions in source order, closures included, and OPA's VarVisitor.
import { expect } from "chai";

import { SAFETY_PARAMS, varsOf, walkExprs, walkTerms } from "../../../../compiler/ast/visit.js";
import { parseModule } from "../../../../compiler/syntax/index.js";

const src = "package a\n\np if {\n\tx := [y | y := input.z[_]]\n\tevery k, v in x { k < v }\n\tnot q with input as 1\n}\n";

describe("visit", () => {
  it("visits every term of the rules depth first, in source order", () => {
    const seen: string[] = [];
    walkTerms(parseModule(src), (t) => {
      if (t.type === "var") seen.push(t.value);
    });
    expect(seen).to.deep.equal(["p", "assign", "x", "y", "assign", "y", "input", "$0", "k", "v", "x", "lt", "k", "v", "q", "input"]);
  });

  it("returning true skips a term's children", () => {
    const seen: string[] = [];
    walkTerms(parseModule(src), (t) => {
      if (t.type === "arraycomprehension") return true;
      if (t.type === "var") seen.push(t.value);
    });
    // the vars of `[y | y := input.z[_]]` are not visited; everything after it is
    expect(seen).to.deep.equal(["p", "assign", "x", "k", "v", "x", "lt", "k", "v", "q", "input"]);
  });

  it("finds expressions in closures and every bodies", () => {
    const n: number[] = [];
    walkExprs(parseModule(src), (e) => {
      n.push(e.location.row);
    });
    expect(n).to.deep.equal([4, 4, 5, 5, 6]);
  });

  it("collects vars, and leaves closures and call operators out with OPA's safety parameters", () => {
    const every = parseModule(src).rules[0]!.body[1]!;
    expect([...varsOf(every)].sort()).to.deep.equal(["k", "lt", "v", "x"]);
    expect([...varsOf(every, SAFETY_PARAMS)].sort()).to.deep.equal(["x"]);
  });
});
