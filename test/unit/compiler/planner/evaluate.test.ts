// The planner end to end: Rego source → plan → generated code → results, for each construct the
// planner has a shape for (OPA's planner.go): rules of every kind, else chains and defaults,
// functions, refs into base and virtual documents, dynamic lookups, `with`, `not`, `every`,
// comprehensions, and the result set of a query.
import { expect } from "chai";
import { compileRego } from "../../../../compiler/compile.js";
import type { Value } from "../../../../runtime/value/value.js";

/** JSON shape of a result (sets → sorted arrays). Duck-typed: the generated module may load its
 * own copy of the runtime, so `instanceof` is not reliable here. */
function plain(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(plain);
  const special = v as { rank?: number; sorted?: () => unknown[] };
  if (typeof special.sorted === "function" && special.rank === 6) return special.sorted().map(plain);
  if (typeof special.sorted === "function" && special.rank === 5) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of special.sorted() as [unknown, unknown][]) o[typeof k === "string" ? k : JSON.stringify(plain(k))] = plain(x);
    return o;
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return JSON.parse(JSON.stringify(v));
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) o[k] = plain((v as Record<string, unknown>)[k]);
  return o;
}

interface Case {
  note: string;
  modules: string[];
  query: string;
  input?: unknown;
  data?: unknown;
  want: unknown[];
}

const cases: Case[] = [
  {
    note: "complete rule with default",
    modules: [`package t\ndefault allow := false\nallow if input.role == "admin"\n`],
    query: "data.t.allow = x",
    input: { role: "dev" },
    want: [{ x: false }],
  },
  {
    note: "partial set and partial object",
    modules: [`package t\ns contains x if some x in input.xs\no[k] := v if some k, v in input.obj\n`],
    query: "data.t.s = s; data.t.o = o",
    input: { xs: [3, 1, 3], obj: { a: 1 } },
    want: [{ s: [1, 3], o: { a: 1 } }],
  },
  {
    note: "ref head rules building nested objects",
    modules: [`package t\na.b[x].c := x if some x in ["p", "q"]\na.d := 1\n`],
    query: "data.t.a = a",
    want: [{ a: { b: { p: { c: "p" }, q: { c: "q" } }, d: 1 } }],
  },
  {
    note: "multi-value ref head rule",
    modules: [`package t\ng[k] contains v if { some v in input.xs; k := v % 2 }\n`],
    query: "data.t.g = g",
    input: { xs: [1, 2, 3] },
    want: [{ g: { "0": [2], "1": [1, 3] } }],
  },
  {
    note: "else chain",
    modules: [`package t\nsize(n) := "big" if n > 10 else := "small" if n > 1 else := "none"\n`],
    query: "x := data.t.size(20); y := data.t.size(5); z := data.t.size(0)",
    want: [{ x: "big", y: "small", z: "none" }],
  },
  {
    note: "function with array pattern argument",
    modules: [`package t\nfirst([a, _]) := a\n`],
    query: "x := data.t.first([7, 8])",
    want: [{ x: 7 }],
  },
  {
    note: "base and virtual documents merged at a prefix",
    modules: [`package t.v\np := 1\n`],
    query: "x := data.t",
    data: { t: { base: true } },
    want: [{ x: { base: true, v: { p: 1 } } }],
  },
  {
    note: "iteration over rule keys and base data",
    modules: [`package t.a\np := 1\n`],
    query: "data.t[k]",
    data: { t: { b: { q: 2 } } },
    want: [{ k: "a" }, { k: "b" }],
  },
  {
    note: "dynamic lookup with a bound key (CallDynamic)",
    modules: [`package t.a\nallow := true\n`, `package t.b\nallow := false\n`],
    query: "some k in [\"a\", \"b\"]; x := data.t[k].allow",
    want: [{ k: "a", x: true }, { k: "b", x: false }],
  },
  {
    note: "with input and data, undone afterwards",
    modules: [`package t\np := input.x\nq := data.d\n`],
    query: "a := data.t.p with input.x as 1; b := data.t.q with data.d as 2; c := data.t.p",
    input: { x: 0 },
    data: { d: 0 },
    want: [{ a: 1, b: 2, c: 0 }],
  },
  {
    note: "with: function and built-in mocks",
    modules: [`package t\nf(x) := x + 1\ng(x) := x * 10\np := f(1)\nn := count(input.xs)\n`],
    query: "a := data.t.p with data.t.f as data.t.g; b := data.t.n with count as 7; c := data.t.p",
    input: { xs: [1] },
    want: [{ a: 10, b: 7, c: 2 }],
  },
  {
    note: "with: a local variable as the replacement",
    modules: [`package t\nf(x) := x\nq := f(1)\n`],
    query: "v := 5; x := data.t.q with data.t.f as v",
    want: [{ v: 5, x: 5 }],
  },
  {
    note: "not and every",
    modules: [`package t\nok if { every x in input.xs { x > 0 }; not input.deny }\n`],
    query: "x := data.t.ok",
    input: { xs: [1, 2], deny: false },
    want: [{ x: true }],
  },
  {
    note: "every over a non-collection is undefined, over an empty one true",
    modules: [`package t\na if every x in 5 { x }\nb if every x in [] { x }\n`],
    query: "x := object.get(data.t, \"a\", \"undef\"); y := data.t.b",
    want: [{ x: "undef", y: true }],
  },
  {
    note: "comprehensions",
    modules: [`package t\nsq := [y | some x in input.xs; y := x * x]\nkeys := {k | some k, _ in input.o}\ninv := {v: k | some k, v in input.o}\n`],
    query: "data.t.sq = a; data.t.keys = b; data.t.inv = c",
    input: { xs: [2, 3], o: { x: "1", y: "2" } },
    want: [{ a: [4, 9], b: ["x", "y"], c: { "1": "x", "2": "y" } }],
  },
  {
    note: "conflicting complete rules are an evaluation error",
    modules: [`package t\np := 1\np := 2 if input.x\n`],
    query: "x := data.t.p",
    input: { x: true },
    want: ["eval_conflict_error"],
  },
  {
    note: "template string",
    modules: [`package t\nmsg := $"hello {input.name}, {count(input.xs)} items"\n`],
    query: "x := data.t.msg",
    input: { name: "bob", xs: [1, 2] },
    want: [{ x: "hello bob, 2 items" }],
  },
];

describe("planner: Rego to results", () => {
  for (const c of cases) {
    it(c.note, async () => {
      const modules: Record<string, string> = {};
      c.modules.forEach((m, i) => (modules[`m${i}.rego`] = m));
      const pq = await compileRego({ modules, query: c.query });
      let rows: Value[];
      try {
        rows = [...(await pq.evaluate({ input: c.input as Value, data: (c.data ?? {}) as Value }))];
      } catch (e) {
        expect(c.want).to.deep.equal([(e as { code: string }).code]);
        return;
      }
      const got = rows.map(plain);
      expect(got).to.have.deep.members(c.want);
    });
  }
});

describe("planner: print", () => {
  const modules = { "p.rego": 'package p\n\nallow if {\n\tprint("checking", input.x)\n\tinput.x > 1\n}\n' };

  it("is erased by default", async () => {
    const lines: string[] = [];
    const pq = await compileRego({ modules, entrypoints: ["p/allow"] });
    const rows = await pq.evaluate({ input: { x: 2 } as Value, print: (m) => lines.push(m) });
    expect(rows.map(plain)).to.deep.equal([{ result: true }]);
    expect(lines).to.deep.equal([]);
  });

  it("writes through the hook when enabled (undefined operands as <undefined>)", async () => {
    const lines: string[] = [];
    const pq = await compileRego({ modules, entrypoints: ["p/allow"], print: (m) => lines.push(m) });
    await pq.evaluate({ input: { x: 2 } as Value });
    await pq.evaluate({ input: {} as Value });
    expect(lines).to.deep.equal(["checking 2", "checking <undefined>"]);
  });
});
