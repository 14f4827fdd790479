// `regoc test <paths...> [-v] [--run REGEX] [--v0-compatible] [--format pretty|json]`
// Runs the Rego tests under the paths as `opa test` does and prints its report (compiler/testing).
// Exit code: 0 when every test passed (skipped tests allowed), 1 on any failure or error, 2 on load
// or compile errors and usage mistakes.
import { parseArgs } from "node:util";
import { isRegoErrorLike } from "../../runtime/decision.js";
import { RegoError } from "../../runtime/errors.js";
import { coverageJson, thresholdMessage } from "../testing/coverage.js";
import { formatTestError, jsonReport, outcome, prettyReport, resultLine, summarize } from "../testing/report.js";
import { runTests, runTestsWithCoverage, type RunTestsOptions, type TestResult } from "../testing/runner.js";
import type { CliCommand } from "../cli.js";
import type { Capabilities } from "../builtins/decls.js";
import { BUILTINS_OPTIONS, BUILTINS_USAGE, withRunBuiltins } from "./runBuiltins.js";
import { parseTimeout } from "../testing/timeout.js";
import { usageError } from "./errors.js";

const USAGE = "usage: regoc test <path> [path ...] [-v] [--run REGEX] [--ignore GLOB]... [--timeout DURATION] [--explain fails] [-b] [--count N] [-c [--threshold PCT]] [--builtins MODULE] [--capabilities FILE] [--v0-compatible] [--format pretty|json]";

function usage(message: string): RegoError {
  return usageError(message, USAGE);
}

/** OPA's error list text: `1 error occurred: file:row: code: message`, or `N errors occurred:` + lines. */
export function formatErrors(e: RegoError): string {
  const nested = (e as { errors?: unknown }).errors;
  const list = Array.isArray(nested) && nested.length > 0 ? (nested as RegoError[]) : [e];
  const one = (x: RegoError): string => {
    const loc = x.location;
    return `${loc ? `${loc.file}:${loc.row}: ` : ""}${x.code}: ${x.message}`;
  };
  if (list.length === 1) return `1 error occurred: ${one(list[0]!)}`;
  return `${list.length} errors occurred:\n${list.map(one).join("\n")}`;
}

/** OPA's `--coverage` run: the JSON report when every test passed and the coverage reaches the
 * threshold; else the first test that did not pass (exit 1) or the threshold's message (exit 2),
 * on stderr. */
async function coverageRun(paths: string[], options: RunTestsOptions, threshold: number, verbose: boolean): Promise<number> {
  const { results, coverage } = await runTestsWithCoverage(paths, options);
  const failed = results.find((r) => outcome(r) !== "PASS");
  if (failed) {
    process.stderr.write(`${failed.error ? formatTestError(failed.error) : resultLine(failed)}\n`);
    return 1;
  }
  if (coverage.coverage < threshold) {
    process.stderr.write(`${thresholdMessage(coverage, threshold, verbose)}\n`);
    return 2;
  }
  process.stdout.write(coverageJson(coverage));
  return 0;
}

const command: CliCommand = {
  summary: "run Rego tests (test_* rules) as `opa test` does",
  usage: "usage: regoc test <paths...> [-v] [--run REGEX] [--ignore GLOB]... [--timeout DURATION] [--explain fails] [-b] [--count N] [-c [--threshold PCT]] [--builtins MODULE] [--capabilities FILE] [--v0-compatible] [--format pretty|json]\n  -v          list every test, not only failures and errors\n  --run       only tests whose name matches\n  --ignore    skip files and directories whose name matches (Go filepath.Match: *.yaml, vendor; repeatable)\n  -b, --bundle  each path is a bundle (directory or .tar.gz): data only from data.json/data.yaml, .manifest roots checked\n  --count     run the tests N times, a report each, stopping after a run that does not pass\n  -c, --coverage  print OPA's JSON coverage report instead (a test that does not pass is printed to stderr, exit 1)\n  --threshold with --coverage: exit 2 when the coverage (0-100) is under it\n" +
    BUILTINS_USAGE +
    "\n  --explain   fails: show where each failed test stopped and the values there (also with -v)\n  --timeout   per test, as a Go duration (default 5s; 0: none); a test over it is an error (eval_cancel_error)\n  exit 0: all passed; 1: a test failed or errored; 2: load or compile errors",
  async run(argv) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: {
          verbose: { type: "boolean", short: "v", default: false },
          run: { type: "string", short: "r" },
          ignore: { type: "string", multiple: true },
          timeout: { type: "string" },
          explain: { type: "string" },
          bundle: { type: "boolean", short: "b", default: false },
          count: { type: "string" },
          coverage: { type: "boolean", short: "c", default: false },
          threshold: { type: "string" },
          ...BUILTINS_OPTIONS,
          "v0-compatible": { type: "boolean", default: false },
          format: { type: "string", short: "f", default: "pretty" },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw usage((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length === 0) throw usage("specify at least one file");
    const format = values.format ?? "pretty";
    if (format !== "pretty" && format !== "json") throw usage(`--format must be pretty or json, not '${format}'`);
    let run: RegExp | undefined;
    if (values.run !== undefined) {
      try {
        run = new RegExp(values.run);
      } catch (e) {
        throw usage(`--run: ${(e as Error).message}`);
      }
    }

    const timeoutMs = values.timeout === undefined ? undefined : parseTimeout(values.timeout);
    // OPA's modes are fails (its default), full, notes and debug: only fails has a counterpart here
    if (values.explain !== undefined && values.explain !== "fails") throw usage(`--explain: '${values.explain}' is not supported (only 'fails')`);
    const explain = values.explain !== undefined || values.verbose === true;

    const count = values.count === undefined ? 1 : Number(values.count);
    if (!Number.isSafeInteger(count) || count < 1) throw usage(`--count must be a positive integer, not '${values.count}'`);

    const threshold = values.threshold === undefined ? 0 : Number(values.threshold);
    if (values.threshold === undefined ? false : values.threshold.trim() === "" || Number.isNaN(threshold)) throw usage(`--threshold must be a number, not '${values.threshold}'`);
    if (!(threshold >= 0 && threshold <= 100)) {
      process.stderr.write("Code coverage threshold must be between 0 and 100\n");
      return 1;
    }

    const runs = async (capabilities: Capabilities | undefined): Promise<number> => {
      // OPA's --count: the whole run again, each with its report, until one does not pass
      for (let i = 0; i < count; i++) {
        const options: RunTestsOptions = { run, v0Compatible: values["v0-compatible"], ignore: values.ignore ?? [], explain, bundle: values.bundle === true, ...(timeoutMs !== undefined && { timeoutMs }), ...(capabilities && { capabilities }) };
        if (values.coverage === true) {
          const code = await coverageRun(positionals, options, threshold, values.verbose === true);
          if (code !== 0) return code;
          continue;
        }
        const results: TestResult[] = await runTests(positionals, options);
        process.stdout.write(format === "json" ? jsonReport(results) : prettyReport(results, values.verbose === true));
        const s = summarize(results);
        if (s.fail > 0 || s.error > 0) return 1;
      }
      return 0;
    };
    try {
      return await withRunBuiltins(values, runs);
    } catch (e) {
      if (!isRegoErrorLike(e) || e.code === "cli_usage_error") throw e;
      process.stderr.write(`${formatErrors(e)}\n`);
      return 2;
    }
  },
};

export default command;
