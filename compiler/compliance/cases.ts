// Reading OPA's compliance cases (../shared/compliance: index.json + v1/<category>/*.json).
// Values are parsed without losing digits (expected results hold integers beyond 2^53).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseLossless } from "lossless-json";
import { numberFromText } from "../../runtime/value/number.js";
import type { Value } from "../../runtime/value/value.js";

export interface ComplianceCase {
  note: string;
  /** Folder under v1/, e.g. "aggregates". */
  category: string;
  file: string;
  modules?: string[];
  query?: string;
  data?: Value;
  input?: Value;
  input_term?: string;
  plan?: unknown;
  entrypoints?: string[];
  want_plan_result?: Value[];
  want_result?: Value[];
  sort_bindings?: boolean;
  want_error_code?: string;
  want_error?: string;
  strict_error?: boolean;
}

interface IndexEntry {
  file: string;
  note: string[];
}

/** The default location of the cases: ../shared/compliance next to the repository. */
export function defaultCasesDir(): string {
  return process.env.REGOC_COMPLIANCE ?? join(process.cwd(), "..", "shared", "compliance");
}

/** Loads every case (optionally only notes matching `filter`), in index order. */
export function loadCases(dir: string, filter?: RegExp): ComplianceCase[] {
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as IndexEntry[];
  const out: ComplianceCase[] = [];
  for (const entry of index) {
    if (filter && !entry.note.some((n) => filter.test(n))) continue;
    // index.json names files as "TestData/v1/<category>/<file>.json"; the folder here is v1/.
    const rel = entry.file.replace(/^TestData\//, "");
    const text = readFileSync(join(dir, rel), "utf8");
    // Plans are read as any consumer of `opa build` output reads them (plain JSON.parse); the
    // Rego values (input, data, expected results) without losing digits.
    const plain = JSON.parse(text) as { cases: ComplianceCase[] };
    const exact = parseLossless(text, null, (s: string) => numberFromText(s) ?? Number(s)) as { cases: ComplianceCase[] };
    const category = dirname(rel).split("/").pop() ?? "";
    exact.cases.forEach((c, i) => {
      if (filter && !filter.test(c.note)) return;
      out.push({ ...c, plan: plain.cases[i]?.plan, category, file: rel });
    });
  }
  return out;
}
