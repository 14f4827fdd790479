// The Rego sources of the compliance cases (../shared/compliance): modules, queries and input
// terms, read in place. Used by the frontend's parse, round-trip, golden and fuzz tests.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { sharedDir } from "./shared.js";

export interface ComplianceSource {
  note: string;
  modules?: string[];
  query?: string;
  input_term?: string;
}

let cached: ComplianceSource[] | undefined;

export function loadComplianceSources(): ComplianceSource[] {
  if (cached) return cached;
  const dir = join(sharedDir, "compliance");
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as { file: string }[];
  const out: ComplianceSource[] = [];
  for (const { file } of index) {
    const doc = JSON.parse(readFileSync(join(dir, file.replace(/^TestData\//, "")), "utf8")) as { cases: ComplianceSource[] };
    out.push(...doc.cases);
  }
  return (cached = out);
}

/** Every module text, with a name `<note>#<index>`. */
export function complianceModules(): { name: string; text: string }[] {
  return loadComplianceSources().flatMap((c) => (c.modules ?? []).map((text, i) => ({ name: `${c.note}#${i}`, text })));
}
