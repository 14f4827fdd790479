// The early-exit pass: before/after IR of rule funcs, the rule shapes it leaves alone, and the same
// values with and without it (a builtin that records its calls shows where evaluation stops).
import assert from "node:assert/strict";
import { earlyExit } from "../../../../compiler/optimize/earlyExit.js";
import { F, L, PolicyBuilder, T, block, st, type Operand, type StmtJSON } from "../../../support/plans.js";
import { calls, useTestBuiltins } from "../codegen/support.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

const reset = st("ResetLocalStmt", { target: 3 });
const collect = (b: PolicyBuilder) => block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2));
const ret = () => block(st("ReturnLocalStmt", { source: 2 }));

/** `g0.data.test.p` with the given bodies (each gets ResetLocal 3 first and a collect block after)
 * and an optional default; the plan `test/p` returns it. */
function rule(bodies: Array<(b: PolicyBuilder) => StmtJSON[]>, dflt?: Operand): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin("regoc_test.log", 1, null);
  const blocks = bodies.flatMap((body) => [block(st("ResetLocalStmt", { target: 3 }), ...body(b)), collect(b)]);
  if (dflt) blocks.push(block(st("IsUndefinedStmt", { source: 2 }), b.once(dflt, 2)));
  blocks.push(ret());
  b.func("g0.data.test.p", [0, 1], 2, blocks);
  b.entry("test/p", "g0.data.test.p");
  return b;
}

const log = (b: PolicyBuilder, v: Operand) => b.call("regoc_test.log", [v], 9);
/** `p if { some x in input.xs; log(x); x == input.want }`. */
const scanBody = (b: PolicyBuilder) => [
  b.dot(L(0), b.s("xs"), 4),
  b.scan(4, 5, 6, log(b, L(6)), b.dot(L(0), b.s("want"), 7), st("EqualStmt", { a: L(6), b: L(7) }), b.once(T, 3)),
];
/** `p if { log("second"); input.second }`. */
const secondBody = (b: PolicyBuilder) => [log(b, b.s("second")), b.dot(L(0), b.s("second"), 4), st("NotEqualStmt", { a: L(4), b: F }), b.once(T, 3)];

const unchanged = (b: PolicyBuilder) => assert.equal(after(earlyExit, b, "g0.data.test.p"), bodyText(decoded(b), "g0.data.test.p"));

describe("optimize: early-exit", () => {
  useTestBuiltins();

  it("assigns the constant to the return local and leaves the scan; skips the later bodies once the rule is defined", () => {
    assert.equal(
      after(earlyExit, rule([scanBody, secondBody], F), "g0.data.test.p"),
      [
        "{",
        '  l4 = l0["xs"]',
        "  scan l4 (l5, l6)",
        "  {",
        "    l9 = regoc_test.log(l6)",
        '    l7 = l0["want"]',
        "    l6 == l7",
        "    l2 = true",
        "    break 2",
        "  }",
        "}",
        "{",
        "  undefined l2",
        '  l9 = regoc_test.log("second")',
        '  l4 = l0["second"]',
        "  l4 != false",
        "  l2 = true",
        "}",
        "{",
        "  undefined l2",
        "  l2 = false",
        "}",
        "{",
        "  return l2",
        "}",
      ].join("\n"),
    );
  });

  it("leaves alone rules whose bodies give different or computed values, or assign inside a not", () => {
    unchanged(rule([(b) => [b.dot(L(0), b.s("a"), 4), b.once(T, 3)], (b) => [b.dot(L(0), b.s("b"), 4), b.once(b.s("x"), 3)]]));
    unchanged(rule([(b) => [b.dot(L(0), b.s("a"), 4), b.once(L(4), 3)], (b) => [b.dot(L(0), b.s("b"), 4), b.once(T, 3)]]));
    unchanged(rule([(b) => [b.not(b.once(T, 3)), b.once(T, 3)], (b) => [b.once(T, 3)]]));
  });

  it("leaves alone an else chain and a partial set", () => {
    const b = new PolicyBuilder();
    const chain = b.blocks(
      block(reset, b.dot(L(0), b.s("a"), 4), b.once(T, 3)),
      block(st("IsUndefinedStmt", { source: 3 }), b.once(T, 3)),
      block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    );
    b.func("g0.data.test.p", [0, 1], 2, [block(chain), ret()]);
    b.entry("test/p", "g0.data.test.p");
    unchanged(b);
    const s = new PolicyBuilder();
    s.func("g0.data.test.p", [0, 1], 2, [block(st("MakeSetStmt", { target: 2 })), block(reset, st("SetAddStmt", { set: 2, value: T })), ret()]);
    s.entry("test/p", "g0.data.test.p");
    unchanged(s);
  });

  it("end to end: the same values, and evaluation stops at the first success", async () => {
    const inputs = [{}, { xs: [1, 2, 3], want: 2 }, { xs: [1, 2], want: 5 }, { xs: [1, 2], want: 5, second: true }, { xs: [2, 2], want: 2, second: true }];
    for (const dflt of [undefined, F]) {
      const b = rule([scanBody, secondBody], dflt);
      for (const input of inputs) {
        const [plain, optimised] = await outcomes(b, { input });
        assert.deepEqual(optimised, plain, JSON.stringify(input));
      }
    }
    calls.log.length = 0;
    const [, optimised] = await outcomes(rule([scanBody, secondBody], F), { input: { xs: [1, 2, 3], want: 2, second: true } });
    assert.deepEqual(optimised, [{ result: true }]);
    // Unoptimised: 1 2 3 "second"; optimised: 1 2.
    assert.deepEqual(calls.log, [1, 2, 3, "second", 1, 2]);
  });

  it("end to end: rules it leaves alone still raise their conflicts", async () => {
    const b = rule([(b) => [b.dot(L(0), b.s("a"), 4), b.once(T, 3)], (b) => [b.dot(L(0), b.s("b"), 4), b.once(b.s("x"), 3)]]);
    const [plain, optimised] = await outcomes(b, { input: { a: 1, b: 1 } });
    assert.equal((optimised as { error: string }).error, "eval_conflict_error");
    assert.deepEqual(optimised, plain);
  });
});
