// The split-constants pass (compiler/optimize/splitConstants.ts) and the emitter's constant
// operands (emit/blocks.ts): a rule body's number constant gets a local of its own, its reads are
// printed as the literal and its write goes; before/after IR, the generated code, and the same
// answers with and without the optimiser.
import assert from "node:assert/strict";
import { generateTypeScript, planRego } from "regoc/compiler";
import { splitConstants } from "../../../../compiler/optimize/splitConstants.js";
import { L, PolicyBuilder, T, block, st, type StmtJSON } from "../../../support/plans.js";
import { after, bodyText, decoded, outcomes } from "./support.js";

/** A rule func g0.data.test.p (result local 2) of the given blocks, and its entrypoint. */
function rule(...blocks: Array<(b: PolicyBuilder) => StmtJSON[]>): PolicyBuilder {
  const b = new PolicyBuilder();
  b.func("g0.data.test.p", [0, 1], 2, [...blocks.map((f) => block(...f(b))), block(st("ReturnLocalStmt", { source: 2 }))]);
  b.entry("test/p", "g0.data.test.p");
  return b;
}

const text = (lines: string[]) => lines.join("\n");

/** `input.xs[k] == v` into local 2 (constant k in local 6, read into 7). */
const lookup = (k: number, v: string) => (b: PolicyBuilder) => [
  b.dot(L(0), b.s("xs"), 5),
  b.int(k, 6),
  b.dot(L(5), L(6), 7),
  st("EqualStmt", { a: L(7), b: b.s(v) }),
  b.once(T, 2),
];

describe("optimize: split-constants", () => {
  it("each body's constant gets a local of its own; a later body writing the local by a call first keeps it", () => {
    const b = rule(lookup(0, "a"), lookup(1, "b"), (b) => [b.call("g0.data.test.q", [L(0), L(1)], 6), st("EqualStmt", { a: L(6), b: T }), b.once(T, 2)]);
    b.func("g0.data.test.q", [0, 1], 2, [block(b.once(T, 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    assert.equal(
      after(splitConstants, b, "g0.data.test.p"),
      text([
        "{",
        '  l5 = l0["xs"]',
        "  l8 = 0",
        "  l7 = l5[l8]",
        '  l7 == "a"',
        "  l2 := true",
        "}",
        "{",
        '  l5 = l0["xs"]',
        "  l9 = 1",
        "  l7 = l5[l9]",
        '  l7 == "b"',
        "  l2 := true",
        "}",
        "{",
        "  l6 = g0.data.test.q(l0, l1)",
        "  l6 == true",
        "  l2 := true",
        "}",
        "{",
        "  return l2",
        "}",
      ]),
    );
  });

  it("stays when a later body may read the body's value", () => {
    const b = rule(lookup(0, "a"), (b) => [st("IsDefinedStmt", { source: 6 }), b.once(T, 2)]);
    assert.equal(after(splitConstants, b, "g0.data.test.p"), bodyText(decoded(b), "g0.data.test.p"));
  });

  it("the emitter prints the constant where it is read next, and no write is left", () => {
    const code = generateTypeScript(planRego({ modules: { "t.rego": 'package t\np if input.xs[0] == "a"\np if { count(input.xs) == 2; input.xs[1] == "b" }\np if input.n > 100\n' }, entrypoints: ["t/p"] })).code;
    assert.match(code, /dot\(l\d+, 0\)/);
    assert.match(code, /dot\(l\d+, 1\)/);
    assert.match(code, /!== 2\)/);
    assert.match(code, /gt\(l\d+, 100\)/);
    assert.doesNotMatch(code, /^\s*l\d+ = \d+;/m);
  });

  it("answers as without the optimiser: a constant rewritten in a nested block, in a loop, or left by a break", async () => {
    const b = rule(
      // l6 = 0; block { l6 = 1 (when input.one) }; input.xs[l6] == "a"
      (b) => [
        b.dot(L(0), b.s("xs"), 5),
        b.int(0, 6),
        b.blocks(block(b.dot(L(0), b.s("one"), 9), st("EqualStmt", { a: L(9), b: T }), b.int(1, 6))),
        b.dot(L(5), L(6), 7),
        st("EqualStmt", { a: L(7), b: b.s("a") }),
        b.once(T, 2),
      ],
      // a scan whose body reads l6 and then sets it: the first element is compared with xs[0],
      // the others with xs[1]
      (b) => [
        b.dot(L(0), b.s("xs"), 5),
        b.int(0, 6),
        b.dot(L(0), b.s("ys"), 8),
        b.scan(8, 10, 11, b.dot(L(5), L(6), 7), st("EqualStmt", { a: L(7), b: L(11) }), b.int(1, 6), st("EqualStmt", { a: L(11), b: b.s("z") }), b.once(T, 2)),
      ],
    );
    const cases: Array<[unknown, unknown]> = [
      [{ xs: ["a"] }, [{ result: true }]],
      [{ xs: ["b", "a"], one: true }, [{ result: true }]],
      [{ xs: ["b", "a"] }, []],
      [{ xs: ["q", "z"], ys: ["q", "z"] }, [{ result: true }]],
      [{ xs: ["q", "y"], ys: ["q", "z"] }, []],
      [{}, []],
    ];
    for (const [input, want] of cases) {
      const [plain, optimised] = await outcomes(b, { input });
      assert.deepEqual(plain, want, JSON.stringify(input));
      assert.deepEqual(optimised, want, JSON.stringify(input));
    }
  });
});
