// The copy-propagation pass: before/after IR on small plans, and the same results with and
// without it.
import assert from "node:assert/strict";
import { copyPropagation } from "../../../../compiler/optimize/copyPropagation.js";
import { L, PolicyBuilder, block, st, type StmtJSON } from "../../../support/plans.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

/** A plan: `body`, then the result binding `result` to local 20. */
function plan(build: (b: PolicyBuilder) => StmtJSON[], ...more: Array<(b: PolicyBuilder) => StmtJSON[]>): PolicyBuilder {
  const b = new PolicyBuilder();
  b.plan("test/p", block(...build(b), ...b.result("result", L(20), 99)), ...more.map((m) => block(...m(b))));
  return b;
}

const text = (lines: string[]) => lines.join("\n");
/** Asserts the pass keeps the line (and that the input had it). */
function keeps(b: PolicyBuilder, line: string): void {
  assert.ok(bodyText(decoded(b), "test/p").includes(`\n  ${line}\n`));
  const out = after(copyPropagation, b, "test/p");
  assert.ok(out.includes(`\n  ${line}\n`), out);
}

describe("optimize: copy-propagation", () => {
  it("a chain of copies: each read reads the first source, the copies go", () => {
    const b = plan((b) => [b.dot(L(0), b.s("a"), 5), b.assign(L(5), 6), b.assign(L(6), 7), st("EqualStmt", { a: L(7), b: b.s("x") }), b.assign(L(7), 20)]);
    assert.equal(
      after(copyPropagation, b, "test/p"),
      text(["{", '  l5 = l0["a"]', '  l5 == "x"', "  MakeObject target=99", '  ObjectInsert object=99 key="result" value=l5', "  ResultSetAdd value=99", "}"]),
    );
  });

  it("a constant source goes into operands; a copy read where a local is needed stays", () => {
    const b = plan((b) => [b.assign(b.s("x"), 6), st("EqualStmt", { a: L(6), b: L(0) }), st("IsDefinedStmt", { source: 6 }), b.assign(L(6), 20)]);
    assert.equal(
      after(copyPropagation, b, "test/p"),
      text(["{", '  l6 = "x"', '  "x" == l0', "  defined l6", "  MakeObject target=99", '  ObjectInsert object=99 key="result" value="x"', "  ResultSetAdd value=99", "}"]),
    );
  });

  it("stays when the source changes after it", () => {
    keeps(plan((b) => [b.dot(L(0), b.s("a"), 5), b.assign(L(5), 6), b.dot(L(0), b.s("b"), 5), st("EqualStmt", { a: L(6), b: L(5) }), b.assign(L(6), 20)]), "l6 = l5");
  });

  it("stays when a with replaces the source, or the target is written again", () => {
    keeps(plan((b) => [b.assign(L(0), 6), b.with(0, [], b.s("other"), st("EqualStmt", { a: L(6), b: L(0) })), b.assign(L(6), 20)]), "l6 = l0");
    keeps(plan((b) => [b.assign(L(0), 6), st("ResetLocalStmt", { target: 6 }), b.assign(L(6), 20)]), "l6 = l0");
  });

  it("stays when a later block may read the target's value", () => {
    keeps(plan((b) => [b.dot(L(0), b.s("a"), 6), b.assign(L(6), 7), b.assign(L(7), 20)], (b) => [st("IsDefinedStmt", { source: 7 })]), "l7 = l6");
  });

  it("goes when a later block assigns the target before reading it", () => {
    const b = plan((b) => [b.dot(L(0), b.s("a"), 6), b.assign(L(6), 7), b.assign(L(7), 20)], (b) => [b.assign(b.s("y"), 7), st("IsDefinedStmt", { source: 7 })]);
    assert.ok(!after(copyPropagation, b, "test/p").split("}")[0]!.includes("l7 = l6"));
  });

  it("a scan body's copy of the scan value goes; a copy of a part of data read with a variable key stays", () => {
    const b = plan((b) => [
      st("MakeArrayStmt", { capacity: 0, target: 20 }),
      b.dot(L(0), b.s("xs"), 5),
      b.scan(5, 6, 7, b.assign(L(7), 8), st("ArrayAppendStmt", { array: 20, value: L(8) })),
    ]);
    assert.ok(!after(copyPropagation, b, "test/p").includes("l8 = l7"));
    // `obj := data.nested; obj[k]`: a number k is not a path segment there.
    keeps(plan((b) => [b.dot(L(1), b.s("nested"), 5), b.assign(L(5), 6), b.dot(L(0), b.s("k"), 7), b.dot(L(6), L(7), 20)]), "l6 = l5");
  });

  it("AssignVarOnce is a copy outside scans when nothing else writes its target", () => {
    const b = plan((b) => [b.dot(L(0), b.s("a"), 5), b.once(L(5), 6), b.assign(L(6), 20)]);
    assert.ok(!after(copyPropagation, b, "test/p").includes("l6"));
    const inScan = plan((b) => [b.dot(L(0), b.s("xs"), 5), b.scan(5, 6, 7, b.once(L(7), 8)), b.assign(L(8), 20)]);
    assert.ok(after(copyPropagation, inScan, "test/p").includes("    l8 := l7\n"));
  });

  it("end to end: the same results with and without the pass", async () => {
    const cases = [
      plan((b) => [b.dot(L(0), b.s("a"), 5), b.assign(L(5), 6), b.assign(L(6), 7), st("NotEqualStmt", { a: L(7), b: b.s("x") }), b.assign(L(7), 20)]),
      plan((b) => [b.assign(L(0), 6), b.with(0, [], b.s("other"), st("EqualStmt", { a: L(6), b: L(0) })), b.assign(L(6), 20)]),
      plan((b) => [
        st("MakeArrayStmt", { capacity: 0, target: 20 }),
        b.dot(L(0), b.s("xs"), 5),
        b.scan(5, 6, 7, b.assign(L(7), 8), st("ArrayAppendStmt", { array: 20, value: L(8) })),
      ]),
      plan((b) => [b.dot(L(1), b.s("nested"), 5), b.assign(L(5), 6), b.dot(L(0), b.s("k"), 7), b.dot(L(6), L(7), 20)]),
      plan((b) => [b.dot(L(0), b.s("xs"), 5), b.scan(5, 6, 7, b.once(L(7), 8)), b.assign(L(8), 20)]),
    ];
    const inputs = [{}, { a: "x", k: 2, xs: [1, 2] }, { a: "y", xs: [3, 3] }];
    for (const b of cases) {
      for (const input of inputs) {
        const [plain, optimised] = await outcomes(b, { input, data: { nested: { "2": "two" } } });
        assert.deepEqual(optimised, plain, JSON.stringify(input));
      }
    }
    assert.deepEqual((await outcomes(cases[0]!, { input: { a: "y" } }))[1], [{ result: "y" }]);
    assert.equal(((await outcomes(cases[4]!, { input: { xs: [1, 2] } }))[1] as { error: string }).error, "eval_conflict_error");
  });
});
