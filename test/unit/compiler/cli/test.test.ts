// `regoc test`: OPA-compatible suites under test/fixtures/regotest run unchanged; output layout,
// JSON and exit codes as the issue and `opa test` define them.
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import testCommand from "../../../../compiler/cli/test.js";
import { tarGz } from "../../../support/bundleServer.js";
import { captureOutput, type CommandOutput } from "../../../support/cli.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const fx = "test/fixtures/regotest";
const HL = "-".repeat(80);

/** `regoc test argv` run from the repository root (the fixtures' paths are relative to it). */
async function regocTest(argv: string[]): Promise<CommandOutput> {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    return await captureOutput(() => testCommand.run(argv));
  } finally {
    process.chdir(cwd);
  }
}

/** Runs `check` on a suite written to a fresh temporary directory (files by relative path). */
async function withSuite(files: Record<string, string>, check: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "regoc-test-suite-"));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    await check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Durations vary: `(12.3µs)` → `(T)`. */
function norm(s: string): string {
  return s.replace(/ \((\d+(\.\d+)?(ns|µs|ms|s)|\d+m[\d.]+s)\)$/gm, " (T)");
}

describe("cli: regoc test", () => {
  it("a real-world v1 suite (data from .json and .yaml in subdirectories) passes unchanged", async () => {
    const r = await regocTest([`${fx}/v1`]);
    expect(r).to.include({ code: 0, out: "PASS: 7/7\n", err: "" });
  });

  it("an empty data file is null at its directory's path (data.x == null holds)", () =>
    withSuite({ "x/data.yaml": "", "p_test.rego": "package p\n\ntest_null if data.x == null\n" }, async (dir) => {
      expect(await regocTest([dir])).to.include({ code: 0, out: "PASS: 1/1\n", err: "" });
    }));

  it("--ignore skips matching files (repeatable), as opa test --ignore does", () =>
    withSuite({ "p_test.rego": "package p\n\ntest_ok if true\n", "broken.rego": "package broken\n\np if {\n", "notdata.yaml": "a: [1\n" }, async (dir) => {
      expect((await regocTest([dir])).code).to.equal(2);
      expect(await regocTest([dir, "--ignore", "broken.rego", "--ignore", "*.yaml"])).to.include({ code: 0, out: "PASS: 1/1\n", err: "" });
    }));

  it("--timeout: a test running past it is an error (eval_cancel_error), as in opa test", () =>
    withSuite({ "p_test.rego": "package p\n\ntest_slow if count([x | some x in numbers.range(1, 20000)]) > 0\n" }, async (dir) => {
      expect(await regocTest([dir])).to.include({ code: 0, out: "PASS: 1/1\n" });
      const r = await regocTest([dir, "--timeout", "1ns"]);
      expect(r.code).to.equal(1);
      expect(norm(r.out)).to.equal(`${join(dir, "p_test.rego")}:\ndata.p.test_slow: ERROR (T)\n  eval_cancel_error: caller cancelled query execution\n${HL}\nERROR: 1/1\n`);
      const bad = await regocTest([dir, "--timeout", "soon"]).catch((e: Error) => e);
      expect((bad as { code?: string }).code).to.equal("cli_usage_error");
    }));

  // opa test -b: a path is a bundle (loader AsBundle): data only from data.json/data.yaml files,
  // placed at their directory; the .manifest's roots must hold all data and may not overlap.
  const bundled = {
    ".manifest": JSON.stringify({ roots: ["p"] }),
    "p/data.json": '{"x": 1}',
    "p/schema.json": '{"not": "data"}',
    "p/p_test.rego": "package p\n\ntest_x if data.p.x == 1\n\ntest_no_schema if not data.p[\"not\"]\n",
  };
  it("-b/--bundle reads each path as a bundle directory or archive", () =>
    withSuite(bundled, async (dir) => {
      expect(await regocTest(["-b", dir])).to.include({ code: 0, out: "PASS: 2/2\n", err: "" });
      // without -b, every .json file is data
      expect((await regocTest([dir])).out).to.contain("FAIL: 1/2");
      const archive = join(dir, "..", `${dir.split("/").pop()}.tar.gz`);
      writeFileSync(archive, tarGz(bundled));
      try {
        expect(await regocTest(["--bundle", archive])).to.include({ code: 0, out: "PASS: 2/2\n", err: "" });
      } finally {
        rmSync(archive, { force: true });
      }
    }));

  it("-b: data outside the manifest's roots is a load error (exit 2)", () =>
    withSuite({ ...bundled, "q/data.json": '{"y": 1}' }, async (dir) => {
      const r = await regocTest(["-b", dir]);
      expect(r.code).to.equal(2);
      expect(r.err).to.contain("manifest roots [p] do not permit data at path '/q'");
    }));

  it("-b: a package outside the manifest's roots is a load error (exit 2)", () =>
    withSuite({ ...bundled, "q/q.rego": "package q\n\nx := 1\n" }, async (dir) => {
      const r = await regocTest(["-b", dir]);
      expect(r.code).to.equal(2);
      expect(r.err).to.contain(`manifest roots [p] do not permit 'data.q' in module '${join(dir, "q/q.rego")}'`);
    }));

  it("--count N runs the suite N times, a report each, stopping after a run that does not pass", async () => {
    const twice = await regocTest([`${fx}/v1`, "--count", "2"]);
    expect(twice).to.include({ code: 0, out: "PASS: 7/7\nPASS: 7/7\n" });
    await withSuite({ "p_test.rego": "package p\n\ntest_no if false\n" }, async (dir) => {
      const r = await regocTest([dir, "--count", "3"]);
      expect(r.code).to.equal(1);
      expect(r.out.match(/FAIL: 1\/1/g)).to.have.length(1);
    });
    const bad = await regocTest([`${fx}/v1`, "--count", "0"]).catch((e: Error) => e);
    expect((bad as { code?: string }).code).to.equal("cli_usage_error");
  });

  const explained = [
    "package p",
    "",
    'deny contains "a" if input.x > 1',
    "",
    "test_count if {",
    "\ty := 1",
    '\tcount(deny) == y with input as {"x": 0}',
    "}",
    "",
    "test_undefined if data.nope.here == 1",
    "",
    "test_ok if true",
    "",
  ].join("\n");
  it("--explain fails (and -v): the expression a failed test stopped at, and its operands' values", () =>
    withSuite({ "p_test.rego": explained }, async (dir) => {
      const file = join(dir, "p_test.rego");
      const want = [
        `${file}:`,
        "data.p.test_count: FAIL (T)",
        `  failed at ${file}:7: count(deny) == y with input as {"x": 0}`,
        "    count(deny) = 0",
        "    y = 1",
        "data.p.test_undefined: FAIL (T)",
        `  failed at ${file}:10: data.nope.here == 1`,
        "    data.nope.here = undefined",
        HL,
        "PASS: 1/3",
        "FAIL: 2/3",
        "",
      ];
      const r = await regocTest([dir, "--explain", "fails"]);
      expect(r.code).to.equal(1);
      expect(norm(r.out)).to.equal(want.join("\n"));
      expect(norm((await regocTest([dir, "-v"])).out)).to.contain(want.slice(1, 5).join("\n"));
      // without either, no explanation (and no second compile)
      expect((await regocTest([dir])).out).to.not.contain("failed at");
      const bad = await regocTest([dir, "--explain", "full"]).catch((e: Error) => e);
      expect((bad as { code?: string }).code).to.equal("cli_usage_error");
    }));

  it("a real-world v0 suite passes with --v0-compatible, and is a parse error (exit 2) without", async () => {
    expect(await regocTest([`${fx}/v0`, "--v0-compatible"])).to.include({ code: 0, out: "PASS: 5/5\n" });
    const r = await regocTest([`${fx}/v0`]);
    expect(r.code).to.equal(2);
    expect(r.out).to.equal("");
    expect(r.err).to.match(/^\d+ errors? occurred:/);
    expect(r.err).to.contain("rego_parse_error");
  });

  it("a v0 suite mocking builtins and functions with `with` (time.now_ns, http.send, a rule's function)", async () => {
    expect(await regocTest([`${fx}/v0-mocks`, "--v0-compatible"])).to.include({ code: 0, out: "PASS: 4/4\n", err: "" });
  });

  it("-v lists every test under its file, in source order", async () => {
    const r = await regocTest(["-v", `${fx}/v0`, "--v0-compatible"]);
    expect(norm(r.out)).to.equal(
      [
        `${fx}/v0/admission_test.rego:`,
        "data.kubernetes.admission.test_trusted_image_allowed: PASS (T)",
        "data.kubernetes.admission.test_untrusted_image_denied: PASS (T)",
        "data.kubernetes.admission.test_missing_limit_denied: PASS (T)",
        "data.kubernetes.admission.test_other_kinds_ignored: PASS (T)",
        "data.kubernetes.admission.test_two_bad_containers: PASS (T)",
        HL,
        "PASS: 5/5",
        "",
      ].join("\n"),
    );
  });

  it("every outcome: failures and errors by default, errors indented, print output, duplicates, exit 1", async () => {
    const r = await regocTest([`${fx}/mixed`]);
    expect(r.code).to.equal(1);
    const file = `${fx}/mixed/mixed_test.rego`;
    expect(norm(r.out)).to.equal(
      [
        `${file}:`,
        "data.mixed.test_fail: FAIL (T)",
        "data.mixed.test_undefined_fails: FAIL (T)",
        "data.mixed.test_non_boolean_fails: FAIL (T)",
        "data.mixed.test_error: ERROR (T)",
        `  ${file}:4: eval_conflict_error: complete rules must not produce multiple outputs`,
        "data.mixed.todo_test_later: SKIPPED",
        "data.mixed.test_prints_and_fails: FAIL (T)",
        "",
        "  about to fail",
        "",
        "data.mixed.test_dup#01: FAIL (T)",
        HL,
        "PASS: 3/10",
        "FAIL: 5/10",
        "SKIPPED: 1/10",
        "ERROR: 1/10",
        "",
      ].join("\n"),
    );
  });

  it("-v shows passing tests and their print output too", async () => {
    const r = await regocTest([`${fx}/mixed`, "-v"]);
    expect(norm(r.out)).to.contain(["data.mixed.test_prints: PASS (T)", "", '  hello {"a": [1, 2]}', "", "data.mixed.test_prints_and_fails"].join("\n"));
    expect(norm(r.out)).to.contain("data.mixed.test_dup: PASS (T)\ndata.mixed.test_dup#01: FAIL (T)\n");
  });

  it("--run filters by full name (a regular expression)", async () => {
    const r = await regocTest([`${fx}/mixed`, "--run", "test_(pass|dup)$", "-v"]);
    expect(r.code).to.equal(0);
    expect(norm(r.out)).to.equal([`${fx}/mixed/mixed_test.rego:`, "data.mixed.test_pass: PASS (T)", "data.mixed.test_dup: PASS (T)", HL, "PASS: 2/2", ""].join("\n"));
  });

  it("partial-object tests report their sub-results", async () => {
    const r = await regocTest([`${fx}/partial`]);
    expect(r.code).to.equal(1);
    expect(norm(r.out)).to.equal(
      [
        `${fx}/partial/cases_test.rego:`,
        "data.cases.test_concat: FAIL (T)",
        "  wrong on purpose: FAIL",
        HL,
        "PASS: 4/5",
        "FAIL: 1/5",
        "",
      ].join("\n"),
    );
  });

  it("--format json is OPA's array of results", async () => {
    const r = await regocTest([`${fx}/mixed`, "--format", "json"]);
    expect(r.code).to.equal(1);
    const json = JSON.parse(r.out) as Record<string, unknown>[];
    expect(json.map((t) => t.name)).to.deep.equal([
      "test_pass",
      "test_fail",
      "test_undefined_fails",
      "test_non_boolean_fails",
      "test_error",
      "todo_test_later",
      "test_prints",
      "test_prints_and_fails",
      "test_dup",
      "test_dup#01",
    ]);
    const byName = Object.fromEntries(json.map((t) => [t.name, t]));
    expect(byName.test_pass).to.have.all.keys("location", "package", "name", "duration");
    expect(byName.test_pass!.package).to.equal("data.mixed");
    expect(byName.test_pass!.location).to.deep.equal({ file: `${fx}/mixed/mixed_test.rego`, row: 8, col: 1 });
    expect(byName.test_fail!.fail).to.equal(true);
    expect(byName.todo_test_later).to.deep.include({ skip: true, duration: 0 });
    expect((byName.test_error!.error as { code: string }).code).to.equal("eval_conflict_error");
    expect(Buffer.from(byName.test_prints!.output as string, "base64").toString()).to.equal('hello {"a": [1, 2]}\n');
    expect(byName.test_pass!.duration).to.be.a("number").greaterThan(0);
  });

  it("compile errors: exit 2, the errors on stderr as OPA prints them, nothing on stdout", async () => {
    const r = await regocTest([`${fx}/compile-error`]);
    expect(r).to.include({ code: 2, out: "" });
    expect(r.err).to.equal(`1 error occurred: ${fx}/compile-error/bad.rego:4: rego_unsafe_var_error: var x is unsafe\n`);
  });

  it("usage mistakes are cli_usage_error (exit 2 from the CLI)", async () => {
    for (const argv of [[], [`${fx}/v1`, "--format", "xml"], [`${fx}/v1`, "--run", "("], [`${fx}/v1`, "--bogus"], ["does/not/exist"]]) {
      let code: string | undefined;
      try {
        await regocTest(argv);
      } catch (e) {
        code = (e as { code?: string }).code;
      }
      expect(code, argv.join(" ")).to.equal("cli_usage_error");
    }
  });

  describe("--coverage and --threshold (OPA's JSON coverage report)", () => {
    // p.rego: allow (rows 3-4) is reached, deny (rows 6-7) never: 2 of 4 rows; p_test.rego: 1 of 1.
    const suite = {
      "p.rego": "package p\n\nallow if {\n\tinput.x == 1\n}\ndeny if {\n\tinput.x == 2\n}\n",
      "p_test.rego": 'package p\n\ntest_allow if allow with input as {"x": 1}\n',
    };

    it("prints the report: covered and not covered rows, OPA's percentages", () =>
      withSuite(suite, async (dir) => {
        const r = await regocTest(["--coverage", dir]);
        expect(r).to.include({ code: 0, err: "" });
        const report = JSON.parse(r.out) as { files: Record<string, unknown>; coverage: number };
        expect(report.files[join(dir, "p.rego")]).to.deep.equal({
          covered: [{ start: { row: 3 }, end: { row: 4 } }],
          not_covered: [{ start: { row: 6 }, end: { row: 7 } }],
          covered_lines: 2,
          not_covered_lines: 2,
          coverage: 50,
        });
        expect(report).to.include({ covered_lines: 3, not_covered_lines: 2, coverage: 60 });
        expect(r.out).to.match(/^\{\n {2}"files": \{\n/);
      }));

    it("--threshold: under it is exit 2 with OPA's message (-v: the rows not covered); at or over it passes", () =>
      withSuite(suite, async (dir) => {
        expect(await regocTest(["-c", "--threshold", "100", dir])).to.deep.include({ code: 2, out: "", err: "Code coverage threshold not met: got 60.00 instead of 100.00\n" });
        const v = await regocTest(["-c", "--threshold", "100", "-v", dir]);
        expect(v.err).to.equal(`Code coverage threshold not met: got 60.00 instead of 100.00\nLines not covered:\n\t${join(dir, "p.rego")}:6-7\n`);
        expect((await regocTest(["-c", "--threshold", "60", dir])).code).to.equal(0);
        expect((await regocTest(["-c", "--threshold", "50", dir])).code).to.equal(0);
        expect(await regocTest(["-c", "--threshold", "101", dir])).to.deep.include({ code: 1, out: "", err: "Code coverage threshold must be between 0 and 100\n" });
      }));

    it("a failing test: no report, the test on stderr, exit 1", () =>
      withSuite({ ...suite, "q_test.rego": "package p\n\ntest_deny if deny\n" }, async (dir) => {
        const r = await regocTest(["--coverage", dir]);
        expect(r.code).to.equal(1);
        expect(r.out).to.equal("");
        expect(norm(r.err)).to.equal("data.p.test_deny: FAIL (T)\n");
      }));
  });

  describe("through the regoc binary", function () {
    this.timeout(90_000);
    function bin(args: string[]) {
      return spawnSync(process.execPath, ["bin/regoc.js", "test", ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });
    }

    it("regoc test policies/: every policy test passes", () => {
      const r = bin(["policies/"]);
      expect(r.stderr).to.equal("");
      expect(r.status).to.equal(0);
      expect(r.stdout).to.match(/^PASS: (\d+)\/\1\n$/);
      expect(Number(/PASS: (\d+)/.exec(r.stdout)![1])).to.be.greaterThan(50);
    });

    it("exit codes: 1 on failures, 2 on compile errors", () => {
      expect(bin([`${fx}/mixed`]).status).to.equal(1);
      expect(bin([`${fx}/compile-error`]).status).to.equal(2);
    });
  });
});
