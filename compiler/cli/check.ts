// `regoc check <paths> [--v0-compatible] [--strict] [--max-errors N] [--schema PATH]`: parses and compiles every
// .rego file under the paths and reports each error as `file:row:col: code: message` with the
// offending line, then regoc's warnings (rego_negation_warning) the same way; exits 1 when there
// are errors. `--strict` makes the warnings errors.
import { parseArgs } from "node:util";
import type { CliCommand } from "../cli.js";
import { checkRego, type CheckRegoOptions } from "../compile.js";
import { BUILTINS_OPTIONS, BUILTINS_USAGE, withRunBuiltins } from "./runBuiltins.js";
import { formatDiagnostics, loadSchemas, loadSources } from "./sources.js";
import { usageError } from "./errors.js";

const command: CliCommand = {
  summary: "report every compile error and negation warning of the Rego files under the given paths",
  usage:
    "usage: regoc check <paths...> [--v0-compatible] [--strict] [--max-errors N] [--schema PATH] [--builtins MODULE] [--capabilities FILE]\n  reports every compile error as file:row:col: code: message with a code frame; exit 1 on errors\n" +
    "  warns (rego_negation_warning) of each `not` whose refs or calls are evaluated before the negation\n" +
    "  --strict      OPA's strict mode, and the warnings are errors\n" +
    "  -s, --schema  a JSON Schema file (the type of input everywhere) or a directory of them (schema.<path>, for METADATA schemas: annotations)\n" +
    BUILTINS_USAGE,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        "v0-compatible": { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
        "max-errors": { type: "string", default: "10" },
        schema: { type: "string", short: "s" },
        ...BUILTINS_OPTIONS,
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw usageError("usage: regoc check <paths...> [--v0-compatible] [--strict]");
    const maxErrors = Number(values["max-errors"]);
    if (!Number.isInteger(maxErrors) || maxErrors < 0) throw usageError("--max-errors must be a number (0: no limit)");
    const { modules } = loadSources(positionals, { data: false });
    const options: CheckRegoOptions = { modules, v0Compatible: values["v0-compatible"] === true, strict: values.strict === true, maxErrors };
    if (values.schema !== undefined) options.schemas = loadSchemas(values.schema);
    const { errors, warnings } = await withRunBuiltins(values, async (capabilities) => checkRego(capabilities ? { ...options, capabilities } : options));
    process.stdout.write(formatDiagnostics(errors, warnings, modules));
    return errors.length > 0 ? 1 : 0;
  },
};

export default command;
