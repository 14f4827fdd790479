// What the hot reloader reads from its policy directory, in one pass: every `.rego` file (the
// modules) and every `data.json` / `data.yaml` / `data.yml` (data documents, placed as in an OPA
// bundle, by runtime/dataFiles.ts: `dir/a/b/data.json` is `data.a.b`, whatever it holds), plus a
// revision that names this exact content.
//
// Dot-files and dot-directories are skipped: editors keep swap and lock files there (emacs'
// `.#authz.rego` even ends in `.rego`), `.git` is no policy, and a ConfigMap volume keeps its
// snapshots in `..data`; symlinks are followed (listPolicyFiles). node:fs, node:path, node:crypto and
// yaml are imported lazily: the runtime index must stay loadable in browsers.
import { mergeDataFile, parseDataFile, type DataFileError } from "./dataFiles.js";
import { noPolicyFilesError, unreadablePolicyError } from "./decision.js";
import { RegoError } from "./errors.js";
import { toJSON, type JSONValue } from "./value/json.js";
import { newPlainObject } from "./value/value.js";

/** The file names of data documents, in a policy directory and in a bundle archive alike. */
export const DATA_FILES: readonly string[] = ["data.json", "data.yaml", "data.yml"];

export interface DataDocument {
  /** The file, as `dir` joined with its relative path. */
  file: string;
  /** Where the document goes under `data` (the file's directory, relative to `dir`). */
  path: string[];
  /** Any JSON value; only a document at the root of `dir` must be an object. */
  value: JSONValue;
}

export interface PolicyTree {
  /** Rego sources keyed by `dir` joined with their relative path (so errors say `dir/x.rego:3:5`). */
  modules: Record<string, string>;
  /** Data documents, parents before children. */
  data: DataDocument[];
  /** sha256 (first 16 hex digits) of every file name and content: equal trees, equal revisions. */
  revision: string;
}

/** True for the paths whose add/change/unlink should trigger a reload. */
export function isPolicyFile(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? "";
  return !name.startsWith(".") && (name.endsWith(".rego") || DATA_FILES.includes(name));
}

/** Reads the tree once. Unreadable directories and files are RegoErrors naming the path. */
export async function readPolicyTree(dir: string): Promise<PolicyTree> {
  const { readFile } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const files = await listPolicyFiles(dir, isPolicyFile, readError);
  const modules: Record<string, string> = {};
  const data: DataDocument[] = [];
  const hash = (await import("node:crypto")).createHash("sha256");
  const merged = newPlainObject();
  for (const rel of files) {
    const file = join(dir, ...rel);
    const text = await readFile(file, "utf8").catch((e: unknown) => {
      throw readError(file, e);
    });
    hash.update(`${rel.join("/")}\0${text}\0`);
    const name = rel[rel.length - 1]!;
    if (name.endsWith(".rego")) modules[file] = text;
    else {
      // JSON for the Store: a number beyond a double's precision becomes the nearest double
      const doc = { file, path: rel.slice(0, -1), value: toJSON(parseDataFile(file, text, dataError, { exact: false })) };
      mergeDataFile(merged, doc.path, doc.value, file, dataError); // OPA's placement and conflicts
      data.push(doc);
    }
  }
  if (Object.keys(modules).length === 0) {
    throw noPolicyFilesError("HotReloader", JSON.stringify(dir));
  }
  data.sort((a, b) => a.path.length - b.path.length);
  return { modules, data, revision: hash.digest("hex").slice(0, 16) };
}

/**
 * The one policy-directory reader (HotReloader and Engine({policyDir})): relative paths (as
 * segments) of the files under dir that `accept` takes, sorted, so a revision is stable. As OPA
 * reads a Kubernetes ConfigMap volume: symlinks are followed, dot-entries are skipped (`..data`,
 * `..2024_…` snapshot directories, `.git`, editor lock files such as a dangling `.#authz.rego`),
 * a dangling symlink is skipped, and a real file reached by several paths is read once (its first
 * path in sorted order). `fail` turns an unreadable path into the caller's error.
 */
export async function listPolicyFiles(dir: string, accept: (name: string) => boolean, fail: (path: string, e: unknown) => Error): Promise<string[][]> {
  const { readdir, realpath, stat } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const taken = new Set<string>();
  const out: string[][] = [];
  const visit = async (prefix: string[], ancestors: ReadonlySet<string>): Promise<void> => {
    const here = join(dir, ...prefix);
    const names = await readdir(here).catch((e: unknown) => {
      throw fail(here, e);
    });
    for (const name of names.sort()) {
      if (name.startsWith(".")) continue;
      const full = join(here, name);
      const info = await stat(full).catch((e: unknown) => {
        if (isMissing(e)) return undefined; // a dangling symlink
        throw fail(full, e);
      });
      if (info === undefined) continue;
      if (info.isDirectory()) {
        const real = await realpath(full);
        if (!ancestors.has(real)) await visit([...prefix, name], new Set(ancestors).add(real)); // else a symlink loop
      } else if (info.isFile() && accept(name)) {
        const real = await realpath(full);
        if (taken.has(real)) continue;
        taken.add(real);
        out.push([...prefix, name]);
      }
    }
  };
  const root = await realpath(dir).catch((e: unknown) => {
    throw fail(dir, e);
  });
  await visit([], new Set([root]));
  return out;
}

function isMissing(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return code === "ENOENT" || code === "ELOOP" || code === "ENOTDIR";
}

const dataError: DataFileError = (_problem, file, message, cause) =>
  new RegoError("storage_invalid_value_error", `HotReloader: ${file}: ${message}`, undefined, { cause });

function readError(path: string, e: unknown): RegoError {
  return unreadablePolicyError("HotReloader", JSON.stringify(path), e);
}
