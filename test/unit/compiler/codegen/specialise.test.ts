// The emitter's type-directed specialisations (emit/values.ts, blocks.ts; analysis/scalars.ts) and
// the pooled evaluation state (runtime/eval/state.ts): each is taken where it applies — the
// generated code shows it — and keeps Rego's meaning at its edges.
import assert from "node:assert/strict";
import { compileRego } from "regoc/compiler";
import { BigNum, RegoObject, RegoSet, toJSON, type Value } from "regoc";
import { NO_STATE } from "../../../../runtime/eval/state.js";
import { num } from "../../../../runtime/eval/ops.js";
import { L, PolicyBuilder, block, st } from "../../../support/plans.js";
import { prepare, useTestBuiltins } from "./support.js";

async function compile(rego: string, entrypoint = "t/p") {
  return compileRego({ modules: { "t.rego": `package t\n\n${rego}` }, entrypoints: [entrypoint] });
}

type Query = Awaited<ReturnType<typeof compile>>;

/** The entrypoint's value for an input (undefined: no row), as JSON. */
function result(q: Query, input: unknown, data: unknown = {}): unknown {
  const rows = q.evaluateSync({ input: input as Value, data: data as Value });
  return rows.length === 0 ? undefined : JSON.parse(JSON.stringify(toJSON(rows[0]!.result as Value)));
}

describe("codegen: specialisations", () => {
  it("a comparison with a string constant is ===, and a number or a missing value never equals it", async () => {
    const q = await compile(`p if input.role == "admin"\nq if input.role != "admin"`);
    assert.match(q.source, /\) !== "admin"\)/);
    assert.doesNotMatch(q.source, /\bequal\(/);
    assert.equal(result(q, { role: "admin" }), true);
    for (const role of ["user", 1, null, true, ["admin"], { admin: 1 }]) assert.equal(result(q, { role }), undefined, JSON.stringify(role));
    assert.equal(result(q, {}), undefined);
    const ne = await compile(`q if input.role != "admin"`, "t/q");
    assert.equal(result(ne, { role: 1 }), true);
    assert.equal(result(ne, { role: "admin" }), undefined);
    assert.equal(result(ne, {}), undefined); // undefined, not true: the ref is undefined
  });

  it("input's own fields have readers of their own, apart from the same key's reads of other objects", async () => {
    const q = await compile(`p if {\n  some g in data.grants\n  g.action == input.action\n}`);
    assert.match(q.source, /= inputAction\(input\)/);
    assert.match(q.source, /= dotAction\(\w+\)/);
    assert.doesNotMatch(q.source, /dotAction\(input\)/);
    const data = { grants: [{ action: "read" }, { action: "write" }] };
    assert.equal(result(q, { action: "write" }, data), true);
    assert.equal(result(q, { action: "delete" }, data), undefined);
    assert.equal(result(q, { user: "x" }, data), undefined);
  });

  it("a loop of a later rule body (run when the earlier did not decide) tests for an array and reads fields in place, own fields of plain objects alone", async () => {
    const q = await compile(`p if input.admin == true\n\np if {\n  some g in data.grants\n  g.action == input.action\n}`);
    assert.match(q.source, /if \(\w+ === undefined\) \{/);
    assert.match(q.source, /const (x\d+) = l\d+, v\d+ = Array\.isArray\(\1\) \? \1 : scanView\(\1\), ar\d+ = /);
    assert.match(q.source, /= (\w+) !== undefined && \1 !== null && \1\["action"\] !== undefined && \(getPrototypeOf\(\1\) === OBJECT_PROTOTYPE \? !\("action" in OBJECT_PROTOTYPE\) : getPrototypeOf\(\1\) === null\) \? \1\["action"\] : dotKey\(\1, "action"\);/);
    assert.doesNotMatch(q.source, /dotAction/);
    const data = { grants: [{ action: "read" }, { action: "write" }] };
    assert.equal(result(q, { action: "write" }, data), true);
    assert.equal(result(q, { action: "delete" }, data), undefined);
    assert.equal(result(q, { user: "x" }, data), undefined);
    // Elements that are no plain JSON objects, or whose field is inherited, have no such field.
    const inherited = Object.create({ action: "write" }) as object;
    const nullProto = Object.assign(Object.create(null) as object, { action: "write" });
    for (const g of [["write"], "write", 1, null, inherited, new RegoSet(["action"])]) assert.equal(result(q, { action: "write" }, { grants: [g] }), undefined, String(g));
    assert.equal(result(q, { action: "write" }, { grants: [nullProto] }), true);
    assert.equal(result(q, { action: "write" }, { grants: [new RegoObject([["action", "write"]])] }), true);
    assert.equal(result(q, { action: "write" }, { grants: { a: { action: "write" } } }), true);
    // A polluted Object.prototype is never read through.
    const proto = Object.prototype as Record<string, unknown>;
    proto.action = "write";
    try {
      assert.equal(result(q, { action: "write" }, { grants: [{}] }), undefined);
      assert.equal(result(q, { action: "write" }, { grants: [{ action: "write" }] }), true);
    } finally {
      delete proto.action;
    }
  });

  it("membership and the type tests are operators (no call site, no state) and answer as the builtins, strict mode too", async () => {
    const q = await compile(`p := ["a" in input.c, is_string(input.v), is_object(input.v), is_number(input.v), is_array(input.v), is_set(input.v), is_boolean(input.v), is_null(input.v)]`);
    assert.match(q.source, /= member\("a", \w+\)/);
    assert.match(q.source, /= isStringType\(/);
    assert.doesNotMatch(q.source, /builtinSites|EvalState\.take/);
    const x = (c: unknown, v: unknown) => result(q, { c, v }) as boolean[];
    const types = (v: unknown) => x([], v).slice(1);
    assert.deepEqual(types("s"), [true, false, false, false, false, false, false]);
    assert.deepEqual(types({ a: 1 }), [false, true, false, false, false, false, false]);
    assert.deepEqual(types(2.5), [false, false, true, false, false, false, false]);
    assert.deepEqual(types([1]), [false, false, false, true, false, false, false]);
    assert.deepEqual(types(false), [false, false, false, false, false, true, false]);
    assert.deepEqual(types(null), [false, false, false, false, false, false, true]);
    const sets = await compile(`p := [is_set({1}), is_object({1: 2}), is_number(1e400), 1 in {1}, 1 in {"a": 1.0}, 2 in {1: 1}, "a" in "abc"]`);
    assert.deepEqual(result(sets, {}), [true, true, true, true, true, false, false]);
    assert.equal(result(q, { v: 1 }), undefined, "a missing collection: \"a\" in input.c is undefined");
    const strict = q.evaluateSync({ input: { c: "abc", v: 1 } as unknown as Value, strictBuiltinErrors: true });
    assert.deepEqual(JSON.parse(JSON.stringify(toJSON(strict[0]!.result as Value))), [false, false, false, true, false, false, false, false]);
  });

  it("startswith, endswith and contains are string methods on strings, the builtin (its error) otherwise, strict mode too", async () => {
    const q = await compile(`p := [startswith(input.s, input.p), endswith(input.s, "z"), contains("abc", input.p), contains(input.s, input.s)]`);
    assert.match(q.source, /= typeof (\w+) === "string" && typeof (\w+) === "string" \? \1\.startsWith\(\2\) : call2\(/);
    assert.match(q.source, /= typeof (\w+) === "string" \? \1\.endsWith\("z"\) : call2\(/);
    assert.match(q.source, /\? "abc"\.includes\(\w+\) : call2\(/);
    assert.match(q.source, /\? \w+\.includes\(\w+\) : call2\(\$, contains2, /);
    assert.deepEqual(result(q, { s: "xyz", p: "x" }), [true, true, false, true]);
    assert.deepEqual(result(q, { s: "xyz", p: "b" }), [false, true, true, true]);
    assert.equal(result(q, { s: 1, p: "x" }), undefined);
    assert.equal(result(q, { s: "xyz", p: ["x"] }), undefined);
    const strict = (input: unknown) => {
      try {
        q.evaluateSync({ input: input as Value, strictBuiltinErrors: true });
      } catch (e) {
        return (e as Error).message;
      }
      return undefined;
    };
    assert.equal(strict({ s: 1, p: "x" }), "startswith: operand 1 must be string but got number");
    assert.equal(strict({ s: "xyz", p: null }), "startswith: operand 2 must be string but got null");
    const c = await compile(`p := [startswith("abc", "ab"), endswith("abc", "b"), contains("abc", "bc")]`);
    assert.doesNotMatch(c.source, /call2|builtinSites/);
    assert.deepEqual(result(c, {}), [true, false, true]);
  });

  it("boolean and null constants are ===: the string \"true\" and 0 are not true, a missing value is not null", async () => {
    const t = await compile(`p if input.flag == true`);
    assert.match(t.source, /\) !== true\)/);
    assert.equal(result(t, { flag: true }), true);
    for (const flag of ["true", 1, false, null]) assert.equal(result(t, { flag }), undefined);
    const n = await compile(`p if input.x == null`);
    assert.doesNotMatch(n.source, /\bequal\(/);
    assert.equal(result(n, { x: null }), true);
    for (const x of [0, false, "", "null"]) assert.equal(result(n, { x }), undefined);
    assert.equal(result(n, {}), undefined);
  });

  it("a safe integer or exact decimal constant is ===; a BigNum-sized one keeps the generic equal", async () => {
    const small = await compile(`p if input.n == 5\nq if input.n == 0.5`);
    assert.doesNotMatch(small.source, /\bequal\(/);
    assert.equal(result(small, { n: 5 }), true);
    assert.equal(result(small, { n: 5.0 }), true);
    for (const n of ["5", 5.000001, -5, num("50000000000000000000")]) assert.equal(result(small, { n }), undefined, String(n));
    const half = await compile(`q if input.n == 0.5`, "t/q");
    assert.equal(result(half, { n: 0.5 }), true);
    assert.equal(result(half, { n: "0.5" }), undefined);
    // 2^53 + 1 is no double: the constant is a BigNum, compared by value with whatever comes in.
    const big = await compile(`p if input.n == 9007199254740993`);
    assert.match(big.source, /\bequal\(/);
    assert.equal(result(big, { n: num("9007199254740993") }), true);
    assert.equal(result(big, { n: 9007199254740992 }), undefined);
    const large = await compile(`p if input.n == 100000000000000000000`);
    assert.equal(result(large, { n: 1e20 }), true, "a double from JSON equals the BigNum of its value");
    assert.ok(num("100000000000000000000") instanceof BigNum);
  });

  it("both sides known exact (len, string builtins) is ===, meaning kept", async () => {
    const q = await compile(`p if count(input.xs) == 2\nq if lower(input.a) == lower(input.b)`);
    assert.match(q.source, /\) !== 2\)/);
    assert.doesNotMatch(q.source, /\bequal\(/);
    assert.equal(result(q, { xs: [1, 2] }), true);
    assert.equal(result(q, { xs: new RegoSet([1, 2]) }), true);
    assert.equal(result(q, { xs: [1] }), undefined);
    const l = await compile(`q if lower(input.a) == lower(input.b)`, "t/q");
    assert.equal(result(l, { a: "AbC", b: "aBc" }), true);
    assert.equal(result(l, { a: "AbC", b: "abd" }), undefined);
  });

  it("a comparison whose value is used keeps its local", async () => {
    const q = await compile(`p := input.n >= 9`);
    assert.match(q.source, /(l\d+|p) = gte\(l\d+, 9\); if \(\1 === undefined\)/);
    assert.equal(result(q, { n: 9 }), true);
    assert.equal(result(q, { n: 8 }), false);
    assert.equal(result(q, {}), undefined);
  });

  it("comparison builtins are the runtime's operators (no call site, no state), in OPA's order across types", async () => {
    const q = await compile(`p if input.n >= 9\nq if input.n < 9\nr if input.n != 9`);
    assert.match(q.source, /if \(!gte\(l\d+, 9\)\) break b\d;/, "a comparison only tested is one test");
    assert.doesNotMatch(q.source, /call2\(/);
    assert.equal(result(q, { n: 9 }), true);
    assert.equal(result(q, { n: 8.5 }), undefined);
    assert.equal(result(q, { n: "1" }), true, "every string is above every number");
    assert.equal(result(q, { n: null }), undefined, "null is below every number");
    assert.equal(result(q, { n: num("100000000000000000000") }), true);
    assert.equal(result(q, { n: [] }), true);
    assert.equal(result(q, {}), undefined);
    const lt = await compile(`q if input.n < 9`, "t/q");
    assert.equal(result(lt, { n: false }), true);
    assert.equal(result(lt, { n: 9 }), undefined);
    const ne = await compile(`r if input.n != 9`, "t/r");
    assert.match(ne.source, /if \(!neq\(/);
    assert.equal(result(ne, { n: "9" }), true);
    assert.equal(result(ne, { n: 9.0 }), undefined);
    assert.equal(result(ne, {}), undefined);
  });

  it("values of unknown type keep the generic equal: 1 == 1.0, arrays and objects by value, a set is no array", async () => {
    const q = await compile(`p if input.a == input.b`);
    assert.match(q.source, /\bequal\(/);
    assert.equal(result(q, { a: 1, b: 1.0 }), true);
    assert.equal(result(q, { a: [1, { x: "y" }], b: [1, { x: "y" }] }), true);
    assert.equal(result(q, { a: new RegoSet(["x"]), b: ["x"] }), undefined);
    assert.equal(result(q, { a: num("100000000000000000000"), b: 1e20 }), true);
  });

  it("values of unknown type: a string is compared by === in the code, anything else by equal", async () => {
    const q = await compile(`p if input.a == input.b`);
    assert.match(q.source, /typeof (\w+) === "string" \? \1 !== \((\w+)\) : !equal\(\1, \2\)/);
    const ne = await compile(`q if input.a != input.b`, "t/q");
    const cases: Array<[unknown, unknown, boolean]> = [
      ["x", "x", true],
      ["x", "y", false],
      ["1", 1, false],
      [1, "1", false],
      ["", null, false],
      ["true", true, false],
      ["x", ["x"], false],
      [["x"], "x", false],
      ["x", new RegoSet(["x"]), false],
      [[1, "a"], [1.0, "a"], true],
    ];
    for (const [a, b, same] of cases) {
      assert.equal(result(q, { a, b }), same ? true : undefined, `${JSON.stringify(a)} == ${JSON.stringify(b)}`);
      assert.equal(result(ne, { a, b }), same ? undefined : true, `${JSON.stringify(a)} != ${JSON.stringify(b)}`);
    }
    assert.equal(result(q, { a: "x" }), undefined);
    assert.equal(result(ne, { b: "x" }), undefined);
  });

  it("a scan is an indexed loop (no cursor): arrays by index, sets by element, objects by key, scalars not at all", async () => {
    const q = await compile(`p := [[k, v] | some k, v in input.c]`);
    assert.doesNotMatch(q.source, /\bscan\(/);
    assert.match(q.source, /const (x\d+) = l\d+, (v\d+) = scanView\(\1\), (ar\d+) = \1 === \2;\s*s\d+: for \(let (i\d+) = 0(?:, n\d+ = reserve\(l\d+, \2\.length\))?; \4 < \2\.length; \) \{\s*for \(const e\d+ = tickTo\(\$, \4, \2\.length\); \4 < e\d+; \4\+\+\)/);
    // Whether the source is an array is tested once, before the loop: an element's key and value
    // are read by index for an array.
    assert.match(q.source, /= (ar\d+) \? (i\d+) : scanKey\(x\d+, v\d+, \2\);/);
    assert.match(q.source, /= (ar\d+) \? (v\d+)\[(i\d+)\] : scanValue\(x\d+, \2, \3\);/);
    assert.deepEqual(result(q, { c: ["b", "a"] }), [[0, "b"], [1, "a"]]);
    assert.deepEqual(result(q, { c: new RegoSet(["b", "a", 1]) }), [[1, 1], ["a", "a"], ["b", "b"]]);
    assert.deepEqual(result(q, { c: { b: 1, a: 2, "10": 3, "9": 4 } }), [["10", 3], ["9", 4], ["a", 2], ["b", 1]]);
    assert.deepEqual(result(q, { c: new RegoObject([[2, "two"], ["x", "ex"], [1, "one"]]) }), [[1, "one"], [2, "two"], ["x", "ex"]]);
    for (const c of ["str", 3, null, true, num("100000000000000000000")]) assert.deepEqual(result(q, { c }), []);
    assert.deepEqual(result(q, {}), []);
    // The same object scanned again (its sorted keys are cached) after a key is added.
    const o: Record<string, number> = { b: 1 };
    assert.deepEqual(result(q, { c: o }), [["b", 1]]);
    o.a = 0;
    assert.deepEqual(result(q, { c: o }), [["a", 0], ["b", 1]]);
  });

  it("a scan runs in stretches of 1024 iterations: every element is seen once, a continue stays in the scan, a break leaves it", async () => {
    const q = await compile(`p := [x | some x in input.c; x % 1000 == 999]`);
    assert.match(q.source, /continue st\d+;/);
    const ns = (n: number) => Array.from({ length: n }, (_, i) => i);
    for (const n of [0, 1023, 1024, 1025, 3000]) assert.deepEqual(result(q, { c: ns(n) }), ns(n).filter((x) => x % 1000 === 999), String(n));
    const r = await compile(`p := count([x | some x in input.c])\nq if { some x in input.c; x == input.k }`, "t/q");
    assert.match(r.source, /break b\d+;/);
    for (const k of [0, 1023, 1024, 2047, 2048, 2999]) assert.equal(result(r, { c: ns(3000), k }), true, String(k));
    assert.equal(result(r, { c: ns(3000), k: 3000 }), undefined);
  });

  it("a comprehension appends to the array (adds to the set) it made with the collection's own method", async () => {
    const q = await compile(`p := [[x | some x in input.c; x != 2], {x | some x in input.c}]`);
    assert.match(q.source, /\bl\d+\[n\d+\+\+\] = l\d+;/);
    assert.match(q.source, /\bl\d+\.add\(l\d+\);/);
    assert.doesNotMatch(q.source, /(?<!\.)\b(push|addTo)\(/);
    assert.deepEqual(result(q, { c: [3, 2, "a", 3, { k: [1] }, 2] }), [[3, "a", 3, { k: [1] }], [2, 3, "a", { k: [1] }]]);
    assert.deepEqual(result(q, { c: { y: 1, x: 1 } }), [[1, 1], [1]]);
    assert.deepEqual(result(q, {}), [[], []]);
  });

  it("a comprehension index's groups are a RegoObject from the start, counts, arrays and sets alike", async () => {
    const q = await compile(
      `p := [{d: count([u | some u in input.users; u.dept == d]) | some d in input.depts},\n` +
        `  {d: [u.n | some u in input.users; u.dept == d] | some d in input.depts},\n` +
        `  {d: {u.n | some u in input.users; u.dept == d} | some d in input.depts}]`,
    );
    assert.equal(q.source.match(/\bl\d+ = new RegoObject\(\);/g)?.length, 3);
    const users = [{ dept: "a", n: 1 }, { dept: 1, n: 2 }, { dept: "a", n: 1 }, { dept: 1.0, n: 3 }, { n: 4 }];
    assert.deepEqual(result(q, { users, depts: ["a", 1, "none"] }), [
      { a: 2, 1: 2, none: 0 },
      { a: [1, 1], 1: [2, 3], none: [] },
      { a: [1], 1: [2, 3], none: [] },
    ]);
  });

  it("an array a scan's body only appends to is sized once for the scan and written by index", async () => {
    const q = await compile(
      `p := [[x | some x in input.c; x != 2], [[x, y] | some x in input.a; some y in input.b], [v | some v in input.o], [x | some x in {y | some y in input.c}]]`,
    );
    assert.equal(q.source.match(/ = reserve\(l\d+, v\d+\.length\)/g)?.length, 4);
    assert.doesNotMatch(q.source, /\bpush\(/);
    assert.deepEqual(result(q, { c: [3, 2, "a", 3, { k: [1] }, 2], a: [1, 2], b: ["p", "q"], o: { y: 1, x: 2 } }), [
      [3, "a", 3, { k: [1] }],
      [[1, "p"], [1, "q"], [2, "p"], [2, "q"]],
      [2, 1],
      [2, 3, "a", { k: [1] }],
    ]);
    assert.deepEqual(result(q, {}), [[], [], [], []]);
    assert.deepEqual(result(q, { c: [], a: [1], b: [], o: {} }), [[], [], [], []]);
    // Past one stretch of the loop (1024 iterations): every element kept, the length the count reached.
    const c = Array.from({ length: 3000 }, (_, i) => i % 3);
    const [kept] = result(q, { c }) as [unknown[]];
    assert.equal(kept.length, 2000);
    assert.deepEqual(kept.slice(0, 4), [0, 1, 0, 1]);
    assert.ok(kept.every((x) => x !== undefined && x !== 2));
  });

  it("an array the body may break out of the scan from, or reads, is appended to with push", async () => {
    const b = new PolicyBuilder();
    // l10 = []; for each element e of input: append e, then break the scan (a break skips the sizing's end).
    b.plan("test/p", block(st("MakeArrayStmt", { capacity: 0, target: 10 }), b.scan(0, 11, 12, st("ArrayAppendStmt", { array: 10, value: L(12) }), b.brk(1)), ...b.result("result", L(10), 99)));
    const pq = await prepare(b);
    assert.match(pq.source, /\bl10\.push\(l12\);/);
    assert.doesNotMatch(pq.source, /reserve\(/);
    assert.deepEqual((await pq.evaluate({ input: [5, 6, 7] }))[0]!.result, [5]);
    const r = new PolicyBuilder();
    // l10 = []; for each element e of input: l13 = count(l10); append l13.
    r.plan("test/p", block(st("MakeArrayStmt", { capacity: 0, target: 10 }), r.scan(0, 11, 12, st("LenStmt", { source: L(10), target: 13 }), st("ArrayAppendStmt", { array: 10, value: L(13) })), ...r.result("result", L(10), 99)));
    const rq = await prepare(r);
    assert.doesNotMatch(rq.source, /reserve\(/);
    assert.deepEqual((await rq.evaluate({ input: [5, 6, 7] }))[0]!.result, [0, 1, 2]);
  });

  it("an array local that is also assigned otherwise is appended to through the runtime's push", async () => {
    const b = new PolicyBuilder();
    // l10 = [] (or l11 = [] copied in: two kinds of definition); l10 gets input appended.
    b.plan("test/p", block(st("MakeArrayStmt", { capacity: 0, target: 10 }), st("MakeArrayStmt", { capacity: 0, target: 11 }), st("AssignVarStmt", { source: L(11), target: 10 }), st("ArrayAppendStmt", { array: 10, value: L(0) }), ...b.result("result", L(10), 99)));
    const pq = await prepare(b);
    assert.match(pq.source, /(?<!\.)\bpush\(l10, inputValue\);/);
    assert.deepEqual((await pq.evaluate({ input: "x" }))[0]!.result, ["x"]);
  });

  it("rule bodies that all assign the same constant need no conflict check; different values still conflict", async () => {
    const same = await compile(`p := 1 if input.x\np := 1 if input.y`);
    assert.doesNotMatch(same.source, /assignOnce\(/);
    assert.equal(result(same, { x: true, y: true }), 1);
    assert.equal(result(same, {}), undefined);
    const differ = await compile(`p := 1 if input.x\np := 2 if input.y`);
    assert.match(differ.source, /assignOnce\(/);
    assert.equal(result(differ, { x: true }), 1);
    assert.throws(() => result(differ, { x: true, y: true }), (e: { code?: string }) => e.code === "eval_conflict_error");
  });

  it("a rule with a default: bodies assigning one constant need no check; different values still conflict", async () => {
    const allow = await compile(`default p := false\np if input.x\np if input.y`);
    assert.doesNotMatch(allow.source, /assignOnce\(/);
    assert.equal(result(allow, { x: true, y: true }), true);
    assert.equal(result(allow, { y: true }), true);
    assert.equal(result(allow, {}), false);
    const differ = await compile(`default p := 0\np := 1 if input.x\np := 2 if input.y`);
    assert.match(differ.source, /assignOnce\(/);
    assert.equal(result(differ, {}), 0);
    assert.equal(result(differ, { y: true }), 2);
    assert.throws(() => result(differ, { x: true, y: true }), (e: { code?: string }) => e.code === "eval_conflict_error");
  });
});

describe("codegen: evaluation state", () => {
  const memoised = `
    hour := to_number(input.time)
    early if hour < 9
    late if hour > 18
    p := [early, late] if { early; late } else := "open" if { not early; not late } else := "closed"
  `;

  it("an entrypoint takes the runtime's spare state and gives it back: no EvalState per decision", async () => {
    const q = await compile(memoised);
    assert.match(q.source, /EvalState\.take\(/);
    assert.match(q.source, /\$\.done\(/);
    assert.doesNotMatch(q.source, /new EvalState/);
    assert.match(q.source, /\$\.recall\(/, "hour is memoised");
  });

  it("an entrypoint whose evaluation needs no state (no memo, with or builtin but comparisons) takes none", async () => {
    const q = await compile(`p if { f(input.role); input.n > 3 }\nf(r) if r == "admin"`);
    assert.doesNotMatch(q.source, /EvalState\.take|\.done\(/);
    assert.match(q.source, /\(NO_STATE, /);
    assert.equal(result(q, { role: "admin", n: 4 }), true);
    assert.equal(result(q, { role: "admin", n: 3 }), undefined);
    const withBuiltin = await compile(`p if { f(input.role); count(input.xs) > 3 }\nf(r) if r == "admin"`);
    assert.match(withBuiltin.source, /EvalState\.take/);
    // NO_STATE is frozen: a use of it would fail, not carry anything between decisions.
    assert.ok(Object.isFrozen(NO_STATE));
    assert.throws(() => NO_STATE.memoize(0, 1), TypeError);
    assert.throws(() => NO_STATE.context(), TypeError);
  });

  it("memoised results never leak from one decision to the next, nor out of a with", async () => {
    const q = await compile(memoised);
    const answers = [["7", "closed"], [12, "open"], ["20", "closed"], [10, "open"], [3, "closed"]] as const;
    for (let round = 0; round < 3; round++) for (const [time, want] of answers) assert.equal(result(q, { time }), want, `time ${time}`);
    const w = await compile(`${memoised}\nq := [p, p2, p] if { p2 := p with input.time as 3 }`, "t/q");
    assert.deepEqual(result(w, { time: 12 }), ["open", "closed", "open"]);
    assert.deepEqual(result(w, { time: 7 }), ["closed", "closed", "closed"]);
  });

  it("a decision that throws leaves no state behind for the next one; a nested decision has its own", async () => {
    let onPrint = () => {};
    const q = await compileRego({
      modules: { "t.rego": `package t\n\nhour := to_number(input.time)\np := [h1, h2] if { h1 := hour; print("between"); h2 := hour }` },
      entrypoints: ["t/p"],
      print: () => onPrint(),
    });
    assert.throws(() => q.evaluateSync({ input: { time: "x" } as Value, strictBuiltinErrors: true }));
    assert.deepEqual(result(q, { time: 5 }), [5, 5]);
    // A decision made from the print hook, in the middle of another one.
    let inner: unknown;
    let nested = false;
    onPrint = () => {
      // (once: the inner decision prints too)
      if (nested) return;
      nested = true;
      inner = result(q, { time: 9 });
    };
    assert.deepEqual(result(q, { time: 4 }), [4, 4], "the inner decision's memo is its own");
    assert.deepEqual(inner, [9, 9]);
    assert.deepEqual(result(q, { time: 6 }), [6, 6]);
  });

  describe("async decisions", () => {
    useTestBuiltins();

    it("interleaved async decisions each keep their own state and memo", async () => {
      const b = new PolicyBuilder();
      b.builtin("regoc_test.async_id", 1);
      // r = async_id(input.v), called three times: memoised.
      b.func("g0.data.test.r", [0, 1], 2, [
        block(b.dot(L(0), b.s("v"), 3), b.call("regoc_test.async_id", [L(3)], 2)),
        block(st("ReturnLocalStmt", { source: 2 })),
      ]);
      const call = (t: number) => b.call("g0.data.test.r", [L(0), L(1)], t);
      const append = (t: number) => st("ArrayAppendStmt", { array: 10, value: L(t) });
      b.plan("test/r", block(st("MakeArrayStmt", { capacity: 3, target: 10 }), call(20), append(20), call(21), append(21), call(22), append(22), ...b.result("result", L(10), 99)));
      const pq = await prepare(b);
      assert.match(pq.source, /\$\.recall\(/);
      const inputs = ["a", "b", "c", "d"];
      const rows = await Promise.all(inputs.map((v) => pq.evaluate({ input: { v } })));
      assert.deepEqual(
        rows.map((r) => r[0]!.result),
        inputs.map((v) => [v, v, v]),
      );
    });
  });
});
