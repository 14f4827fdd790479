// `regoc parse <files|dirs...> [--json] [--locations] [--v0-compatible]`
// Parses every .rego file (directories are searched recursively). With --json and one file it
// prints that module as OPA's AST JSON (what `opa parse --format json` prints); otherwise one
// line per error of each failing file (`file:row:col: rego_parse_error: message`) and the closing
// line `N files parsed, M failed`. Exit status 1 when any file failed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { formatOpaJson, moduleToOpaJson } from "../ast/opaJson.js";
import { parseModuleResult } from "../syntax/index.js";
import { RegoError } from "../../runtime/errors.js";
import type { CliCommand } from "../cli.js";
import { usageError } from "./errors.js";

const usage = "usage: regoc parse <files|dirs...> [--json] [--locations] [--v0-compatible]";

function parseUsageError(message: string): RegoError {
  return usageError(message, usage);
}

/** The .rego files under the given paths (files as given, directories recursively, sorted). */
export function regoFiles(paths: string[]): string[] {
  const out: string[] = [];
  const visit = (p: string, explicit: boolean): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw parseUsageError(`no such file or directory: ${p}`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) visit(join(p, name), false);
    } else if (explicit || p.endsWith(".rego")) {
      out.push(p);
    }
  };
  for (const p of paths) visit(p, true);
  return out;
}

const command: CliCommand = {
  summary: "parse Rego files and report syntax errors (--json: print the AST as OPA's JSON)",
  usage: "usage: regoc parse <files|dirs...> [--json] [--locations] [--v0-compatible]\n  --json       print the AST of one file as OPA's JSON",
  async run(argv: string[]): Promise<number> {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          json: { type: "boolean", default: false },
          locations: { type: "boolean", default: false },
          "v0-compatible": { type: "boolean", default: false },
        },
      });
    } catch (e) {
      throw parseUsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length === 0) throw parseUsageError("no files given");
    const files = regoFiles(positionals);
    const regoVersion = values["v0-compatible"] ? "v0" : "v1";
    const out: string[] = [];
    let failed = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const { module, errors } = parseModuleResult(text, { file, regoVersion });
      if (!module) {
        failed++;
        for (const e of errors) out.push(e.toString());
        continue;
      }
      if (values.json && files.length === 1) {
        process.stdout.write(`${formatOpaJson(moduleToOpaJson(module, { locations: values.locations }), 2)}\n`);
        return 0;
      }
    }
    out.push(`${files.length} files parsed, ${failed} failed`);
    process.stdout.write(`${out.join("\n")}\n`);
    return failed > 0 ? 1 : 0;
  },
};

export default command;
