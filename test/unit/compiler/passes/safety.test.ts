// The safety check's reordering (passes/safety/reorder.ts) and CheckUndefinedFuncs' walk: bodies are
// reordered as before (kept as they are when nothing must move), unsafe vars are reported in the
// same order and at the same places (closures, groups, entries made late for closure vars), and
// CheckUndefinedFuncs reports in the order of its walk. The expected results were recorded from
// the implementation these replaced.
import { expect } from "chai";
import type { Ref, Rule } from "../../../../compiler/ast/nodes.js";
import { printModule } from "../../../../compiler/ast/print.js";
import { compileModules, compileQuery, compileUpTo } from "../../../../compiler/passes/runner.js";
import { reorderBodyForSafety } from "../../../../compiler/passes/safety/reorder.js";
import { SAFETY_PARAMS, varsOf, walkExprs } from "../../../../compiler/ast/visit.js";
import { parseModule, parseQuery } from "../../../../compiler/syntax/index.js";

const mod = (text: string) => parseModule(text, { file: "m.rego" });
const errors = (ctx: { errors: { code: string; message: string; location?: { row: number; col: number } }[] }) =>
  ctx.errors.map((e) => [e.code, e.location?.row, e.location?.col, e.message]);
/** A case's name: its rule body on one line. */
const name = (module: string) => JSON.stringify(module.slice(module.indexOf("{") + 1, module.lastIndexOf("}")).trim().replace(/\s+/g, " "));

const unsafeCases: { module: string; want: unknown[] }[] = [
  { module: "package t\np if {\n\ty := x + 1\n\tx := 2\n\ty > 0\n}\n", want: [["rego_compile_error", 4, 2, "var x referenced above"]] },
  { module: "package t\np if {\n\tcount([a | a := b]) > c\n\tb := d\n}\n", want: [["rego_unsafe_var_error", 3, 2, "var c is unsafe"], ["rego_unsafe_var_error", 3, 13, "var a is unsafe"], ["rego_unsafe_var_error", 3, 13, "var b is unsafe"], ["rego_unsafe_var_error", 4, 2, "var b is unsafe"], ["rego_unsafe_var_error", 4, 2, "var d is unsafe"]] },
  { module: "package t\np if {\n\tz := [y | y := w]\n\tw := v\n\tv > u\n}\n", want: [["rego_unsafe_var_error", 3, 12, "var y is unsafe"], ["rego_unsafe_var_error", 3, 12, "var w is unsafe"], ["rego_unsafe_var_error", 4, 2, "var w is unsafe"], ["rego_unsafe_var_error", 4, 2, "var v is unsafe"], ["rego_unsafe_var_error", 5, 2, "var u is unsafe"]] },
  { module: "package t\np if {\n\tq[x]\n\tnot r[y]\n\tf(y, z)\n\tx > z\n}\nq contains 1\nr contains 2\nf(a, b) := a\n", want: [["rego_unsafe_var_error", 4, 2, "var y is unsafe"], ["rego_unsafe_var_error", 5, 2, "var z is unsafe"]] },
  { module: "package t\np if {\n\tevery i in xs { i > j }\n\txs := [k | k := m]\n}\n", want: [["rego_compile_error", 4, 2, "var xs referenced above"]] },
  { module: "package t\np if {\n\tk := [x | x := 1; y > x]\n\tm := {a: b | a := k[_]; b := c}\n}\n", want: [["rego_unsafe_var_error", 3, 20, "var y is unsafe"], ["rego_unsafe_var_error", 4, 26, "var b is unsafe"], ["rego_unsafe_var_error", 4, 26, "var c is unsafe"]] },
  { module: "package t\np contains msg if {\n\tmsg := sprintf(\"%v %v\", [a, b])\n\tb := a\n}\n", want: [["rego_compile_error", 4, 2, "var b referenced above"]] },
  { module: "package t\np := {x: y} if {\n\ty := 1\n}\nq(a) := b if {\n\ta > 0\n}\n", want: [["rego_unsafe_var_error", 2, 7, "var x is unsafe"], ["rego_unsafe_var_error", 5, 9, "var b is unsafe"]] },
  { module: "package t\np if {\n\tx := [1 | count([z | z := w]) > 0]\n\tw := x\n}\n", want: [["rego_unsafe_var_error", 3, 23, "var z is unsafe"], ["rego_unsafe_var_error", 3, 23, "var w is unsafe"]] },
  { module: "package t\np if {\n\tcount([a | a = b]) > c\n\tb = d\n\tz = [q | q = e]\n\te = f\n}\n", want: [["rego_unsafe_var_error", 3, 2, "var b is unsafe"], ["rego_unsafe_var_error", 3, 2, "var c is unsafe"], ["rego_unsafe_var_error", 4, 2, "var d is unsafe"], ["rego_unsafe_var_error", 5, 2, "var e is unsafe"], ["rego_unsafe_var_error", 6, 2, "var f is unsafe"]] },
  { module: "package t\np if {\n\tz = [q | q = e]\n\te = f\n\ty = [r | r = g]\n}\n", want: [["rego_unsafe_var_error", 3, 2, "var e is unsafe"], ["rego_unsafe_var_error", 4, 2, "var f is unsafe"], ["rego_unsafe_var_error", 5, 11, "var r is unsafe"], ["rego_unsafe_var_error", 5, 11, "var g is unsafe"]] },
  { module: "package t\nimport future.keywords.or\np if {\n\t(x > 1) or (y > 2)\n\tx = 1\n}\n", want: [["rego_unsafe_var_error", 4, 2, "var y is unsafe"]] },
  { module: "package t\nimport future.keywords.or\np if {\n\tx > 1 or { z = w; z > 2 }\n\tx = 1\n}\n", want: [["rego_unsafe_var_error", 4, 13, "var z is unsafe"], ["rego_unsafe_var_error", 4, 13, "var w is unsafe"]] },
  // x is bound: what the ref's walk binds (i) counts as safe in the unification (OPA adds the
  // walk's output vars to the safe vars before it unifies)
  { module: "package t\np if {\n\t[x, input.a[i]] = [i, 1]\n\tx > 0\n}\n", want: [] },
  // w is never bound, though 18 vars are before it is reached (the list of safe vars then keeps a set)
  { module: "package t\np if {\n\tz > w\n\t[v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17] = input.xs\n\tz = v0\n}\n", want: [["rego_unsafe_var_error", 3, 2, "var w is unsafe"]] },
  // an expression of more than 16 distinct vars (its list of vars then keeps a set), repeats among them
  { module: "package t\np if {\n\tx = [v17, v16, v15, v14, v13, v12, v11, v10, v9, v8, v7, v6, v5, v4, v3, v2, v1, v0, w, v3, v0, z, w]\n\t[v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17] = input.xs\n\tcount(x) > 0\n}\n", want: [["rego_unsafe_var_error", 3, 2, "var x is unsafe"], ["rego_unsafe_var_error", 3, 2, "var w is unsafe"], ["rego_unsafe_var_error", 3, 2, "var z is unsafe"]] },
];

const reorderCases: { module: string; want: string }[] = [
  { module: "package t\np if {\n\ty = x + 1\n\tx = 2\n\ty > 0\n}\n", want: "package t\n\np if {\n\tx = 2\n\tplus(x, 1, __local0__)\n\ty = __local0__\n\ty > 0\n}\n" },
  { module: "package t\np if {\n\tys = [a | a = b[_]]\n\tb = [1, 2]\n\tcount(ys) > 0\n}\n", want: "package t\n\np if {\n\tb = [1, 2]\n\tys = [a | a = b[_]]\n\tcount(ys, __local0__)\n\t__local0__ > 0\n}\n" },
  { module: "package t\np if {\n\tevery i in xs { i > j }\n\txs = [k | k = 1]\n\tj = 0\n}\n", want: "package t\n\np if {\n\txs = [k | k = 1]\n\tj = 0\n\t__local2__ = xs\n\tevery __local0__, __local1__ in __local2__ {\n\t\t__local1__ > j\n\t}\n}\n" },
  { module: "package t\np if {\n\tx = y\n\ty = z\n\tz = 1\n\tnot x > 3\n}\n", want: "package t\n\np if {\n\tz = 1\n\ty = z\n\tx = y\n\tnot x > 3\n}\n" },
  { module: "package t\nimport future.keywords.or\np if {\n\tx > 1 or { z = 2; z > 2 }\n\tx = 1\n}\n", want: "package t\n\np if {\n\tx = 1\n\tx > 1 or {z = 2; z > 2}\n}\n" },
  // more than 16 vars found safe before the expressions waiting for them (the list of safe vars then keeps a set)
  { module: "package t\np if {\n\ty = v17\n\ty > v16\n\t[v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17] = input.xs\n}\n", want: "package t\n\np if {\n\t[v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17] = input.xs\n\ty = v17\n\ty > v16\n}\n" },
  // what a ref's walk binds (i, j) and what the unification binds (x), then vars bound by an array unification
  { module: "package t\np if {\n\tcount(x) > i\n\tx = input.a[i][j]\n\t[j, k] = [1, i]\n}\n", want: "package t\n\np if {\n\tx = input.a[i][j]\n\t[j, k] = [1, i]\n\tcount(x, __local0__)\n\t__local0__ > i\n}\n" },
  // the ref's walk binds i, so the `:=` goes before `i > 0` (`:=`'s own rule, that its right side
  // binds nothing, is not what this case checks: RewriteLocalVars refuses the shapes that reach it)
  { module: "package t\np if {\n\ti > 0\n\t[x, y] := input.a[i]\n\ty > x\n}\n", want: "package t\n\np if {\n\t[__local0__, __local1__] = input.a[i]\n\t__local1__ > __local0__\n\ti > 0\n}\n" },
];

/** Heads whose vars neither the arguments nor the body bind (CheckSafetyRuleHeads). */
const headCases: { module: string; want: unknown[] }[] = [
  { module: "package t\nf(a) := [a, b] if {\n\tc := 1\n}\n", want: [["rego_unsafe_var_error", 2, 13, "var b is unsafe"]] },
  { module: "package t\np[k] := v if {\n\tk := 1\n}\n", want: [["rego_unsafe_var_error", 2, 9, "var v is unsafe"]] },
  { module: "package t\np contains [x, y, z] if {\n\ty := 1\n\tx := y\n}\n", want: [["rego_unsafe_var_error", 2, 19, "var z is unsafe"]] },
  { module: "package t\nf(a, [b, c]) := {a: d, b: e} if {\n\td := c\n}\n", want: [["rego_unsafe_var_error", 2, 27, "var e is unsafe"]] },
  { module: "package t\np.q[r].s := u if {\n\tu := 1\n}\n", want: [["rego_unsafe_var_error", 2, 5, "var r is unsafe"]] },
  // d is an operand of the last expression; b and c only inside one of the other's
  { module: "package t\nf(a) := [b, c, d, e] if {\n\t[b, c] = a\n\td := c\n}\n", want: [["rego_unsafe_var_error", 2, 19, "var e is unsafe"]] },
];

/** Errors, and the columns of the query's expressions in their final order. */
const queryCases: { query: string; want: unknown[]; cols: number[] }[] = [
  { query: "x = y; y = 1", want: [], cols: [8, 1] },
  { query: "count([a | a = b]) > 0; b = 1", want: [], cols: [25, 7, 1, 1] },
  { query: "x > y", want: [["rego_unsafe_var_error", 1, 1, "var x is unsafe"], ["rego_unsafe_var_error", 1, 1, "var y is unsafe"]], cols: [1] },
];

describe("passes: safety reordering", () => {
  for (const c of unsafeCases) {
    it(`reports ${name(c.module)} as before`, () => {
      expect(errors(compileModules([mod(c.module)]))).to.deep.equal(c.want);
    });
  }

  for (const c of headCases) {
    it(`reports the head of ${JSON.stringify(c.module.split("\n")[1])} as before`, () => {
      expect(errors(compileModules([mod(c.module)]))).to.deep.equal(c.want);
    });
  }

  for (const c of reorderCases) {
    it(`orders ${name(c.module)} as before`, () => {
      const ctx = compileModules([mod(c.module)]);
      expect(errors(ctx)).to.deep.equal([]);
      expect(printModule(ctx.modules[0]!)).to.equal(c.want);
    });
  }

  for (const c of queryCases) {
    it(`orders and checks the query ${JSON.stringify(c.query)} as before`, () => {
      const ctx = compileModules([mod("package t\np := 1\n")]);
      compileQuery(ctx, parseQuery(c.query));
      expect(errors(ctx)).to.deep.equal(c.want);
      expect(ctx.query!.body.map((e) => e.location.col)).to.deep.equal(c.cols);
    });
  }

  it("keeps a body whose order is safe (the same array), and copies one it reorders", () => {
    const ctx = compileUpTo("CheckSafetyRuleHeads", [mod("package t\np if {\n\tx = 1\n\tx > 0\n}\nq if {\n\ty > 0\n\ty = 1\n}\n")]);
    const [p, q] = ctx.modules[0]!.rules as [Rule, Rule];
    const arity = (ref: Ref) => ctx.getArity(ref);
    const globals = new Set(["input", "data"]);
    const kept = reorderBodyForSafety(arity, globals, p.body);
    expect(kept.unsafe.size).to.equal(0);
    expect(kept.body).to.equal(p.body);
    const before = [...q.body];
    const moved = reorderBodyForSafety(arity, globals, q.body);
    expect(moved.unsafe.size).to.equal(0);
    expect(moved.body).to.not.equal(q.body);
    expect(moved.body).to.have.length(2);
    expect(moved.body[0]).to.equal(before[1]);
    expect(moved.body[1]).to.equal(before[0]);
    expect(q.body).to.deep.equal(before);
  });
});

/** The errors of the module below, as the generic walk reported them (the head's comprehension
 * last: it was moved into the body by then). */
const WALK_ERRORS = [
  ["rego_type_error", 3, 19, "undefined function nope2"],
  ["rego_type_error", 4, 2, "count: arity mismatch"],
  ["rego_type_error", 5, 2, "function data.t.f has arity 1, got 3 arguments"],
  ["rego_type_error", 6, 11, "undefined function nope3"],
  ["rego_type_error", 2, 22, "undefined function nope1"],
];

describe("passes: CheckUndefinedFuncs' walk", () => {
  it("reports undefined functions and arity errors in the order of the walk", () => {
    const text = `package t\np contains [x | x := nope1(1)] if {\n\tevery i in [1] { nope2(i) }\n\tnot count(1, 2, 3)\n\tf(1, 2, 3)\n\ts := $"a{nope3(1)}"\n}\nf(x) := x\n`;
    const ctx = compileModules([mod(text)], { maxErrors: 0 });
    expect(errors(ctx)).to.deep.equal(WALK_ERRORS);
  });
});

describe("passes: the safety analysis' vars", () => {
  const text = `package t
import future.keywords.or
p contains [x | x := f(a, b)] if {
	some a, b in input.xs
	every i, j in {a: b | c := [d | d := 1]} { i > j; k }
	not g(a) with input.x as [y | y := e] with data.t.f as h
	(m(a) > 0) or { n(a) > 0 }
	s := $"a{o(a, q)}b"
	z := {l, {"k": w}, [u, v.w[r]], count({t | t := 1})}
	f(a, b) with input as {1: aa} with count as cc
	x = sprintf("%v", [walk(bb)])
	data.t.q[ee].ff[gg] == hh
}
f(x, y) := x
g(x) := x
h(x, y) := x
m(x) := x
n(x) := x
o(x, y) := x
cc(x) := 1
`;

  it("are OPA's SafetyCheckVisitorParams': no call operators, closures or with targets' heads", () => {
    const vars = mod(text).rules[0]!.body.map((e) => [...varsOf(e, SAFETY_PARAMS)]);
    expect(vars).to.deep.equal([
      ["a", "b", "input"],
      [],
      ["a", "h"],
      [],
      ["s"],
      ["z", "l", "w", "u", "v", "r"],
      ["a", "b", "aa", "cc"],
      ["x", "bb"],
      ["data", "ee", "gg", "hh"],
    ]);
  });
});
