// `regoc plan <paths> -e authz/allow [-e ...] [--v0-compatible] [--opa PATH]`: compiles the Rego
// files under the paths and prints the IR plan (OPA's plan.json format) of the entrypoints.
// With --opa (or OPA_BIN) a real `opa` binary builds the plan instead.
import { parseArgs } from "node:util";
import type { CliCommand } from "../cli.js";
import { planRego } from "../compile.js";
import { opaFromEnv, planWithOpa } from "../opa.js";
import { loadSources } from "./sources.js";
import { usageError } from "./errors.js";

const command: CliCommand = {
  summary: "compile Rego to an IR plan (OPA's plan.json) for the given entrypoints",
  usage: "usage: regoc plan <paths...> -e <entrypoint> [-e ...] [--v0-compatible] [--opa PATH] [--indent N]\n  -e, --entrypoint  a rule path such as authz/allow (repeatable)\n  --opa PATH        use a real opa binary to plan (also $OPA_BIN); regoc's own frontend otherwise",
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        entrypoint: { type: "string", short: "e", multiple: true },
        "v0-compatible": { type: "boolean", default: false },
        opa: { type: "string" },
        indent: { type: "string", default: "2" },
      },
      allowPositionals: true,
      strict: true,
    });
    const entrypoints = values.entrypoint ?? [];
    if (positionals.length === 0 || entrypoints.length === 0) {
      throw usageError("usage: regoc plan <paths...> -e <entrypoint> [-e ...] [--v0-compatible]");
    }
    const v0 = values["v0-compatible"] === true;
    const opa = values.opa ?? opaFromEnv();
    const plan = opa
      ? await planWithOpa({ opa, paths: positionals, entrypoints, v0Compatible: v0 })
      : planRego({ modules: loadSources(positionals, { data: false }).modules, entrypoints, v0Compatible: v0 });
    const indent = Number(values.indent);
    process.stdout.write(`${JSON.stringify(plan, null, Number.isInteger(indent) && indent > 0 ? indent : undefined)}\n`);
    return 0;
  },
};

export default command;
