// Test-suite benchmark: `regoc test` over a synthesised suite in the shape of a large user suite
// (bench/suite.ts: 168 v1 modules, about 1000 tests with `with` on input, data and functions),
// run in a child process: wall time, peak RSS, the tests' results; and the size of the code the
// suite's plan generates (compiler/testing/runner.ts generateTests, in this process).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSources } from "../compiler/cli/sources.js";
import { discoverTests } from "../compiler/testing/discover.js";
import { generateTests } from "../compiler/testing/runner.js";
import { writeSuite } from "./suite.js";
import type { Bench } from "./util.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const TIME = "/usr/bin/time";

interface Run {
  wallMs: number;
  maxRssKb: number;
  summary: string;
}

/** `regoc test dir` in a child process, under /usr/bin/time -v when there is one (else the child's
 * own wall clock, and its resourceUsage at exit for the peak RSS). */
function runSuite(dir: string): Run {
  const flags = ["--no-experimental-require-module", "--conditions=regoc-source", "--import", "tsx"];
  const cli = join(root, "compiler/cli.ts");
  if (existsSync(TIME)) {
    const t0 = Date.now();
    const r = spawnSync(TIME, ["-v", process.execPath, ...flags, cli, "test", dir], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
    const wallMs = Date.now() - t0;
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    return { wallMs, maxRssKb: rss ? Number(rss[1]) : NaN, summary: summaryOf(r.stdout) };
  }
  const probe = `process.on("exit", () => process.stderr.write("maxrss " + process.resourceUsage().maxRSS + "\\n"));`;
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [...flags, "--import", `data:text/javascript,${encodeURIComponent(probe)}`, cli, "test", dir], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
  const wallMs = Date.now() - t0;
  const rss = /maxrss (\d+)/.exec(r.stderr);
  return { wallMs, maxRssKb: rss ? Number(rss[1]) : NaN, summary: summaryOf(r.stdout) };
}

function summaryOf(stdout: string): string {
  return stdout
    .split("\n")
    .filter((l) => /^(PASS|FAIL|ERROR|SKIPPED): \d+\/\d+$/.test(l))
    .join(", ");
}

async function generatedBytes(dir: string): Promise<number> {
  const { modules, tests } = discoverTests(loadSources([dir]).modules, false);
  const generated = await generateTests(modules, [...new Set(tests.map((t) => t.entrypoint))], { v0Compatible: false });
  return generated?.code.length ?? 0;
}

const bench: Bench = {
  title: "Test suite (regoc test)",
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "regoc-suite-"));
    try {
      const tests = writeSuite(dir);
      const r = runSuite(dir);
      const bytes = await generatedBytes(dir);
      return [
        `A synthesised suite (bench/suite.ts): ${tests} tests in 168 v1 modules, \`with\` on input, data and functions.`,
        "",
        "| wall time | peak RSS | generated code | results |",
        "| --- | --- | --- | --- |",
        `| ${(r.wallMs / 1000).toFixed(1)} s | ${(r.maxRssKb / 1024).toFixed(0)} MB | ${(bytes / 1e6).toFixed(1)} MB | ${r.summary || "(no summary)"} |`,
      ].join("\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
