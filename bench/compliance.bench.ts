// The whole compliance run, timed: every case of ../shared/compliance compiled and evaluated, from
// OPA's plans and from the Rego source through our frontend (goal ≤ 120 s each on this 2-core
// machine). Reading the cases is timed separately and left out of both figures.
import { join } from "node:path";
import { loadCases } from "../compiler/compliance/cases.js";
import { planFrontend, regoFrontend } from "../compiler/compliance/frontends.js";
import { runCase, type Frontend } from "../compiler/compliance/run.js";
import { haveShared, sharedDir } from "../test/support/shared.js";
import type { Bench } from "./util.js";

async function timeRun(frontend: Frontend, cases: ReturnType<typeof loadCases>): Promise<{ ms: number; passed: number }> {
  const t0 = performance.now();
  let passed = 0;
  for (const c of cases) if ((await runCase(frontend, c)).status === "pass") passed++;
  return { ms: performance.now() - t0, passed };
}

const bench: Bench = {
  title: "Compliance run: all cases end to end",
  async run() {
    if (!haveShared) return `_skipped: ${sharedDir} is absent_`;
    const t0 = performance.now();
    const cases = loadCases(join(sharedDir, "compliance"));
    const loadMs = performance.now() - t0;
    const plan = await timeRun(planFrontend, cases);
    const rego = await timeRun(regoFrontend, cases);
    const row = (name: string, r: { ms: number; passed: number }) =>
      `| ${name} | ${(r.ms / 1000).toFixed(1)} s | ${(r.ms / cases.length).toFixed(1)} ms | ${r.passed}/${cases.length} |`;
    return [
      `Reading and parsing the ${cases.length} cases: ${(loadMs / 1000).toFixed(1)} s (not counted below).`,
      "",
      "| run (goal ≤ 120 s) | total | per case | passed |",
      "|---|---|---|---|",
      row("from OPA's plans (codegen + load + evaluate)", plan),
      row("from Rego source (parse + compile + plan + codegen + load + evaluate)", rego),
    ].join("\n");
  },
};

export default bench;
