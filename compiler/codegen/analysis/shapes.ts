// Structural types for `input` and `data`, inferred from how a plan uses them (no JSON Schema
// needed): the constant-key Dot chains it reads off its input/data locals (plan locals 0/1, a
// func's params[0]/params[1]), followed through copies, scans (a collection's elements) and
// dynamic keys; the kinds of value each node is compared with (`== "admin"` → string, `> 100` →
// number), type-tested as, or passed to a builtin whose declaration types that argument; and the
// reads a func makes of a param, which belong to the ref its callers pass. Types help callers
// only: the generated code checks everything anyway. Also here: the DotStmts that read base data
// by a storage path (baseDataDots).
import type { Block, BuiltinFunc, DotStmt, Func, Operand, Plan, Policy, Stmt } from "../../ir/types.js";
import { forEachStmt } from "../../ir/walk.js";
import type { TypeDescription } from "../schemaTypes.js";
import { ANY, builtinsByName, calleesFirstByCallStmts, declKinds, K, type FuncFacts, type Kinds } from "./kinds.js";
import { assertNever } from "../../../runtime/errors.js";

export interface Shape {
  /** Constant keys read below this node (it is an object). */
  keys: Map<string, Shape>;
  /** The elements of a collection the policy scans or reads with a dynamic key. */
  elem: Shape | undefined;
  /** Kinds (kinds.ts's K) the policy's uses give this node: what it is compared with, tested as,
   * passed to a builtin as. */
  kinds: Kinds;
  /** Used as a dynamic key: a string or a number, unless `kinds` says more. */
  key: boolean;
  /** Used as a whole value (compared with another document, passed to a builtin, returned): an
   * object node then keeps an index signature, as keys the policy does not name may matter. */
  whole: boolean;
  /** Too deep/wide to describe: `unknown`. */
  dynamic: boolean;
  depth: number;
  /** The type a schema gives this node (it replaces what the uses say of it and below). */
  schema?: TypeDescription;
}

export function emptyShape(depth = 0): Shape {
  return { keys: new Map(), elem: undefined, kinds: 0, key: false, whole: false, dynamic: false, depth };
}

/** Whether the uses say nothing of a node (its type is `unknown`, short of a schema). */
export function saysNothing(shape: Shape): boolean {
  return shape.dynamic || (shape.kinds === 0 && !shape.key && shape.keys.size === 0 && !shape.elem);
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
 * DotStmt whose source is a ref (with that ref). A DotStmt with a constant string key yields a
 * longer ref for its target (when `extend` allows it).
 */
export function trackRefs(
  policy: Policy,
  blocks: readonly Block[],
  roots: ReadonlyMap<number, Root>,
  hooks: { onDot?: (s: DotStmt, ref: Ref) => boolean; scanValues?: boolean; noCopies?: boolean },
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
      case "ArrayAppendStmt":
      case "AssignIntStmt":
      case "AssignVarOnceStmt":
      case "BlockStmt":
      case "BreakStmt":
      case "CallDynamicStmt":
      case "CallStmt":
      case "EqualStmt":
      case "IsArrayStmt":
      case "IsDefinedStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
      case "IsUndefinedStmt":
      case "LenStmt":
      case "MakeArrayStmt":
      case "MakeNullStmt":
      case "MakeNumberIntStmt":
      case "MakeNumberRefStmt":
      case "MakeObjectStmt":
      case "GroupsStmt":
      case "MakeSetStmt":
      case "NopStmt":
      case "NotEqualStmt":
      case "NotStmt":
      case "ObjectInsertOnceStmt":
      case "ObjectInsertStmt":
      case "ObjectMergeStmt":
      case "ResetLocalStmt":
      case "ResultSetAddStmt":
      case "ReturnLocalStmt":
      case "SetAddStmt":
      case "WithStmt":
      case "IndexStmt":
      case "IncrementStmt":
      case "GroupAddStmt":
        // Any other write ends what a local refers to (input/data locals keep their role: `with`
        // replaces them by documents of the same kind).
        for (const t of writes(s)) if (!roots.has(t)) refs.delete(t);
        break;
      default:
        assertNever(s);
    }
  });
}

/** The child of a node at a constant key; undefined (and the node `dynamic`) past the limits. */
function child(n: Shape, key: string): Shape | undefined {
  if (n.dynamic) return undefined;
  let c = n.keys.get(key);
  if (c) return c;
  if (n.keys.size >= MAX_KEYS || n.depth >= MAX_DEPTH) {
    n.dynamic = true;
    return undefined;
  }
  n.keys.set(key, (c = emptyShape(n.depth + 1)));
  return c;
}

/** The element node of a collection node (undefined past the depth limit). */
function element(n: Shape): Shape | undefined {
  if (n.dynamic) return undefined;
  if (n.elem) return n.elem;
  if (n.depth >= MAX_DEPTH) {
    n.dynamic = true;
    return undefined;
  }
  return (n.elem = emptyShape(n.depth + 1));
}

/** Adds what `from` says to `into` (a copy: `from` may be merged again elsewhere). */
export function mergeShape(into: Shape, from: Shape): void {
  if (into.dynamic) return;
  if (from.dynamic) {
    into.dynamic = true;
    return;
  }
  into.kinds |= from.kinds;
  into.key ||= from.key;
  into.whole ||= from.whole;
  for (const [k, c] of from.keys) {
    const to = child(into, k);
    if (to) mergeShape(to, c);
  }
  if (from.elem) {
    const to = element(into);
    if (to) mergeShape(to, from.elem);
  }
}

/** What a func's body says of its documents and params (the reads of `input`/`data` go to the
 * entrypoints' types; a param's to the refs its callers pass). */
interface Summary {
  input: Shape;
  data: Shape;
  params: Map<number, Shape>;
}

/** Builtins comparing their two arguments: one gets the kinds of the other. */
const COMPARISONS = new Set(["equal", "neq", "gt", "gte", "lt", "lte"]);

/** `in`'s builtins: the value (and key) come before the collection. */
const MEMBERSHIP = new Set(["internal.member_2", "internal.member_3"]);

/** Kinds of a value as a document holds it (JSON has no sets). */
const COLLECTION = K.array | K.object;

/**
 * The uses of `input`/`data` by the plans and funcs of a policy, as summaries to merge per
 * group of entrypoints (groupShapes). Two walks of each body: callers first, the kinds of the
 * constants each func param is called with (`check_role("admin")`: `role` is a string); then
 * callees first, the uses, so that a call site merges its callee's param summaries into the refs
 * it passes.
 */
export class ShapeAnalysis {
  private readonly builtins: ReadonlyMap<string, BuiltinFunc>;
  private readonly byName: ReadonlyMap<string, Func>;
  private readonly paramKinds = new Map<Func, Map<number, Kinds>>();
  private readonly summaries = new Map<Func | Plan, Summary>();

  constructor(
    private readonly policy: Policy,
    plans: readonly Plan[],
    funcs: readonly Func[],
    private readonly facts: ReadonlyMap<string, FuncFacts>,
  ) {
    this.builtins = builtinsByName(policy);
    this.byName = new Map(funcs.map((f) => [f.name, f]));
    const order = calleesFirstByCallStmts(funcs);
    for (const p of plans) this.walk(p, false);
    for (let i = order.length - 1; i >= 0; i--) this.walk(order[i]!, false);
    for (const f of order) this.summaries.set(f, this.walk(f, true));
  }

  /** The shapes of a group of plans, with every func they reach. */
  groupShapes(plans: readonly Plan[], reach: readonly Func[]): Shapes {
    const out: Shapes = { input: emptyShape(), data: emptyShape() };
    const add = (s: Summary) => {
      mergeShape(out.input, s.input);
      mergeShape(out.data, s.data);
    };
    for (const p of plans) {
      let s = this.summaries.get(p);
      if (!s) this.summaries.set(p, (s = this.walk(p, true)));
      add(s);
    }
    for (const f of reach) {
      const s = this.summaries.get(f);
      if (s) add(s);
    }
    return out;
  }

  /** One body's walk, in statement order (locals are reused: each write ends what a local was).
   * `record` false: only the kinds of the args of its func calls (into paramKinds). */
  private walk(body: Func | Plan, record: boolean): Summary {
    const strings = this.policy.static.strings;
    const summary: Summary = { input: emptyShape(), data: emptyShape(), params: new Map() };
    const params = "params" in body ? body.params : [0, 1];
    /** The node a local refers to. */
    const refs = new Map<number, Shape>();
    /** Kinds of locals holding values made in the body (constants, builtin and func results). */
    const vals = new Map<number, Kinds>(this.paramKinds.get(body as Func) ?? []);
    /** Kinds of the elements of arrays and sets the body builds (ANY: one is unknown). */
    const elems = new Map<number, Kinds>();
    const roots = new Set(params);
    if (record) {
      refs.set(params[0]!, summary.input);
      refs.set(params[1]!, summary.data);
      for (const p of params.slice(2)) {
        const n = emptyShape();
        summary.params.set(p, n);
        refs.set(p, n);
      }
    }
    const ref = (op: Operand): Shape | undefined => (op.type === "local" ? refs.get(op.value) : undefined);
    /** Kinds of an operand's value as the body makes it (0: unknown; a param: as it is called). */
    const kindsOf = (op: Operand): Kinds => {
      if (op.type === "bool") return K.boolean;
      if (op.type === "string_index") return K.string;
      const k = vals.get(op.value) ?? 0;
      return k === ANY ? 0 : k;
    };
    const set = (target: number, node: Shape | undefined, kinds: Kinds) => {
      if (roots.has(target)) return;
      if (node) refs.set(target, node);
      else refs.delete(target);
      if (kinds) vals.set(target, kinds);
      else vals.delete(target);
      elems.delete(target);
    };
    /** An element added to a collection the body builds. */
    const add = (coll: number, value: Operand) => {
      elems.set(coll, (elems.get(coll) ?? 0) | (kindsOf(value) || ANY));
    };
    /** A use of the operand as a whole value. */
    const whole = (op: Operand) => {
      const n = ref(op);
      if (n) n.whole = true;
    };
    /** Two operands compared: a ref gets the other's kinds, or is compared as a whole value. */
    const compare = (a: Operand, b: Operand) => {
      for (const [x, y] of [[a, b], [b, a]] as const) {
        const n = ref(x);
        if (!n) continue;
        const k = kindsOf(y);
        if (k) n.kinds |= k & ~K.set;
        else n.whole = true;
      }
    };
    forEachStmt(body.blocks, (s) => {
      switch (s.type) {
        case "DotStmt": {
          const n = ref(s.stmt.source);
          const key = s.stmt.key;
          if (!n) return set(s.stmt.target, undefined, 0);
          if (key.type === "string_index") return set(s.stmt.target, child(n, strings[key.value]!.value), 0);
          // A dynamic key: a number indexes an array, a string an object; either, when unknown (and
          // a key read from the documents is then one of the two).
          const k = kindsOf(key);
          n.kinds |= k === K.number ? K.array : k === K.string || key.type === "bool" ? K.object : COLLECTION;
          const keyRef = ref(key);
          if (keyRef) keyRef.key = true;
          return set(s.stmt.target, element(n), 0);
        }
        case "ScanStmt": {
          const n = refs.get(s.stmt.source);
          // (The elements of a collection the body built have the kinds it added.)
          const built = n ? 0 : (elems.get(s.stmt.source) ?? 0);
          set(s.stmt.key, undefined, 0);
          if (n) n.kinds |= COLLECTION;
          return set(s.stmt.value, n && element(n), built);
        }
        case "AssignVarOnceStmt":
        case "AssignVarStmt": {
          // (AssignVarOnce sets a rule's value: the ref is returned as a whole.)
          if (s.type === "AssignVarOnceStmt") whole(s.stmt.source);
          const src = s.stmt.source;
          const e = src.type === "local" ? elems.get(src.value) : undefined;
          set(s.stmt.target, ref(src), kindsOf(src));
          if (e !== undefined && !roots.has(s.stmt.target)) elems.set(s.stmt.target, e);
          return;
        }
        case "AssignIntStmt":
        case "MakeNumberIntStmt":
        case "MakeNumberRefStmt":
        case "IncrementStmt":
          return set(s.stmt.target, undefined, K.number);
        case "LenStmt":
          whole(s.stmt.source);
          return set(s.stmt.target, undefined, K.number);
        case "MakeNullStmt":
          return set(s.stmt.target, undefined, K.null);
        case "MakeArrayStmt":
          set(s.stmt.target, undefined, K.array);
          return void elems.set(s.stmt.target, 0);
        case "MakeObjectStmt":
        case "GroupsStmt":
          return set(s.stmt.target, undefined, K.object);
        case "MakeSetStmt":
          set(s.stmt.target, undefined, K.set);
          return void elems.set(s.stmt.target, 0);
        case "EqualStmt":
          return compare(s.stmt.a, s.stmt.b);
        case "NotEqualStmt": {
          // `NotEqual x false` is a body's test of an expression's value: any value but false passes.
          const constant = (op: Operand) => op.type !== "local";
          if (!constant(s.stmt.a) && !constant(s.stmt.b)) compare(s.stmt.a, s.stmt.b);
          return;
        }
        case "IsArrayStmt":
        case "IsObjectStmt": {
          const n = ref(s.stmt.source);
          if (n) n.kinds |= s.type === "IsArrayStmt" ? K.array : K.object;
          return;
        }
        case "CallStmt":
          return this.call(s.stmt, record, { ref, kindsOf, elemsOf: (op) => (op.type === "local" ? (elems.get(op.value) ?? ANY) : ANY), compare, set });
        case "CallDynamicStmt":
          return set(s.stmt.result, undefined, 0);
        case "ArrayAppendStmt":
        case "SetAddStmt":
          add(s.type === "ArrayAppendStmt" ? s.stmt.array : s.stmt.set, s.stmt.value);
          return whole(s.stmt.value);
        case "ObjectInsertStmt":
        case "ObjectInsertOnceStmt":
        case "WithStmt":
          whole(s.stmt.value);
          return s.type === "WithStmt" ? set(s.stmt.local, undefined, 0) : set(s.stmt.object, undefined, K.object);
        case "GroupAddStmt":
          if (s.stmt.value !== undefined) whole(s.stmt.value);
          return set(s.stmt.groups, undefined, K.object);
        case "ResultSetAddStmt":
          return whole({ type: "local", value: s.stmt.value });
        case "ReturnLocalStmt":
          return whole({ type: "local", value: s.stmt.source });
        case "ObjectMergeStmt":
          whole({ type: "local", value: s.stmt.a });
          whole({ type: "local", value: s.stmt.b });
          return set(s.stmt.target, undefined, K.object);
        case "ResetLocalStmt":
          return set(s.stmt.target, undefined, 0);
        case "BlockStmt":
        case "BreakStmt":
        case "IsDefinedStmt":
        case "IsSetStmt":
        case "IsUndefinedStmt":
        case "NopStmt":
        case "NotStmt":
        case "IndexStmt":
          return;
        default:
          assertNever(s);
      }
    });
    return summary;
  }

  private call(
    s: { func: string; args: Operand[]; result: number },
    record: boolean,
    w: {
      ref: (op: Operand) => Shape | undefined;
      kindsOf: (op: Operand) => Kinds;
      /** Kinds of the elements of a collection the body built (ANY: unknown). */
      elemsOf: (op: Operand) => Kinds;
      compare: (a: Operand, b: Operand) => void;
      set: (target: number, node: Shape | undefined, kinds: Kinds) => void;
    },
  ): void {
    const f = this.byName.get(s.func);
    if (f) {
      if (record) {
        // The callee's uses of a param are uses of the ref passed for it.
        const callee = this.summaries.get(f);
        for (let i = 2; i < s.args.length; i++) {
          const n = w.ref(s.args[i]!);
          const p = callee?.params.get(f.params[i]!);
          if (n && p) mergeShape(n, p);
        }
      } else {
        let pk = this.paramKinds.get(f);
        if (!pk) this.paramKinds.set(f, (pk = new Map()));
        for (let i = 2; i < s.args.length; i++) {
          const p = f.params[i]!;
          const k = w.ref(s.args[i]!) ? ANY : w.kindsOf(s.args[i]!) || ANY;
          pk.set(p, (pk.get(p) ?? 0) | k);
        }
      }
      return w.set(s.result, undefined, this.facts.get(f.name)?.returns ?? 0);
    }
    const b = this.builtins.get(s.func);
    if (COMPARISONS.has(s.func) && s.args.length === 2) w.compare(s.args[0]!, s.args[1]!);
    else if (MEMBERSHIP.has(s.func) && s.args.length >= 2) {
      // `x in coll` (`k, x in coll`): a collection in the documents has elements like x, and x is
      // like the elements of a collection the body builds.
      const x = s.args[s.args.length - 2]!;
      const coll = s.args[s.args.length - 1]!;
      const c = w.ref(coll);
      if (c) {
        c.kinds |= COLLECTION;
        const e = element(c);
        const k = w.kindsOf(x);
        if (e && k) e.kinds |= k & ~K.set;
      }
      const n = w.ref(x);
      const k = w.elemsOf(coll);
      if (n && k !== ANY) n.kinds |= k & ~K.set;
      else if (n && !c) n.whole = true;
    } else {
      for (let i = 0; i < s.args.length; i++) {
        const n = w.ref(s.args[i]!);
        if (!n) continue;
        n.whole = true;
        const k = declKinds(b?.decl.args?.[i]);
        if (k !== ANY) n.kinds |= k & ~K.set;
      }
    }
    w.set(s.result, undefined, b ? declKinds(b.decl.result) : 0);
  }
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
    case "GroupsStmt":
    case "MakeSetStmt":
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
    case "IncrementStmt":
      return [s.stmt.target];
    case "CallStmt":
    case "CallDynamicStmt":
      return [s.stmt.result];
    case "ObjectInsertStmt":
    case "ObjectInsertOnceStmt":
      return [s.stmt.object];
    case "GroupAddStmt":
      return [s.stmt.groups];
    case "ArrayAppendStmt":
    case "AssignVarStmt":
    case "BlockStmt":
    case "BreakStmt":
    case "DotStmt":
    case "EqualStmt":
    case "IsArrayStmt":
    case "IsDefinedStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
    case "IsUndefinedStmt":
    case "NopStmt":
    case "NotEqualStmt":
    case "NotStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "ScanStmt":
    case "SetAddStmt":
    case "WithStmt":
    case "IndexStmt":
      return [];
    default:
      assertNever(s);
  }
}
