// `regoc builtins [--json]`: every builtin of OPA's capabilities (compiler/builtins/capabilities.json)
// with its status in regoc:
//   implemented     — the runtime registry has it;
//   compile-time    — the compiler turns it into plan statements, so no runtime function exists;
//   not implemented — with the reason.
// A table by default; `--json` prints [{name, status, category?, reason?}, ...] (category: the
// runtime/builtins/ file of an implemented builtin).
import { parseArgs } from "node:util";
import { builtinCategory, isBuiltin } from "../../runtime/builtins/catalog.js";
import { defaultCapabilities } from "../builtins/decls.js";
import type { CliCommand } from "../cli.js";
import { usageError } from "./errors.js";

export type BuiltinStatus = "implemented" | "compile-time" | "not implemented";

export interface BuiltinReport {
  name: string;
  status: BuiltinStatus;
  category?: string;
  reason?: string;
}

/** Builtins the compiler (OPA's planner) never calls at run time. */
const COMPILE_TIME: Readonly<Record<string, string>> = {
  eq: "`=` unification: compiled into plan statements",
  assign: "`:=` assignment: compiled into plan statements",
};

/** Why a builtin has no implementation, where there is a known reason. */
const NOT_IMPLEMENTED: Readonly<Record<string, string>> = {
  "internal.test_case": "used only by `opa test`, which regoc does not run",
};

export function builtinReports(): BuiltinReport[] {
  const names = [...defaultCapabilities().builtins.keys()].sort();
  return names.map((name): BuiltinReport => {
    const compileTime = COMPILE_TIME[name];
    if (compileTime !== undefined) return { name, status: "compile-time", reason: compileTime };
    if (isBuiltin(name)) {
      const category = builtinCategory(name);
      return category === undefined ? { name, status: "implemented" } : { name, status: "implemented", category };
    }
    return { name, status: "not implemented", reason: NOT_IMPLEMENTED[name] ?? "no runtime implementation yet" };
  });
}

function table(reports: BuiltinReport[]): string {
  const width = Math.max(...reports.map((r) => r.name.length), "builtin".length);
  const statusWidth = "not implemented".length;
  const lines = [`${"builtin".padEnd(width)}  ${"status".padEnd(statusWidth)}  note`];
  for (const r of reports) lines.push(`${r.name.padEnd(width)}  ${r.status.padEnd(statusWidth)}  ${r.reason ?? ""}`.trimEnd());
  const count = (s: BuiltinStatus) => reports.filter((r) => r.status === s).length;
  lines.push(
    "",
    `${count("implemented")} implemented, ${count("compile-time")} compile-time, ${count("not implemented")} not implemented (of ${reports.length})`,
  );
  return lines.join("\n");
}

const command: CliCommand = {
  summary: "list OPA's builtins with their status in regoc (--json for JSON)",
  usage: "usage: regoc builtins [--json]\n  --json   print every builtin with its status as JSON",
  async run(argv) {
    let json = false;
    try {
      json = parseArgs({ args: argv, options: { json: { type: "boolean", default: false } }, strict: true }).values.json === true;
    } catch (e) {
      throw usageError(`builtins: ${(e as Error).message}`);
    }
    const reports = builtinReports();
    process.stdout.write(json ? `${JSON.stringify(reports, null, 2)}\n` : `${table(reports)}\n`);
    return 0;
  },
};

export default command;
