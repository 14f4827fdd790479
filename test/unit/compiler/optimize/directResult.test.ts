// The direct-result pass (compiler/optimize/directResult.ts): a rule's value copied to its result
// through a local of its own goes to the result directly; before/after IR, the shapes it must
// leave, and the same answers with and without the optimiser.
import assert from "node:assert/strict";
import { directResult } from "../../../../compiler/optimize/directResult.js";
import { L, PolicyBuilder, block, st, type StmtJSON } from "../../../support/plans.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

/** A rule func g0.data.test.p (params 0, 1; result local 2) of the given blocks, and its entrypoint. */
function rule(...blocks: ((b: PolicyBuilder) => StmtJSON[])[]): PolicyBuilder {
  const b = new PolicyBuilder();
  b.func("g0.data.test.p", [0, 1], 2, [...blocks.map((f) => block(...f(b))), block(st("ReturnLocalStmt", { source: 2 }))]);
  b.entry("test/p", "g0.data.test.p");
  return b;
}

/** `p := input.x` after single-assign: the value into local 3, then the guarded result. */
const body = (b: PolicyBuilder) => [st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("x"), 4), b.assign(L(4), 3)];
const guard = (b: PolicyBuilder) => [st("IsDefinedStmt", { source: 3 }), b.assign(L(3), 2)];

const unchanged = (b: PolicyBuilder) => assert.equal(after(directResult, b, "g0.data.test.p"), bodyText(decoded(b), "g0.data.test.p"));

describe("optimize: direct-result", () => {
  it("assigns the value to the result where the value's local was assigned", () => {
    assert.equal(after(directResult, rule(body, guard), "g0.data.test.p"), ["{", '  l4 = l0["x"]', "  l2 = l4", "}", "{", "  return l2", "}"].join("\n"));
  });

  it("leaves a value local read elsewhere, written twice, a result written twice, and a guard that does not follow", () => {
    unchanged(rule(body, guard, (b) => [b.assign(L(3), 5)]));
    unchanged(rule((b) => [b.dot(L(0), b.s("y"), 3), ...body(b)], guard));
    unchanged(rule(body, guard, (b) => [st("IsUndefinedStmt", { source: 2 }), b.assign(b.s("none"), 2)]));
    unchanged(rule(body, (b) => [b.dot(L(0), b.s("z"), 6)], guard));
  });

  it("answers as before", async () => {
    for (const input of [{ x: 1 }, {}, { x: [1, { a: 2 }] }]) {
      const [plain, optimised] = await outcomes(rule(body, guard), { input });
      assert.deepEqual(optimised, plain, JSON.stringify(input));
    }
  });
});
