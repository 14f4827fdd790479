// The single-assignment pass (compiler/optimize/singleAssign.ts): a once-assignment that runs at
// most once into a local nothing else writes is a copy; before/after IR, the ones it must leave
// (in a loop, a second write, a param), and the same answers (conflicts included) with and
// without the optimiser.
import assert from "node:assert/strict";
import { singleAssign } from "../../../../compiler/optimize/singleAssign.js";
import { L, PolicyBuilder, block, st, type StmtJSON } from "../../../support/plans.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

/** A rule func g0.data.test.p (params 0, 1; result local 2) of the given blocks, and its entrypoint. */
function rule(...blocks: ((b: PolicyBuilder) => StmtJSON[])[]): PolicyBuilder {
  const b = new PolicyBuilder();
  b.func("g0.data.test.p", [0, 1], 2, [...blocks.map((f) => block(...f(b))), block(st("ReturnLocalStmt", { source: 2 }))]);
  b.entry("test/p", "g0.data.test.p");
  return b;
}

/** `p := input.x`: the body's value into local 3, then the result. */
const body = (b: PolicyBuilder) => [st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("x"), 4), b.once(L(4), 3)];
const result = () => [st("IsDefinedStmt", { source: 3 }), st("AssignVarOnceStmt", { source: L(3), target: 2 })];
/** A second body assigning local 3 (`p := input.y`): a conflict is possible. */
const second = (b: PolicyBuilder) => [b.dot(L(0), b.s("y"), 5), b.once(L(5), 3)];
/** The value assigned in a loop over input.xs: several assignments, a conflict is possible. */
const looped = (b: PolicyBuilder) => [b.dot(L(0), b.s("xs"), 4), b.scan(4, 5, 6, b.once(L(6), 3))];

const unchanged = (b: PolicyBuilder) => assert.equal(after(singleAssign, b, "g0.data.test.p"), bodyText(decoded(b), "g0.data.test.p"));

describe("optimize: single-assign", () => {
  it("makes a once-assignment that cannot conflict a copy", () => {
    assert.equal(
      after(singleAssign, rule(body, result), "g0.data.test.p"),
      ["{", "  reset l3", '  l4 = l0["x"]', "  l3 = l4", "}", "{", "  defined l3", "  l2 = l3", "}", "{", "  return l2", "}"].join("\n"),
    );
  });

  it("leaves a local assigned twice, in a loop, or a param", () => {
    const twice = after(singleAssign, rule(body, second, result), "g0.data.test.p");
    assert.match(twice, /l3 := l4/);
    assert.match(twice, /l3 := l5/);
    assert.match(twice, /l2 = l3/, "the result is still assigned once");
    unchanged(rule(looped));
    unchanged(rule((b) => [b.dot(L(0), b.s("x"), 4), b.once(L(4), 1)]));
  });

  it("answers as before, conflicts included", async () => {
    const cases: Array<[PolicyBuilder, unknown]> = [
      [rule(body, result), { x: 1 }],
      [rule(body, result), {}],
      [rule(body, second, result), { x: 1, y: 1 }],
      [rule(body, second, result), { x: 1, y: 2 }],
      [rule(looped, result), { xs: [1, 1] }],
      [rule(looped, result), { xs: [1, 2] }],
    ];
    for (const [b, input] of cases) {
      const [plain, optimised] = await outcomes(b, { input });
      assert.deepEqual(optimised, plain, JSON.stringify(input));
    }
    assert.equal(((await outcomes(rule(body, second, result), { input: { x: 1, y: 2 } }))[1] as { error: string }).error, "eval_conflict_error");
  });
});
