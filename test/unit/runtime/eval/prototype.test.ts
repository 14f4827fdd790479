// Whole evaluations with hostile input: keys such as __proto__, constructor and hasOwnProperty are
// read, copied (with), merged and built into objects as plain keys, and Object.prototype (and the
// other built-in prototypes) are unchanged after every evaluation.
import assert from "node:assert/strict";
import { toJSON, type Value } from "regoc";
import { compilePlan } from "regoc/compiler";
import { L, PolicyBuilder, block, st } from "../../../support/plans.js";

const KEYS = ["__proto__", "constructor", "hasOwnProperty", "toString", "prototype", "valueOf"];

function snapshot(): string {
  const protos = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
  return JSON.stringify(protos.map((p) => Object.getOwnPropertyNames(p).sort()));
}

/** Reads every hostile key from input, copies them into made objects, upserts and merges them. */
function hostilePlan(): PolicyBuilder {
  const b = new PolicyBuilder();
  const stmts = [st("MakeObjectStmt", { target: 10 }), st("MakeArrayStmt", { capacity: 0, target: 11 })];
  for (const k of KEYS) {
    stmts.push(
      b.blocks(
        block(
          b.dot(L(0), b.s(k), 12),
          st("ObjectInsertStmt", { object: 10, key: b.s(k), value: L(12) }),
          st("ArrayAppendStmt", { array: 11, value: L(12) }),
        ),
      ),
    );
  }
  stmts.push(
    b.with(0, ["__proto__", "polluted"], b.s("via with"), b.dot(L(0), b.s("__proto__"), 13), st("ObjectInsertStmt", { object: 10, key: b.s("with"), value: L(13) })),
    st("ObjectMergeStmt", { a: 0, b: 10, target: 14 }),
    st("ObjectInsertStmt", { object: 10, key: b.s("merged"), value: L(14) }),
    b.scan(0, 15, 16, st("ArrayAppendStmt", { array: 11, value: L(15) })),
    st("ObjectInsertStmt", { object: 10, key: b.s("seen"), value: L(11) }),
  );
  b.plan("test/hostile", block(...stmts, ...b.result("result", L(10), 99)));
  return b;
}

describe("runtime/eval: prototype safety", () => {
  it("hostile keys are plain keys and no prototype changes after any evaluation", async () => {
    const before = snapshot();
    const pq = await compilePlan(hostilePlan().json());
    const inputs = [
      JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "hasOwnProperty": 1, "toString": "s"}'),
      {},
      Object.create(null),
      { prototype: [1], valueOf: null },
    ];
    for (const input of inputs) {
      const out = toJSON(pq.evaluateSync({ input })[0]!.result as Value) as Record<string, unknown>;
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(typeof ({} as { toString: unknown }).toString, "function");
      // merged = input ∪ the object built so far (the hostile keys found, and "with").
      const want = [...new Set([...Object.keys(input), ...KEYS.filter((k) => Object.hasOwn(input, k)), "with"])].sort();
      assert.deepEqual(Object.keys(out.merged as object).sort(), want);
      for (const k of Object.keys(input)) assert.deepEqual(JSON.stringify((out as Record<string, unknown>)[k]), JSON.stringify(input[k]));
    }
    const first = toJSON(pq.evaluateSync({ input: inputs[0] })[0]!.result as Value) as Record<string, unknown>;
    assert.deepEqual(JSON.parse(JSON.stringify(first.with)), { polluted: "via with" });
    assert.deepEqual(first.seen, [{ polluted: "yes" }, { prototype: { polluted: "yes" } }, 1, "s", "__proto__", "constructor", "hasOwnProperty", "toString"]);
    // The input itself is unchanged.
    assert.deepEqual(JSON.stringify(inputs[0]), '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"hasOwnProperty":1,"toString":"s"}');
    assert.equal(snapshot(), before);
  });
});
