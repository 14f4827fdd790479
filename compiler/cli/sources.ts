// Reading the policy and data files named on the command line (files or directories, recursively),
// as `opa eval -d`/`opa test` load them (without --bundle), for every command that reads them:
// every .rego file is a module; every .json / .yaml / .yml file is data, placed at the path of its
// directory relative to the argument it was found under (runtime/dataFiles.ts: `dir/a/b/x.json`
// given `dir` → data.a.b, whatever it holds). Unlike OPA, node_modules and hidden directories are
// not entered (`regoc test .` in a Node project stays usable), nor symbolic links to directories.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, normalize, relative, sep } from "node:path";
import { RegoError } from "../../runtime/errors.js";
import { goGlob, type GoGlob } from "../../runtime/goGlob.js";
import { isDataFileName, mergeDataFile, parseDataFile, type DataFileError } from "../../runtime/dataFiles.js";
import type { NodeLocation } from "../ast/nodes.js";
import { stringTerm, varTerm } from "../ast/terms.js";
import { opaRef } from "../ast/print.js";
import { newPlainObject, type PlainObject, type Value } from "../../runtime/value/value.js";
import { fileError, noSuchPathError } from "./errors.js";

export interface LoadedSources {
  /** Rego modules by path (the argument joined with the path below it). */
  modules: Record<string, string>;
  /** The data documents, merged. */
  data: PlainObject;
}

/** A data file that does not decode is a parse error; one that does not fit `data`, a compile error. */
const loadError: DataFileError = (problem, file, message) =>
  new RegoError(problem === "parse" ? "rego_parse_error" : "rego_compile_error", `${file}: ${message}`);

/** Directories never entered: dependencies and hidden directories (.git, ...). */
const skipDir = (name: string) => name === "node_modules" || name.startsWith(".");

/** The files under a path, sorted by name at each level; a file argument is itself. Below the
 * argument, a file or directory whose name matches an `ignore` pattern is skipped (OPA's
 * `--ignore`: loader.GlobExcludeName at depth 1 and deeper). */
function walk(path: string, ignore: readonly GoGlob[] = []): string[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw noSuchPathError(path);
  }
  if (!st.isDirectory()) return [path];
  const out: string[] = [];
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (ignore.some((re) => re.test(entry.name))) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipDir(entry.name)) visit(full);
      } else if (!entry.isSymbolicLink() || statSync(full, { throwIfNoEntry: false })?.isFile()) out.push(full);
    }
  };
  visit(path);
  return out;
}

export interface LoadOptions {
  /** False: only the .rego files. */
  data?: boolean;
  /** OPA's `--ignore` patterns (Go's filepath.Match) on file and directory names below the paths. */
  ignore?: readonly string[];
}

/** Reads the .rego files and (unless `data: false`) the data files under the given paths. */
export function loadSources(paths: readonly string[], options: LoadOptions = {}): LoadedSources {
  const modules: Record<string, string> = {};
  const data = newPlainObject();
  const ignore = (options.ignore ?? []).flatMap((p) => goGlob(p) ?? []);
  for (const arg of paths) {
    const root = normalize(arg);
    const isDir = statSync(root, { throwIfNoEntry: false })?.isDirectory() === true;
    for (const file of walk(root, ignore)) {
      if (file.endsWith(".rego")) modules[file] = read(file);
      else if (options.data !== false && isDataFileName(file)) {
        const dir = isDir ? relative(root, file).split(sep).slice(0, -1) : [];
        mergeDataFile(data, dir, parseDataFile(file, read(file), loadError), file, loadError);
      }
    }
  }
  return { modules, data };
}

/** OPA's `--bundle`: each path is a bundle, a directory or a .tar.gz archive, read as the bundle
 * client reads archives (runtime/bundle/archive.ts): its .rego modules, data only from
 * `data.json` / `data.yaml` / `data.yml` at their directory's path, its `.manifest`'s roots
 * checked for data and packages. Module names are the path joined with the module's place in the
 * bundle. */
export async function loadBundles(paths: readonly string[], options: LoadOptions & { v0Compatible?: boolean } = {}): Promise<LoadedSources> {
  const { assemble, readArchive } = await import("../../runtime/bundle/archive.js");
  const { checkPackages } = await import("../../runtime/bundle/activate.js");
  const { DEFAULT_LIMITS } = await import("../../runtime/bundle/client.js");
  const ignore = (options.ignore ?? []).flatMap((p) => goGlob(p) ?? []);
  const modules: Record<string, string> = {};
  const data = newPlainObject();
  for (const arg of paths) {
    const root = normalize(arg);
    const st = statSync(root, { throwIfNoEntry: false });
    if (!st) throw noSuchPathError(arg);
    let bundle;
    if (st.isDirectory()) bundle = assemble(readBundleDir(root, ignore)); else bundle = await readArchive(readFileSync(root), DEFAULT_LIMITS);
    const named = Object.fromEntries(Object.entries(bundle.modules).map(([path, text]) => [join(root, path), text]));
    await checkPackages(named, bundle.manifest.roots, options.v0Compatible === true);
    Object.assign(modules, named);
    mergeDataFile(data, [], bundle.data as PlainObject, root, loadError);
  }
  return { modules, data };
}

/** A bundle directory's files by their path in the bundle ("/a/data.json"), as an archive's entries. */
export function readBundleDir(root: string, ignore: readonly GoGlob[] = []): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const file of walk(root, ignore)) files.set(`/${relative(root, file).split(sep).join("/")}`, readFileSync(file));
  return files;
}

/** One JSON or YAML file's value (`regoc eval -i`). */
export function readDataFile(file: string): Value {
  return parseDataFile(file, read(file), (_problem, f, message) => fileError(f, message));
}

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw fileError(file, (e as Error).message);
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

/** What `regoc check` prints: each error then each warning with its code frame, then the counts
 * (`2 errors, 1 warning`); "" when there are none. */
export function formatDiagnostics(errors: readonly RegoError[], warnings: readonly RegoError[], sources: Readonly<Record<string, string>>): string {
  const lines = [...errors, ...warnings].map((e) => `${formatWithFrame(e, sources)}\n`);
  const count = (n: number, what: string) => (n === 0 ? "" : `${n} ${what}${n === 1 ? "" : "s"}`);
  const counts = [count(errors.length, "error"), count(warnings.length, "warning")].filter((c) => c !== "");
  if (counts.length > 0) lines.push(`${counts.join(", ")}\n`);
  return lines.join("");
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
    throw noSuchPathError(path);
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
 * ref to look it up (opaRef: `schema.a["b-c"]`, and a keyword quoted too: `schema["in"]`). */
function schemaKey(file: string, segments: string[]): string {
  const location: NodeLocation = { file, row: 0, col: 0, offset: 0, text: "" };
  return opaRef([varTerm("schema", location), ...segments.map((s) => stringTerm(s, location))]);
}
