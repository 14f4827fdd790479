// `regoc compliance --from plan|rego [--cases DIR] [--filter REGEX] [--json FILE] [--failures]
//                   [--update-known FILE] [--show]`
// Runs OPA's compliance cases end to end and prints a table per category, then `N passed, M failed`.
// `--show` (with --filter) prints each selected case's Rego, its generated TypeScript and its outcome.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { defaultCasesDir, loadCases, type ComplianceCase } from "../compliance/cases.js";
import { planFrontend } from "../compliance/frontends.js";
import { updateKnownFailures } from "../compliance/knownFailures.js";
import { formatReport } from "../compliance/report.js";
import { runCase, type Frontend, type Outcome } from "../compliance/run.js";
import type { CliCommand } from "../cli.js";
import { flagError, usageError } from "./errors.js";

async function frontendFor(name: string): Promise<Frontend> {
  if (name === "plan") return planFrontend;
  if (name === "rego") {
    const mod = (await import("../compliance/frontends.js")) as { regoFrontend?: Frontend };
    if (mod.regoFrontend) return mod.regoFrontend;
    throw usageError("--from rego: the Rego frontend is not available in this build");
  }
  throw usageError(`--from must be plan or rego, not '${name}'`);
}

async function showCase(frontend: Frontend, c: ComplianceCase, outcome: Outcome): Promise<string> {
  const out = [`=== ${c.note} (${c.file})`, ...(c.modules ?? []), `query: ${c.query ?? ""}`];
  try {
    const prepared = (await frontend.prepare(c)) as { source?: string };
    if (prepared.source) out.push("--- generated TypeScript", prepared.source);
  } catch {
    // the outcome below says why preparing failed
  }
  out.push(`--- ${outcome.status === "pass" ? "PASS" : `FAIL [${outcome.kind}] ${outcome.reason}`}`);
  return out.join("\n");
}

const command: CliCommand = {
  summary: "run OPA's compliance cases from their plans or Rego source",
  usage: "usage: regoc compliance [--from plan|rego] [--cases DIR] [--filter REGEX] [--json FILE] [--failures] [--show] [--update-known FILE]\n  --from       plan: OPA's plans through the code generator; rego: the Rego source through regoc's frontend\n  --cases      the compliance folder (default ../shared/compliance or $REGOC_COMPLIANCE)\n  --filter     only cases whose note matches\n  --failures   list every failing case with its reason\n  --show       print each case's Rego, generated TypeScript and outcome",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        from: { type: "string", default: "plan" },
        cases: { type: "string" },
        filter: { type: "string" },
        json: { type: "string" },
        failures: { type: "boolean", default: false },
        "update-known": { type: "string" },
        show: { type: "boolean", default: false },
      },
      strict: true,
    });
    const frontend = await frontendFor(values.from ?? "plan");
    let filter: RegExp | undefined;
    try {
      filter = values.filter ? new RegExp(values.filter) : undefined;
    } catch (e) {
      throw flagError("--filter", (e as Error).message);
    }
    const cases = loadCases(values.cases ?? defaultCasesDir(), filter);
    const outcomes: Outcome[] = [];
    for (const c of cases) {
      const outcome = await runCase(frontend, c);
      outcomes.push(outcome);
      if (values.show) process.stdout.write(`${await showCase(frontend, c, outcome)}\n`);
    }
    process.stdout.write(`${formatReport(outcomes, { failures: values.failures })}\n`);
    if (values.json) writeFileSync(values.json, `${JSON.stringify(outcomes, null, 2)}\n`);
    if (values["update-known"]) {
      if (filter) throw usageError("--update-known needs a full run (no --filter)");
      updateKnownFailures(values["update-known"], outcomes, (o) => (o.status === "fail" ? `${o.kind}: ${o.reason}` : ""));
    }
    return outcomes.every((o) => o.status === "pass") ? 0 : 1;
  },
};

export default command;
