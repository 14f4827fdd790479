// `regoc eval [-d path]... [-i input.json] [--v0-compatible] '<query>'`: compiles the query
// against the policies and data under the -d paths, evaluates it and prints OPA's output shape:
// {"result": [{"expressions": [{"value", "text", "location"}], "bindings": {...}}]}
// (`{}` when the query is undefined).
import { parseArgs } from "node:util";
import { toJSONText } from "../../runtime/value/json.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../../runtime/value/value.js";
import type { CliCommand } from "../cli.js";
import { parseQuery } from "../syntax/index.js";
import { loadSchemas, loadSources, readDataFile } from "./sources.js";
import { parseTimeout, withDeadline } from "../testing/timeout.js";
import { BUILTINS_OPTIONS, BUILTINS_USAGE, withRunBuiltins } from "./runBuiltins.js";
import { termString } from "../../runtime/builtins/termString.js";
import { explainBody, type PartsEvaluator } from "../testing/explain.js";
import { explanationLines } from "../testing/report.js";
import { unsupportedFlagValueError, usageError } from "./errors.js";

const command: CliCommand = {
  summary: "evaluate a query against Rego policies and data, printing OPA's result format",
  usage:
    "usage: regoc eval [-d path]... [-i input.json] [-s schema] [--ignore GLOB]... [--timeout DURATION] [--explain fails] [--builtins MODULE] [--capabilities FILE] [--v0-compatible] [--strict] '<query>'\n  -d, --data   a .rego, .json or .yaml file, or a directory of them (repeatable)\n  -i, --input  the input document (JSON)\n  --ignore     skip files and directories under the -d paths whose name matches (Go filepath.Match; repeatable)\n  --explain    fails: for an undefined query, the expression it stopped at and its operands' values (on stderr)\n  --timeout    a Go duration (default: none); an evaluation over it is an error (eval_cancel_error)\n" +
    "  -s, --schema a JSON Schema file (the type of input everywhere) or a directory of them (schema.<path>, for METADATA schemas: annotations)\n" +
    BUILTINS_USAGE,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        data: { type: "string", short: "d", multiple: true },
        input: { type: "string", short: "i" },
        schema: { type: "string", short: "s" },
        ignore: { type: "string", multiple: true },
        timeout: { type: "string" },
        explain: { type: "string" },
        ...BUILTINS_OPTIONS,
        "v0-compatible": { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw usageError("usage: regoc eval [-d path]... [-i input.json] '<query>'");
    const query = positionals[0]!;
    if (values.explain !== undefined && values.explain !== "fails") throw unsupportedFlagValueError("--explain", values.explain, "'fails'");
    const explain = values.explain !== undefined;
    const v0 = values["v0-compatible"] === true;
    const { modules, data } = loadSources(values.data ?? [], { ignore: values.ignore ?? [] });
    const input = values.input ? readDataFile(values.input) : undefined;
    const schemas = values.schema !== undefined ? loadSchemas(values.schema) : undefined;
    return withRunBuiltins(values, async (capabilities) => {
      const { compileRego } = await import("../compile.js");
      const prepared = await compileRego({ modules, query, v0Compatible: v0, strict: values.strict === true, captureExpressions: true, print: true, ...(schemas && { schemas }), ...(capabilities && { capabilities }) });
      const timeoutMs = values.timeout === undefined ? 0 : parseTimeout(values.timeout);
      const rows = await withDeadline((deadline) => prepared.evaluate({ input, data, strictBuiltinErrors: values.strict === true, ...deadline }), timeoutMs);
      const exprs = parseQuery(query, { regoVersion: v0 ? "v0" : "v1" });
      const result = rows.map((row) => {
        const expressions = exprs.map((e, i) => {
          const key = `$expr${i}`;
          const value = Object.hasOwn(row, key) ? row[key]! : true;
          return { value, text: e.location.text, location: { row: e.location.row, col: e.location.col } };
        });
        const bindings = newPlainObject();
        for (const k of Object.keys(row).sort()) if (!k.startsWith("$expr")) setOwn(bindings, k, row[k]!);
        const out: Record<string, unknown> = { expressions };
        if (Object.keys(bindings).length > 0) out.bindings = bindings;
        return out;
      });
      process.stdout.write(`${render(result.length === 0 ? {} : { result }, "")}\n`);
      if (explain && rows.length === 0) {
        // the query's parts, compiled and evaluated as queries against the same modules and data
        const run = async (q: string) => (await compileRego({ modules, query: q, v0Compatible: v0, ...(capabilities && { capabilities }) })).evaluate({ input, data });
        const parts: PartsEvaluator = {
          defined: (bodies) => Promise.all(bodies.map(async (b) => (await run(b.join("\n"))).length > 0)),
          values: (before, terms) => Promise.all(terms.map(async (t) => (await run([...before, `__regoc_v := ${t}`].join("\n")))[0]?.["__regoc_v"])),
        };
        const e = await explainBody(exprs, parts, (v) => termString(v as Value));
        if (e) process.stderr.write(`${explanationLines(e, "query").join("\n")}\n`);
      }
      return 0;
    });
  },
};

/** Pretty JSON (two spaces, as `opa eval` prints) with Rego values converted exactly. */
function render(v: unknown, indent: string): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    const inner = indent + "  ";
    return `[\n${v.map((x) => inner + render(x, inner)).join(",\n")}\n${indent}]`;
  }
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const keys = Object.keys(v);
    if (keys.length === 0) return "{}";
    const inner = indent + "  ";
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${render((v as Record<string, unknown>)[k], inner)}`).join(",\n")}\n${indent}}`;
  }
  return reindent(toJSONText(v as Value, "  "), indent);
}

function reindent(text: string, indent: string): string {
  return text.split("\n").join(`\n${indent}`);
}

export type { PlainObject };
export default command;
