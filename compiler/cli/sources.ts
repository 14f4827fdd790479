// Reading policy files and data files named on the command line (files or directories,
// recursively), for `regoc plan`, `regoc eval` and `regoc check`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { parse as parseYaml } from "yaml";
import { RegoError } from "../../runtime/errors.js";
import type { NodeLocation } from "../ast/nodes.js";
import { refString, stringTerm, varTerm } from "../passes/terms.js";
import { fromJSONText } from "../../runtime/value/json.js";
import { isPlainObject, newPlainObject, setOwn, type PlainObject, type Value } from "../../runtime/value/value.js";

export interface LoadedSources {
  /** Rego modules by path. */
  modules: Record<string, string>;
  /** Data documents merged by their directory (as `opa eval -d` does). */
  data: PlainObject;
}

function walk(path: string): string[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new RegoError("cli_usage_error", `${path}: no such file or directory`);
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith("."))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => walk(join(path, e.name)));
}

/** Reads .rego, .json, .yaml/.yml files under the given paths. */
export function loadSources(paths: readonly string[], options: { data?: boolean } = {}): LoadedSources {
  const modules: Record<string, string> = {};
  const data = newPlainObject();
  for (const root of paths) {
    const isDir = statSync(root, { throwIfNoEntry: false })?.isDirectory() === true;
    for (const file of walk(root)) {
      if (file.endsWith(".rego")) modules[file] = readFileSync(file, "utf8");
      else if (options.data !== false && /\.(json|ya?ml)$/.test(file)) {
        const value = readDataFile(file);
        // a data file's directory below the named root is its path in `data`
        const dir = isDir ? relative(root, file).split(sep).slice(0, -1) : [];
        merge(data, dir, value, file);
      }
    }
  }
  return { modules, data };
}

export function readDataFile(file: string): Value {
  const text = readFileSync(file, "utf8");
  try {
    if (file.endsWith(".json")) return fromJSONText(text, basename(file));
    return JSON.parse(JSON.stringify(parseYaml(text) ?? null)) as Value;
  } catch (e) {
    throw new RegoError("cli_usage_error", `${file}: ${(e as Error).message}`);
  }
}

function merge(into: PlainObject, path: string[], value: Value, file: string): void {
  let node = into;
  for (const seg of path) {
    const next = Object.hasOwn(node, seg) ? node[seg] : undefined;
    if (next === undefined) {
      const o = newPlainObject();
      setOwn(node, seg, o);
      node = o;
    } else if (isPlainObject(next)) node = next;
    else throw new RegoError("cli_usage_error", `${file}: data conflicts at ${path.join(".")}`);
  }
  if (!isPlainObject(value)) {
    if (path.length === 0) throw new RegoError("cli_usage_error", `${file}: root data must be an object`);
    throw new RegoError("cli_usage_error", `${file}: data must be an object`);
  }
  for (const k of Object.keys(value)) {
    const existing = Object.hasOwn(node, k) ? node[k] : undefined;
    const v = (value as PlainObject)[k]!;
    if (existing !== undefined && isPlainObject(existing) && isPlainObject(v)) merge(node, [k], v, file);
    else if (existing !== undefined) throw new RegoError("cli_usage_error", `${file}: data conflicts at ${[...path, k].join(".")}`);
    else setOwn(node, k, v);
  }
}

/** `file:row:col: code: message` with the source line and a caret under the column. */
export function formatWithFrame(e: { toString(): string; location?: { file: string; row: number; col: number } | undefined }, sources: Readonly<Record<string, string>>): string {
  const head = e.toString();
  const l = e.location;
  const text = l ? sources[l.file] : undefined;
  if (!l || text === undefined || l.row < 1) return head;
  const line = text.split("\n")[l.row - 1];
  if (line === undefined) return head;
  const gutter = `${l.row} | `;
  const prefix = [...line].slice(0, Math.max(0, l.col - 1)).map((c) => (c === "\t" ? "\t" : " ")).join("");
  return `${head}\n  ${gutter}${line.replace(/\r$/, "")}\n  ${" ".repeat(gutter.length)}${prefix}^`;
}

/** The schema set of `--schema PATH`, keyed as OPA keys it: a file is the input schema (key
 * `schema`, applied to every rule); a directory gives each .json file under it the key
 * `schema.<its path without .json, a segment per directory>` (`schemas/k8s/pod.json` →
 * `schema.k8s.pod`), for annotations to name. Values are the files' JSON text (a file that is
 * not JSON is reported by the type checker, naming the schema). */
export function loadSchemas(path: string): Record<string, string> {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new RegoError("cli_usage_error", `${path}: no such file or directory`);
  }
  if (!st.isDirectory()) return { schema: readFileSync(path, "utf8") };
  const out: Record<string, string> = {};
  for (const file of walk(path).filter((f) => f.endsWith(".json"))) {
    const segments = relative(path, file).slice(0, -".json".length).split(sep);
    out[schemaKey(file, segments)] = readFileSync(file, "utf8");
  }
  return out;
}

/** `schema` followed by the segments, printed as the type checker prints an annotation's schema
 * ref to look it up (refString: `schema.a["b-c"]`, and a keyword quoted too: `schema["in"]`). */
function schemaKey(file: string, segments: string[]): string {
  const location: NodeLocation = { file, row: 0, col: 0, offset: 0, text: "" };
  return refString([varTerm("schema", location), ...segments.map((s) => stringTerm(s, location))]);
}
