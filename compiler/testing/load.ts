// Loading what `regoc test <paths...>` runs, as `opa test` loads it (without --bundle): every
// .rego file under the paths (recursively) is a module; every .json / .yaml / .yml file is a data
// document merged into `data` at the path of its directory relative to the argument it was found
// under (`dir/a/b/x.json` given `dir` → data.a.b), objects merging key by key. A conflict between
// two documents, unreadable files and bad JSON/YAML are load errors. Unlike OPA, node_modules and
// hidden directories are not entered (`regoc test .` in a Node project stays usable).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, normalize, relative, sep } from "node:path";
import { parse as parseYaml } from "yaml";
import { RegoError } from "../../runtime/errors.js";

export interface LoadedFiles {
  /** Rego sources by file name (the path as found: argument joined with the relative path). */
  modules: Record<string, string>;
  /** The merged data document. */
  data: Record<string, unknown>;
}

const DATA_EXT = /\.(json|ya?ml)$/;

export function loadPaths(paths: readonly string[]): LoadedFiles {
  const out: LoadedFiles = { modules: {}, data: {} };
  for (const arg of paths) {
    const root = normalize(arg);
    let st;
    try {
      st = statSync(root);
    } catch {
      throw new RegoError("cli_usage_error", `${arg}: no such file or directory`);
    }
    if (st.isDirectory()) walk(root, root, out);
    else loadFile(root, [], out);
  }
  return out;
}

/** Directories never entered: dependencies and hidden directories (.git, ...). Symbolic links to
 * directories are not followed either (no loops); links to files are loaded. */
const SKIP_DIR = (name: string) => name === "node_modules" || name.startsWith(".");

function walk(root: string, dir: string, out: LoadedFiles): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIR(entry.name)) walk(root, full, out);
      continue;
    }
    if (entry.isSymbolicLink() && !statSync(full, { throwIfNoEntry: false })?.isFile()) continue;
    const relDir = relative(root, dir);
    loadFile(full, relDir === "" ? [] : relDir.split(sep), out);
  }
}

function loadFile(file: string, prefix: string[], out: LoadedFiles): void {
  if (file.endsWith(".rego")) {
    out.modules[file] = read(file);
    return;
  }
  if (!DATA_EXT.test(file)) return;
  const text = read(file);
  let doc: unknown;
  try {
    doc = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new RegoError("rego_parse_error", `${file}: ${(e as Error).message}`);
  }
  if (doc === undefined || doc === null) return;
  mergeAt(out.data, prefix, doc, file);
}

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new RegoError("cli_usage_error", `${file}: ${(e as Error).message}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Merges doc into data at prefix; a non-object document needs a non-empty prefix. */
function mergeAt(data: Record<string, unknown>, prefix: string[], doc: unknown, file: string): void {
  if (prefix.length === 0) {
    if (!isObject(doc)) throw new RegoError("rego_compile_error", `${file}: a data file at the root must hold an object`);
    mergeInto(data, doc, file, []);
    return;
  }
  let node = data;
  for (const seg of prefix.slice(0, -1)) {
    const next = Object.hasOwn(node, seg) ? node[seg] : undefined;
    if (next === undefined) setKey(node, seg, {});
    else if (!isObject(next)) throw conflict(file, prefix);
    node = node[seg] as Record<string, unknown>;
  }
  const last = prefix[prefix.length - 1]!;
  const existing = Object.hasOwn(node, last) ? node[last] : undefined;
  if (existing === undefined) setKey(node, last, doc);
  else if (isObject(existing) && isObject(doc)) mergeInto(existing, doc, file, prefix);
  else throw conflict(file, prefix);
}

function mergeInto(target: Record<string, unknown>, doc: Record<string, unknown>, file: string, path: string[]): void {
  for (const k of Object.keys(doc)) {
    const v = doc[k];
    const cur = Object.hasOwn(target, k) ? target[k] : undefined;
    if (cur === undefined) setKey(target, k, v);
    else if (isObject(cur) && isObject(v)) mergeInto(cur, v, file, [...path, k]);
    else throw conflict(file, [...path, k]);
  }
}

/** An own property even for keys such as "__proto__". */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function conflict(file: string, path: string[]): RegoError {
  return new RegoError("rego_compile_error", `${file}: merge error: data.${path.join(".")} is defined by more than one file`);
}
