// The runner's report: a pass/fail table per category, a ranking of missing builtins, and the
// closing line `N passed, M failed`.
import type { Outcome } from "./run.js";

export function formatReport(outcomes: readonly Outcome[], options: { failures?: boolean } = {}): string {
  const byCategory = new Map<string, { pass: number; fail: number }>();
  const missing = new Map<string, number>();
  for (const o of outcomes) {
    const row = byCategory.get(o.category) ?? { pass: 0, fail: 0 };
    if (o.status === "pass") row.pass++;
    else {
      row.fail++;
      for (const m of o.missing ?? []) missing.set(m, (missing.get(m) ?? 0) + 1);
    }
    byCategory.set(o.category, row);
  }
  const lines: string[] = [];
  const width = Math.max(8, ...[...byCategory.keys()].map((k) => k.length));
  lines.push(`${"category".padEnd(width)}  ${"pass".padStart(5)}  ${"fail".padStart(5)}`);
  for (const [cat, row] of [...byCategory].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`${cat.padEnd(width)}  ${String(row.pass).padStart(5)}  ${String(row.fail).padStart(5)}${row.fail ? "  FAIL" : ""}`);
  }
  if (missing.size > 0) {
    lines.push("", "missing builtins (cases):");
    for (const [name, n] of [...missing].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) lines.push(`  ${name} (${n})`);
  }
  if (options.failures) {
    const failed = outcomes.filter((o) => o.status === "fail");
    if (failed.length) lines.push("", "failures:");
    for (const o of failed) if (o.status === "fail") lines.push(`  ${o.note}: [${o.kind}] ${o.reason}`);
  }
  const passed = outcomes.filter((o) => o.status === "pass").length;
  lines.push("", `${passed} passed, ${outcomes.length - passed} failed`);
  return lines.join("\n");
}
