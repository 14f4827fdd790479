// The key property of partial evaluation: for a random policy of the data-filter fragment and a
// random row, evaluating the residual queries (with their support modules) with the row as the
// unknown answers as evaluating the original policy with that row does. Both evaluations are the
// project's own (Engine: Rego → plan → generated code).
import { expect } from "chai";
import fc from "fast-check";
import { Engine } from "regoc";
import { printModule } from "../../../../compiler/ast/print.js";
import { partialEval, printQuery } from "../../../../compiler/partial/index.js";

const num = fc.integer({ min: 0, max: 5 });
const op = fc.constantFrom("==", "!=", "<", "<=", ">", ">=");
const word = fc.constantFrom("x", "xy", "y", "alice");

/** One condition of a rule body (`i` makes its local names unique). */
const condition = (i: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.tuple(op, num).map(([o, n]) => `input.row.a ${o} ${n}`),
    fc.tuple(num, op).map(([n, o]) => `${n} ${o} input.row.a`),
    word.map((w) => `input.row.b == ${JSON.stringify(w)}`),
    fc.tuple(fc.constantFrom("startswith", "endswith", "contains"), word).map(([f, w]) => `${f}(input.row.b, ${JSON.stringify(w)})`),
    fc.constant("input.row.b == input.user"),
    fc.constant("input.user in input.row.tags"),
    fc.constantFrom("t1", "t2").map((t) => `"${t}" in input.row.tags`),
    fc.constantFrom("t1", "t2").map((t) => `some t${i} in input.row.tags\n  t${i} == "${t}"`),
    fc.constantFrom("x", "t").map((w) => `some t${i} in input.row.tags\n  not startswith(t${i}, "${w}")`),
    fc.constantFrom("t1", "t2").map((t) => `u${i} := input.row.tags[_]\n  not u${i} == "${t}"`),
    fc.constant(`v${i} := input.row.tags[_]\n  not g(v${i})`),
    fc.constant("input.row.flag"),
    fc.constant("not input.row.flag"),
    num.map((n) => `not input.row.a > ${n}`),
    fc.constantFrom("alice", "bob").map((u) => `input.user == "${u}"`),
    fc.constant("helper"),
    fc.constant("not helper"),
    fc.constant("f(input.row.a)"),
    fc.constant("not f(input.row.a)"),
    fc.constant("g(input.row.b)"),
    fc.constant("not g(input.row.b)"),
    fc.constant("two"),
    fc.constant("not two"),
    fc.constant("input.row.b in data.names"),
    fc.constant(`some n${i} in data.names\n  input.row.b == n${i}`),
    fc.constant("input.row.a in {1, 2}"),
    num.map((n) => `count(input.row.tags) > ${n % 3}`),
  );

const body = fc.array(fc.nat(1000), { minLength: 1, maxLength: 3 }).chain((seeds) => fc.tuple(...seeds.map((s, j) => condition(s * 10 + j))));

const policy = fc
  .record({
    withDefault: fc.boolean(),
    rules: fc.array(body, { minLength: 1, maxLength: 3 }),
    helper: condition(9001).filter((c) => !/helper|two/.test(c)),
    fLimit: num,
    two: fc.tuple(condition(9002), condition(9003)).filter((cs) => !cs.some((c) => /helper|two/.test(c))),
  })
  .map(({ withDefault, rules, helper, fLimit, two }) =>
    [
      "package filters",
      "import rego.v1",
      withDefault ? "default include := false" : "",
      ...rules.map((conds) => `include if {\n  ${conds.join("\n  ")}\n}`),
      `helper if {\n  ${helper}\n}`,
      `f(x) if x > ${fLimit}`,
      `g(x) if startswith(x, "x")\n\ng(x) if x == input.user`,
      `two if {\n  ${two[0]}\n}\n\ntwo if {\n  ${two[1]}\n}`,
    ].join("\n\n"),
  );

// Rows have every field, as a table's rows do. (With a field missing, `not 0 != input.row.a` in a
// residual is false where the original's `not helper` held: Rego moves the ref out of the
// negation, README "Negation". OPA's residuals have the same form.)
const row = fc.record({
  a: num,
  b: word,
  tags: fc.subarray(["t1", "t2", "alice"]),
  flag: fc.boolean(),
});

const data = { names: ["xy", "alice"] };

async function decide(engine: Engine, query: string, input: unknown): Promise<boolean> {
  const rs = await engine.evaluate(query, input);
  return rs.some((r) => r.expressions[0]!.value === true);
}

describe("partial evaluation: residual ≡ original (fast-check)", function () {
  this.timeout(120_000);
  it("for random filter policies and rows", async () => {
    await fc.assert(
      fc.asyncProperty(policy, fc.constantFrom("alice", "bob"), fc.subarray(["data.filters.helper", "data.filters.two", "data.filters.f", "data.filters.g"]), fc.array(row, { minLength: 4, maxLength: 8 }), async (source, user, disableInlining, rows) => {
        const modules = { "filters.rego": source };
        const original = await Engine.create({ modules });
        original.loadData("/", data);
        const r = await partialEval({
          modules,
          query: "data.filters.include",
          input: { user },
          data,
          unknowns: ["input.row"],
          disableInlining,
        });
        const check = ["package check", "import rego.v1", "default allow := false", ...r.queries.map((q) => `allow if { ${printQuery(q)} }`)].join("\n\n");
        const residualModules: Record<string, string> = { "check.rego": check };
        r.support.forEach((m, i) => (residualModules[`support${i}.rego`] = printModule(m)));
        const residual = await Engine.create({ modules: residualModules });
        residual.loadData("/", data);
        for (const x of rows) {
          const input = { user, row: x };
          const want = await decide(original, "data.filters.include", input);
          const got = await decide(residual, "data.check.allow", input);
          expect(got, `${source}\n--- residual:\n${check}\n--- row: ${JSON.stringify(x)}`).to.equal(want);
        }
      }),
      { numRuns: 150 },
    );
  });
});
