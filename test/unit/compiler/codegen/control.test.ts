// Control flow of generated code: break levels (blocks, scans, not, with), scans that never
// fail, CallDynamic's break 3, `every` over an empty domain.
import assert from "node:assert/strict";
import { F, L, PolicyBuilder, T, block, st } from "../../../support/plans.js";
import { prepare, value } from "./support.js";

const append = (b: PolicyBuilder, v: string | ReturnType<typeof L>) =>
  st("ArrayAppendStmt", { array: 10, value: typeof v === "string" ? b.s(v) : v });

/** A plan whose result is the array in local 10, filled by `body`. */
function trace(build: (b: PolicyBuilder) => ReturnType<typeof st>[]): PolicyBuilder {
  const b = new PolicyBuilder();
  b.plan("test/trace", block(st("MakeArrayStmt", { capacity: 0, target: 10 }), ...build(b), ...b.result("result", L(10), 99)));
  return b;
}

/** Local 11 := [1, 2, 3]. */
function array123(b: PolicyBuilder) {
  return [
    st("MakeArrayStmt", { capacity: 3, target: 11 }),
    b.int(1, 20),
    st("ArrayAppendStmt", { array: 11, value: L(20) }),
    b.int(2, 20),
    st("ArrayAppendStmt", { array: 11, value: L(20) }),
    b.int(3, 20),
    st("ArrayAppendStmt", { array: 11, value: L(20) }),
  ];
}

describe("codegen: control flow", () => {
  it("BreakStmt 1 leaves the current block and one enclosing level", async () => {
    const b = trace((b) => [
      b.blocks(
        block(append(b, "a"), b.blocks(block(append(b, "b"), b.brk(1), append(b, "x"))), append(b, "y")),
        block(append(b, "c")),
      ),
      append(b, "d"),
    ]);
    assert.deepEqual(await value(b), ["a", "b", "c", "d"]);
  });

  it("an undefined statement ends only its own block; sibling blocks of a BlockStmt still run", async () => {
    const b = trace((b) => [
      b.blocks(block(append(b, "a"), st("EqualStmt", { a: b.s("p"), b: b.s("q") }), append(b, "x")), block(append(b, "b"))),
      append(b, "c"),
    ]);
    assert.deepEqual(await value(b), ["a", "b", "c"]);
  });

  it("inside a scan, break 0 is the next iteration", async () => {
    const b = trace((b) => [...array123(b), b.scan(11, 12, 13, b.int(2, 14), st("NotEqualStmt", { a: L(13), b: L(14) }), append(b, L(13)))]);
    assert.deepEqual(await value(b), [1, 3]);
  });

  it("inside a scan, break 1 ends the loop and the statements after the scan run", async () => {
    const b = trace((b) => [
      ...array123(b),
      b.scan(11, 12, 13, append(b, L(13)), b.int(2, 14), st("EqualStmt", { a: L(13), b: L(14) }), b.brk(1)),
      append(b, "after"),
    ]);
    assert.deepEqual(await value(b), [1, 2, "after"]);
  });

  it("inside a scan, break 2 leaves the block holding the scan", async () => {
    const b = trace((b) => [
      ...array123(b),
      b.blocks(block(b.scan(11, 12, 13, append(b, L(13)), b.int(2, 14), st("EqualStmt", { a: L(13), b: L(14) }), b.brk(2)), append(b, "after"))),
      append(b, "end"),
    ]);
    assert.deepEqual(await value(b), [1, 2, "end"]);
  });

  it("scans over scalars, undefined and empty collections run zero times and never fail", async () => {
    const b = trace((b) => [
      b.int(5, 11),
      b.scan(11, 12, 13, append(b, "x")),
      b.scan(0, 12, 13, append(b, "y")),
      st("MakeObjectStmt", { target: 14 }),
      b.scan(14, 12, 13, append(b, "z")),
      append(b, "after"),
    ]);
    assert.deepEqual(await value(b), ["after"]);
  });

  it("scans objects by sorted key and sets by sorted element (key = value)", async () => {
    const b = trace((b) => [
      b.scan(0, 12, 13, append(b, L(12)), append(b, L(13))),
      st("MakeSetStmt", { target: 15 }),
      b.int(3, 16),
      st("SetAddStmt", { set: 15, value: L(16) }),
      b.int(1, 16),
      st("SetAddStmt", { set: 15, value: L(16) }),
      st("SetAddStmt", { set: 15, value: b.s("x") }),
      b.scan(15, 12, 13, st("EqualStmt", { a: L(12), b: L(13) }), append(b, L(12))),
    ]);
    assert.deepEqual(await value(b, { input: { b: 1, a: 2, "é": 0, B: 3 } }), ["B", 3, "a", 2, "b", 1, "é", 0, 1, 3, "x"]);
  });

  it("NotStmt: succeeds when its block is undefined, fails when it completes", async () => {
    const b = trace((b) => [
      b.blocks(block(b.not(b.dot(L(0), b.s("x"), 11)), append(b, "no x"))),
      b.blocks(block(b.not(st("NopStmt")), append(b, "unreachable"))),
      append(b, "end"),
    ]);
    assert.deepEqual(await value(b, { input: {} }), ["no x", "end"]);
    assert.deepEqual(await value(b, { input: { x: 1 } }), ["end"]);
  });

  it("NotStmt: break 1 from inside leaves the block holding the NotStmt", async () => {
    const b = trace((b) => [b.blocks(block(b.not(append(b, "in"), b.brk(1)), append(b, "x"))), append(b, "end")]);
    assert.deepEqual(await value(b), ["in", "end"]);
  });

  it("CallDynamic: found and defined, found but undefined (break 3), not found (fallback), non-string segment", async () => {
    const b = new PolicyBuilder();
    b.func("g0.data.pkg.a", [0, 1], 2, [block(b.int(1, 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    b.func("g0.data.pkg.b", [0, 1], 2, [block(st("BreakStmt", { index: 0 }), b.int(2, 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    const dyn = st("CallDynamicStmt", { path: [b.s("g0"), b.s("pkg"), L(5)], args: [0, 1], result: 6 });
    const c2 = block(b.dot(L(1), b.s("pkg"), 7), b.dot(L(7), L(5), 8), b.assign(L(8), 6), b.brk(1));
    const outer = block(b.blocks(block(b.blocks(block(dyn, b.brk(1)), c2), b.brk(2))), append(b, L(6)));
    b.plan(
      "test/dyn",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        b.dot(L(0), b.s("k"), 5),
        b.blocks(block(b.blocks(outer), append(b, "cb-end"))),
        append(b, "end"),
        ...b.result("result", L(10), 99),
      ),
    );
    const data = { pkg: { b: "base-b", c: "base-c" } };
    assert.deepEqual(await value(b, { input: { k: "a" }, data }), [1, "cb-end", "end"]);
    assert.deepEqual(await value(b, { input: { k: "b" }, data }), ["end"]);
    assert.deepEqual(await value(b, { input: { k: "c" }, data }), ["base-c", "cb-end", "end"]);
    assert.deepEqual(await value(b, { input: { k: "zzz" }, data }), ["end"]);
    assert.deepEqual(await value(b, { input: { k: 5 }, data }), ["end"]);
  });

  it("every (§8.6): true over an empty domain, checks each element otherwise", async () => {
    const b = new PolicyBuilder();
    // every v in input.xs { v == 1 }, with a default of false
    const body = [
      b.dot(L(0), b.s("xs"), 4),
      st("ResetLocalStmt", { target: 5 }),
      b.scan(
        4,
        6,
        7,
        st("ResetLocalStmt", { target: 8 }),
        b.blocks(block(b.int(1, 9), st("EqualStmt", { a: L(7), b: L(9) }), b.assign(T, 8))),
        st("IsUndefinedStmt", { source: 8 }),
        b.assign(T, 5),
      ),
      st("IsUndefinedStmt", { source: 5 }),
      b.once(T, 3),
    ];
    b.func("g0.data.test.all", [0, 1], 2, [
      block(st("ResetLocalStmt", { target: 3 }), ...body),
      block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
      block(st("IsUndefinedStmt", { source: 2 }), b.once(F, 2)),
      block(st("ReturnLocalStmt", { source: 2 })),
    ]);
    b.entry("test/all", "g0.data.test.all");
    assert.equal(await value(b, { input: { xs: [] } }), true);
    assert.equal(await value(b, { input: { xs: [1, 1] } }), true);
    assert.equal(await value(b, { input: { xs: [1, 2] } }), false);
    assert.equal(await value(b, { input: { xs: {} } }), true);
  });

  it("statements after an unconditional break are not generated", async () => {
    const b = trace((b) => [b.blocks(block(b.brk(0), append(b, "dead"))), append(b, "end")]);
    assert.deepEqual(await value(b), ["end"]);
    assert.ok(!(await prepare(b)).source.includes('"dead"'));
  });
});
