// Delta bundles (OPA's `/patch.json`): `{"data": [{"op": "add"|"remove"|"replace", "path": "/a/b", "value": ...}]}`
// applied in order to a copy of the bundle's current data, as OPA's store applies JSON patches:
// add sets an object key or inserts into an array (index or "-"), under an existing parent;
// remove and replace need an existing target. Every path must lie under the manifest's roots.
import { RegoError } from "../errors.js";
import { underRoots } from "./roots.js";
import { deltaOpError, patchOutsideRoots } from "./errors.js";

export const PATCH_FILE = "/patch.json";

export interface PatchOperation {
  op: "add" | "remove" | "replace";
  /** Segments below data. */
  path: string[];
  value?: unknown;
}

type EntryError = (entry: string, message: string) => RegoError;

/** Validates a patch.json document; its paths must lie under the roots. */
export function parsePatch(doc: unknown, roots: readonly string[], error: EntryError): PatchOperation[] {
  const list = typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as { data?: unknown }).data : undefined;
  if (!Array.isArray(list)) throw error(PATCH_FILE, 'must be {"data": [operations]}');
  return list.map((o, i) => {
    const { op, path, value } = (typeof o === "object" && o !== null ? o : {}) as { op?: unknown; path?: unknown; value?: unknown };
    if (op !== "add" && op !== "remove" && op !== "replace") throw error(PATCH_FILE, `data[${i}].op must be add, remove or replace`);
    if (typeof path !== "string") throw error(PATCH_FILE, `data[${i}].path must be a string`);
    const segments = path.replace(/^\/+|\/+$/g, "").split("/").filter((s) => s !== "");
    if (segments.length === 0) throw error(PATCH_FILE, `data[${i}].path must name a document below data`);
    if (!underRoots(roots, segments)) throw error(PATCH_FILE, patchOutsideRoots(roots, segments));
    if (op !== "remove" && value === undefined) throw error(PATCH_FILE, `data[${i}]: ${op} needs a value`);
    return op === "remove" ? { op, path: segments } : { op, path: segments, value };
  });
}

/** The data after the operations (the input is not changed). */
export function applyPatch(data: Record<string, unknown>, ops: readonly PatchOperation[], bundle: string): Record<string, unknown> {
  const out = structuredClone(data);
  for (const { op, path, value } of ops) {
    const fail = (why: string): never => {
      throw deltaOpError(bundle, op, path, why);
    };
    let parent: unknown = out;
    for (const seg of path.slice(0, -1)) {
      parent = child(parent, seg);
      if (parent === undefined) fail("the parent document does not exist");
    }
    const last = path[path.length - 1]!;
    if (Array.isArray(parent)) {
      const index = last === "-" && op === "add" ? parent.length : /^(0|[1-9][0-9]*)$/.test(last) ? Number(last) : -1;
      if (index < 0 || index > parent.length || (op !== "add" && index === parent.length)) fail("no such array index");
      if (op === "add") parent.splice(index, 0, structuredClone(value));
      else if (op === "remove") parent.splice(index, 1);
      else parent[index] = structuredClone(value);
    } else if (typeof parent === "object" && parent !== null) {
      const o = parent as Record<string, unknown>;
      if (op !== "add" && !Object.hasOwn(o, last)) fail("the document does not exist");
      if (op === "remove") delete o[last];
      else Object.defineProperty(o, last, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
    } else fail("the parent is not an object or array");
  }
  return out;
}

function child(v: unknown, seg: string): unknown {
  if (Array.isArray(v)) return /^(0|[1-9][0-9]*)$/.test(seg) ? v[Number(seg)] : undefined;
  if (typeof v === "object" && v !== null && Object.hasOwn(v, seg)) return (v as Record<string, unknown>)[seg];
  return undefined;
}
