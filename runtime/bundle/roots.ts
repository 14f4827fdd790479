// A bundle's manifest roots: the parts of `data` the bundle owns. The checks follow OPA's bundle
// semantics (roots may not overlap; data and packages must sit under a root); the messages are OPA's.
import { RegoError } from "../errors.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../value/value.js";

type Tree = Record<string, unknown>;

const segments = (root: string): string[] => (root === "" ? [] : root.split("/"));

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

export function checkRootsOverlap(roots: readonly string[]): void {
  for (let i = 0; i < roots.length; i++) {
    for (let j = i + 1; j < roots.length; j++) {
      const a = segments(roots[i]!);
      const b = segments(roots[j]!);
      if (isPrefix(a, b) || isPrefix(b, a)) {
        throw new RegoError("bundle_error", `manifest has overlapped roots: '${roots[i]}' and '${roots[j]}'`, undefined, { details: { entry: "/.manifest" } });
      }
    }
  }
}

/** True when the slash-free path segments lie under one of the roots. */
export function underRoots(roots: readonly string[], path: readonly string[]): boolean {
  return roots.some((r) => isPrefix(segments(r), path));
}

/** Every leaf of the data must lie under a root; objects on the way to a root may only lead there. */
export function checkDataRoots(data: Tree, roots: readonly string[]): void {
  const walk = (value: unknown, path: string[]): void => {
    if (underRoots(roots, path)) return;
    const leadsToRoot = roots.some((r) => isPrefix(path, segments(r)));
    if (leadsToRoot && isTree(value)) {
      for (const k of Object.keys(value)) walk(value[k], [...path, k]);
      return;
    }
    throw new RegoError(
      "bundle_error",
      `manifest roots ${formatRoots(roots)} do not permit data at path '/${path.join("/")}' (hint: check bundle directory structure)`,
      undefined,
      { details: { path: "/" + path.join("/") } },
    );
  };
  walk(data, []);
}

export function formatRoots(roots: readonly string[]): string {
  return `[${roots.join(" ")}]`;
}

/** Puts a data file's value at its directory, merging objects; two values at one place conflict. */
export function mergeData(data: Tree, dir: readonly string[], value: unknown, file: string): void {
  if (dir.length === 0) {
    if (!isTree(value)) throw conflict(file, "a data file at the bundle root must hold an object");
    mergeInto(data, value, file, []);
    return;
  }
  let node = data;
  for (const key of dir.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === undefined) {
      const child = newPlainObject();
      setOwn(node as PlainObject, key, child);
      node = child;
    } else if (isTree(next)) node = next;
    else throw conflict(file, `data at '/${dir.join("/")}' conflicts with a value of another data file`);
  }
  mergeInto(node, { [dir[dir.length - 1]!]: value }, file, dir.slice(0, -1));
}

function mergeInto(target: Tree, source: Tree, file: string, path: string[]): void {
  for (const key of Object.keys(source)) {
    const here = Object.hasOwn(target, key) ? target[key] : undefined;
    const incoming = source[key];
    if (here === undefined) setOwn(target as PlainObject, key, incoming as Value); // own even for "__proto__"
    else if (isTree(here) && isTree(incoming)) mergeInto(here, incoming, file, [...path, key]);
    else throw conflict(file, `data at '/${[...path, key].join("/")}' conflicts with a value of another data file`);
  }
}

function isTree(v: unknown): v is Tree {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function conflict(file: string, message: string): RegoError {
  return new RegoError("bundle_error", `bundle archive: entry ${JSON.stringify(file)}: ${message}`, undefined, { details: { entry: file } });
}
