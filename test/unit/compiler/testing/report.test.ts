import { expect } from "chai";
import { RegoError } from "regoc";
import { formatDuration, jsonReport, prettyReport, summarize } from "../../../../compiler/testing/report.js";
import type { TestResult } from "../../../../compiler/testing/runner.js";

function result(over: Partial<TestResult>): TestResult {
  return {
    location: { file: "a_test.rego", row: 3, col: 1 },
    package: "data.a",
    name: "test_x",
    fail: false,
    skip: false,
    duration: 12_345,
    output: "",
    subResults: [],
    ...over,
  };
}

describe("testing: report", () => {
  describe("formatDuration (Go's time.Duration.String)", () => {
    const cases: [number, string][] = [
      [0, "0s"],
      [1, "1ns"],
      [999, "999ns"],
      [1_000, "1µs"],
      [12_345, "12.345µs"],
      [12_300, "12.3µs"],
      [1_000_000, "1ms"],
      [1_234_567, "1.234567ms"],
      [1_500_000_000, "1.5s"],
      [61_000_000_000, "1m1s"],
      [3_723_500_000_000, "1h2m3.5s"],
    ];
    for (const [ns, want] of cases) it(`${ns} → ${want}`, () => expect(formatDuration(ns)).to.equal(want));
  });

  it("shows only failures and errors by default, then the rule and the non-zero counts", () => {
    const results = [
      result({ name: "test_ok" }),
      result({ name: "test_bad", fail: true }),
      result({ name: "todo_test_later", skip: true }),
      result({ location: { file: "b_test.rego", row: 1, col: 1 }, package: "data.b", name: "test_err", error: new RegoError("eval_conflict_error", "complete rules must not produce multiple outputs", { file: "b.rego", row: 7, col: 1 }) }),
    ];
    expect(prettyReport(results, false)).to.equal(
      [
        "a_test.rego:",
        "data.a.test_bad: FAIL (12.345µs)",
        "data.a.todo_test_later: SKIPPED",
        "",
        "b_test.rego:",
        "data.b.test_err: ERROR (12.345µs)",
        "  b.rego:7: eval_conflict_error: complete rules must not produce multiple outputs",
        "-".repeat(80),
        "PASS: 1/4",
        "FAIL: 1/4",
        "SKIPPED: 1/4",
        "ERROR: 1/4",
        "",
      ].join("\n"),
    );
  });

  it("all passing, not verbose: only the PASS line", () => {
    expect(prettyReport([result({}), result({ name: "test_y" })], false)).to.equal("PASS: 2/2\n");
  });

  it("verbose: every test, print output indented under it", () => {
    const out = prettyReport([result({ output: "hello\nworld\n" })], true);
    expect(out).to.equal(["a_test.rego:", "data.a.test_x: PASS (12.345µs)", "", "  hello", "  world", "", "-".repeat(80), "PASS: 1/1", ""].join("\n"));
  });

  it("sub-results are counted per leaf and shown indented", () => {
    const r = result({
      fail: true,
      subResults: [
        { name: "one", fail: false, subResults: [] },
        { name: "two", fail: true, subResults: [{ name: "deep", fail: true, subResults: [] }] },
      ],
    });
    expect(summarize([r])).to.include({ pass: 1, fail: 1, total: 2 });
    expect(prettyReport([r], false)).to.contain("data.a.test_x: FAIL (12.345µs)\n  two: FAIL\n    deep: FAIL\n");
  });

  it("nothing to report: no output at all", () => {
    expect(prettyReport([], false)).to.equal("");
  });

  it("JSON as OPA's: field names, duration in ns, output in base64, error object", () => {
    const json = JSON.parse(
      jsonReport([
        result({ output: "hi\n" }),
        result({ name: "test_f", fail: true }),
        result({ name: "todo_test_s", skip: true, duration: 0 }),
        result({ name: "test_e", error: new RegoError("eval_type_error", "boom", { file: "a.rego", row: 2, col: 5 }) }),
      ]),
    );
    expect(json).to.deep.equal([
      { location: { file: "a_test.rego", row: 3, col: 1 }, package: "data.a", name: "test_x", duration: 12345, output: "aGkK" },
      { location: { file: "a_test.rego", row: 3, col: 1 }, package: "data.a", name: "test_f", fail: true, duration: 12345 },
      { location: { file: "a_test.rego", row: 3, col: 1 }, package: "data.a", name: "todo_test_s", skip: true, duration: 0 },
      {
        location: { file: "a_test.rego", row: 3, col: 1 },
        package: "data.a",
        name: "test_e",
        error: { code: "eval_type_error", message: "boom", location: { file: "a.rego", row: 2, col: 5 } },
        duration: 12345,
      },
    ]);
  });
});
