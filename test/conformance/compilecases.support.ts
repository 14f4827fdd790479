// Loading and judging OPA's compiler cases (../shared/opa/compilecases): see
// compilecases.test.ts. A case passes when every expected diagnostic (module, code, row, col when
// given, message) is reported, nothing else is reported when the case is `exhaustive`, and a case
// expecting no diagnostics compiles cleanly.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse as parseYaml } from "yaml";
import type { Import, Module } from "../../compiler/ast/nodes.js";
import { compileModules, compileQuery } from "../../compiler/passes/runner.js";
import { parseModuleResult, parseQueryResult } from "../../compiler/syntax/index.js";
import type { RegoError } from "../../runtime/errors.js";
import { sharedDir } from "../support/shared.js";

interface WantError {
  module?: string;
  code: string;
  row: number;
  col?: number;
  message: string;
}

interface CompileCase {
  note: string;
  modules?: string[];
  query?: { body: string; imports?: string[]; package?: string };
  strict?: string | boolean;
  print_statements?: boolean;
  schemas?: Record<string, string>;
  want_errors?: WantError[];
  exhaustive?: boolean;
}

interface Loaded extends CompileCase {
  version: "v0" | "v1";
  key: string;
}

const casesDir = join(sharedDir, "opa", "compilecases");

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".yaml") ? [join(dir, e.name)] : [],
  );
}

export function loadCompileCases(): Loaded[] {
  const out: Loaded[] = [];
  for (const file of walk(casesDir).sort()) {
    const version = relative(casesDir, file).split("/")[0] as "v0" | "v1";
    const doc = parseYaml(readFileSync(file, "utf8")) as { cases: CompileCase[] };
    for (const c of doc.cases) out.push({ ...c, version, key: `${version}/${c.note}` });
  }
  return out;
}

function parseImports(lines: string[], version: "v0" | "v1"): Import[] {
  const text = `package __query\n${lines.map((l) => `import ${l}`).join("\n")}\n`;
  const r = parseModuleResult(text, { regoVersion: version, file: "" });
  return r.module?.imports ?? [];
}

/** Runs one case; returns the diagnostics (parse or compile errors). */
export function runCompileCase(c: Loaded): RegoError[] {
  const modules: Module[] = [];
  const parseErrors: RegoError[] = [];
  (c.modules ?? []).forEach((text, i) => {
    const r = parseModuleResult(text, { file: `test-${i}.rego`, regoVersion: c.version });
    if (r.module) modules.push(r.module);
    parseErrors.push(...r.errors);
  });
  if (parseErrors.length > 0) return parseErrors;
  const strict = c.strict === "enabled" || c.strict === true;
  const options: Parameters<typeof compileModules>[1] = { strict, enablePrint: c.print_statements === true, maxErrors: 0 };
  // the case's schema set (JSON text by OPA's key): attaching one is what asks for it
  if (c.schemas) options.schemas = c.schemas;
  const ctx = compileModules(modules, options);
  if (ctx.errors.length > 0 || !c.query) return ctx.errors;
  const imports = c.query.imports ?? [];
  const futureKeywords = imports.filter((i) => i.startsWith("future.keywords") || i === "rego.v1");
  const q = parseQueryResult(c.query.body, { regoVersion: c.version, futureKeywords });
  if (!q.body) return q.errors;
  if (q.body.length === 0) {
    return [{ code: "rego_compile_error", message: "empty query cannot be compiled", location: undefined } as unknown as RegoError];
  }
  const queryOptions: Parameters<typeof compileQuery>[2] = {};
  const dataImports = imports.filter((i) => !futureKeywords.includes(i));
  if (dataImports.length > 0) queryOptions.imports = parseImports(dataImports, c.version);
  if (c.query.package) {
    const pkg = parseModuleResult(`package ${c.query.package}\n`, { file: "" }).module;
    if (pkg) queryOptions.pkg = pkg.package.path;
  }
  compileQuery(ctx, q.body, queryOptions);
  return ctx.errors;
}

/** Matches diagnostics the way the corpus README says: as a set, col and module when given. */
export function judge(c: Loaded, got: readonly RegoError[]): string | undefined {
  const want = c.want_errors ?? [];
  const used = new Set<number>();
  const missing: string[] = [];
  for (const w of want) {
    const file = w.module ?? "test-0.rego";
    const i = got.findIndex((g, j) => {
      if (used.has(j) || g.code !== w.code || g.message !== w.message) return false;
      const l = g.location;
      const row = l?.row ?? 0;
      if (row !== w.row) return false;
      if (w.col !== undefined && l?.col !== w.col) return false;
      const gfile = l?.file ?? "";
      return gfile === file || (c.query !== undefined && gfile === "" && w.module === undefined);
    });
    if (i < 0) missing.push(`${file}:${w.row}:${w.col ?? "?"} ${w.code}: ${w.message}`);
    else used.add(i);
  }
  const fmt = (e: RegoError): string => `${e.location ? `${e.location.file}:${e.location.row}:${e.location.col}` : "-"} ${e.code}: ${e.message}`;
  if (missing.length > 0) return `missing ${missing.join("; ")}; got ${got.map(fmt).join("; ") || "nothing"}`.replace(/\s+/g, " ").slice(0, 500);
  const extra = got.filter((_, j) => !used.has(j));
  if (want.length === 0 && extra.length > 0) return `unexpected ${extra.map(fmt).join("; ")}`.replace(/\s+/g, " ").slice(0, 500);
  if (c.exhaustive && extra.length > 0) return `not exhaustive: also ${extra.map(fmt).join("; ")}`.replace(/\s+/g, " ").slice(0, 500);
  return undefined;
}

