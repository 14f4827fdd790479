// A bundle's manifest roots: the parts of `data` the bundle owns. The checks follow OPA's bundle
// semantics (roots may not overlap; data and packages must sit under a root); the messages are OPA's.
// The roots come from the bundle's server: they are read into a tree of segments once, so that
// every check is linear in the roots and paths, whatever their number.
import { dataOutsideRootsError, overlappedRootsError } from "./errors.js";

type Tree = Record<string, unknown>;

const segments = (root: string): string[] => (root === "" ? [] : root.split("/"));

/** The roots as a tree of segments; `root` marks where a root ends (its index in the list). */
interface RootNode {
  root: number | undefined;
  children: Map<string, RootNode>;
}

const newNode = (): RootNode => ({ root: undefined, children: new Map() });

/** The tree of roots, and the first pair (by index) of roots where one contains the other. */
function rootTree(roots: readonly string[]): { tree: RootNode; overlap: [number, number] | undefined } {
  const tree = newNode();
  let overlap: [number, number] | undefined;
  const found = (a: number, b: number) => {
    const pair: [number, number] = a < b ? [a, b] : [b, a];
    if (!overlap || pair[0] < overlap[0] || (pair[0] === overlap[0] && pair[1] < overlap[1])) overlap = pair;
  };
  roots.forEach((r, i) => {
    let node = tree;
    for (const seg of segments(r)) {
      if (node.root !== undefined) found(node.root, i);
      let next = node.children.get(seg);
      if (!next) node.children.set(seg, (next = newNode()));
      node = next;
    }
    if (node.root !== undefined) found(node.root, i);
    else if (node.children.size > 0) found(firstRootBelow(node), i);
    if (node.root === undefined) node.root = i;
  });
  return { tree, overlap };
}

function firstRootBelow(node: RootNode): number {
  let first = Infinity;
  const stack = [...node.children.values()];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.root !== undefined) first = Math.min(first, n.root);
    stack.push(...n.children.values());
  }
  return first;
}

const trees = new WeakMap<readonly string[], RootNode>();

function treeOf(roots: readonly string[]): RootNode {
  let tree = trees.get(roots);
  if (!tree) trees.set(roots, (tree = rootTree(roots).tree));
  return tree;
}

export function checkRootsOverlap(roots: readonly string[]): void {
  const { overlap } = rootTree(roots);
  if (overlap) {
    const [i, j] = overlap;
    throw overlappedRootsError(roots[i]!, roots[j]!);
  }
}

/** A root of `a` and a root of `b` of which one contains the other, if any. */
export function rootsOverlap(a: readonly string[], b: readonly string[]): [string, string] | undefined {
  const tree = treeOf(b);
  for (const x of a) {
    let node: RootNode | undefined = tree;
    for (const seg of segments(x)) {
      if (node.root !== undefined) return [x, b[node.root]!];
      node = node.children.get(seg);
      if (!node) break;
    }
    if (node && (node.root !== undefined || node.children.size > 0)) return [x, b[node.root ?? firstRootBelow(node)]!];
  }
  return undefined;
}

/** True when the slash-free path segments lie under one of the roots. */
export function underRoots(roots: readonly string[], path: readonly string[]): boolean {
  let node: RootNode | undefined = treeOf(roots);
  for (const seg of path) {
    if (node.root !== undefined) return true;
    node = node.children.get(seg);
    if (!node) return false;
  }
  return node.root !== undefined;
}

/** Every leaf of the data must lie under a root; objects on the way to a root may only lead there. */
export function checkDataRoots(data: Tree, roots: readonly string[]): void {
  const walk = (value: unknown, path: string[], node: RootNode | undefined): void => {
    if (node?.root !== undefined) return;
    if (node && isTree(value)) {
      for (const k of Object.keys(value)) walk(value[k], [...path, k], node.children.get(k));
      return;
    }
    throw dataOutsideRootsError(roots, path);
  };
  walk(data, [], roots.length > 0 ? treeOf(roots) : undefined);
}

function isTree(v: unknown): v is Tree {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
