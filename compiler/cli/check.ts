// `regoc check <paths> [--v0-compatible] [--strict] [--max-errors N] [--schema PATH]`: parses and compiles every
// .rego file under the paths and reports each error as `file:row:col: code: message` with the
// offending line; exits 1 when there are errors.
import { parseArgs } from "node:util";
import { RegoError, RegoErrors } from "../../runtime/errors.js";
import type { CliCommand } from "../cli.js";
import { parseModules } from "../compile.js";
import { compileModules } from "../passes/runner.js";
import { formatWithFrame, loadSchemas, loadSources } from "./sources.js";

const command: CliCommand = {
  summary: "report every compile error of the Rego files under the given paths",
  usage:
    "usage: regoc check <paths...> [--v0-compatible] [--strict] [--max-errors N] [--schema PATH]\n  reports every compile error as file:row:col: code: message with a code frame; exit 1 on errors\n" +
    "  -s, --schema  a JSON Schema file (the type of input everywhere) or a directory of them (schema.<path>, for METADATA schemas: annotations)",
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        "v0-compatible": { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
        "max-errors": { type: "string", default: "10" },
        schema: { type: "string", short: "s" },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new RegoError("cli_usage_error", "usage: regoc check <paths...> [--v0-compatible] [--strict]");
    const maxErrors = Number(values["max-errors"]);
    if (!Number.isInteger(maxErrors) || maxErrors < 0) throw new RegoError("cli_usage_error", "--max-errors must be a number (0: no limit)");
    const { modules } = loadSources(positionals, { data: false });
    let errors: readonly RegoError[];
    try {
      const options: Parameters<typeof compileModules>[1] = { strict: values.strict === true, maxErrors };
      if (values.schema !== undefined) options.schemas = loadSchemas(values.schema);
      const ctx = compileModules(parseModules(modules, values["v0-compatible"] === true), options);
      errors = ctx.errors;
    } catch (e) {
      if (!(e instanceof RegoErrors)) throw e;
      errors = e.errors;
    }
    if (errors.length === 0) return 0;
    const sorted = new RegoErrors([...errors]).errors;
    for (const e of sorted) process.stdout.write(`${formatWithFrame(e, modules)}\n`);
    process.stdout.write(`${sorted.length} error${sorted.length === 1 ? "" : "s"}\n`);
    return 1;
  },
};

export default command;
