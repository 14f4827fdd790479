// The runtime operations generated code calls (runtime/eval/ops.ts), and prototype safety.
import assert from "node:assert/strict";
import { generateTypeScript, loadModule, planRego } from "regoc/compiler";
import { BigNum, RegoError, RegoObject, RegoSet, toJSON, type Value } from "regoc";
import { EMPTY_OBJECT, assignOnce, dot, dotData, dotKey, insert, insertOnce, len, member, merge, newObject, num, pathKey, push, addTo, scanKey, scanValue, scanView, upsert } from "../../../../runtime/eval/ops.js";
import { conflictSites } from "../../../../runtime/eval/sites.js";
import { type MaybeValue } from "../../../../runtime/value/value.js";

const json = (v: MaybeValue) => (v === undefined ? undefined : JSON.parse(JSON.stringify(toJSON(v))));

function scanAll(v: MaybeValue): Array<[Value, Value]> {
  const out: Array<[Value, Value]> = [];
  const view = scanView(v);
  for (let i = 0; i < view.length; i++) out.push([scanKey(v, view, i), scanValue(v, view, i)]);
  return out;
}

describe("runtime/eval: ops", () => {
  it("dot reads objects (own keys only), arrays by integral index, sets by membership", () => {
    assert.equal(dot({ a: 1 }, "a"), 1);
    assert.equal(dot({ a: 1 }, "toString"), undefined);
    assert.equal(dot({}, "__proto__"), undefined);
    assert.equal(dot(["x", "y"], 1), "y");
    assert.equal(dot(["x", "y"], 1.5), undefined);
    assert.equal(dot(["x", "y"], -1), undefined);
    assert.equal(dot(["x", "y"], "1"), undefined);
    assert.equal(dot(["x"], "length"), undefined);
    assert.deepEqual(dot(new RegoSet([[1], "a"]), [1]), [1]);
    assert.equal(dot(new RegoSet(["a"]), "b"), undefined);
    assert.equal(dot(new RegoObject([[1, "one"]]), 1), "one");
    assert.equal(dot("string", 0), undefined);
    assert.equal(dot(undefined, "a"), undefined);
    assert.equal(dot(new BigNum(5n, 30), "a"), undefined);
    assert.equal(dotKey({ a: 1 }, "a"), 1);
    assert.equal(dotKey(["a"], "0"), undefined);
    assert.equal(dotKey({ constructor: 1 }, "constructor"), 1);
    assert.equal(dotKey({}, "constructor"), undefined);
  });

  /** The generated readers of these keys: `r<i> := input[<key i>]`, as an ahead-of-time module. */
  async function readers(keys: string[]): Promise<Array<(source: MaybeValue) => MaybeValue>> {
    // (a Rego string literal is JSON's, with U+2028/9 escaped too)
    const rego = keys.map((k, i) => `r${i} := input[${JSON.stringify(k).replace(/\u2028/g, "\\u2028")}]`).join("\n");
    const plan = planRego({ modules: { "t.rego": `package t\n\n${rego}\n` }, entrypoints: keys.map((_, i) => `t/r${i}`) });
    const { code } = generateTypeScript(plan);
    const k = JSON.stringify(keys[0]);
    assert.ok(code.includes(`(o !== undefined && o !== null && (o as PlainObject)[${k}] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !(${k} in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)[${k}] : dotKey(o, ${k}))`), code);
    const mod = await loadModule(code);
    return keys.map((_, i) => (source) => mod.entrypoints[`t/r${i}`]!.fn(source as never, {} as never) as MaybeValue);
  }

  it("generated field readers answer as dotKey: own keys of objects only, whatever the prototype", async () => {
    class User {
      get name(): string {
        return "inherited";
      }
      own = 1;
    }
    const hostile = JSON.parse('{"__proto__": {"a": 1}, "constructor": 2}') as Value;
    const sources: MaybeValue[] = [
      { a: 1, b: "x" },
      { b: null },
      Object.assign(newObject(), { a: 2 }),
      hostile,
      ["a"],
      Object.assign(["x"], { a: 3 }) as unknown as Value,
      new RegoObject([[1, "one"], ["a", 4]]),
      new RegoSet(["a"]),
      new User() as unknown as Value,
      Object.create({ a: "inherited" }) as Value,
      "a",
      7,
      null,
      undefined,
    ];
    const keys = ["a", "b", "name", "own", "__proto__", "constructor", "toString", "length", "0", 'a"b\u2028', "size"];
    const read = await readers(keys);
    keys.forEach((key, k) => {
      sources.forEach((source, i) => assert.deepEqual(read[k]!(source), dotKey(source, key), `${JSON.stringify(key)} of source ${i}`));
      // Twice more: the reader's inline cache has now seen these shapes.
      for (const source of sources) assert.deepEqual(read[k]!(source), dotKey(source, key));
    });
    assert.equal(read[0]!({ a: 1 }), 1);
    assert.equal(read[5]!(hostile), 2);
    assert.deepEqual(json(read[4]!(hostile)), { a: 1 });
    assert.equal(read[2]!(new User() as unknown as Value), undefined);
  });

  it("a generated field reader never reads through a polluted Object.prototype", async () => {
    const [read] = await readers(["isAdmin"]);
    const user = { id: "bob" };
    const admin = { id: "root", isAdmin: true };
    // Hot enough for the optimising compiler: its code must drop what it assumed of the prototype.
    for (let i = 0; i < 200_000; i++) {
      assert.equal(read!(user), undefined);
      assert.equal(read!(admin), true);
    }
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto.isAdmin = true;
      assert.equal(read!(user), undefined);
      assert.equal(read!(admin), true);
      assert.equal(read!({ isAdmin: false }), false);
      // A scalar's load reads through its wrapper's prototype, then Object.prototype's.
      for (const scalar of ["bob", 7, true]) assert.equal(read!(scalar), undefined);
    } finally {
      delete proto.isAdmin;
    }
    try {
      // A getter giving a fresh value each time: no comparison with the inherited value would do.
      Object.defineProperty(proto, "isAdmin", { get: () => ({ admin: true }), configurable: true });
      assert.equal(read!(user), undefined);
      assert.equal(read!(admin), true);
    } finally {
      delete proto.isAdmin;
    }
    assert.equal(read!(user), undefined);
  });

  it("dotData reads a number key of base data as its text; other values as dot", () => {
    assert.equal(dotData({ "2": "bar" }, 2), "bar");
    assert.equal(dotData({ "2.5": "x" }, 2.5), "x");
    assert.equal(dotData(["a", "b", "c"], 2), "c");
    assert.equal(dot({ "2": "bar" }, 2), undefined);
  });

  it("member: `x in coll` by Rego equality, a scalar never equal to another kind", () => {
    assert.equal(member("a", [1, "a"]), true);
    assert.equal(member("1", [1, true, null]), false);
    assert.equal(member(true, [1, "true", true]), true);
    assert.equal(member(false, [0, null, ""]), false);
    assert.equal(member(null, [0, false, null]), true);
    // An integer double beyond 2^53 (as JSON.parse gives it) and the BigNum of that integer are one number.
    assert.equal(member(2 ** 60, [new BigNum(1152921504606846976n, 0)]), true);
    assert.equal(member(new BigNum(1152921504606846976n, 0), ["x", 2 ** 60]), true);
    assert.equal(member({ a: ["b"] }, [{ a: ["b"] }]), true);
    assert.equal(member("a", new RegoSet(["a"])), true);
    assert.equal(member("a", { k: "a" }), true);
    assert.equal(member("a", "a"), false);
    assert.equal(member(undefined, ["a"]), undefined);
  });

  it("len counts collections and code points", () => {
    assert.equal(len([1, 2]), 2);
    assert.equal(len({ a: 1, b: 2, c: 3 }), 3);
    assert.equal(len(new RegoSet([1, 2, 2])), 2);
    assert.equal(len("a😀"), 2);
    assert.equal(len(5), 0);
    assert.equal(len(undefined), 0);
  });

  it("scan: arrays in order, objects by key, sets by element, scalars not at all", () => {
    assert.deepEqual(scanAll(["b", "a"]), [
      [0, "b"],
      [1, "a"],
    ]);
    assert.deepEqual(scanAll({ b: 1, a: 2, "10": 3, "9": 4 }), [
      ["10", 3],
      ["9", 4],
      ["a", 2],
      ["b", 1],
    ]);
    assert.deepEqual(scanAll(new RegoSet(["b", 2, "a", null])), [
      [null, null],
      [2, 2],
      ["a", "a"],
      ["b", "b"],
    ]);
    assert.deepEqual(scanAll(new RegoObject([[2, "two"], ["x", "ex"], [1, "one"]])), [
      [1, "one"],
      [2, "two"],
      ["x", "ex"],
    ]);
    for (const v of [undefined, null, 1, "str", true, new BigNum(1n, 40)]) assert.deepEqual(scanAll(v), []);
  });

  it("upsert copies on write and never touches the original", () => {
    const doc = Object.freeze({ a: Object.freeze({ b: 1, c: Object.freeze([1]) }), d: "x" }) as unknown as Value;
    const out = upsert(doc, ["a", "b"], 2);
    assert.deepEqual(json(out), { a: { b: 2, c: [1] }, d: "x" });
    assert.deepEqual(json(upsert(doc, ["d", "e"], true)), { a: { b: 1, c: [1] }, d: { e: true } });
    assert.deepEqual(json(upsert(undefined, ["x"], 1)), { x: 1 });
    assert.deepEqual(json(upsert("scalar", ["x"], 1)), { x: 1 });
    assert.equal(upsert(doc, [], "whole"), "whole");
    const ro = upsert(new RegoObject([[1, "one"]]), ["k"], "v");
    assert.ok(ro instanceof RegoObject);
    assert.equal(ro.get(1), "one");
  });

  it("merge: recursive, base (a) wins on clashes, undefined sides", () => {
    assert.deepEqual(json(merge({ a: { x: 1 }, b: 1 }, { a: { y: 2 }, b: 2, c: 3 })), { a: { x: 1, y: 2 }, b: 1, c: 3 });
    assert.deepEqual(json(merge(undefined, { a: 1 })), { a: 1 });
    assert.deepEqual(json(merge({ a: 1 }, undefined)), { a: 1 });
    assert.equal(merge(1, { a: 1 }), 1);
  });

  it("collection building checks its targets (never a TypeError from generated code)", () => {
    const arr: Value[] = [];
    push(arr, 1);
    assert.deepEqual(arr, [1]);
    const set = new RegoSet();
    addTo(set, [1]);
    addTo(set, [1]);
    assert.equal(set.size, 1);
    const internal = (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error";
    assert.throws(() => push({}, 1), internal);
    assert.throws(() => push([], undefined), internal);
    assert.throws(() => addTo([], 1), internal);
    assert.throws(() => insert("x", "k", 1), internal);
    assert.throws(() => insert({}, undefined, 1), internal);
  });

  it("insert keeps plain objects plain until a non-string key arrives", () => {
    const o = newObject();
    assert.equal(insert(o, "a", 1), o);
    const r = insert(o, 1, "one");
    assert.ok(r instanceof RegoObject);
    assert.equal((r as RegoObject).get("a"), 1);
  });

  it("insertOnce and assignOnce raise a conflict only for different values, at their table's site", () => {
    const sites = conflictSites(JSON.stringify({ names: ["rule", "object"], files: ["f.rego", "g.rego"], sites: [0, 0, 1, 1, 1, 1, 3, 4] }));
    const o = newObject();
    insertOnce(o, "k", [1, { a: 1 }], sites, 1);
    insertOnce(o, "k", [1.0, { a: 1 }], sites, 1);
    assert.throws(
      () => insertOnce(o, "k", [2], sites, 1),
      (e: unknown) =>
        e instanceof RegoError && e.code === "eval_conflict_error" && e.message === "object keys must be unique" && JSON.stringify(e.location) === '{"file":"g.rego","row":3,"col":4}',
    );
    assert.equal(assignOnce(undefined, 1, sites, 0), 1);
    assert.equal(assignOnce(1, 1.0, sites, 0), 1);
    assert.throws(
      () => assignOnce(1, 2, sites, 0),
      (e: unknown) =>
        e instanceof RegoError && e.code === "eval_conflict_error" && e.message === "complete rules must not produce multiple outputs" && JSON.stringify(e.location) === '{"file":"f.rego","row":1,"col":1}',
    );
    const fn = conflictSites(JSON.stringify({ names: ["function"], files: ["h.rego"], sites: [0, 0, 2, 5] }));
    assert.throws(
      () => assignOnce(1, 2, fn, 0),
      (e: unknown) =>
        e instanceof RegoError &&
        e.code === "eval_conflict_error" &&
        e.message === "functions must not produce multiple outputs for same inputs" &&
        JSON.stringify(e.location) === '{"file":"h.rego","row":2,"col":5}',
    );
  });

  it("pathKey, num, EMPTY_OBJECT", () => {
    assert.equal(pathKey(["g0", "a\u0000b"]), '["g0","a\\u0000b"]');
    assert.equal(pathKey(["g0", 1]), undefined);
    assert.equal(num("42"), 42);
    assert.equal(String(num("123456789012345678901234")), "123456789012345678901234");
    assert.throws(() => num("x"), (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error" && e.message === 'MakeNumberRefStmt: "x" is not a number');
    assert.ok(Object.isFrozen(EMPTY_OBJECT));
    assert.equal(Object.getPrototypeOf(EMPTY_OBJECT), null);
  });

  it("__proto__, constructor and hasOwnProperty are plain keys; no prototype changes", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const input = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}, "hasOwnProperty": 3}') as Value;
    assert.deepEqual(json(dotKey(input, "__proto__")), { polluted: true });
    assert.equal(dotKey(input, "hasOwnProperty"), 3);
    const o = newObject();
    insert(o, "__proto__", { polluted: true });
    const u = upsert(input, ["__proto__", "polluted"], "yes");
    assert.deepEqual(json(dotKey(dotKey(u, "__proto__"), "polluted")), "yes");
    const m = merge(input, JSON.parse('{"__proto__": {"other": 1}}') as Value);
    assert.deepEqual(json(dotKey(m, "__proto__")), { polluted: true, other: 1 });
    assert.deepEqual(scanAll(input).map(([k]) => k), ["__proto__", "constructor", "hasOwnProperty"]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).other, undefined);
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  });
});
