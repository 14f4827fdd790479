// Runs Rego tests: load the paths, discover the tests, compile every module with one plan entrypoint
// per test (print() kept, its output captured per test), and evaluate each test once:
//   true                                  → PASS
//   false, undefined, any other value     → FAIL
//   an error                              → ERROR (with the error)
//   todo_test_*                           → SKIPPED (not evaluated)
// A partial-object test (`test_x[note] if ...`) passes when every leaf of its object is true;
// each key is a sub-result, as in OPA. Builtin errors are not raised (OPA's default for `opa test`).
// Load and compile errors are thrown (RegoError / RegoErrors): no test runs.
import { asRegoError } from "../../runtime/decision.js";
import { RegoError } from "../../runtime/errors.js";
import { withDeadline } from "./timeout.js";
import type { EntrypointInfo } from "../../runtime/eval/prepared.js";
import type { GeneratedModule } from "../index.js";
import type { Capabilities } from "../builtins/decls.js";
import type { JSONValue } from "../../runtime/value/json.js";
import type { CoverageHits } from "../../runtime/eval/coverage.js";
import type { Value } from "../../runtime/value/value.js";
import { discoverTests, type TestCase } from "./discover.js";
import { explainFailure, type Explanation } from "./explain.js";
import { loadBundles, loadSources } from "../cli/sources.js";
import { coverageReport, type CoverageReport } from "./coverage.js";

export interface SubResult {
  name: string;
  fail: boolean;
  subResults: SubResult[];
}

export interface TestResult {
  location: { file: string; row: number; col: number };
  package: string;
  name: string;
  error?: RegoError;
  fail: boolean;
  skip: boolean;
  /** Nanoseconds. */
  duration: number;
  /** What print() wrote, one line per call. */
  output: string;
  subResults: SubResult[];
  /** With `explain`: where a failed test stopped and the values there. */
  explanation?: Explanation;
}

export interface RunTestsOptions {
  /** Only tests whose full name (`data.pkg.test_x`) matches. */
  run?: RegExp;
  v0Compatible?: boolean;
  /** OPA's `--timeout` per test, in milliseconds (default 5 s; 0: none). A synchronous test is
   * not interrupted: one that ran longer is reported as cancelled once it ends; an asynchronous
   * one (http.send) is abandoned at the timeout. */
  timeoutMs?: number;
  /** OPA's `--bundle`: each path is a bundle directory or archive (sources.ts loadBundles). */
  bundle?: boolean;
  /** `--explain fails`: explain each failed test (see explain.ts). */
  explain?: boolean;
  /** OPA's `--ignore`: patterns on file and directory names below the paths. */
  ignore?: readonly string[];
  /** The builtins the policies may call (default: OPA's; `--capabilities`, `--builtins`). */
  capabilities?: Capabilities;
  /** Sources and data given directly instead of loaded from paths (for tests of the runner). */
  files?: { modules: Record<string, string>; data?: Record<string, unknown> };
}

export async function runTests(paths: readonly string[], options: RunTestsOptions = {}): Promise<TestResult[]> {
  return (await run(paths, options, false)).results;
}

/** The tests' results and OPA's coverage report of the rows they reached (`--coverage`). */
export async function runTestsWithCoverage(paths: readonly string[], options: RunTestsOptions = {}): Promise<{ results: TestResult[]; coverage: CoverageReport }> {
  const r = await run(paths, options, true);
  return { results: r.results, coverage: r.coverage! };
}

async function run(paths: readonly string[], options: RunTestsOptions, coverage: boolean): Promise<{ results: TestResult[]; coverage?: CoverageReport }> {
  const load = { ignore: options.ignore ?? [] };
  const loaded = options.files ? { modules: options.files.modules, data: options.files.data ?? {} } : options.bundle ? await loadBundles(paths, { ...load, v0Compatible: options.v0Compatible === true }) : loadSources(paths, load);
  const v0 = options.v0Compatible === true;
  const { modules, parsed, tests } = discoverTests(loaded.modules, v0);
  const selected = tests.filter((t) => !options.run || options.run.test(t.fullName));
  const torun = selected.filter((t) => !t.skip);
  const compile: CompileOptions = { v0Compatible: v0, ...(options.capabilities && { capabilities: options.capabilities }) };
  const { table, files } = await compileTests(modules, torun, coverage ? { ...compile, coverage } : compile);
  // Values are read with the runtime instance the generated module uses (imported the same way).
  const { toJSON } = await import("../../runtime/value/json.js");
  const results: TestResult[] = [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { recordCoverage } = await import("../../runtime/eval/coverage.js");
  const hits: CoverageHits = [];
  if (coverage) recordCoverage(hits);
  try {
    for (const t of selected) results.push(t.skip ? skipped(t) : await runOne(t, table[t.entrypoint]!, loaded.data, toJSON as ToJSON, timeoutMs));
  } finally {
    if (coverage) recordCoverage(undefined);
  }
  if (coverage) return { results, coverage: coverageReport(parsed, files, hits) };
  if (options.explain) await explainFailures(selected, results, modules, loaded.data, compile, timeoutMs);
  return { results };
}

type ToJSON = (v: unknown) => JSONValue;

/** How the tests' modules are compiled (the same for the run and for `--explain`). */
export interface CompileOptions {
  v0Compatible: boolean;
  capabilities?: Capabilities;
  /** Code that records the rows it runs (GenerateOptions.coverage), unoptimised. */
  coverage?: boolean;
}

function compileTests(modules: Record<string, string>, tests: TestCase[], options: CompileOptions): Promise<{ table: Record<string, EntrypointInfo>; files: string[] }> {
  return compileModule(modules, [...new Set(tests.map((t) => t.entrypoint))], options);
}

async function compileEntrypoints(modules: Record<string, string>, entrypoints: string[], options: CompileOptions): Promise<Record<string, EntrypointInfo>> {
  return (await compileModule(modules, entrypoints, options)).table;
}

/** The entrypoints' table, and the plan's file names (what coverage's file indexes name). */
async function compileModule(modules: Record<string, string>, entrypoints: string[], options: CompileOptions): Promise<{ table: Record<string, EntrypointInfo>; files: string[] }> {
  const generated = await generateTests(modules, entrypoints, options);
  if (!generated) return { table: {}, files: [] };
  const { loadModule } = await import("../index.js");
  const mod = await loadModule(generated.code, generated);
  return { table: mod.entrypoints as Record<string, EntrypointInfo>, files: generated.files };
}

/** The code of the tests' entrypoints (one plan, one module), or undefined when there is none. */
export async function generateTests(modules: Record<string, string>, entrypoints: string[], options: CompileOptions): Promise<(GeneratedModule & { files: string[] }) | undefined> {
  const { planRego, generateTypeScript } = await import("../index.js");
  const { isBuiltin, missingBuiltinsError } = await import("../../runtime/builtins/catalog.js");
  if (Object.keys(modules).length === 0) return undefined;
  // With no test to run, still compile the modules (a query of `true`), as opa test does.
  const { coverage, ...planOptions } = options;
  const plan = planRego(entrypoints.length > 0 ? { modules, entrypoints, ...planOptions, print: true } : { modules, query: "true", ...planOptions });
  if (entrypoints.length === 0) return undefined;
  const generated = generateTypeScript(plan, { language: "function", ...(coverage === true && { coverage, optimize: false }) });
  const missing = generated.builtins.filter((b) => !isBuiltin(b));
  if (missing.length > 0) throw missingBuiltinsError(missing);
  return { ...generated, files: plan.static.files.map((f) => f.value) };
}

function base(t: TestCase): TestResult {
  return { location: t.location, package: t.package, name: t.name, fail: false, skip: false, duration: 0, output: "", subResults: [] };
}

function skipped(t: TestCase): TestResult {
  return { ...base(t), skip: true };
}

/** A failed test (not an error, not a partial-object test) evaluated again in parts. */
async function explainFailures(tests: TestCase[], results: TestResult[], modules: Record<string, string>, data: Record<string, unknown>, options: CompileOptions, timeoutMs: number): Promise<void> {
  const { termString } = await import("../../runtime/builtins/termString.js");
  const evaluate = async (info: EntrypointInfo) => {
    const out = await withDeadline((deadline) => (info.fn as (i: unknown, d: unknown, o: unknown) => unknown)(undefined, data, deadline), timeoutMs);
    return info.kind === "resultset" ? firstValue(out) : out;
  };
  const compile = (mods: Record<string, string>, entrypoints: string[]) => compileEntrypoints(mods, entrypoints, options);
  for (let i = 0; i < tests.length; i++) {
    const r = results[i]!;
    if (!r.fail || r.error || r.subResults.length > 0 || tests[i]!.partialObject) continue;
    const e = await explainFailure(tests[i]!, modules, compile, evaluate, (v) => termString(v as Value));
    if (e) r.explanation = e;
  }
}

/** OPA's default --timeout. */
const DEFAULT_TIMEOUT_MS = 5000;

async function runOne(t: TestCase, info: EntrypointInfo, data: Record<string, unknown>, toJSON: ToJSON, timeoutMs: number): Promise<TestResult> {
  const r = base(t);
  const lines: string[] = [];
  const options = { print: (m: string) => lines.push(m) };
  const fn = info.fn as (input: unknown, data: unknown, options: unknown) => unknown;
  const t0 = process.hrtime.bigint();
  let out: unknown;
  try {
    out = await withDeadline((deadline) => fn(undefined, data, { ...options, ...deadline }), timeoutMs);
  } catch (e) {
    r.error = asRegoError(e);
  }
  r.duration = Number(process.hrtime.bigint() - t0);
  if (lines.length > 0) r.output = lines.map((l) => `${l}\n`).join("");
  if (r.error) return r;
  const value = info.kind === "resultset" ? firstValue(out) : out;
  if (value === undefined) r.fail = true;
  else if (t.partialObject) {
    // Sets become arrays and non-string keys strings: only a real object has sub-results.
    const json = toJSON(value);
    if (typeof json === "object" && json !== null && !Array.isArray(json) && Object.keys(json).length > 0) {
      r.subResults = subResults(json);
      r.fail = r.subResults.some((s) => s.fail);
    } else r.fail = value !== true;
  } else r.fail = value !== true;
  return r;
}

function firstValue(rows: unknown): unknown {
  const rs = rows as Record<string, unknown>[];
  if (!Array.isArray(rs) || rs.length === 0) return undefined;
  const row = rs[0]!;
  const keys = Object.keys(row);
  return keys.length === 0 ? undefined : row[keys[0]!];
}

/** OPA's sub-results: one per key, sorted by key; nested objects nest, booleans pass when true. */
function subResults(json: { [key: string]: JSONValue }): SubResult[] {
  return Object.keys(json)
    .sort()
    .map((k) => {
      const x = json[k];
      if (typeof x === "object" && x !== null && !Array.isArray(x)) {
        const subs = subResults(x);
        return { name: k, fail: subs.some((s) => s.fail), subResults: subs };
      }
      return { name: k, fail: x !== true, subResults: [] };
    });
}
