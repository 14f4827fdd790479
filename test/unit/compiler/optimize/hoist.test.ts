// The loop-invariant hoisting pass: before/after IR of scans, the lookups it leaves in place, and
// the same results with and without it.
import assert from "node:assert/strict";
import { hoist } from "../../../../compiler/optimize/hoist.js";
import { L, PolicyBuilder, T, block, st, type StmtJSON } from "../../../support/plans.js";
import { useTestBuiltins } from "../codegen/support.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

/** A plan: local 20 := true when `body` succeeds (in a BlockStmt child), the result bound to 20. */
function plan(build: (b: PolicyBuilder) => StmtJSON[], after: (b: PolicyBuilder) => StmtJSON[] = () => []): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin("regoc_test.log", 1, null);
  b.plan("test/p", block(b.blocks(block(...build(b))), ...after(b), ...b.result("result", L(20), 99)));
  return b;
}

const yes = (b: PolicyBuilder) => b.assign(T, 20);
/** `some x in input.xs; x == input.want` (the lookup of want inside the loop). */
const findWant = (b: PolicyBuilder, ...more: StmtJSON[]) => [
  b.dot(L(0), b.s("xs"), 4),
  b.scan(4, 5, 6, b.dot(L(0), b.s("want"), 7), st("EqualStmt", { a: L(6), b: L(7) }), ...more, yes(b)),
];

const unchanged = (b: PolicyBuilder) => assert.equal(after(hoist, b, "test/p"), bodyText(decoded(b), "test/p"));

describe("optimize: hoist", () => {
  useTestBuiltins();

  it("moves a lookup on input out of the scan", () => {
    assert.equal(
      after(hoist, plan(findWant), "test/p"),
      [
        "{",
        "  block",
        "  {",
        '    l4 = l0["xs"]',
        '    l7 = l0["want"]',
        "    scan l4 (l5, l6)",
        "    {",
        "      l6 == l7",
        "      l20 = true",
        "    }",
        "  }",
        "  MakeObject target=99",
        '  ObjectInsert object=99 key="result" value=l20',
        "  ResultSetAdd value=99",
        "}",
      ].join("\n"),
    );
  });

  it("moves a chain of lookups past checks, out of nested scans", () => {
    const b = plan((b) => [
      b.dot(L(0), b.s("xs"), 4),
      b.scan(
        4,
        5,
        6,
        b.dot(L(0), b.s("ys"), 8),
        b.scan(8, 9, 10, st("EqualStmt", { a: L(6), b: L(10) }), b.dot(L(0), b.s("want"), 11), b.dot(L(11), b.s("v"), 12), st("EqualStmt", { a: L(6), b: L(12) }), yes(b)),
      ),
    ]);
    const out = after(hoist, b, "test/p").split("\n");
    const firstScan = out.findIndex((l) => l.includes("scan"));
    for (const lookup of ['l8 = l0["ys"]', 'l11 = l0["want"]', 'l12 = l11["v"]']) {
      assert.ok(out.findIndex((l) => l.includes(lookup)) < firstScan, `${lookup} before the first scan:\n${out.join("\n")}`);
    }
  });

  it("leaves lookups on the scan's value, on locals the loop writes, or after a call", () => {
    unchanged(plan((b) => [b.dot(L(0), b.s("xs"), 4), b.scan(4, 5, 6, b.dot(L(6), b.s("a"), 7), st("EqualStmt", { a: L(7), b: L(0) }), yes(b))]));
    unchanged(plan((b) => [b.dot(L(0), b.s("xs"), 4), b.scan(4, 5, 6, b.assign(L(6), 8), b.dot(L(8), b.s("a"), 7), yes(b))]));
    unchanged(plan((b) => findWant(b).map((s, i) => (i === 1 ? b.scan(4, 5, 6, b.call("regoc_test.log", [L(6)], 9), b.dot(L(0), b.s("want"), 7), yes(b)) : s))));
  });

  it("leaves a scan that is not last in its list, or sits in a NotStmt, or whose lookup is read after it", () => {
    unchanged(plan((b) => [...findWant(b), b.assign(b.s("after"), 21)]));
    unchanged(plan((b) => [b.not(...findWant(b))]));
    unchanged(plan(findWant, () => [st("IsDefinedStmt", { source: 7 })]));
  });

  /** Two rule bodies, as the planner makes them: each its own BlockStmt, reusing the same locals. */
  const twoBodies = (second: (b: PolicyBuilder) => StmtJSON[]) => plan((b) => findWant(b), (b) => [b.blocks(block(...second(b)))]);
  /** The second body rewrites the first's locals before reading them (4, then 5, 6, 7 in the scan). */
  const rewrites = (b: PolicyBuilder) => [b.dot(L(0), b.s("ys"), 4), b.scan(4, 5, 6, b.dot(L(6), b.s("a"), 7), st("EqualStmt", { a: L(7), b: L(5) }), yes(b))];

  it("moves a lookup whose locals a later body reuses only once it has rewritten them", () => {
    const out = after(hoist, twoBodies(rewrites), "test/p").split("\n");
    const want = out.findIndex((l) => l.includes('l7 = l0["want"]'));
    assert.ok(want >= 0 && want < out.findIndex((l) => l.includes("scan l4")), out.join("\n"));
  });

  it("leaves a lookup whose target a later body may read before rewriting it", () => {
    // The rewrite sits in another child block of the second body, so the read can see the first's value.
    unchanged(plan(findWant, (b) => [b.blocks(block(b.dot(L(0), b.s("a"), 7)), block(st("IsDefinedStmt", { source: 7 }), b.assign(T, 21)))]));
    // The second body's scan may run no iteration: its key and value then keep the first's.
    unchanged(twoBodies((b) => [b.dot(L(0), b.s("ys"), 4), b.scan(4, 8, 9, b.assign(T, 21)), st("IsDefinedStmt", { source: 6 })]));
  });

  /** Two rule bodies merged into one scan (scanMerge.ts): the first looks up input.want. */
  const merged = (b: PolicyBuilder, ...more: StmtJSON[]) => [
    b.dot(L(0), b.s("xs"), 4),
    b.scan(4, 5, 6, b.blocks(block(b.dot(L(0), b.s("want"), 7), st("EqualStmt", { a: L(6), b: L(7) }), ...more, yes(b)), block(st("EqualStmt", { a: L(6), b: b.s("any") }), yes(b)))),
  ];

  it("moves a lookup in a block of the scan's body out guarded: its failure fails only that block", () => {
    assert.equal(
      after(hoist, plan(merged), "test/p"),
      [
        "{",
        "  block",
        "  {",
        '    l4 = l0["xs"]',
        "    block",
        "    {",
        '      l7 = l0["want"]',
        "    }",
        "    scan l4 (l5, l6)",
        "    {",
        "      block",
        "      {",
        "        defined l7",
        "        l6 == l7",
        "        l20 = true",
        "      }",
        "      {",
        '        l6 == "any"',
        "        l20 = true",
        "      }",
        "    }",
        "  }",
        "  MakeObject target=99",
        '  ObjectInsert object=99 key="result" value=l20',
        "  ResultSetAdd value=99",
        "}",
      ].join("\n"),
    );
  });

  it("leaves a lookup in a block of the scan's body whose target is read before it or outside its list", () => {
    unchanged(plan((b) => merged(b), () => [st("IsDefinedStmt", { source: 7 })]));
    unchanged(
      plan((b) => [
        b.dot(L(0), b.s("xs"), 4),
        b.scan(4, 5, 6, b.blocks(block(st("IsDefinedStmt", { source: 7 }), yes(b)), block(b.dot(L(0), b.s("want"), 7), yes(b)))),
      ]),
    );
    unchanged(plan((b) => [b.dot(L(0), b.s("xs"), 4), b.scan(4, 5, 6, b.blocks(block(b.dot(L(6), b.s("want"), 7), yes(b))))]));
  });

  /** `some x in input.xs; some k in ["a", "b"]; x[k] == 1` (the array of constants made in the loop). */
  const kinds = (b: PolicyBuilder, ...after: StmtJSON[]) => [
    b.dot(L(0), b.s("xs"), 4),
    b.scan(4, 5, 6, st("MakeArrayStmt", { capacity: 2, target: 7 }), st("ArrayAppendStmt", { array: 7, value: b.s("a") }), st("ArrayAppendStmt", { array: 7, value: b.s("b") }), b.scan(7, 8, 9, b.dot(L(6), L(9), 10), st("EqualStmt", { a: L(10), b: L(10) }), yes(b)), ...after),
  ];

  it("makes an array of constants once, before the loop", () => {
    const out = after(hoist, plan(kinds), "test/p").split("\n");
    const scan = out.findIndex((l) => l.includes("scan l4"));
    const make = out.findIndex((l) => l.includes("MakeArray"));
    assert.ok(make >= 0 && make < scan && out.filter((l) => l.includes("ArrayAppend")).every((l) => out.indexOf(l) < scan), out.join("\n"));
  });

  it("leaves an array of constants the loop appends to later, or that is read after the loop", () => {
    unchanged(plan((b) => kinds(b, st("ArrayAppendStmt", { array: 7, value: L(6) }))));
    unchanged(plan(kinds, () => [st("IsDefinedStmt", { source: 7 })]));
  });

  it("end to end: the same results with and without the pass", async () => {
    const cases = [
      plan(findWant),
      plan((b) => findWant(b, b.dot(L(0), b.s("also"), 13), st("EqualStmt", { a: L(13), b: L(6) }))),
      plan((b) => [
        b.dot(L(0), b.s("xs"), 4),
        b.scan(4, 5, 6, b.dot(L(0), b.s("ys"), 8), b.scan(8, 9, 10, st("EqualStmt", { a: L(6), b: L(10) }), b.dot(L(0), b.s("want"), 11), st("EqualStmt", { a: L(6), b: L(11) }), yes(b))),
      ]),
      twoBodies(rewrites),
      plan(merged),
      plan(kinds),
      plan((b) => merged(b, b.dot(L(0), b.s("also"), 13), st("EqualStmt", { a: L(13), b: L(6) }))),
    ];
    const inputs = [undefined, {}, { xs: [] }, { xs: [1, 2], want: 2 }, { xs: [1, 2], want: 3 }, { xs: [1, 2], ys: [2], want: 2, also: 2 }, { xs: { a: 1, b: 2 }, ys: [1], want: 1, also: 1 }, { xs: [3], ys: [{ a: 5 }, { a: 1 }], want: 2 }];
    for (const b of cases) {
      for (const input of inputs) {
        const [plain, optimised] = await outcomes(b, input === undefined ? {} : { input });
        assert.deepEqual(optimised, plain, JSON.stringify(input));
      }
    }
    assert.deepEqual((await outcomes(cases[0]!, { input: { xs: [1, 2], want: 2 } }))[1], [{ result: true }]);
  });
});
