// Structural types for `input` and `data`, from the constant-key Dot chains a plan reads off its
// input/data locals (plan locals 0/1, a func's params[0]/params[1]), followed through plain
// AssignVar copies. A node read with a dynamic key or scanned may be any collection: it becomes
// `unknown`. Every object node keeps an index signature, so documents with more keys than the
// policy reads are still accepted; the types only help callers, the code checks everything anyway.
import type { Block, DotStmt, Policy, Stmt } from "../../ir/types.js";
import { forEachStmt } from "../../ir/walk.js";
import type { TypeDescription } from "../schemaTypes.js";

export interface Shape {
  /** Constant keys read below this node. */
  keys: Map<string, Shape>;
  /** Read with a dynamic key, scanned, or too deep/wide to describe: `unknown`. */
  dynamic: boolean;
  /** The type a schema gives this node (it replaces what the refs say of it and below). */
  schema?: TypeDescription;
}

export function emptyShape(): Shape {
  return { keys: new Map(), dynamic: false };
}

const MAX_DEPTH = 8;
const MAX_KEYS = 200;

type Root = "input" | "data";

export interface Shapes {
  input: Shape;
  data: Shape;
}

/** What a local refers to, when it is a path into input or data. */
export interface Ref {
  root: Root;
  path: string[];
}

/**
 * Follows the refs of one body: `roots` maps the body's input/data locals; `onDot` sees every
 * DotStmt whose source is a ref (with that ref), `onScan` every scan of a ref. A DotStmt with a
 * constant string key yields a longer ref for its target (when `extend` allows it).
 */
export function trackRefs(
  policy: Policy,
  blocks: readonly Block[],
  roots: ReadonlyMap<number, Root>,
  hooks: { onDot?: (s: DotStmt, ref: Ref) => boolean; onScan?: (ref: Ref) => void; scanValues?: boolean; noCopies?: boolean },
): void {
  const strings = policy.static.strings;
  const refs = new Map<number, Ref>();
  for (const [l, root] of roots) refs.set(l, { root, path: [] });
  forEachStmt(blocks, (s) => {
    switch (s.type) {
      case "DotStmt": {
        const src = s.stmt.source;
        const ref = src.type === "local" ? refs.get(src.value) : undefined;
        if (!roots.has(s.stmt.target)) refs.delete(s.stmt.target);
        if (!ref) return;
        const extend = hooks.onDot?.(s.stmt, ref) ?? true;
        const key = s.stmt.key;
        if (extend && !roots.has(s.stmt.target)) {
          refs.set(s.stmt.target, { root: ref.root, path: [...ref.path, key.type === "string_index" ? strings[key.value]!.value : "*"] });
        }
        return;
      }
      case "ScanStmt": {
        const ref = refs.get(s.stmt.source);
        if (ref) hooks.onScan?.(ref);
        for (const t of [s.stmt.key, s.stmt.value]) if (!roots.has(t)) refs.delete(t);
        if (ref && hooks.scanValues && !roots.has(s.stmt.value)) refs.set(s.stmt.value, { root: ref.root, path: [...ref.path, "*"] });
        return;
      }
      case "AssignVarStmt": {
        if (roots.has(s.stmt.target)) return;
        const src = s.stmt.source;
        const ref = src.type === "local" ? refs.get(src.value) : undefined;
        if (ref && !hooks.noCopies) refs.set(s.stmt.target, ref);
        else refs.delete(s.stmt.target);
        return;
      }
      default:
        // Any other write ends what a local refers to (input/data locals keep their role: `with`
        // replaces them by documents of the same kind).
        for (const t of writes(s)) if (!roots.has(t)) refs.delete(t);
    }
  });
}

/** Records the reads of one body into `shapes`; `roots` maps the body's input/data locals. */
export function collectShapes(policy: Policy, blocks: readonly Block[], roots: ReadonlyMap<number, Root>, shapes: Shapes): void {
  const strings = policy.static.strings;
  const node = (ref: Ref): Shape | undefined => {
    let n = shapes[ref.root];
    for (const k of ref.path) {
      if (n.dynamic) return undefined;
      let c = n.keys.get(k);
      if (!c) {
        if (n.keys.size >= MAX_KEYS) {
          n.dynamic = true;
          return undefined;
        }
        n.keys.set(k, (c = emptyShape()));
      }
      n = c;
    }
    return n.dynamic ? undefined : n;
  };
  trackRefs(policy, blocks, roots, {
    onDot: (s, ref) => {
      if (s.key.type === "string_index" && ref.path.length < MAX_DEPTH) {
        return node({ root: ref.root, path: [...ref.path, strings[s.key.value]!.value] }) !== undefined;
      }
      const n = node(ref);
      if (n) n.dynamic = true;
      return false;
    },
    onScan: (ref) => {
      const n = node(ref);
      if (n) n.dynamic = true;
    },
  });
}

/**
 * Gives the node at `path` the type a schema describes. The nodes on the way are objects (the
 * schema's path goes through them): one the refs read dynamically becomes an object of that one
 * key (and any others). A path below a node a schema already types is left to that schema.
 */
export function graftSchema(shape: Shape, path: readonly string[], type: TypeDescription): void {
  let n = shape;
  for (const k of path) {
    if (n.schema) return;
    if (n.dynamic) {
      n.dynamic = false;
      n.keys.clear();
    }
    let c = n.keys.get(k);
    if (!c) n.keys.set(k, (c = emptyShape()));
    n = c;
  }
  if (!n.schema) n.schema = type;
}

/** No DotStmts (most bodies: one set for all). */
const NO_DOTS: ReadonlySet<DotStmt> = new Set();

/**
 * DotStmts that read base data (OPA's storage paths): a number key there names the same document
 * as its text (`data[2]` reads key "2"), as OPA's storage.NewPathForRef converts it.
 */
export function baseDataDots(
  policy: Policy,
  blocks: readonly Block[],
  dataLocal: number | undefined,
  /** Whether the body has a DotStmt with a local key at all (CallGraph.readsWithLocalKey). */
  localKeyDot: boolean,
): ReadonlySet<DotStmt> {
  if (dataLocal === undefined || !localKeyDot) return NO_DOTS;
  const out = new Set<DotStmt>();
  trackRefs(policy, blocks, new Map([[dataLocal, "data"]]), {
    onDot: (s) => {
      if (s.key.type === "local") out.add(s);
      return true;
    },
    scanValues: true,
    // `obj := data.x; obj[2]` reads a value, not a storage path: OPA finds nothing there.
    noCopies: true,
  });
  return out;
}

function writes(s: Stmt): number[] {
  switch (s.type) {
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
    case "LenStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "MakeSetStmt":
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
      return [s.stmt.target];
    case "CallStmt":
    case "CallDynamicStmt":
      return [s.stmt.result];
    case "ObjectInsertStmt":
    case "ObjectInsertOnceStmt":
      return [s.stmt.object];
    default:
      return [];
  }
}
