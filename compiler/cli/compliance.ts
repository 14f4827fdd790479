// `regoc compliance --from plan|rego [--cases DIR] [--filter REGEX] [--json FILE] [--failures]
//                   [--update-known FILE]`
// Runs OPA's compliance cases end to end and prints a table per category, then `N passed, M failed`.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { RegoError } from "../../runtime/errors.js";
import { defaultCasesDir, loadCases } from "../compliance/cases.js";
import { planFrontend } from "../compliance/frontends.js";
import { updateKnownFailures } from "../compliance/knownFailures.js";
import { formatReport } from "../compliance/report.js";
import { runCase, type Frontend, type Outcome } from "../compliance/run.js";
import type { CliCommand } from "../cli.js";

async function frontendFor(name: string): Promise<Frontend> {
  if (name === "plan") return planFrontend;
  if (name === "rego") {
    const mod = (await import("../compliance/frontends.js")) as { regoFrontend?: Frontend };
    if (mod.regoFrontend) return mod.regoFrontend;
    throw new RegoError("cli_usage_error", "--from rego: the Rego frontend is not available in this build");
  }
  throw new RegoError("cli_usage_error", `--from must be plan or rego, not '${name}'`);
}

const command: CliCommand = {
  summary: "run OPA's compliance cases from their plans or Rego source",
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
      },
      strict: true,
    });
    const frontend = await frontendFor(values.from ?? "plan");
    let filter: RegExp | undefined;
    try {
      filter = values.filter ? new RegExp(values.filter) : undefined;
    } catch (e) {
      throw new RegoError("cli_usage_error", `--filter: ${(e as Error).message}`);
    }
    const cases = loadCases(values.cases ?? defaultCasesDir(), filter);
    const outcomes: Outcome[] = [];
    for (const c of cases) outcomes.push(await runCase(frontend, c));
    process.stdout.write(`${formatReport(outcomes, { failures: values.failures })}\n`);
    if (values.json) writeFileSync(values.json, `${JSON.stringify(outcomes, null, 2)}\n`);
    if (values["update-known"]) {
      if (filter) throw new RegoError("cli_usage_error", "--update-known needs a full run (no --filter)");
      updateKnownFailures(values["update-known"], outcomes, (o) => (o.status === "fail" ? `${o.kind}: ${o.reason}` : ""));
    }
    return outcomes.every((o) => o.status === "pass") ? 0 : 1;
  },
};

export default command;
