// Loads OPA's parser cases (../shared/opa/parsercases) and runs one against our parser.
// The directory under parsercases/ is the Rego version (v0/ or v1/); `rego_version: v0` in older
// files says the same. Older fixtures write null as `{"type":"null","value":{}}`; they are
// normalised before comparing. Errors match by code, row and col (and the message is checked
// separately); without `exhaustive` the expected errors need only be among ours.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse as parseYaml } from "yaml";

import { RawNumber, bodyToOpaJson, formatOpaJson, moduleToOpaJson, type JsonValue } from "../../compiler/ast/opaJson.js";
import { parseModuleResult, parseQueryResult, type ParseOptions } from "../../compiler/syntax/index.js";
import type { RegoError } from "../../runtime/errors.js";
import { parse as parseLossless } from "lossless-json";

export interface WantError {
  code: string;
  row?: number;
  col?: number;
  message: string;
}

export interface ParserCase {
  /** `<file relative to parsercases>#<note>`: unique across the corpus. */
  id: string;
  file: string;
  note: string;
  version: "v0" | "v1";
  module?: string;
  body?: string;
  imports?: string[];
  allFutureKeywords: boolean;
  wantAst?: string;
  wantErrors?: WantError[];
  exhaustive: boolean;
}

export function loadParserCases(dir: string): ParserCase[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".yaml")) files.push(p);
    }
  };
  walk(dir);
  const out: ParserCase[] = [];
  for (const path of files) {
    const file = relative(dir, path);
    const doc = parseYaml(readFileSync(path, "utf8")) as { cases: Record<string, unknown>[] };
    for (const c of doc.cases) {
      const note = String(c["note"]);
      out.push({
        id: `${file}#${note}`,
        file,
        note,
        version: file.startsWith("v0/") || c["rego_version"] === "v0" ? "v0" : "v1",
        ...(typeof c["module"] === "string" ? { module: c["module"] } : {}),
        ...(typeof c["body"] === "string" ? { body: c["body"] } : {}),
        ...(Array.isArray(c["imports"]) ? { imports: c["imports"] as string[] } : {}),
        allFutureKeywords: c["all_future_keywords"] === true,
        ...(typeof c["want_ast"] === "string" ? { wantAst: c["want_ast"] } : {}),
        ...(Array.isArray(c["want_errors"]) ? { wantErrors: c["want_errors"] as WantError[] } : {}),
        exhaustive: c["exhaustive"] === true,
      });
    }
  }
  return out;
}

export interface CaseResult {
  /** The parse succeeded/failed as expected and the AST (or every error's code/row/col) matched. */
  pass: boolean;
  /** For error cases: every expected message matched too. */
  messagesMatch: boolean;
  detail: string;
}

/** OPA's older fixture layouts, made current. */
function normalize(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(normalize);
  if (v !== null && typeof v === "object" && !("text" in v && Object.keys(v).length === 1)) {
    const o = v as { [k: string]: JsonValue };
    if (o["type"] === "null" && o["value"] !== null && typeof o["value"] === "object" && Object.keys(o["value"] as object).length === 0) {
      return { ...o, value: null };
    }
    const out: { [k: string]: JsonValue } = Object.create(null);
    for (const [k, x] of Object.entries(o)) out[k] = normalize(x);
    return out;
  }
  return v;
}

export function runParserCase(tc: ParserCase): CaseResult {
  const opts: ParseOptions = { file: "test-0.rego", regoVersion: tc.version, allFutureKeywords: tc.allFutureKeywords };
  if (tc.imports) opts.futureKeywords = tc.imports;
  let got: JsonValue | undefined;
  let errors: RegoError[];
  if (tc.module !== undefined) {
    const r = parseModuleResult(tc.module, opts);
    errors = r.errors;
    if (r.module) got = moduleToOpaJson(r.module, { comments: false });
  } else {
    const r = parseQueryResult(tc.body ?? "", opts);
    errors = r.errors;
    if (r.body) got = bodyToOpaJson(r.body);
  }
  const gotErrors = errors.map((e) => `${e.location?.row}:${e.location?.col}: ${e.message}`).join("\n");
  if (tc.wantAst !== undefined) {
    if (got === undefined) return { pass: false, messagesMatch: false, detail: `expected an AST, got errors:\n${gotErrors}` };
    const want = formatOpaJson(normalize(parseLossless(tc.wantAst, null, (text: string) => new RawNumber(text)) as JsonValue), 2);
    const have = formatOpaJson(got, 2);
    return want === have ? { pass: true, messagesMatch: true, detail: "" } : { pass: false, messagesMatch: false, detail: `AST differs:\n--- want\n${want}\n--- got\n${have}` };
  }
  const want = tc.wantErrors ?? [];
  if (errors.length === 0) return { pass: false, messagesMatch: false, detail: `expected errors, parse succeeded` };
  let pass = true;
  let messagesMatch = true;
  const missing: string[] = [];
  for (const w of want) {
    const at = errors.filter((e) => e.code === w.code && e.location?.row === w.row && (w.col === undefined || e.location?.col === w.col));
    if (at.length === 0) {
      pass = false;
      messagesMatch = false;
      missing.push(`${w.row}:${w.col}: ${w.message}`);
    } else if (!at.some((e) => e.message === w.message)) {
      messagesMatch = false;
      missing.push(`${w.row}:${w.col}: ${w.message}  (message differs)`);
    }
  }
  if (tc.exhaustive && errors.length !== want.length) {
    pass = false;
    missing.push(`exhaustive: want ${want.length} errors, got ${errors.length}`);
  }
  return { pass, messagesMatch, detail: missing.length ? `want:\n${missing.join("\n")}\ngot:\n${gotErrors}` : "" };
}
