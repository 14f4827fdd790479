// The counting-form pass (compiler/optimize/countForm.ts): `count` of an array built only to be
// counted becomes a counter; before/after IR, the arrays it leaves, the generated code, and the
// same answers with and without the optimiser.
import assert from "node:assert/strict";
import { generateTypeScript, planRego } from "regoc/compiler";
import { countForm } from "../../../../compiler/optimize/countForm.js";
import { L, PolicyBuilder, block, st, type StmtJSON } from "../../../support/plans.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

/** A rule func g0.data.test.p (result local 2) of the given body, and its entrypoint. */
function rule(body: (b: PolicyBuilder) => StmtJSON[]): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin("count", 1, { type: "number" });
  b.func("g0.data.test.p", [0, 1], 2, [block(...body(b)), block(st("ReturnLocalStmt", { source: 2 }))]);
  b.entry("test/p", "g0.data.test.p");
  return b;
}

/** `count([x | some x in input.xs; x != "skip"])` into local 2, the array in local 6 (made by `make`). */
const counted = (make = "MakeArrayStmt", add = "ArrayAppendStmt", addField = "array", after: (b: PolicyBuilder) => StmtJSON[] = () => []) => (b: PolicyBuilder) => [
  b.dot(L(0), b.s("xs"), 5),
  st(make, { capacity: 0, target: 6 }),
  b.blocks(block(b.scan(5, 7, 8, st("NotEqualStmt", { a: L(8), b: b.s("skip") }), st(add, { [addField]: 6, value: L(8) })))),
  b.call("count", [L(6)], 9),
  b.once(L(9), 2),
  ...after(b),
];

const unchanged = (b: PolicyBuilder) => assert.equal(after(countForm, b, "g0.data.test.p"), bodyText(decoded(b), "g0.data.test.p"));

describe("optimize: count-form", () => {
  it("counts the appends to an array made only to be counted", () => {
    assert.equal(
      after(countForm, rule(counted()), "g0.data.test.p"),
      [
        "{",
        '  l5 = l0["xs"]',
        "  AssignInt value=0 target=6",
        "  block",
        "  {",
        "    scan l5 (l7, l8)",
        "    {",
        '      l8 != "skip"',
        "      Increment target=6",
        "    }",
        "  }",
        "  l9 = l6",
        "  l2 := l9",
        "}",
        "{",
        "  return l2",
        "}",
      ].join("\n"),
    );
  });

  it("leaves an array read besides, a set, and a count in another list", () => {
    unchanged(rule(counted(undefined, undefined, undefined, (b) => [b.once(L(6), 10)])));
    unchanged(rule(counted("MakeSetStmt", "SetAddStmt", "set")));
    unchanged(
      rule((b) => [
        b.dot(L(0), b.s("xs"), 5),
        st("MakeArrayStmt", { capacity: 0, target: 6 }),
        b.scan(5, 7, 8, st("ArrayAppendStmt", { array: 6, value: L(8) })),
        b.blocks(block(b.call("count", [L(6)], 9), b.once(L(9), 2))),
      ]),
    );
  });

  it("generates a counter for count of an array comprehension", () => {
    const code = generateTypeScript(planRego({ modules: { "t.rego": "package t\nn := count([x | some x in input.xs; x > 1])\n" }, entrypoints: ["t/n"] })).code;
    assert.match(code, /(l\d+) = \(\1 as number\) \+ 1;/);
    assert.doesNotMatch(code, /push\(/);
  });

  it("end to end: the same results with and without the pass", async () => {
    const cases = [rule(counted()), rule(counted("MakeSetStmt", "SetAddStmt", "set"))];
    const inputs = [undefined, {}, { xs: [] }, { xs: ["a", "skip", "a"] }, { xs: { k: "a", l: "b" } }, { xs: "no" }];
    for (const b of cases) {
      for (const input of inputs) {
        const [plain, optimised] = await outcomes(b, input === undefined ? {} : { input });
        assert.deepEqual(optimised, plain, JSON.stringify(input));
      }
    }
    assert.deepEqual((await outcomes(rule(counted()), { input: { xs: ["a", "skip", "a"] } }))[1], [{ result: 2 }]);
  });
});
