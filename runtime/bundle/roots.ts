// A bundle's manifest roots: the parts of `data` the bundle owns. The checks follow OPA's bundle
// semantics (roots may not overlap; data and packages must sit under a root); the messages are OPA's.
import { dataOutsideRootsError, overlappedRootsError } from "./errors.js";

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
        throw overlappedRootsError(roots[i]!, roots[j]!);
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
    throw dataOutsideRootsError(roots, path);
  };
  walk(data, []);
}

function isTree(v: unknown): v is Tree {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
