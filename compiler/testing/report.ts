// Test reports in `opa test`'s two formats (v1/tester/reporter.go).
//
// Pretty: the tests to show (failures and errors by default, every test with -v), under a
// `file:` header per file, each as `data.pkg.test_x: PASS (<duration>)`; print() output indented
// under its test; an error indented under its test; then a line of 80 `-` (when anything was
// shown) and the summary `PASS: p/t`, `FAIL: f/t`, `SKIPPED: s/t`, `ERROR: e/t` (each only when
// non-zero). A partial-object test counts each leaf sub-result. Evaluation traces are not
// available (regoc has no tracer): with --explain fails (or -v) a failed test shows the expression
// it failed at and its operands' values instead (explain.ts).
//
// JSON: the array of results, with OPA's field names; `duration` in nanoseconds, `output` base64.
import type { RegoError } from "../../runtime/errors.js";
import type { Explanation } from "./explain.js";
import type { SubResult, TestResult } from "./runner.js";

export interface Summary {
  pass: number;
  fail: number;
  skip: number;
  error: number;
  total: number;
}

export function summarize(results: readonly TestResult[]): Summary {
  const s: Summary = { pass: 0, fail: 0, skip: 0, error: 0, total: 0 };
  for (const r of results) {
    if (r.skip) s.skip++;
    else if (r.error) s.error++;
    else if (r.subResults.length > 0) {
      for (const leaf of leaves(r.subResults)) leaf.fail ? s.fail++ : s.pass++;
    } else if (r.fail) s.fail++;
    else s.pass++;
  }
  s.total = s.pass + s.fail + s.skip + s.error;
  return s;
}

function* leaves(subs: readonly SubResult[]): Generator<SubResult> {
  for (const s of subs) {
    if (s.subResults.length === 0) yield s;
    else yield* leaves(s.subResults);
  }
}

export function outcome(r: TestResult): "PASS" | "FAIL" | "SKIPPED" | "ERROR" {
  if (r.skip) return "SKIPPED";
  if (r.error) return "ERROR";
  return r.fail ? "FAIL" : "PASS";
}

/** `data.pkg.test_x: PASS (<duration>)`; skipped tests have no duration. */
export function resultLine(r: TestResult): string {
  const head = `${r.package}.${r.name}: ${outcome(r)}`;
  return r.skip ? head : `${head} (${formatDuration(r.duration)})`;
}

/** An error as OPA prints it: `file:row: code: message`. */
export function formatTestError(e: RegoError): string {
  const loc = e.location;
  const where = loc ? (loc.file ? `${loc.file}:${loc.row}: ` : `${loc.row}:${loc.col}: `) : "";
  return `${where}${e.code}: ${e.message}`;
}

export function prettyReport(results: readonly TestResult[], verbose: boolean): string {
  const out: string[] = [];
  let lastFile: string | undefined;
  let dirty = false;
  for (const r of results) {
    const passed = outcome(r) === "PASS";
    if (verbose || !passed) {
      if (r.location.file !== lastFile) {
        if (lastFile !== undefined) out.push("");
        out.push(`${r.location.file}:`);
        lastFile = r.location.file;
      }
      dirty = true;
      out.push(resultLine(r));
      for (const { depth, sub } of walkSubs(r.subResults, 0)) {
        if (sub.fail || verbose) out.push(`  ${"  ".repeat(depth)}${sub.name}: ${sub.fail ? "FAIL" : "PASS"}`);
      }
      if (r.explanation) out.push(...explanationLines(r.explanation, "", "  "));
      if (r.output.length > 0) {
        out.push("");
        out.push(indent(r.output.trim()));
        out.push("");
      }
    }
    if (r.error) out.push(indent(formatTestError(r.error)));
  }
  if (dirty) out.push("-".repeat(80));
  const s = summarize(results);
  if (s.pass) out.push(`PASS: ${s.pass}/${s.total}`);
  if (s.fail) out.push(`FAIL: ${s.fail}/${s.total}`);
  if (s.skip) out.push(`SKIPPED: ${s.skip}/${s.total}`);
  if (s.error) out.push(`ERROR: ${s.error}/${s.total}`);
  return out.length > 0 ? `${out.join("\n")}\n` : "";
}

/** `--explain fails`: `failed at file:row: <expression>`, then `  <operand> = <value>` each, all
 * indented by `indent`; `file` names a location without one (a query). */
export function explanationLines(e: Explanation, file = "", indent = ""): string[] {
  const text = e.text.split("\n").join(`\n${indent}  `);
  return [`${indent}failed at ${e.location.file || file}:${e.location.row}: ${text}`, ...e.values.map((v) => `${indent}  ${v.text} = ${v.value ?? "undefined"}`)];
}

function* walkSubs(subs: readonly SubResult[], depth: number): Generator<{ depth: number; sub: SubResult }> {
  for (const sub of subs) {
    yield { depth, sub };
    yield* walkSubs(sub.subResults, depth + 1);
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

export function jsonReport(results: readonly TestResult[]): string {
  const report = results.map((r) => {
    const o: Record<string, unknown> = { location: r.location, package: r.package, name: r.name };
    if (r.error) o.error = r.error.toJSON();
    if (r.fail) o.fail = true;
    if (r.skip) o.skip = true;
    o.duration = r.duration;
    if (r.output.length > 0) o.output = Buffer.from(r.output, "utf8").toString("base64");
    if (r.subResults.length > 0) o.sub_results = subJSON(r.subResults);
    return o;
  });
  return `${JSON.stringify(report, null, 2)}\n`;
}

function subJSON(subs: readonly SubResult[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of subs) {
    const o: Record<string, unknown> = { name: s.name };
    if (s.fail) o.fail = true;
    if (s.subResults.length > 0) o.sub_results = subJSON(s.subResults);
    out[s.name] = o;
  }
  return out;
}

/** Go's time.Duration.String(): zero is "0s"; under a second one unit (ns, µs or ms) with up to
 * three decimals; from a second on hours, minutes and seconds ("1m30s"). */
export function formatDuration(ns: number): string {
  const d = Math.max(0, Math.round(ns));
  if (d === 0) return "0s";
  if (d < 1e3) return `${d}ns`;
  if (d < 1e6) return `${trimFraction(d, 1e3)}µs`;
  if (d < 1e9) return `${trimFraction(d, 1e6)}ms`;
  const totalSeconds = d / 1e9;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds - h * 3600) / 60);
  const secNs = d - (h * 3600 + m * 60) * 1e9;
  const sec = `${trimFraction(secNs, 1e9)}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

/** n / unit with every significant digit of n kept, trailing zeros dropped (as Go prints). */
function trimFraction(n: number, unit: number): string {
  const whole = Math.floor(n / unit);
  const digits = Math.round(Math.log10(unit));
  const frac = String(n - whole * unit).padStart(digits, "0").replace(/0+$/, "");
  return frac === "" ? String(whole) : `${whole}.${frac}`;
}
