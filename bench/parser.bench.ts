// Parse throughput (MB of Rego source per second) over a corpus of several MB: every compliance
// module (../shared/compliance; our golden samples when it is absent), repeated. Measured as
// many separate files (how policies come) and as one large file, plus the lexer alone.
// Target: ≥ 5 MB/s.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { Lexer } from "../compiler/syntax/lexer.js";
import { parseModuleResult } from "../compiler/syntax/index.js";
import { baseKeywords, futureKeywordsV0, tt } from "../compiler/syntax/token.js";
import { median, type Bench } from "./util.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const sharedDir = process.env.REGOC_SHARED ?? join(root, "..", "shared");
const TARGET_BYTES = 5_000_000;
const ROUNDS = 7;

function corpus(): { source: string; modules: string[] } {
  const index = join(sharedDir, "compliance", "index.json");
  if (existsSync(index)) {
    const modules: string[] = [];
    for (const { file } of JSON.parse(readFileSync(index, "utf8")) as { file: string }[]) {
      const doc = JSON.parse(readFileSync(join(sharedDir, "compliance", file.replace(/^TestData\//, "")), "utf8")) as { cases: { modules?: string[] }[] };
      for (const c of doc.cases) modules.push(...(c.modules ?? []));
    }
    return { source: "compliance modules", modules };
  }
  const dir = join(root, "test", "golden", "syntax", "inputs");
  const modules = readdirSync(dir)
    .filter((f) => f.endsWith(".rego") && !f.startsWith("v0"))
    .map((f) => readFileSync(join(dir, f), "utf8"));
  return { source: "golden samples (../shared absent)", modules };
}

/** Bytes per second of `fn` over `bytes`, the median of ROUNDS timed runs after a warm-up. */
function throughput(bytes: number, fn: () => void): { mbs: number; min: number; max: number } {
  fn();
  const rates: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    rates.push(bytes / s / 1e6);
  }
  return { mbs: median(rates), min: Math.min(...rates), max: Math.max(...rates) };
}

const bench: Bench = {
  title: "Parser throughput",
  async run(): Promise<string> {
    const { source, modules } = corpus();
    const size = (s: string) => Buffer.byteLength(s, "utf8");
    const oneRound = modules.reduce((n, m) => n + size(m), 0);
    const repeats = Math.max(1, Math.ceil(TARGET_BYTES / oneRound));
    const files: string[] = [];
    for (let i = 0; i < repeats; i++) files.push(...modules);
    const filesBytes = oneRound * repeats;

    // one large module: every module's statements under one package
    const statements = modules.map((m) => m.replace(/^\s*package [^\n]*\n/m, "")).join("\n");
    let big = "package bench\n";
    while (size(big) < TARGET_BYTES) big += `${statements}\n`;
    const bigBytes = size(big);

    let failed = 0;
    for (const m of modules) if (!parseModuleResult(m).module) failed++;
    if (failed > 0) throw new Error(`${failed} corpus modules do not parse`);

    const many = throughput(filesBytes, () => {
      for (const f of files) parseModuleResult(f);
    });
    const one = throughput(bigBytes, () => {
      if (!parseModuleResult(big).module) throw new Error("the large module does not parse");
    });
    const keywords = new Map([...baseKeywords, ...futureKeywordsV0]);
    const lex = throughput(bigBytes, () => {
      const lx = new Lexer(big, keywords);
      for (lx.next(); lx.type !== tt.eof; lx.next());
    });

    const row = (what: string, bytes: number, r: { mbs: number; min: number; max: number }) =>
      `| ${what} | ${(bytes / 1e6).toFixed(1)} MB | **${r.mbs.toFixed(1)} MB/s** | ${r.min.toFixed(1)}–${r.max.toFixed(1)} |`;
    return [
      `Corpus: ${modules.length} ${source} (${(oneRound / 1e3).toFixed(0)} kB), repeated to ${(filesBytes / 1e6).toFixed(1)} MB. ` +
        `Median of ${ROUNDS} rounds after a warm-up; target ≥ 5 MB/s.`,
      "",
      "| what | input | throughput | range |",
      "|---|---|---|---|",
      row(`parseModule, ${files.length} separate modules`, filesBytes, many),
      row("parseModule, one large module", bigBytes, one),
      row("lexer alone, the large module", bigBytes, lex),
    ].join("\n");
  },
};

export default bench;
