// Extreme shapes through the whole compiler (parse → stages → planner → code generation) and the
// generated code: long bodies, many rules, long else chains, big literals, long refs and paths,
// deep nesting of every kind, long `with` chains, long chains of rules. Each case either compiles
// and evaluates to the right answer, or fails with a RegoError that has a code, a location and a
// message naming the limit (compiler/passes/limits.ts, compiler/planner/planner.ts) — never a
// RangeError, never a hang.
import { expect } from "chai";
import { compileRego, type CompileRegoOptions } from "../../../../compiler/compile.js";
import { MAX_NESTING, MAX_RULE_PATH } from "../../../../compiler/passes/limits.js";
import { MAX_LOCALS, MAX_PLAN_NESTING } from "../../../../compiler/planner/planner.js";
import { RegoError } from "../../../../runtime/errors.js";

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const lines = (n: number, f: (i: number) => string, sep = "\n"): string => range(n).map(f).join(sep);

/** JSON shape of a result (sets → sorted arrays), without recursion (results can nest deeply). */
function plain(root: unknown): unknown {
  const convert = (v: unknown, set: (x: unknown) => void): void => {
    if (v === null || typeof v !== "object") return set(v);
    const special = v as { rank?: number; sorted?: () => unknown[] };
    if (typeof special.sorted === "function" && special.rank === 6) return queue(special.sorted(), set);
    if (Array.isArray(v)) return queue(v, set);
    const o: Record<string, unknown> = {};
    set(o);
    for (const k of Object.keys(v)) work.push([(v as Record<string, unknown>)[k], (x) => (o[k] = x)]);
  };
  const queue = (xs: unknown[], set: (x: unknown) => void): void => {
    const out: unknown[] = new Array(xs.length);
    set(out);
    xs.forEach((x, i) => work.push([x, (y) => (out[i] = y)]));
  };
  let result: unknown;
  const work: [unknown, (x: unknown) => void][] = [[root, (x) => (result = x)]];
  for (let w = work.pop(); w; w = work.pop()) convert(w[0], w[1]);
  return result;
}

/** `[[...[x]...]]`, `depth` arrays deep. */
function nested(depth: number, x: unknown): unknown {
  let v = x;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** An object `{a0: {a1: ... {a<n-1>: x}}}`. */
function nestedObject(n: number, x: unknown, key = (i: number) => `a${i}`): unknown {
  let v = x;
  for (let i = n - 1; i >= 0; i--) v = { [key(i)]: v };
  return v;
}

interface Case {
  note: string;
  modules: string[];
  /** Entrypoint (default `p/p`) or a query. */
  entrypoint?: string;
  query?: string;
  input?: unknown;
  data?: unknown;
  /** The expected value of the entrypoint (or the expected result rows of a query). */
  want?: unknown;
  /** Or the expected error: its code, a part of its message, and its location (file, row). */
  error?: { code: string; message: string; file?: string; row?: number };
}

const cases: Case[] = [
  // ---- long and many: no limit, planned and generated in loops
  {
    note: "body of 5000 assignments",
    modules: [`package p\np := x if {\n${lines(5000, (i) => `  x${i} := ${i}`)}\n  x := x4999 + x0\n}`],
    want: 4999,
  },
  {
    note: "body of 3000 comparisons on input",
    modules: [`package p\np if {\n${lines(3000, (i) => `  input.v > ${i}`)}\n}`],
    input: { v: 3000 },
    want: true,
  },
  {
    note: "body of 3000 expressions on one line",
    modules: [`package p\np if { ${lines(3000, (i) => `input.v > ${i}`, "; ")} }`],
    input: { v: 3000 },
    want: true,
  },
  {
    note: "query of 3000 expressions",
    modules: [`package q\nr := 1`],
    query: lines(3000, (i) => `x${i} := data.q.r + ${i}`, "; "),
    want: "rows",
  },
  {
    note: "body of 2000 template strings",
    modules: [`package p\np := y1999 if {\n${lines(2000, (i) => `  x${i} := ${i}\n  y${i} := $"<{x${i}}>"`)}\n}`],
    want: "<1999>",
  },
  {
    note: "5000 rules",
    modules: [`package p\n${lines(5000, (i) => `r${i} := ${i}`)}\np := r4999 + r1`],
    want: 5000,
  },
  {
    note: "3000 rules of one multi-value rule",
    modules: [`package p\n${lines(3000, (i) => `s contains ${i}`)}\np := count(s)`],
    want: 3000,
  },
  {
    note: "2000 rules building one object",
    modules: [`package p\n${lines(2000, (i) => `o.k${i} := ${i}`)}\np := [count(o), o.k1999]`],
    want: [2000, 1999],
  },
  {
    note: "500 modules",
    modules: [...range(500).map((i) => `package m.x${i}\nr := ${i}`), `package p\np := sum([x | x := data.m[_].r])`],
    want: (499 * 500) / 2,
  },
  {
    note: "else chain of 1000",
    modules: [`package p\np := 0 if { input.x == 0 }${lines(1000, (i) => ` else := ${i + 1} if { input.x == ${i + 1} }`, "")}`],
    input: { x: 999 },
    want: 999,
  },
  {
    note: "array literal of 20000 elements",
    modules: [`package p\np := [${lines(20000, (i) => `${i}`, ",")}]`],
    want: range(20000),
  },
  {
    note: "object literal of 20000 keys",
    modules: [`package p\no := {${lines(20000, (i) => `"k${i}": ${i}`, ",")}}\np := [count(o), o.k19999]`],
    want: [20000, 19999],
  },
  {
    note: "set literal of 20000 elements",
    modules: [`package p\ns := {${lines(20000, (i) => `${i}`, ",")}}\np := [count(s), 19999 in s]`],
    want: [20000, true],
  },
  {
    note: "set of 3000 objects of distinct shapes",
    modules: [`package p\ns := {${lines(3000, (i) => `{"k${i}": ${i}}`, ",")}}\np := count(s)`],
    want: 3000,
  },
  {
    note: "object pattern of 3000 keys unified",
    modules: [`package p\np := x2999 if { {${lines(3000, (i) => `"k${i}": x${i}`, ",")}} = {${lines(3000, (i) => `"k${i}": ${i}`, ",")}} }`],
    want: 2999,
  },
  {
    note: "string literal of 1 MB",
    modules: [`package p\np := count("${"ab".repeat(500_000)}")`],
    want: 1_000_000,
  },
  {
    note: "ref of 5000 terms into input",
    modules: [`package p\ndefault p := false\np if input${lines(5000, (i) => `.a${i}`, "")} == 1`],
    input: nestedObject(5000, 1),
    want: true,
  },
  {
    note: "ref of 5000 terms into data",
    modules: [`package p\np := data.x${lines(5000, (i) => `.a${i}`, "")}`],
    data: { x: nestedObject(5000, 7) },
    want: 7,
  },
  {
    note: "function of 1000 parameters",
    modules: [`package p\nf(${lines(1000, (i) => `a${i}`, ", ")}) := a999 - a0\np := f(${lines(1000, (i) => `${i}`, ", ")})`],
    want: 999,
  },
  {
    note: "chain of 2000 rules",
    modules: [`package p\n${lines(2000, (i) => (i === 0 ? "r0 := 0" : `r${i} := r${i - 1} + 1`))}\np := r1999`],
    want: 1999,
  },
  {
    note: "chain of 2000 functions",
    modules: [`package p\n${lines(2000, (i) => (i === 0 ? "f0(x) := x" : `f${i}(x) := f${i - 1}(x) + 1`))}\np := f1999(1)`],
    want: 2000,
  },
  {
    note: "package path of 400 terms",
    modules: [`package ${lines(400, (i) => `a${i}`, ".")}\nr := 1`, `package p\np := data${lines(400, (i) => `.a${i}`, "")}.r`],
    want: 1,
  },
  {
    note: "rule ref of 300 terms",
    modules: [`package p\n${lines(300, (i) => `a${i}`, ".")} := 1\np := a0`],
    want: nestedObject(299, 1, (i) => `a${i + 1}`),
  },

  // ---- nesting within what the compiler takes
  {
    note: "arrays nested 400 deep",
    modules: [`package p\np := ${"[".repeat(400)}input.x${"]".repeat(400)}`],
    input: { x: 1 },
    want: nested(400, 1),
  },
  {
    note: "sets nested 400 deep",
    modules: [`package p\np := ${"{".repeat(400)}1${"}".repeat(400)}`],
    want: nested(400, 1),
  },
  {
    note: "infix chain of 400 operands",
    modules: [`package p\np := 1${" + input.x".repeat(400)}`],
    input: { x: 2 },
    want: 801,
  },
  {
    note: "comprehensions nested 100 deep",
    modules: [`package p\np := ${"[x | x := ".repeat(100)}input.x${"]".repeat(100)}`],
    input: { x: 1 },
    want: nested(100, 1),
  },
  {
    note: "every nested 150 deep",
    modules: [`package p\np if { ${lines(150, (i) => `every x${i} in input.xs { x${i} == 1; `, "")} true ${"}".repeat(150)} }`],
    input: { xs: [1] },
    want: true,
  },
  {
    note: "not groups nested 150 deep",
    modules: [`package p\nimport future.keywords\np if { ${"not (".repeat(150)}input.a or input.b${")".repeat(150)} }`],
    input: { a: true, b: false },
    want: true,
  },
  {
    note: "90 iterations nested in one body",
    modules: [`package p\np := [y0, y89] if {\n${lines(90, (i) => `  input.xs[y${i}]`)}\n}`],
    input: { xs: [7] },
    want: [0, 0],
  },
  {
    note: "150 iterations in one ref",
    modules: [`package p\np := input${lines(150, (i) => `[i${i}]`, "")}`],
    input: nested(150, 1),
    want: 1,
  },
  {
    note: "with chain of 90 modifiers",
    modules: [`package p\nq := input\np := x if x := q ${lines(90, (i) => `with input.a${i} as ${i}`, " ")}`],
    want: Object.fromEntries(range(90).map((i) => [`a${i}`, i])),
  },
  {
    note: "90 with-expressions in one body",
    modules: [`package p\nq := input.a\np if {\n${lines(90, (i) => `  q == ${i} with input.a as ${i}`)}\n}`],
    want: true,
  },

  // ---- beyond the limits: errors with a code, a location and the limit named
  {
    note: "arrays nested deeper than the parser takes",
    modules: [`package p\np := ${"[".repeat(5000)}1${"]".repeat(5000)}`],
    error: { code: "rego_parse_error", message: "max parsing recursion depth exceeded", file: "m0.rego", row: 2 },
  },
  {
    note: "else chain longer than the parser takes",
    modules: [`package p\np := 0 if { input.x == 0 }${lines(5000, (i) => ` else := ${i + 1} if { input.x == ${i + 1} }`, "")}`],
    error: { code: "rego_parse_error", message: "max parsing recursion depth exceeded", file: "m0.rego", row: 2 },
  },
  {
    note: "infix chain of 5000 operands",
    modules: [`package p\np := 1${" + input.x".repeat(5000)}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_NESTING} levels`, file: "m0.rego", row: 2 },
  },
  {
    note: "infix chain of 50000 operands in a query",
    modules: [`package p\nr := 1`],
    query: `x := 1${" * data.p.r".repeat(50_000)}`,
    error: { code: "rego_compile_error", message: `more than ${MAX_NESTING} levels`, file: "", row: 1 },
  },
  {
    note: "infix chain of 50000 operands in a rule",
    modules: [`package p\np := 1${" + input.x".repeat(50_000)}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_NESTING} levels`, file: "m0.rego", row: 2 },
  },
  {
    note: "sets nested 1000 deep",
    modules: [`package p\np := ${"{".repeat(1000)}1${"}".repeat(1000)}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_NESTING} levels`, file: "m0.rego", row: 2 },
  },
  {
    note: "not groups nested 400 deep",
    modules: [`package p\nimport future.keywords\np if { ${"not (".repeat(400)}input.a or input.b${")".repeat(400)} }`],
    error: { code: "rego_compile_error", message: `more than ${MAX_NESTING} levels`, file: "m0.rego", row: 3 },
  },
  {
    note: "every nested 220 deep",
    modules: [`package p\np if { ${lines(220, (i) => `every x${i} in input.xs { x${i} == 1; `, "")} true ${"}".repeat(220)} }`],
    error: { code: "rego_compile_error", message: `more than ${MAX_PLAN_NESTING} levels`, file: "m0.rego", row: 2 },
  },
  {
    note: "300 iterations nested in one body",
    modules: [`package p\np if {\n${lines(300, (i) => `  input.xs[y${i}]`)}\n}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_PLAN_NESTING} levels`, file: "m0.rego", row: 102 },
  },
  {
    note: "300 iterations in one ref",
    modules: [`package p\np := input${lines(300, (i) => `[i${i}]`, "")}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_PLAN_NESTING} levels`, file: "m0.rego", row: 2 },
  },
  {
    note: "with chain of 300 modifiers",
    modules: [`package p\nq := input\np := x if x := q ${lines(300, (i) => `with input.a${i} as ${i}`, " ")}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_PLAN_NESTING} levels`, file: "m0.rego", row: 3 },
  },
  {
    note: "150 with-expressions in one body",
    modules: [`package p\nq := input.a\np if {\n${lines(150, (i) => `  q == ${i} with input.a as ${i}`)}\n}`],
    error: { code: "rego_compile_error", message: `more than ${MAX_PLAN_NESTING} levels`, file: "m0.rego", row: 103 },
  },
  {
    note: "package path of 600 terms",
    modules: [`package ${lines(600, (i) => `a${i}`, ".")}\nr := 1`, `package p\np := 1`],
    error: { code: "rego_compile_error", message: `package path too long: 601 terms (the limit is ${MAX_RULE_PATH})`, file: "m0.rego", row: 1 },
  },
  {
    note: "rule ref of 600 terms",
    modules: [`package p\n${lines(600, (i) => `a${i}`, ".")} := 1\np := 1`],
    error: { code: "rego_compile_error", message: `rule path (package and rule ref) too long`, file: "m0.rego", row: 2 },
  },
  {
    note: "array literal of 60000 elements (one local each)",
    modules: [`package p\np := [${lines(60_000, (i) => `${i}`, ",")}]`],
    error: { code: "rego_compile_error", message: `more than ${MAX_LOCALS} local values`, file: "m0.rego", row: 2 },
  },
  {
    note: "iterations over rule sets that would plan the rest of the body 10^6 times",
    modules: [
      `package q\n${lines(10, (i) => `r${i} := ${i}`)}`,
      `package p\np if {\n${lines(6, (i) => `  v${i} := data.q[k${i}]`)}\n}`,
    ],
    error: { code: "rego_compile_error", message: "too large to plan", file: "m1.rego" },
  },
];

async function run(tc: Case): Promise<unknown> {
  const modules: Record<string, string> = {};
  tc.modules.forEach((m, i) => (modules[`m${i}.rego`] = m));
  const options: CompileRegoOptions = tc.query === undefined ? { modules, entrypoints: [tc.entrypoint ?? "p/p"] } : { modules, query: tc.query };
  const prepared = await compileRego(options);
  const rows = prepared.evaluateSync({ input: tc.input as never, data: tc.data as never });
  if (tc.query !== undefined) return rows;
  return rows.length === 0 ? undefined : plain(rows[0]!.result);
}

describe("compiler limits: extreme shapes compile right or fail with a located RegoError", function () {
  this.timeout(60_000);
  for (const tc of cases) {
    it(tc.note, async () => {
      let value: unknown;
      let error: unknown;
      try {
        value = await run(tc);
      } catch (e) {
        error = e;
      }
      if (tc.error) {
        expect(error, `expected ${tc.error.code}, got the value ${JSON.stringify(value)?.slice(0, 100)}`).to.be.instanceOf(RegoError);
        const e = error as RegoError;
        expect(e.code).to.equal(tc.error.code);
        expect(e.message).to.include(tc.error.message);
        expect(e.location, "a location").to.not.equal(undefined);
        expect(e.location!.row).to.be.at.least(1);
        expect(e.location!.col).to.be.at.least(0);
        if (tc.error.file !== undefined) expect(e.location!.file).to.equal(tc.error.file);
        if (tc.error.row !== undefined) expect(e.location!.row).to.equal(tc.error.row);
        return;
      }
      if (error) throw error;
      if (tc.want === "rows") expect((value as unknown[]).length).to.equal(1);
      else expect(value).to.deep.equal(tc.want);
    });
  }
});
