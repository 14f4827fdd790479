// Builtin calls from generated code: the registry's invoke policy (undefined vs strict errors with
// the call site's name and location), undefined arguments, void builtins, nondeterministic caching
// per evaluation, async builtins and async entrypoints, missing builtins.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { compilePlan, generateTypeScript } from "regoc/compiler";
import { L, PolicyBuilder, block, st } from "../../../support/plans.js";
import { calls, prepare, run, useTestBuiltins, value } from "./support.js";

function callPlan(name: string, arity: number, args: ReturnType<typeof L>[], opts: { void?: boolean } = {}): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin(name, arity, opts.void ? null : { type: "any" });
  b.plan("test/call", block(st("CallStmt", { func: name, args, result: 10 }, { row: 4, col: 7 }), ...b.result("result", L(opts.void ? 0 : 10), 99)));
  return b;
}

describe("codegen: builtin calls", () => {
  useTestBuiltins();
  it("a failing builtin is undefined by default and an error naming it and its location in strict mode", async () => {
    const b = callPlan("regoc_test.fail", 1, [L(0)]);
    assert.deepEqual(await run(b, { input: 1 }), []);
    await assert.rejects(
      () => run(b, { input: 1, strictBuiltinErrors: true }),
      (e: unknown) =>
        e instanceof RegoError &&
        e.code === "eval_type_error" &&
        e.message === "regoc_test.fail: operand 1 must be something else" &&
        e.location?.file === "policy.rego" &&
        e.location.row === 4 &&
        e.location.col === 7,
    );
  });

  it("an undefined argument makes the call undefined without calling the builtin", async () => {
    const b = callPlan("regoc_test.fail", 1, [L(0)]);
    assert.deepEqual(await run(b, { strictBuiltinErrors: true }), []);
  });

  it("void builtins are called for their effect and never fail", async () => {
    calls.log.length = 0;
    const b = callPlan("regoc_test.log", 1, [L(0)], { void: true });
    assert.deepEqual(await run(b, { input: "hello" }), [{ result: "hello" }]);
    assert.deepEqual(calls.log, ["hello"]);
  });

  it("nondeterministic builtins give one value per evaluation for the same arguments", async () => {
    const b = new PolicyBuilder();
    b.builtin("regoc_test.counter", 0);
    b.plan(
      "test/n",
      block(
        st("MakeArrayStmt", { capacity: 2, target: 10 }),
        b.call("regoc_test.counter", [], 11),
        st("ArrayAppendStmt", { array: 10, value: L(11) }),
        b.call("regoc_test.counter", [], 12),
        st("ArrayAppendStmt", { array: 10, value: L(12) }),
        ...b.result("result", L(10), 99),
      ),
    );
    const pq = await prepare(b);
    const first = pq.evaluateSync()[0]!.result as number[];
    const second = pq.evaluateSync()[0]!.result as number[];
    assert.equal(first[0], first[1]);
    assert.equal(second[0], second[1]);
    assert.notEqual(first[0], second[0]);
  });

  it("a plan reaching an async builtin gets an async entrypoint; evaluate() refuses it", async () => {
    const b = new PolicyBuilder();
    b.builtin("regoc_test.async_id", 1);
    b.func("g0.data.test.r", [0, 1], 2, [block(b.call("regoc_test.async_id", [L(0)], 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    b.entry("test/r", "g0.data.test.r");
    b.plan("test/sync", block(...b.result("result", b.s("sync"), 4)));
    const g = generateTypeScript(b.json());
    assert.deepEqual(
      g.entrypoints.map((e) => [e.name, e.async]),
      [
        ["test/r", true],
        ["test/sync", false],
      ],
    );
    assert.match(g.code, /export async function testR\(/);
    assert.match(g.code, /export function testSync\(/);
    const pq = await prepare(b, "test/r");
    assert.equal(pq.async, true);
    assert.throws(() => pq.evaluateSync({ input: 1 }), (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error" && /evaluate/.test(e.message));
    assert.deepEqual(await pq.evaluate({ input: 42 }), [{ result: 42 }].map((r) => Object.assign(Object.create(null), r)));
    assert.equal(await value(b, { input: "x" }), "x");
  });

  it("compilePlan refuses a plan whose builtins are not implemented, naming them", async () => {
    const b = new PolicyBuilder();
    b.builtin("no.such_builtin", 1).builtin("no.other", 0);
    b.plan("test/p", block(b.call("no.such_builtin", [L(0)], 10), b.call("no.other", [], 11), ...b.result("result", L(10), 99)));
    await assert.rejects(
      () => compilePlan(b.json()),
      (e: unknown) =>
        e instanceof RegoError &&
        e.code === "rego_compile_error" &&
        e.message === "missing builtin implementations: no.other, no.such_builtin" &&
        JSON.stringify(e.details) === JSON.stringify({ missingBuiltins: ["no.other", "no.such_builtin"] }),
    );
    // The TypeScript can still be generated (for a runtime that will register them).
    assert.match(generateTypeScript(b.json()).code, /builtinSites\("\{\\"names\\":\[\\"no.such_builtin\\"/);
  });

  it("builtins with more than three arguments", async () => {
    const b = new PolicyBuilder();
    b.builtin("regoc_test.concat", 5);
    b.plan("test/p", block(b.call("regoc_test.concat", [b.s("a"), b.s("b"), L(0), b.s("d"), b.s("e")], 10), ...b.result("result", L(10), 99)));
    assert.equal(await value(b, { input: "c" }), "a-b-c-d-e");
    assert.deepEqual(await run(b), []);
  });
});
