// `regoc test --coverage`: OPA's JSON coverage report (v1/cover). A row is coverable when a rule
// head (else branches included) or an expression other than a `some` declaration starts on it; it
// is covered when the tests reached it (runtime/eval/coverage.ts records the rows generated code
// runs; a rule head's row counts once a body of the rule succeeded, as OPA's exit event). Covered rows are every row reached, coverable or not, as OPA counts them; not-covered
// rows the coverable ones never reached. Rows are grouped into runs of consecutive rows; the
// percentages count rows in those runs.
import type { Module, Rule } from "../ast/nodes.js";
import { walkExprs } from "../ast/visit.js";
import type { CoverageHits } from "../../runtime/eval/coverage.js";

export interface RowRange {
  start: { row: number };
  end: { row: number };
}

/** A file's part (OPA omits empty and zero fields). */
export interface FileCoverage {
  covered?: RowRange[];
  not_covered?: RowRange[];
  covered_lines?: number;
  not_covered_lines?: number;
  coverage?: number;
}

export interface CoverageReport {
  files: Record<string, FileCoverage>;
  covered_lines: number;
  not_covered_lines: number;
  coverage: number;
}

/** The rows of a module a test can cover, and those of them only a rule head is on (not an
 * expression). */
function coverableRows(module: Module): { rows: Set<number>; headOnly: Set<number> } {
  const rows = new Set<number>();
  const heads = new Set<number>();
  const exprs = new Set<number>();
  // a generated body (`true`, on its head's row) is an expression evaluated on the rule's entry
  for (const rule of module.rules) {
    for (let r: Rule | undefined = rule; r; r = r.else) {
      rows.add(r.head.location.row);
      heads.add(r.head.location.row);
    }
  }
  walkExprs(module, (e) => {
    if (!Array.isArray(e.terms) && e.terms.type === "some") return;
    rows.add(e.location.row);
    exprs.add(e.location.row);
  });
  return { rows, headOnly: new Set([...heads].filter((r) => !exprs.has(r))) };
}

/** Sorted rows as runs of consecutive rows. */
function ranges(rows: Iterable<number>): RowRange[] {
  const out: RowRange[] = [];
  for (const row of [...rows].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && row === last.end.row + 1) last.end = { row };
    else out.push({ start: { row }, end: { row } });
  }
  return out;
}

const lines = (rs: readonly RowRange[] | undefined): number => (rs ?? []).reduce((n, r) => n + r.end.row - r.start.row + 1, 0);
const percent = (covered: number, notCovered: number): number => (covered + notCovered === 0 ? 0 : (100 * covered) / (covered + notCovered));

/** The report for the modules (by file name) from the rows reached (by the plan's file index). */
export function coverageReport(modules: Readonly<Record<string, Module>>, files: readonly string[], hits: CoverageHits): CoverageReport {
  const report: CoverageReport = { files: {}, covered_lines: 0, not_covered_lines: 0, coverage: 0 };
  for (const file of Object.keys(modules).sort()) {
    const { rows, headOnly } = coverableRows(modules[file]!);
    // a head's row opening a block is the rule's entry: it counts when an expression is on it
    const reached = new Set<number>();
    for (const r of hits[files.indexOf(file)] ?? []) if (r > 0 || !headOnly.has(-r)) reached.add(Math.abs(r));
    const fr: FileCoverage = {};
    const covered = ranges(reached);
    const notCovered = ranges([...rows].filter((r) => !reached.has(r)));
    if (covered.length > 0) fr.covered = covered;
    if (notCovered.length > 0) fr.not_covered = notCovered;
    const c = lines(covered);
    const nc = lines(notCovered);
    if (c > 0) fr.covered_lines = c;
    if (nc > 0) fr.not_covered_lines = nc;
    const pct = percent(c, nc);
    if (pct > 0) fr.coverage = pct;
    report.files[file] = fr;
    report.covered_lines += c;
    report.not_covered_lines += nc;
  }
  report.coverage = percent(report.covered_lines, report.not_covered_lines);
  return report;
}

/** The report as `opa test --coverage` prints it (Go's JSON encoder, two-space indent). */
export function coverageJson(report: CoverageReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** OPA's message when the coverage is under `--threshold`; with `verbose`, the rows not covered. */
export function thresholdMessage(report: CoverageReport, threshold: number, verbose: boolean): string {
  const out = [`Code coverage threshold not met: got ${report.coverage.toFixed(2)} instead of ${threshold.toFixed(2)}`];
  if (verbose) {
    out.push("Lines not covered:");
    for (const file of Object.keys(report.files).sort()) {
      for (const r of report.files[file]!.not_covered ?? []) out.push(`\t${file}:${r.start.row}${r.end.row === r.start.row ? "" : `-${r.end.row}`}`);
    }
  }
  return out.join("\n");
}
