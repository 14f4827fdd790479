// A bundle archive (tar.gz) read in memory: gunzip with a cap on the output, then node-tar's
// parser. Only regular files and directories are accepted; symlinks, hard links, devices, absolute
// paths and `..` segments are refused (the archive is untrusted input). What a bundle holds:
//   /.manifest             {revision, roots}            (optional; roots default to everything)
//   <dir>/data.json|yaml   data at <dir>                 (any directory)
//   **/*.rego              policy modules
//   /plan.json             an IR plan, used instead of compiling the modules
//   /.signatures.json      the bundle's signature (signatures.ts), checked when configured
//   /patch.json            a delta bundle: {"data": [{op, path, value}]} applied to the active data (patch.ts)
// Other files are ignored, as OPA does.
import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { Parser, type ReadEntry } from "tar";
import { RegoError } from "../errors.js";
import { mergeDataFile, parseDataFile, type DataFileError } from "../dataFiles.js";
import { DATA_FILES } from "../reloadFiles.js";
import { toJSON } from "../value/json.js";
import { newPlainObject, type Value } from "../value/value.js";
import { checkDataRoots, checkRootsOverlap } from "./roots.js";
import type { ArchiveLimits } from "./client.js";
import type { VerificationConfig } from "./config.js";
import { verifyBundle } from "./signatures.js";
import { parsePatch, PATCH_FILE, type PatchOperation } from "./patch.js";
import { archiveEntryError, gzipError, tarError, uncompressedTooLargeError } from "./errors.js";

export interface Manifest {
  revision: string;
  /** Slash paths under data ("" = all of data). */
  roots: string[];
}

export interface ParsedBundle {
  manifest: Manifest;
  /** Rego sources by archive path ("/authz/policy.rego"). */
  modules: Record<string, string>;
  data: Record<string, unknown>;
  /** The parsed /plan.json, when the bundle ships one. */
  plan?: unknown;
  /** A delta bundle's data patch (then the bundle holds nothing else but its .manifest). */
  patch?: PatchOperation[];
}

const gunzipAsync = promisify(gunzip);

/** What the bundle client checks signatures against (absent: signatures are not looked at, as
 * OPA's --skip-verify; `config` undefined: a signed bundle is refused). */
export interface ArchiveVerification {
  name: string;
  config: VerificationConfig | undefined;
}

export async function readArchive(archive: Buffer, limits: ArchiveLimits, verification?: ArchiveVerification): Promise<ParsedBundle> {
  const tar = await decompress(archive, limits.maxUncompressedBytes);
  const files = await untar(tar, limits.maxEntries);
  if (verification) await verifyBundle(verification.name, files, verification.config, files.has(PATCH_FILE));
  return assemble(files);
}

async function decompress(archive: Buffer, maxBytes: number): Promise<Buffer> {
  try {
    return await gunzipAsync(archive, { maxOutputLength: maxBytes });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE") {
      throw uncompressedTooLargeError(maxBytes, e);
    }
    throw gzipError(e);
  }
}

/** The regular files of the tar stream, by normalised path ("/a/data.json"). */
function untar(tar: Buffer, maxEntries: number): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    let count = 0;
    let failed: RegoError | undefined;
    const fail = (e: RegoError) => {
      failed ??= e;
      parser.abort(e);
    };
    const onEntry = (entry: ReadEntry) => {
      if (failed || ++count > maxEntries) {
        if (!failed) fail(archiveEntryError(entry.path, `the archive has more than ${maxEntries} entries`));
        entry.resume();
        return;
      }
      const path = safePath(entry.path);
      if (typeof path !== "string") return fail(archiveEntryError(entry.path, path.reason)), entry.resume();
      if (entry.type === "Directory") return void entry.resume();
      if (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "ContiguousFile") {
        return fail(archiveEntryError(entry.path, `${entry.type} entries are not allowed`)), entry.resume();
      }
      if (files.has(path)) return fail(archiveEntryError(entry.path, "duplicate entry")), entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (c: Buffer) => chunks.push(c));
      entry.on("end", () => files.set(path, Buffer.concat(chunks)));
    };
    const parser = new Parser({ strict: true, onReadEntry: onEntry });
    parser.on("error", (e: Error) => reject(failed ?? tarError(e)));
    parser.on("abort", () => reject(failed));
    parser.on("end", () => (failed ? reject(failed) : resolve(files)));
    parser.end(tar);
  });
}

/** "./a//b.rego" → "/a/b.rego"; absolute paths and ".." are refused with the reason. */
function safePath(raw: string): string | { reason: string } {
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw) || raw.includes("\\")) return { reason: "absolute paths are not allowed" };
  const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return { reason: "path traversal (..) is not allowed" };
  if (parts.length === 0) return "/";
  return "/" + parts.join("/");
}


/** A bundle from its files by normalised path ("/a/data.json"): an archive's entries, or the files
 * of a bundle directory (`regoc test --bundle`). */
export function assemble(files: Map<string, Buffer>): ParsedBundle {
  const manifest = readManifest(files.get("/.manifest"));
  checkRootsOverlap(manifest.roots);
  const bundle: ParsedBundle = { manifest, modules: {}, data: newPlainObject() };
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    const dir = path.slice(1, path.length - name.length).split("/").filter((p) => p !== "");
    if (DATA_FILES.includes(name)) {
      // JSON for the Store: a number beyond a double's precision becomes the nearest double
      const value = toJSON(parseDataFile(path, utf8(path, content), dataError, { exact: false })) as Value;
      mergeDataFile(bundle.data as Record<string, Value>, dir, value, path, dataError);
    } else if (name.endsWith(".rego")) {
      bundle.modules[path] = utf8(path, content);
    } else if (path === "/plan.json") {
      bundle.plan = parseJSON(path, content);
    }
  }
  const patch = files.get(PATCH_FILE);
  if (patch !== undefined) {
    bundle.patch = parsePatch(parseJSON(PATCH_FILE, patch), manifest.roots, archiveEntryError);
    const other = Object.keys(bundle.data).length > 0 ? "data" : Object.keys(bundle.modules).length > 0 ? "policy" : bundle.plan !== undefined ? "plan" : undefined;
    if (other) throw archiveEntryError(PATCH_FILE, `delta bundle expected to contain only patch file but ${other} files found`);
    return bundle;
  }
  checkDataRoots(bundle.data, manifest.roots);
  return bundle;
}

function readManifest(content: Buffer | undefined): Manifest {
  if (content === undefined) return { revision: "", roots: [""] };
  const m = parseJSON("/.manifest", content);
  if (typeof m !== "object" || m === null || Array.isArray(m)) throw archiveEntryError("/.manifest", "must be a JSON object");
  const { revision = "", roots = [""] } = m as { revision?: unknown; roots?: unknown };
  if (typeof revision !== "string") throw archiveEntryError("/.manifest", "revision must be a string");
  if (!Array.isArray(roots) || !roots.every((r) => typeof r === "string")) throw archiveEntryError("/.manifest", "roots must be a list of strings");
  return { revision, roots: (roots as string[]).map((r) => r.replace(/^\/+|\/+$/g, "")) };
}

const dataError: DataFileError = (problem, path, message) => archiveEntryError(path, problem === "parse" ? `not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${message}` : message);

function parseJSON(path: string, content: Buffer): unknown {
  try {
    return JSON.parse(utf8(path, content));
  } catch (e) {
    throw archiveEntryError(path, `not valid JSON: ${(e as Error).message}`);
  }
}

function utf8(path: string, content: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(content);
  } catch {
    throw archiveEntryError(path, "not valid UTF-8");
  }
}
