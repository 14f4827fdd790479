// Traversal and transformation of the AST.
import { expect } from "chai";

import type { Node, Term } from "../../../compiler/ast/nodes.js";
import { printModule } from "../../../compiler/ast/print.js";
import { children, transformModule, vars, walk, walkExprs } from "../../../compiler/ast/walk.js";
import { parseModule } from "../../../compiler/syntax/index.js";

const src = "package a\n\np if {\n\tx := [y | y := input.z[_]]\n\tevery k, v in x { k < v }\n\tnot q with input as 1\n}\n";

describe("walk", () => {
  it("visits every node depth first, in source order", () => {
    const m = parseModule(src);
    const seen: string[] = [];
    walk(m, (n: Node) => {
      if (n.type === "var") seen.push(n.value);
    });
    expect(seen).to.deep.equal(["data", "p", "assign", "x", "y", "assign", "y", "input", "$0", "k", "v", "x", "lt", "k", "v", "q", "input"]);
  });

  it("returning true skips the children", () => {
    const m = parseModule(src);
    const seen: string[] = [];
    walk(m, (n: Node) => {
      if (n.type === "arraycomprehension") return true;
      if (n.type === "var") seen.push(n.value);
    });
    // the vars of `[y | y := input.z[_]]` are not visited; everything after it is
    expect(seen).to.deep.equal(["data", "p", "assign", "x", "k", "v", "x", "lt", "k", "v", "q", "input"]);
  });

  it("finds expressions in closures and every bodies", () => {
    const n: number[] = [];
    walkExprs(parseModule(src), (e) => {
      n.push(e.location.row);
    });
    expect(n).to.deep.equal([4, 4, 5, 5, 6]);
  });

  it("collects vars", () => {
    expect([...vars(parseModule(src).rules[0]!.body[1]!)].sort()).to.deep.equal(["k", "lt", "v", "x"]);
  });

  it("children of a term", () => {
    const t = parseModule("package a\np := {1: [2]}\n").rules[0]!.head.value!;
    expect(children(t).map((c) => c.type)).to.deep.equal(["number", "array"]);
  });

  it("transform rewrites bottom-up and shares what it does not change", () => {
    const m = parseModule(src);
    const renamed = transformModule(m, {
      term: (t: Term) => (t.type === "var" && t.value === "x" ? { ...t, value: "renamed" } : t),
    });
    expect(printModule(renamed)).to.contain("renamed := [y | y := input.z[_]]");
    expect(printModule(m)).to.contain("x := [y |");
    expect(renamed.package).to.equal(m.package);
    expect(transformModule(m, {})).to.equal(m);
  });
});
