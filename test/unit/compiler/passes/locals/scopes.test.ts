// RewriteLocalVars' record of renamed vars (generated name → the user's name), which later stages
// print errors with: arguments, body declarations, else branches and head closures all land in
// the compilation's map, and a scope stack that shares that map never forgets what it holds.
import { expect } from "chai";
import { LocalDeclaredVars, Occurrence } from "../../../../../compiler/passes/locals/scopes.js";
import { compileUpTo } from "../../../../../compiler/passes/runner.js";
import { parseModule } from "../../../../../compiler/syntax/index.js";

describe("passes: RewriteLocalVars' renamed vars", () => {
  it("records every renaming of arguments, bodies, else branches and head closures", () => {
    const ctx = compileUpTo("RewriteLocalVars", [
      parseModule(
        `package a
f(x) := y if { y := x + 1 } else := z if { z := x }
p := [v | some v in input.xs]
h := {k: 1 | some k in input.ks} if { w := 2; w > 1 }
q if { a := 1; some b in input.ys; a == b }
`,
        { file: "m.rego" },
      ),
    ]);
    expect(ctx.errors).to.deep.equal([]);
    expect([...ctx.rewrittenVars]).to.deep.equal([
      ["__local0__", "x"],
      ["__local1__", "y"],
      ["__local2__", "z"],
      ["__local4__", "__local3__"],
      ["__local5__", "v"],
      ["__local7__", "__local6__"],
      ["__local8__", "k"],
      ["__local9__", "w"],
      ["__local10__", "a"],
      ["__local12__", "__local11__"],
      ["__local13__", "b"],
    ]);
  });

  it("a stack sharing its record writes into it, and stacks started from it and clear() keep it", () => {
    const shared = new Map<string, string>([["__local9__", "old"]]);
    const s = new LocalDeclaredVars(shared);
    s.insert("x", "__local0__", Occurrence.Arg);
    const c = new LocalDeclaredVars(shared);
    c.insert("z", "__local2__", Occurrence.Arg);
    c.startFrom(s);
    expect(c.declared("z")).to.equal(undefined);
    c.insert("y", "__local1__", Occurrence.Assigned);
    expect(c.declared("x")).to.equal("__local0__");
    s.clear();
    expect(s.declared("x")).to.equal(undefined);
    expect([...shared]).to.deep.equal([
      ["__local9__", "old"],
      ["__local0__", "x"],
      ["__local2__", "z"],
      ["__local1__", "y"],
    ]);
  });

  it("a stack with a record of its own gets a copy of the one it starts from, and clear() empties it", () => {
    const s = new LocalDeclaredVars();
    s.insert("x", "__local0__", Occurrence.Arg);
    const c = new LocalDeclaredVars();
    c.insert("z", "__local2__", Occurrence.Arg);
    c.startFrom(s);
    c.insert("y", "__local1__", Occurrence.Assigned);
    expect([...s.rewritten]).to.deep.equal([["__local0__", "x"]]);
    expect([...c.rewritten]).to.deep.equal([
      ["__local0__", "x"],
      ["__local1__", "y"],
    ]);
    s.clear();
    expect(s.rewritten.size).to.equal(0);
  });
});
