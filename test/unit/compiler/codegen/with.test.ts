// WithStmt (copy-on-write upsert, restore on every exit, undefined with-blocks) and the memo frames
// of input/data-only rule funcs (fresh inside every WithStmt).
import assert from "node:assert/strict";
import { L, PolicyBuilder, block, st } from "../../../support/plans.js";
import { prepare, value } from "./support.js";

const append = (v: ReturnType<typeof L>) => st("ArrayAppendStmt", { array: 10, value: v });

function trace(build: (b: PolicyBuilder) => ReturnType<typeof st>[]): PolicyBuilder {
  const b = new PolicyBuilder();
  b.plan("test/trace", block(st("MakeArrayStmt", { capacity: 0, target: 10 }), ...build(b), ...b.result("result", L(10), 99)));
  return b;
}

describe("codegen: with", () => {
  it("replaces input for its block only, and restores it when the block breaks out", async () => {
    const b = trace((b) => [
      b.blocks(
        block(
          b.with(0, ["a"], b.s("w"), b.dot(L(0), b.s("a"), 12), append(L(12)), b.brk(1)),
          append(b.s("not reached")),
        ),
      ),
      b.dot(L(0), b.s("a"), 13),
      append(L(13)),
    ]);
    const input = { a: "orig" };
    assert.deepEqual(await value(b, { input }), ["w", "orig"]);
    assert.deepEqual(input, { a: "orig" });
  });

  it("upserts a nested path copy-on-write, replacing non-object nodes with objects", async () => {
    const b = trace((b) => [
      b.with(0, ["x", "y"], b.s("v"), append(L(0))),
      b.blocks(block(st("IsDefinedStmt", { source: 0 }), append(L(0)))),
    ]);
    const input = { x: "scalar", z: { deep: [1] } };
    const out = (await value(b, { input })) as unknown[];
    assert.deepEqual(out, [{ x: { y: "v" }, z: { deep: [1] } }, { x: "scalar", z: { deep: [1] } }]);
    assert.deepEqual(input, { x: "scalar", z: { deep: [1] } });

    const nested = { x: { keep: 1 } };
    assert.deepEqual(await value(b, { input: nested }), [{ x: { keep: 1, y: "v" } }, { x: { keep: 1 } }]);
    assert.deepEqual(nested, { x: { keep: 1 } });
    // No input at all: the upsert starts from {}.
    assert.deepEqual(await value(b), [{ x: { y: "v" } }]);
  });

  it("`with input as v` (empty path) and the undo-with (null path) put documents back", async () => {
    const b = trace((b) => [
      b.assign(L(0), 20),
      b.with(0, [], b.s("replaced"), append(L(0)), b.with(0, null, L(20), append(L(0))), append(L(0))),
      append(L(0)),
    ]);
    assert.deepEqual(await value(b, { input: "orig" }), ["replaced", "orig", "replaced", "orig"]);
  });

  it("an undefined with-block makes the WithStmt undefined (the enclosing block ends)", async () => {
    const b = trace((b) => [
      b.blocks(block(b.with(0, [], b.s("v"), st("EqualStmt", { a: L(0), b: b.s("other") })), append(b.s("after with")))),
      append(b.s("end")),
    ]);
    assert.deepEqual(await value(b), ["end"]);
  });

  it("memoised rules see a fresh memo frame inside with, and the old frame after it", async () => {
    const b = new PolicyBuilder();
    b.func("g0.data.test.r", [0, 1], 2, [block(b.dot(L(0), b.s("v"), 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    const call = (t: number) => b.call("g0.data.test.r", [L(0), L(1)], t);
    b.plan(
      "test/memo",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        call(20),
        append(L(20)),
        b.with(0, ["v"], b.s("new"), call(21), append(L(21))),
        call(22),
        append(L(22)),
        ...b.result("result", L(10), 99),
      ),
    );
    const pq = await prepare(b);
    assert.match(pq.source, /memoize\(0, /, "r is called three times: memoised");
    assert.deepEqual(await value(b, { input: { v: "old" } }), ["old", "new", "old"]);
  });

  it("a rule called once is not memoised; one called in a loop is", async () => {
    const b = new PolicyBuilder();
    b.func("g0.data.test.once", [0, 1], 2, [block(b.int(1, 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    b.func("g0.data.test.loop", [0, 1], 2, [block(b.int(2, 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    b.plan(
      "test/p",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        b.call("g0.data.test.once", [L(0), L(1)], 20),
        b.scan(0, 11, 12, b.call("g0.data.test.loop", [L(0), L(1)], 21), append(L(21))),
        ...b.result("result", L(10), 99),
      ),
    );
    const src = (await prepare(b)).source;
    assert.doesNotMatch(src, /memoize\(0, /);
    assert.match(src, /memoize\(1, /);
    assert.deepEqual(await value(b, { input: [7, 8, 9] }), [2, 2, 2]);
  });
});
