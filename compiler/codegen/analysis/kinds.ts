// A small IR type inference, for the signatures of generated functions only (the code itself never
// trusts it). Kinds are a bitmask over OPA's types; each local's kind is the join of everything
// assigned to it anywhere in its func (locals are func-scoped and reused, so flow-insensitive is the
// sound choice). Funcs' return kinds come from their return local, builtins' from their declared
// result type. A second, flow-sensitive analysis decides whether a func can return undefined: a
// rule with a default (`IsUndefined r; AssignVarOnce r ← v`), a partial set or object (`MakeSet r`
// first) always has a value.
import type { Block, Func, Operand, Policy, Stmt, TypeDecl } from "../../ir/types.js";
import { allStmts, childBlocks } from "../../ir/walk.js";

export const K = { null: 1, boolean: 2, number: 4, string: 8, array: 16, object: 32, set: 64 } as const;
export const ANY = 127;
export type Kinds = number;

/** Kinds of an OPA type declaration (capabilities `decl` JSON). */
export function declKinds(t: TypeDecl | undefined): Kinds {
  if (!t || typeof t !== "object") return ANY;
  switch (t.type) {
    case "null":
      return K.null;
    case "boolean":
      return K.boolean;
    case "number":
      return K.number;
    case "string":
      return K.string;
    case "array":
      return K.array;
    case "object":
      return K.object;
    case "set":
      return K.set;
    case "any": {
      const of = t.of;
      if (!Array.isArray(of) || of.length === 0) return ANY;
      return of.reduce<number>((m, x) => m | declKinds(x as TypeDecl), 0);
    }
    default:
      return ANY;
  }
}

export interface FuncFacts {
  /** Kinds the func may return (0: only undefined). */
  returns: Kinds;
  /** True when the func never returns undefined. */
  defined: boolean;
}

type LocalKinds = Map<number, Kinds>;

/** Flow-insensitive kinds of every local of a body (params: ANY). */
export function localKinds(blocks: readonly Block[], params: readonly number[], policy: Policy, facts: Map<string, FuncFacts>): LocalKinds {
  const kinds: LocalKinds = new Map(params.map((p) => [p, ANY]));
  const builtins = new Map(policy.static.builtin_funcs.map((b) => [b.name, b]));
  const stmts = allStmts(blocks);
  const opKinds = (op: Operand): Kinds => (op.type === "bool" ? K.boolean : op.type === "string_index" ? K.string : (kinds.get(op.value) ?? 0));
  const join = (l: number, k: Kinds): boolean => {
    const old = kinds.get(l) ?? 0;
    if ((old | k) === old) return false;
    kinds.set(l, old | k);
    return true;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of stmts) changed = assign(s) || changed;
  }
  return kinds;

  function assign(s: Stmt): boolean {
    switch (s.type) {
      case "AssignVarStmt":
      case "AssignVarOnceStmt":
        return join(s.stmt.target, opKinds(s.stmt.source));
      case "AssignIntStmt":
      case "MakeNumberIntStmt":
      case "MakeNumberRefStmt":
      case "LenStmt":
        return join(s.stmt.target, K.number);
      case "MakeNullStmt":
        return join(s.stmt.target, K.null);
      case "MakeArrayStmt":
        return join(s.stmt.target, K.array);
      case "MakeObjectStmt":
        return join(s.stmt.target, K.object);
      case "MakeSetStmt":
        return join(s.stmt.target, K.set);
      case "ObjectInsertStmt":
      case "ObjectInsertOnceStmt":
        return join(s.stmt.object, K.object);
      case "DotStmt":
        return join(s.stmt.target, ANY);
      case "ObjectMergeStmt":
        return join(s.stmt.target, (kinds.get(s.stmt.a) ?? 0) | (kinds.get(s.stmt.b) ?? 0));
      case "CallStmt": {
        const f = facts.get(s.stmt.func);
        if (f) return join(s.stmt.result, f.returns);
        const b = builtins.get(s.stmt.func);
        return join(s.stmt.result, b ? declKinds(b.decl.result) : ANY);
      }
      case "CallDynamicStmt":
        return join(s.stmt.result, ANY);
      case "ScanStmt":
        return join(s.stmt.key, ANY) || join(s.stmt.value, ANY);
      case "WithStmt":
        return join(s.stmt.local, ANY);
      default:
        return false;
    }
  }
}

// ---- definiteness ----

/** Locals definitely defined at a point; null = the point is unreachable. */
type Defined = Set<number> | null;

function intersect(states: Defined[]): Defined {
  let out: Set<number> | null = null;
  for (const s of states) {
    if (s === null) continue;
    if (out === null) out = new Set(s);
    else for (const x of out) if (!s.has(x)) out.delete(x);
  }
  return out;
}

/** Locals a statement (or anything nested in it) may leave undefined. */
function kills(s: Stmt, out: Set<number>): void {
  switch (s.type) {
    case "ResetLocalStmt":
    case "AssignVarStmt":
    case "DotStmt":
    case "ObjectMergeStmt":
      out.add(s.stmt.target);
      break;
    case "CallStmt":
    case "CallDynamicStmt":
      out.add(s.stmt.result);
      break;
    default:
      break;
  }
  for (const c of childBlocks(s, "")) for (const t of c.block.stmts) kills(t, out);
}

/** Whether a break inside `blocks` (entered with `depth` levels) can leave the enclosing block. */
function escapes(stmts: readonly Stmt[], depth: number): boolean {
  for (const s of stmts) {
    if (s.type === "BreakStmt" && s.stmt.index >= depth) return true;
    if (s.type === "CallDynamicStmt" && 3 >= depth) return true;
    for (const c of childBlocks(s, "")) if (escapes(c.block.stmts, depth + c.levels)) return true;
  }
  return false;
}

export interface BlockFlow {
  /** State when the block is left (normally or by failing); null if it never is. */
  out: Defined;
  /** For ReturnLocalStmt at this level: was every returned local definitely defined? */
  returnsDefined: boolean;
  /** True when some statement of the block may fail (or jump out). */
  mayFail: boolean;
}

/** Flow of one top-level block: which locals are definitely defined when it is left. */
export function blockFlow(block: Block, before: Set<number>, mayBeUndefinedCall: (s: Stmt) => boolean): BlockFlow {
  const exits: Defined[] = [];
  let d: Defined = new Set(before);
  let returnsDefined = true;
  let mayFail = false;
  const defined = (op: Operand, st: Set<number>) => op.type !== "local" || st.has(op.value);
  for (const s of block.stmts) {
    if (d === null) break;
    const st: Set<number> = d;
    const fail = (state: Set<number>) => {
      mayFail = true;
      exits.push(state);
    };
    const without = (l: number) => {
      const n = new Set(st);
      n.delete(l);
      return n;
    };
    const withL = (l: number) => new Set(st).add(l);
    switch (s.type) {
      case "BreakStmt":
        fail(st);
        d = null;
        continue;
      case "ReturnLocalStmt":
        if (!st.has(s.stmt.source)) returnsDefined = false;
        d = null;
        continue;
      case "IsUndefinedStmt":
        fail(withL(s.stmt.source));
        continue;
      case "IsDefinedStmt":
        fail(without(s.stmt.source));
        d = withL(s.stmt.source);
        continue;
      case "AssignVarStmt":
        d = defined(s.stmt.source, st) ? withL(s.stmt.target) : without(s.stmt.target);
        continue;
      case "AssignVarOnceStmt":
        if (!st.has(s.stmt.target)) d = defined(s.stmt.source, st) ? withL(s.stmt.target) : without(s.stmt.target);
        continue;
      case "ResetLocalStmt":
        d = without(s.stmt.target);
        continue;
      case "AssignIntStmt":
      case "MakeNullStmt":
      case "MakeArrayStmt":
      case "MakeObjectStmt":
      case "MakeSetStmt":
      case "MakeNumberIntStmt":
      case "MakeNumberRefStmt":
      case "LenStmt":
        d = withL(s.stmt.target);
        continue;
      case "ObjectInsertStmt":
      case "ObjectInsertOnceStmt":
        d = withL(s.stmt.object);
        continue;
      case "ObjectMergeStmt":
        d = st.has(s.stmt.a) || st.has(s.stmt.b) ? withL(s.stmt.target) : without(s.stmt.target);
        continue;
      case "DotStmt":
      case "CallDynamicStmt":
        fail(without(s.type === "DotStmt" ? s.stmt.target : s.stmt.result));
        d = withL(s.type === "DotStmt" ? s.stmt.target : s.stmt.result);
        continue;
      case "CallStmt":
        if (mayBeUndefinedCall(s)) fail(without(s.stmt.result));
        d = withL(s.stmt.result);
        continue;
      case "EqualStmt":
      case "NotEqualStmt":
      case "IsArrayStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
        fail(st);
        continue;
      case "ArrayAppendStmt":
      case "SetAddStmt":
      case "ResultSetAddStmt":
      case "NopStmt":
        continue;
      case "BlockStmt":
      case "NotStmt":
      case "WithStmt":
      case "ScanStmt": {
        const k = new Set<number>();
        kills(s, k);
        const after = new Set([...st].filter((x) => !k.has(x)));
        const nested = childBlocks(s, "");
        const canLeave = s.type === "NotStmt" || s.type === "WithStmt" || nested.some((c) => escapes(c.block.stmts, c.levels));
        if (canLeave) fail(after);
        d = after;
        continue;
      }
    }
  }
  exits.push(d);
  return { out: intersect(exits), returnsDefined, mayFail };
}

/** Return kinds and definiteness of every func (callees are analysed before their callers). */
export function analyseFuncs(policy: Policy, funcs: readonly Func[]): Map<string, FuncFacts> {
  const facts = new Map<string, FuncFacts>();
  // Start optimistic-free: unknown funcs return ANY and may be undefined, then refine in order;
  // planner output lists callees first, so one pass in order is exact; iterate for other orders.
  for (const f of funcs) facts.set(f.name, { returns: ANY, defined: false });
  for (let round = 0; round < 3; round++) {
    for (const f of funcs) {
      const kinds = localKinds(f.blocks, f.params, policy, facts);
      facts.set(f.name, { returns: kinds.get(f.return) ?? 0, defined: alwaysDefined(f, facts) });
    }
  }
  return facts;
}

function alwaysDefined(f: Func, facts: Map<string, FuncFacts>): boolean {
  const mayBeUndefinedCall = (s: Stmt) => s.type !== "CallStmt" || !(facts.get(s.stmt.func)?.defined ?? false);
  let d: Set<number> | null = new Set(f.params);
  let returned = false;
  for (const b of f.blocks) {
    if (d === null) break;
    const flow = blockFlow(b, d, mayBeUndefinedCall);
    if (!flow.returnsDefined) return false;
    if (b.stmts.some((s) => s.type === "ReturnLocalStmt")) returned = true;
    d = flow.out;
  }
  // Falling off the end returns undefined: only a func whose last block always returns is defined.
  return returned && d === null;
}
