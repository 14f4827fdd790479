// `regoc test --coverage`: OPA's JSON coverage report (v1/cover/cover.go) from the rows the tests
// reach: rule heads count once their body succeeded, expressions once they are evaluated.
import { expect } from "chai";
import { runTestsWithCoverage } from "../../../../compiler/testing/runner.js";
import { generateTypeScript, planRego } from "../../../../compiler/index.js";

const POLICY = [
  "package p", //            1
  "", //                     2
  "allow if {", //           3  covered: allow succeeds
  "\tinput.x == 1", //       4  covered
  "}", //                    5
  "", //                     6
  "deny if {", //            7  not covered: no test reaches deny
  "\tinput.x == 2", //       8
  "\tinput.y == 3", //       9
  "}", //                    10
  "", //                     11
  "never if {", //           12 not covered: its body fails
  "\tsome y", //             13 a `some` declaration: not coverable
  "\ty = input.x", //        14 covered: evaluated
  "\ty == 5", //             15 covered: evaluated (false)
  "}", //                    16
  "", //                     17
  "g(x) if {", //            18 not covered: its argument is assigned, its body fails
  "\tx == 9", //             19 covered
  "}", //                    20
].join("\n");

const TESTS = ["package p", "", 'test_allow if allow with input as {"x": 1}', "", 'test_never if not never with input as {"x": 1}', "", "test_g if not g(1)"].join("\n");

const range = (a: number, b = a) => ({ start: { row: a }, end: { row: b } });

describe("testing: coverage (OPA's JSON report)", function () {
  this.timeout(30_000);

  it("lists the rows the tests reached as covered and the unreached heads and expressions as not covered", async () => {
    const { results, coverage } = await runTestsWithCoverage([], { files: { modules: { "p.rego": POLICY, "p_test.rego": TESTS } } });
    expect(results.map((r) => [r.name, r.fail, r.error])).to.deep.equal([
      ["test_allow", false, undefined],
      ["test_never", false, undefined],
      ["test_g", false, undefined],
    ]);
    expect(coverage).to.deep.equal({
      files: {
        "p.rego": {
          covered: [range(3, 4), range(14, 15), range(19)],
          not_covered: [range(7, 9), range(12), range(18)],
          covered_lines: 5,
          not_covered_lines: 5,
          coverage: 50,
        },
        "p_test.rego": { covered: [range(3), range(5), range(7)], covered_lines: 3, coverage: 100 },
      },
      covered_lines: 8,
      not_covered_lines: 5,
      coverage: (100 * 8) / 13,
    });
  });

  it("the generator's coverage option adds the row calls; without it the code is unchanged", () => {
    const plan = planRego({ modules: { "p.rego": POLICY }, entrypoints: ["p/allow"] });
    const plain = generateTypeScript(plan, { language: "javascript" }).code;
    const covered = generateTypeScript(plan, { language: "javascript", coverage: true, optimize: false }).code;
    expect(plain).to.not.contain("cover(");
    expect(generateTypeScript(plan, { language: "javascript", optimize: false }).code).to.not.contain("cover(");
    expect(covered).to.contain("cover(0, 4, true);");
    expect(covered).to.contain("cover(0, 3);");
  });
});
