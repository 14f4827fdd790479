// `npm run bench [-- name...]`: runs bench/*.bench.ts (all, or those whose name contains an
// argument) and rewrites their sections of bench/RESULTS.md. Benchmarks compare against a baseline
// measured in the same run and report ratios; timings never gate tests.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

import type { Bench } from "./util.js";

const dir = fileURLToPath(new URL(".", import.meta.url));
const resultsPath = `${dir}RESULTS.md`;
const filters = process.argv.slice(2);
const names = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((flt) => f.includes(flt)));

let results = existsSync(resultsPath)
  ? readFileSync(resultsPath, "utf8")
  : "# Benchmark results\n\nWritten by `npm run bench`; each section is replaced when its benchmark runs.\n";

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`;
for (const file of names) {
  const key = file.replace(/\.bench\.ts$/, "");
  const bench = (await import(new URL(file, import.meta.url).href)).default as Bench;
  process.stdout.write(`== ${bench.title}\n`);
  const body = await bench.run();
  process.stdout.write(`${body}\n`);
  const section =
    `<!-- bench:${key} -->\n## ${bench.title}\n\n` +
    `_${new Date().toISOString().slice(0, 10)}, ${machine}_\n\n${body.trim()}\n<!-- /bench:${key} -->`;
  const re = new RegExp(`<!-- bench:${key} -->[\\s\\S]*?<!-- /bench:${key} -->`);
  results = re.test(results) ? results.replace(re, () => section) : `${results.trimEnd()}\n\n${section}\n`;
}
writeFileSync(resultsPath, results.endsWith("\n") ? results : `${results}\n`);

