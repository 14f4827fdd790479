// AssignVarOnceStmt and ObjectInsertOnceStmt raise eval_conflict_error — with OPA's message and
// the statement's file/row/col — only when the values differ.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { L, PolicyBuilder, block, st } from "../../../support/plans.js";
import { value } from "./support.js";

async function conflict(b: PolicyBuilder, input?: unknown): Promise<RegoError> {
  try {
    await value(b, { input });
  } catch (e) {
    assert.ok(e instanceof RegoError, `expected a RegoError, got ${String(e)}`);
    return e;
  }
  assert.fail("expected a conflict");
}

describe("codegen: conflicts", () => {
  /** A complete rule whose body assigns input.a and then input.b to lresult. */
  function twoOutputs(): PolicyBuilder {
    const b = new PolicyBuilder();
    b.files.push("other.rego");
    b.func("g0.data.test.p", [0, 1], 2, [
      block(
        st("ResetLocalStmt", { target: 3 }),
        b.dot(L(0), b.s("a"), 4),
        b.once(L(4), 3),
        b.dot(L(0), b.s("b"), 5),
        st("AssignVarOnceStmt", { source: L(5), target: 3 }, { file: 1, row: 7, col: 3 }),
      ),
      block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
      block(st("ReturnLocalStmt", { source: 2 })),
    ]);
    b.entry("test/p", "g0.data.test.p");
    return b;
  }

  it("AssignVarOnce: the same value twice (1 and 1.0, equal objects) is fine", async () => {
    assert.equal(await value(twoOutputs(), { input: { a: 1, b: 1.0 } }), 1);
    assert.deepEqual(await value(twoOutputs(), { input: { a: { x: [1] }, b: { x: [1] } } }), { x: [1] });
  });

  it("AssignVarOnce: different values in a rule are `complete rules must not produce multiple outputs`", async () => {
    const e = await conflict(twoOutputs(), { a: 1, b: 2 });
    assert.equal(e.code, "eval_conflict_error");
    assert.equal(e.message, "complete rules must not produce multiple outputs");
    assert.deepEqual({ ...e.location }, { file: "other.rego", row: 7, col: 3 });
  });

  it("AssignVarOnce in a function (args beyond input/data): `functions must not produce multiple outputs for same inputs`", async () => {
    const b = new PolicyBuilder();
    b.func("g0.data.test.f", [0, 1, 2], 3, [
      block(st("ResetLocalStmt", { target: 4 }), b.once(L(2), 4), b.once(b.s("other"), 4, { row: 11, col: 5 })),
      block(st("IsDefinedStmt", { source: 4 }), b.once(L(4), 3)),
      block(st("ReturnLocalStmt", { source: 3 })),
    ]);
    b.plan("test/f", block(b.call("g0.data.test.f", [L(0), L(1), b.s("x")], 5), ...b.result("result", L(5), 6)));
    const e = await conflict(b);
    assert.equal(e.message, "functions must not produce multiple outputs for same inputs");
    assert.equal(e.location?.row, 11);
  });

  it("ObjectInsertOnce: same key and value is fine; a different value is `object keys must be unique`", async () => {
    const b = new PolicyBuilder();
    b.plan(
      "test/o",
      block(
        st("MakeObjectStmt", { target: 10 }),
        b.dot(L(0), b.s("a"), 11),
        b.dot(L(0), b.s("b"), 12),
        st("ObjectInsertOnceStmt", { object: 10, key: b.s("k"), value: L(11) }),
        st("ObjectInsertOnceStmt", { object: 10, key: b.s("k"), value: L(12) }, { row: 21, col: 9 }),
        ...b.result("result", L(10), 99),
      ),
    );
    assert.deepEqual(await value(b, { input: { a: [1], b: [1] } }), { k: [1] });
    const e = await conflict(b, { a: [1], b: [2] });
    assert.equal(e.code, "eval_conflict_error");
    assert.equal(e.message, "object keys must be unique");
    assert.deepEqual({ ...e.location }, { file: "policy.rego", row: 21, col: 9 });
  });
});
