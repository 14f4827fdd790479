import { expect } from "chai";
import { runTests, type TestResult } from "../../../../compiler/testing/runner.js";
import { discoverTests } from "../../../../compiler/testing/discover.js";

function brief(rs: TestResult[]): string[] {
  return rs.map((r) => `${r.package}.${r.name}: ${r.skip ? "SKIP" : r.error ? `ERROR ${r.error.code}` : r.fail ? "FAIL" : "PASS"}`);
}

describe("testing: discovery and runner", () => {
  it("finds test_ and todo_test_ rules, ref heads, and renames duplicates as OPA does", () => {
    const src = [
      "package p.q",
      "test_a if true",
      "todo_test_b if false",
      "test_a if false",
      "x.y.test_c if true",
      "test_f(x) if x",
      "default test_d := false",
      "test_d if true",
      "helper_test_x if true",
      "test_multi if false",
      "else := true",
    ].join("\n");
    const { tests, modules } = discoverTests({ "p.rego": src }, false);
    expect(tests.map((t) => [t.fullName, t.skip, t.entrypoint])).to.deep.equal([
      ["data.p.q.test_a", false, "p/q/test_a"],
      ["data.p.q.todo_test_b", true, "p/q/todo_test_b"],
      ["data.p.q.test_a#01", false, "p/q/test_a__regoc_dup01"],
      ["data.p.q.x.y.test_c", false, "p/q/x/y/test_c"],
      ["data.p.q.test_d", false, "p/q/test_d"],
      ["data.p.q.test_multi", false, "p/q/test_multi"],
    ]);
    expect(modules["p.rego"]).to.contain("test_a__regoc_dup01 if false");
  });

  it("runs tests given as sources: pass, fail, error, skip, print output", async () => {
    const rs = await runTests([], {
      files: {
        modules: {
          "t.rego": [
            "package t",
            "c := x if some x in [1, 2]",
            "test_pass if data.d.n == 1",
            "test_fail if 1 == 2",
            "test_error if c",
            "todo_test_skip if false",
            'test_print if { print("n is", data.d.n); true }',
            "test_number := 1",
          ].join("\n"),
        },
        data: { d: { n: 1 } },
      },
    });
    expect(brief(rs)).to.deep.equal([
      "data.t.test_pass: PASS",
      "data.t.test_fail: FAIL",
      "data.t.test_error: ERROR eval_conflict_error",
      "data.t.todo_test_skip: SKIP",
      "data.t.test_print: PASS",
      "data.t.test_number: FAIL",
    ]);
    expect(rs[4]!.output).to.equal("n is 1\n");
    expect(rs[2]!.error!.location).to.include({ file: "t.rego", row: 2 });
    expect(rs.every((r) => r.skip || r.duration > 0)).to.equal(true);
  });

  it("--run selects by full name", async () => {
    const files = { modules: { "t.rego": "package t\ntest_one if true\ntest_two if true\n" } };
    expect(brief(await runTests([], { files, run: /test_tw/ }))).to.deep.equal(["data.t.test_two: PASS"]);
    expect(brief(await runTests([], { files, run: /^data\.t\.test_one$/ }))).to.deep.equal(["data.t.test_one: PASS"]);
  });

  it("a partial-object test has one sub-result per key", async () => {
    const rs = await runTests([], {
      files: { modules: { "t.rego": 'package t\ntest_cases[note] := ok if { some note, ok in {"a": true, "b": false} }\n' } },
    });
    expect(rs[0]!.fail).to.equal(true);
    expect(rs[0]!.subResults).to.deep.equal([
      { name: "a", fail: false, subResults: [] },
      { name: "b", fail: true, subResults: [] },
    ]);
  });

  it("parse and compile errors are thrown, with every error", async () => {
    let err: unknown;
    try {
      await runTests([], { files: { modules: { "a.rego": "package a\ntest_x if {", "b.rego": "package b\ntest_y if {" } } });
    } catch (e) {
      err = e;
    }
    expect((err as { code: string }).code).to.equal("rego_parse_error");
    expect((err as { errors: unknown[] }).errors).to.have.length(2);
  });

  it("v0 modules need --v0-compatible", async () => {
    const files = { modules: { "a.rego": "package a\ntest_x { true }\n" } };
    expect(brief(await runTests([], { files, v0Compatible: true }))).to.deep.equal(["data.a.test_x: PASS"]);
    let code: string | undefined;
    try {
      await runTests([], { files });
    } catch (e) {
      code = (e as { code: string }).code;
    }
    expect(code).to.equal("rego_parse_error");
  });
});
