// One test (or more) per IR statement type, on hand-written plans.
import assert from "node:assert/strict";
import { BigNum, RegoObject, RegoSet, toJSONText } from "regoc";
import { F, L, PolicyBuilder, T, block, st } from "../../../support/plans.js";
import { prepare, run, value } from "./support.js";

/** A plan returning local `out` after `body` as the `result` binding. */
function plan(build: (b: PolicyBuilder) => ReturnType<typeof st>[], out = 10): PolicyBuilder {
  const b = new PolicyBuilder();
  b.plan("test/p", block(...build(b), ...b.result("result", L(out), 99)));
  return b;
}

describe("codegen: statements", () => {
  it("AssignVarStmt, AssignIntStmt, MakeNullStmt, MakeNumberIntStmt, ResetLocalStmt, NopStmt", async () => {
    const b = plan((b) => [
      st("MakeArrayStmt", { capacity: 4, target: 10 }),
      st("AssignIntStmt", { value: -7, target: 11 }),
      st("ArrayAppendStmt", { array: 10, value: L(11) }),
      st("MakeNullStmt", { target: 12 }),
      st("ArrayAppendStmt", { array: 10, value: L(12) }),
      b.int(9007199254740991, 13),
      b.assign(L(13), 14),
      st("ArrayAppendStmt", { array: 10, value: L(14) }),
      st("NopStmt"),
      st("ResetLocalStmt", { target: 14 }),
      b.blocks(block(st("IsDefinedStmt", { source: 14 }), st("ArrayAppendStmt", { array: 10, value: b.s("defined") }))),
      b.blocks(block(st("IsUndefinedStmt", { source: 14 }), st("ArrayAppendStmt", { array: 10, value: b.s("undefined") }))),
      st("ArrayAppendStmt", { array: 10, value: T }),
      st("ArrayAppendStmt", { array: 10, value: F }),
    ]);
    assert.deepEqual(await value(b), [-7, null, 9007199254740991, "undefined", true, false]);
  });

  it("MakeNumberRefStmt keeps every digit and writes the literal through num()", async () => {
    const b = plan((b) => [b.num("123456789012345678901234", 10)]);
    const pq = await prepare(b);
    assert.match(pq.source, /num\("123456789012345678901234"\)/);
    const v = pq.evaluateSync()[0]!.result;
    assert.ok(v instanceof BigNum);
    assert.equal(toJSONText(v), "123456789012345678901234");
    for (const [text, want] of [["3.14", "3.14"], ["1e3", "1000"], ["-0.5", "-0.5"], ["1e400", "1e400"], ["0.1", "0.1"]] as const) {
      const r = (await prepare(plan((b) => [b.num(text, 10)]))).evaluateSync()[0]!.result;
      assert.equal(toJSONText(r), want, text);
    }
  });

  it("DotStmt on objects, arrays (integral in-range index), sets (membership yields the key), scalars", async () => {
    const b = new PolicyBuilder();
    const probe = (src: ReturnType<typeof L>, key: ReturnType<typeof L>, tag: string) =>
      b.blocks(block(b.dot(src, key, 20), st("ArrayAppendStmt", { array: 10, value: b.s(tag) }), st("ArrayAppendStmt", { array: 10, value: L(20) })));
    b.plan(
      "test/p",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        b.dot(L(0), b.s("arr"), 11),
        b.int(1, 12),
        probe(L(11), L(12), "arr[1]"),
        b.num("1.5", 13),
        probe(L(11), L(13), "arr[1.5]"),
        b.int(-1, 14),
        probe(L(11), L(14), "arr[-1]"),
        b.int(5, 15),
        probe(L(11), L(15), "arr[5]"),
        st("MakeSetStmt", { target: 16 }),
        st("SetAddStmt", { set: 16, value: L(12) }),
        probe(L(16), L(12), "set[1]"),
        probe(L(16), L(15), "set[5]"),
        b.dot(L(0), b.s("s"), 17),
        probe(L(17), L(12), "str[1]"),
        b.blocks(block(b.dot(b.s("const"), b.s("x"), 21), st("ArrayAppendStmt", { array: 10, value: b.s("constant source") }))),
        ...b.result("result", L(10), 99),
      ),
    );
    assert.deepEqual(await value(b, { input: { arr: ["a", "b"], s: "text" } }), ["arr[1]", "b", "set[1]", 1]);
  });

  it("LenStmt counts arrays, objects, sets and the code points of strings", async () => {
    const b = plan((b) => [
      st("MakeArrayStmt", { capacity: 0, target: 10 }),
      ...["arr", "obj", "str", "num"].flatMap((k) => [
        b.dot(L(0), b.s(k), 11),
        st("LenStmt", { source: L(11), target: 12 }),
        st("ArrayAppendStmt", { array: 10, value: L(12) }),
      ]),
    ]);
    assert.deepEqual(await value(b, { input: { arr: [1, 2, 3], obj: { a: 1 }, str: "a😀b", num: 5 } }), [3, 1, 3, 0]);
  });

  it("EqualStmt/NotEqualStmt compare structurally (1 == 1.0, objects by content) and with constants", async () => {
    const b = new PolicyBuilder();
    const check = (tag: string, ...stmts: ReturnType<typeof st>[]) =>
      b.blocks(block(...stmts, st("ArrayAppendStmt", { array: 10, value: b.s(tag) })));
    b.plan(
      "test/p",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        b.dot(L(0), b.s("a"), 11),
        b.dot(L(0), b.s("b"), 12),
        b.int(1, 13),
        b.num("1.0", 14),
        check("a==b", st("EqualStmt", { a: L(11), b: L(12) })),
        check("1==1.0", st("EqualStmt", { a: L(13), b: L(14) })),
        check("a!=b", st("NotEqualStmt", { a: L(11), b: L(12) })),
        check("x=='x'", b.dot(L(0), b.s("x"), 15), st("EqualStmt", { a: L(15), b: b.s("x") })),
        check("x!=true", st("NotEqualStmt", { a: L(15), b: T })),
        check("'p'=='p'", st("EqualStmt", { a: b.s("p"), b: b.s("p") })),
        check("'p'!='q'", st("NotEqualStmt", { a: b.s("p"), b: b.s("q") })),
        check("l!=l", st("NotEqualStmt", { a: L(13), b: L(13) })),
        check("undef==undef", st("EqualStmt", { a: L(50), b: L(51) })),
        check("undef!=1", st("NotEqualStmt", { a: L(50), b: L(13) })),
        ...b.result("result", L(10), 99),
      ),
    );
    const got = await value(b, { input: { a: { k: [1, 2] }, b: { k: [1, 2] }, x: "x" } });
    assert.deepEqual(got, ["a==b", "1==1.0", "x=='x'", "x!=true", "'p'=='p'", "'p'!='q'", "undef==undef", "undef!=1"]);
  });

  it("NotEqualStmt of two locals: a string differs from every other value but itself", async () => {
    const b = new PolicyBuilder();
    b.plan("test/p", block(b.dot(L(0), b.s("a"), 11), b.dot(L(0), b.s("b"), 12), st("NotEqualStmt", { a: L(11), b: L(12) }), ...b.result("result", T, 99)));
    const cases: Array<[unknown, unknown, boolean]> = [["x", "x", false], ["x", "y", true], ["1", 1, true], [1, "1", true], ["x", ["x"], true], [1, 1.0, false]];
    for (const [a, c, differ] of cases) assert.equal(await value(b, { input: { a, b: c } }), differ ? true : undefined, `${JSON.stringify(a)} != ${JSON.stringify(c)}`);
  });

  it("IsArrayStmt, IsObjectStmt, IsSetStmt (constants are never collections)", async () => {
    const b = new PolicyBuilder();
    const check = (tag: string, stmt: ReturnType<typeof st>) => b.blocks(block(stmt, st("ArrayAppendStmt", { array: 10, value: b.s(tag) })));
    b.plan(
      "test/p",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        b.dot(L(0), b.s("a"), 11),
        b.dot(L(0), b.s("o"), 12),
        st("MakeSetStmt", { target: 13 }),
        check("arr", st("IsArrayStmt", { source: L(11) })),
        check("obj", st("IsObjectStmt", { source: L(12) })),
        check("set", st("IsSetStmt", { source: L(13) })),
        check("no: obj is array", st("IsArrayStmt", { source: L(12) })),
        check("no: arr is object", st("IsObjectStmt", { source: L(11) })),
        check("no: const", st("IsObjectStmt", { source: b.s("x") })),
        check("no: undefined", st("IsSetStmt", { source: L(40) })),
        ...b.result("result", L(10), 99),
      ),
    );
    assert.deepEqual(await value(b, { input: { a: [], o: {} } }), ["arr", "obj", "set"]);
  });

  it("collections: ArrayAppendStmt, SetAddStmt (deduplicates), ObjectInsertStmt (overwrites; non-string keys)", async () => {
    const pq = await prepare(
      plan((b) => [
        st("MakeObjectStmt", { target: 10 }),
        st("MakeSetStmt", { target: 11 }),
        b.dot(L(0), b.s("v"), 12),
        st("SetAddStmt", { set: 11, value: L(12) }),
        b.dot(L(0), b.s("w"), 13),
        st("SetAddStmt", { set: 11, value: L(13) }),
        st("ObjectInsertStmt", { object: 10, key: b.s("set"), value: L(11) }),
        st("ObjectInsertStmt", { object: 10, key: b.s("k"), value: b.s("first") }),
        st("ObjectInsertStmt", { object: 10, key: b.s("k"), value: b.s("second") }),
        b.int(1, 14),
        st("ObjectInsertStmt", { object: 10, key: L(14), value: b.s("number key") }),
      ]),
    );
    const out = pq.evaluateSync({ input: { v: { a: [1] }, w: { a: [1] } } })[0]!.result;
    assert.ok(out instanceof RegoObject);
    assert.equal(out.get(1), "number key");
    assert.equal(out.get("k"), "second");
    const set = out.get("set");
    assert.ok(set instanceof RegoSet);
    assert.equal(set.size, 1);
  });

  it("ObjectMergeStmt merges recursively, base data winning where both are not objects", async () => {
    const b = plan((b) => [
      b.dot(L(1), b.s("base"), 11),
      st("MakeObjectStmt", { target: 12 }),
      st("MakeObjectStmt", { target: 13 }),
      st("ObjectInsertStmt", { object: 13, key: b.s("y"), value: b.s("virtual-y") }),
      st("ObjectInsertStmt", { object: 12, key: b.s("nested"), value: L(13) }),
      st("ObjectInsertStmt", { object: 12, key: b.s("scalar"), value: b.s("virtual") }),
      st("ObjectInsertStmt", { object: 12, key: b.s("new"), value: T }),
      st("ObjectMergeStmt", { a: 11, b: 12, target: 10 }),
    ]);
    const data = { base: { nested: { x: 1 }, scalar: "base", only: 0 } };
    assert.deepEqual(await value(b, { data }), { nested: { x: 1, y: "virtual-y" }, scalar: "base", only: 0, new: true });
    assert.deepEqual(data, { base: { nested: { x: 1 }, scalar: "base", only: 0 } });
  });

  it("ResultSetAddStmt collects a set of rows: duplicates collapse, undefined rows are skipped", async () => {
    const b = new PolicyBuilder();
    b.plan(
      "test/rows",
      block(
        b.dot(L(0), b.s("xs"), 5),
        b.scan(5, 6, 7, st("MakeObjectStmt", { target: 8 }), st("ObjectInsertStmt", { object: 8, key: b.s("x"), value: L(7) }), st("ResultSetAddStmt", { value: 8 })),
      ),
    );
    const rows = await run(b, { input: { xs: [1, 2, 1, { a: 1 }, { a: 1 }, 2, 3, 4, 5, 6, 7, 8, 9, 9, 1] } });
    assert.deepEqual(
      rows,
      [1, 2, { a: 1 }, 3, 4, 5, 6, 7, 8, 9].map((x) => ({ x })),
    );
    assert.deepEqual(await run(b, { input: {} }), []);
  });

  it("reads input keys such as __proto__ and constructor as plain keys", async () => {
    const b = plan((b) => [
      st("MakeArrayStmt", { capacity: 0, target: 10 }),
      ...["__proto__", "constructor", "toString", "hasOwnProperty"].map((k) =>
        b.blocks(block(b.dot(L(0), b.s(k), 11), st("ArrayAppendStmt", { array: 10, value: L(11) }))),
      ),
    ]);
    assert.deepEqual(await value(b, { input: {} }), []);
    const input = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": "c", "toString": 2}');
    assert.deepEqual(await value(b, { input }), [{ polluted: 1 }, "c", 2]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
