// The dead-code pass: before/after IR on small plans, and the same results with and without it.
import assert from "node:assert/strict";
import { deadCode } from "../../../../compiler/optimize/deadCode.js";
import { L, PolicyBuilder, block, st } from "../../../support/plans.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

const append = (b: PolicyBuilder, v: string) => st("ArrayAppendStmt", { array: 10, value: b.s(v) });

/** A plan whose result is the array in local 10, filled by `body` (in a BlockStmt of its own, so
 * that a break 1 from a BlockStmt in it still reaches the result). */
function trace(build: (b: PolicyBuilder) => ReturnType<typeof st>[]): PolicyBuilder {
  const b = new PolicyBuilder();
  b.plan("test/trace", block(st("MakeArrayStmt", { capacity: 0, target: 10 }), b.blocks(block(...build(b))), ...b.result("result", L(10), 99)));
  return b;
}

const text = (lines: string[]) => lines.join("\n");

describe("optimize: dead-code", () => {
  it("drops NopStmt and the statements after a break", () => {
    // (break 1 leaves its block and the one holding it: "b" never runs either.)
    const b = trace((b) => [st("NopStmt"), b.blocks(block(append(b, "a"), b.brk(1), append(b, "dead"), b.brk(0))), append(b, "b")]);
    assert.equal(
      after(deadCode, b, "test/trace"),
      text([
        "{",
        "  MakeArray capacity=0 target=10",
        "  block",
        "  {",
        "    block",
        "    {",
        '      ArrayAppend array=10 value="a"',
        "      break 1",
        "    }",
        "  }",
        "  MakeObject target=99",
        '  ObjectInsert object=99 key="result" value=l10',
        "  ResultSetAdd value=99",
        "}",
      ]),
    );
  });

  it("drops a block that starts with break 0, a BlockStmt left with no block, and the planner's no-op guard", () => {
    // `block { { block { { break 1 } }; break 1 } }` always continues after itself: it does nothing.
    const b = trace((b) => [
      b.blocks(block(b.brk(0), append(b, "dead")), block(b.blocks(block(b.brk(1))), b.brk(1))),
      b.blocks(block(st("EqualStmt", { a: L(10), b: L(10) }))),
      append(b, "x"),
    ]);
    assert.equal(
      after(deadCode, b, "test/trace"),
      text([
        "{",
        "  MakeArray capacity=0 target=10",
        "  block",
        "  {",
        '    ArrayAppend array=10 value="x"',
        "  }",
        "  MakeObject target=99",
        '  ObjectInsert object=99 key="result" value=l10',
        "  ResultSetAdd value=99",
        "}",
      ]),
    );
  });

  it("drops the children of a BlockStmt after one that always leaves it", () => {
    const b = trace((b) => [b.blocks(block(append(b, "a"), b.brk(1)), block(append(b, "never"))), append(b, "after")]);
    const out = after(deadCode, b, "test/trace");
    assert.ok(!out.includes("never") && !out.includes("after"), out);
    assert.ok(out.includes('"a"'), out);
  });

  it("keeps a NotStmt's trailing break 0 (it makes the NotStmt succeed) and a WithStmt's", () => {
    const b = trace((b) => [b.blocks(block(b.not(append(b, "in"), b.brk(0)), append(b, "after not")))]);
    assert.equal(after(deadCode, b, "test/trace"), bodyText(decoded(b), "test/trace"));
  });

  it("a pure construct that always breaks the same way becomes that break; one that always falls through goes", () => {
    // The BlockStmt always leaves by break 1 (break 0 in the NotStmt's block): the NotStmt always
    // succeeds and checks nothing.
    const b = trace((b) => [b.not(b.blocks(block(st("IsDefinedStmt", { source: 0 }), b.brk(1)), block(b.brk(1)))), append(b, "after")]);
    assert.equal(
      after(deadCode, b, "test/trace"),
      text([
        "{",
        "  MakeArray capacity=0 target=10",
        "  block",
        "  {",
        '    ArrayAppend array=10 value="after"',
        "  }",
        "  MakeObject target=99",
        '  ObjectInsert object=99 key="result" value=l10',
        "  ResultSetAdd value=99",
        "}",
      ]),
    );
  });

  it("drops a statement that only sets a local the next one sets again", () => {
    const b = trace((b) => [b.int(0, 11), st("AssignIntStmt", { value: 0, target: 11 }), b.assign(L(11), 12), b.assign(L(12), 12), b.assign(b.s("x"), 12)]);
    const out = after(deadCode, b, "test/trace");
    assert.ok(!out.includes("l11 = 0") && out.includes("AssignInt value=0 target=11"), out);
    // `l12 = l12` reads l12, so `l12 = l11` before it stays; it is set again at once itself: it goes.
    assert.ok(out.includes("l12 = l11") && !out.includes("l12 = l12") && out.includes('l12 = "x"'), out);
  });

  it("leaves a plan without dead code as it is (the same object)", () => {
    const b = trace((b) => [append(b, "a")]);
    const p = decoded(b);
    assert.equal(deadCode.run(p), p);
  });

  it("end to end: the same results with and without the pass", async () => {
    // Each part in a block of its own: a break 1 in one leaves only that part.
    const wrap = (b: PolicyBuilder, ...parts: ReturnType<typeof st>[]) => parts.map((p) => b.blocks(block(p)));
    const b = trace((b) => [
      ...wrap(
        b,
        st("NopStmt"),
        b.blocks(block(append(b, "a"), b.brk(1), append(b, "dead")), block(append(b, "never"))),
        b.blocks(block(b.brk(0), append(b, "dead")), block(b.blocks(block(b.brk(1))), b.brk(1)), block(append(b, "c"))),
        b.blocks(block(b.not(append(b, "in"), b.brk(0)), append(b, "after not"))),
        b.blocks(block(b.dot(L(0), b.s("x"), 11), append(b, "x"), b.brk(0)), block(append(b, "d"))),
      ),
      append(b, "end"),
    ]);
    for (const input of [{}, { x: 1 }]) {
      const [plain, optimised] = await outcomes(b, { input });
      assert.deepEqual(optimised, plain);
    }
    assert.deepEqual((await outcomes(b, { input: { x: 1 } }))[1], [{ result: ["a", "c", "in", "after not", "x", "d", "end"] }]);
  });
});
