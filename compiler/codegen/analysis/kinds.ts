// A small IR type inference, for the signatures of generated functions only (the code itself never
// trusts it). Kinds are a bitmask over OPA's types; each local's kind is the join of everything
// assigned to it anywhere in its func (locals are func-scoped and reused, so flow-insensitive is the
// sound choice). Funcs' return kinds come from their return local, builtins' from their declared
// result type. A second, flow-sensitive analysis decides whether a func can return undefined: a
// rule with a default (`IsUndefined r; AssignVarOnce r ← v`), a partial set or object (`MakeSet r`
// first) always has a value.
import type { Block, BuiltinFunc, Func, Operand, Policy, Stmt, TypeDecl } from "../../ir/types.js";
import { allStmts, forEachStmt } from "../../ir/walk.js";
import { LocalSet } from "./localSet.js";
import type { CallGraph } from "./calls.js";
import { calleesFirst, calleesFirstByIndex } from "./order.js";
import { assertNever } from "../../../runtime/errors.js";

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
  /** When it returns only a set it builds in its return local (a partial set rule): the kinds of
   * the elements it adds. */
  elements?: Kinds;
  /** True when the func never returns undefined. */
  defined: boolean;
}

type LocalKinds = Map<number, Kinds>;

export function builtinsByName(policy: Policy): Map<string, BuiltinFunc> {
  return new Map(policy.static.builtin_funcs.map((b) => [b.name, b]));
}

/** Flow-insensitive kinds of every local of a body (params: ANY). */
export function localKinds(
  blocks: readonly Block[],
  params: readonly number[],
  policy: Policy,
  facts: Map<string, FuncFacts>,
  builtins: ReadonlyMap<string, BuiltinFunc> = builtinsByName(policy),
): LocalKinds {
  const kinds: LocalKinds = new Map(params.map((p) => [p, ANY]));
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
    let changed = false;
    forEachDefinition(s, (local, d) => {
      changed = join(local, definitionKinds(d)) || changed;
    });
    return changed;
  }

  function definitionKinds(d: Definition): Kinds {
    switch (d.type) {
      case "operand":
        return opKinds(d.operand);
      case "int":
      case "numberRef":
      case "len":
        return K.number;
      case "null":
      case "array":
      case "object":
      case "set":
        return K[d.type];
      case "merge":
        return (kinds.get(d.a) ?? 0) | (kinds.get(d.b) ?? 0);
      case "call": {
        const f = facts.get(d.func);
        if (f) return f.returns;
        const b = builtins.get(d.func);
        return b ? declKinds(b.decl.result) : ANY;
      }
      case "any":
        return ANY;
      default:
        assertNever(d);
    }
  }
}

/** What a statement assigns to a local, for the flow-insensitive analyses (kinds here, scalars.ts). */
export type Definition =
  | { type: "operand"; operand: Operand }
  | { type: "int"; value: number }
  | { type: "numberRef"; index: number }
  | { type: "len" | "null" | "array" | "object" | "set" | "any" }
  | { type: "merge"; a: number; b: number }
  | { type: "call"; func: string };

const LEN: Definition = { type: "len" };
const NULL: Definition = { type: "null" };
const ARRAY: Definition = { type: "array" };
const OBJECT: Definition = { type: "object" };
const SET: Definition = { type: "set" };
const UNKNOWN: Definition = { type: "any" };

/** Calls `def` with each local `s` itself (not its nested blocks) assigns and what it assigns. */
export function forEachDefinition(s: Stmt, def: (local: number, d: Definition) => void): void {
  switch (s.type) {
    case "AssignVarStmt":
    case "AssignVarOnceStmt":
      return def(s.stmt.target, { type: "operand", operand: s.stmt.source });
    case "AssignIntStmt":
    case "MakeNumberIntStmt":
      return def(s.stmt.target, { type: "int", value: s.stmt.value });
    case "MakeNumberRefStmt":
      return def(s.stmt.target, { type: "numberRef", index: s.stmt.index });
    case "LenStmt":
    case "IncrementStmt":
      return def(s.stmt.target, LEN);
    case "MakeNullStmt":
      return def(s.stmt.target, NULL);
    case "MakeArrayStmt":
      return def(s.stmt.target, ARRAY);
    case "MakeObjectStmt":
    case "GroupsStmt":
      return def(s.stmt.target, OBJECT);
    case "MakeSetStmt":
      return def(s.stmt.target, SET);
    case "ObjectInsertStmt":
    case "ObjectInsertOnceStmt":
      return def(s.stmt.object, OBJECT);
    case "GroupAddStmt":
      return def(s.stmt.groups, OBJECT);
    case "DotStmt":
      return def(s.stmt.target, UNKNOWN);
    case "ObjectMergeStmt":
      return def(s.stmt.target, { type: "merge", a: s.stmt.a, b: s.stmt.b });
    case "CallStmt":
      return def(s.stmt.result, { type: "call", func: s.stmt.func });
    case "CallDynamicStmt":
      return def(s.stmt.result, UNKNOWN);
    case "ScanStmt":
      def(s.stmt.key, UNKNOWN);
      return def(s.stmt.value, UNKNOWN);
    case "WithStmt":
      return def(s.stmt.local, UNKNOWN);
    case "ArrayAppendStmt":
    case "BlockStmt":
    case "BreakStmt":
    case "EqualStmt":
    case "IsArrayStmt":
    case "IsDefinedStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
    case "IsUndefinedStmt":
    case "NopStmt":
    case "NotEqualStmt":
    case "NotStmt":
    case "ResetLocalStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "SetAddStmt":
    case "IndexStmt":
      return;
    default:
      assertNever(s);
  }
}

// ---- definiteness ----

/** Locals definitely defined at a point; null = the point is unreachable. */
type Defined = LocalSet | null;

/**
 * What a nested statement does to the flow, in one walk: removes from `defined` the locals it (or
 * anything nested in it) may leave undefined, and tells whether it, entered with `depth` levels,
 * can break out of the enclosing block — a break, a CallDynamicStmt (it breaks 3 levels), or one in
 * a nested block (§3.2 of the IR reference: a BlockStmt child, NotStmt or WithStmt block adds 1
 * level, a ScanStmt block 2). (Every statement is walked even when a break is found early: all of
 * them kill.)
 */
function killAndLeaves(s: Stmt, defined: LocalSet, depth: number): boolean {
  switch (s.type) {
    case "ResetLocalStmt":
    case "AssignVarStmt":
    case "DotStmt":
    case "ObjectMergeStmt":
      defined.delete(s.stmt.target);
      return false;
    case "CallStmt":
      defined.delete(s.stmt.result);
      return false;
    case "CallDynamicStmt":
      defined.delete(s.stmt.result);
      return 3 >= depth;
    case "BreakStmt":
      return s.stmt.index >= depth;
    case "BlockStmt": {
      let leaves = false;
      for (const b of s.stmt.blocks) if (killAndLeavesAll(b.stmts, defined, depth + 1)) leaves = true;
      return leaves;
    }
    case "IndexStmt": {
      let leaves = false;
      for (const c of s.stmt.cases) for (const b of c.blocks) if (killAndLeavesAll(b.stmts, defined, depth + 1)) leaves = true;
      return leaves;
    }
    case "NotStmt":
    case "WithStmt":
      return killAndLeavesAll(s.stmt.block.stmts, defined, depth + 1);
    case "ScanStmt":
      return killAndLeavesAll(s.stmt.block.stmts, defined, depth + 2);
    case "ArrayAppendStmt":
    case "IncrementStmt":
    case "GroupAddStmt":
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
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
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "SetAddStmt":
      return false;
    default:
      assertNever(s);
  }
}

/** killAndLeaves of every statement of a list: whether one of them can break out. */
function killAndLeavesAll(stmts: readonly Stmt[], defined: LocalSet, depth: number): boolean {
  let leaves = false;
  for (let i = 0; i < stmts.length; i++) if (killAndLeaves(stmts[i]!, defined, depth)) leaves = true;
  return leaves;
}

export interface BlockFlow {
  /** State when the block is left (normally or by failing); null if it never is. */
  out: Defined;
  /** For ReturnLocalStmt at this level: was every returned local definitely defined? */
  returnsDefined: boolean;
  /** True when some statement of the block may fail (or jump out). */
  mayFail: boolean;
}

/**
 * Flow of one top-level block: which locals are definitely defined when it is left. The state is
 * updated in place, and the states at the block's exits are intersected as they are found (no
 * copy per statement).
 */
/** The exits of a block: the intersection of the states there, and whether any is a failure. */
class Exits {
  /** Null before the first exit. */
  state: LocalSet | null = null;
  mayFail = false;

  /** Records an exit in state `cur`, less `minus`, plus `plus`. */
  leave(cur: LocalSet, minus?: number, plus?: number): void {
    const exit = this.state;
    if (exit === null) {
      const first = cur.copy();
      if (minus !== undefined) first.delete(minus);
      if (plus !== undefined) first.add(plus);
      this.state = first;
      return;
    }
    exit.intersect(cur, minus, plus);
  }

  /** `leave` for the state at the block's end, which is not used after: kept, not copied. */
  leaveLast(cur: LocalSet): void {
    if (this.state === null) this.state = cur;
    else this.leave(cur);
  }

  /** Records a failure (an exit that leaves the block undefined) in state `cur` ± locals. */
  fail(cur: LocalSet, minus?: number, plus?: number): void {
    this.mayFail = true;
    this.leave(cur, minus, plus);
  }
}

function isDefined(op: Operand, cur: LocalSet): boolean {
  return op.type !== "local" || cur.has(op.value);
}

/** (`before` is the state the flow starts from and updates: callers hand over a set they no
 * longer use — the previous block's `out` — so no copy is made per block.) */
export function blockFlow(block: Block, before: LocalSet, mayBeUndefinedCall: (s: Stmt) => boolean): BlockFlow {
  const exits = new Exits();
  let st: LocalSet | null = before;
  let returnsDefined = true;
  for (const s of block.stmts) {
    if (st === null) break;
    const cur: LocalSet = st;
    switch (s.type) {
      case "BreakStmt":
        exits.fail(cur);
        st = null;
        continue;
      case "ReturnLocalStmt":
        if (!cur.has(s.stmt.source)) returnsDefined = false;
        st = null;
        continue;
      case "IsUndefinedStmt":
        exits.fail(cur, undefined, s.stmt.source);
        continue;
      case "IsDefinedStmt":
        exits.fail(cur, s.stmt.source);
        cur.add(s.stmt.source);
        continue;
      case "AssignVarStmt":
        if (isDefined(s.stmt.source, cur)) cur.add(s.stmt.target);
        else cur.delete(s.stmt.target);
        continue;
      case "AssignVarOnceStmt":
        if (!cur.has(s.stmt.target) && isDefined(s.stmt.source, cur)) cur.add(s.stmt.target);
        continue;
      case "ResetLocalStmt":
        cur.delete(s.stmt.target);
        continue;
      case "AssignIntStmt":
      case "MakeNullStmt":
      case "MakeArrayStmt":
      case "MakeObjectStmt":
      case "GroupsStmt":
      case "MakeSetStmt":
      case "MakeNumberIntStmt":
      case "MakeNumberRefStmt":
      case "LenStmt":
      case "IncrementStmt":
        cur.add(s.stmt.target);
        continue;
      case "ObjectInsertStmt":
      case "ObjectInsertOnceStmt":
        cur.add(s.stmt.object);
        continue;
      case "GroupAddStmt":
        cur.add(s.stmt.groups);
        continue;
      case "ObjectMergeStmt":
        if (cur.has(s.stmt.a) || cur.has(s.stmt.b)) cur.add(s.stmt.target);
        else cur.delete(s.stmt.target);
        continue;
      case "DotStmt":
        exits.fail(cur, s.stmt.target);
        cur.add(s.stmt.target);
        continue;
      case "CallDynamicStmt":
        exits.fail(cur, s.stmt.result);
        cur.add(s.stmt.result);
        continue;
      case "CallStmt":
        if (mayBeUndefinedCall(s)) exits.fail(cur, s.stmt.result);
        cur.add(s.stmt.result);
        continue;
      case "EqualStmt":
      case "NotEqualStmt":
      case "IsArrayStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
        exits.fail(cur);
        continue;
      case "ArrayAppendStmt":
      case "SetAddStmt":
      case "ResultSetAddStmt":
      case "NopStmt":
        continue;
      case "BlockStmt":
      case "IndexStmt":
      case "NotStmt":
      case "WithStmt":
      case "ScanStmt": {
        const leaves = killAndLeaves(s, cur, 0);
        // (A NotStmt or WithStmt makes the block undefined when its own block is.)
        if (s.type === "NotStmt" || s.type === "WithStmt" || leaves) exits.fail(cur);
        continue;
      }
      default:
        assertNever(s);
    }
  }
  if (st !== null) exits.leaveLast(st);
  return { out: exits.state, returnsDefined, mayFail: exits.mayFail };
}

/** Return kinds and definiteness of every func. Each func is
 * analysed once, after the funcs it calls (the call graph is acyclic: validate.ts refuses
 * recursion), so every CallStmt sees its callee's final facts. */
export function analyseFuncs(policy: Policy, funcs: readonly Func[]): Map<string, FuncFacts> {
  const facts = new Map<string, FuncFacts>();
  // A callee outside `funcs` (none in a validated plan) counts as returning anything.
  for (const f of funcs) facts.set(f.name, { returns: ANY, defined: false });
  const builtins = builtinsByName(policy);
  for (const f of calleesFirstByCallStmts(funcs)) {
    const kinds = localKinds(f.blocks, f.params, policy, facts, builtins);
    const returns = kinds.get(f.return) ?? 0;
    const fact: FuncFacts = { returns, defined: alwaysDefined(f, facts) };
    if (returns === K.set) fact.elements = setElements(f, kinds);
    facts.set(f.name, fact);
  }
  return facts;
}

/**
 * Only definedness (kinds stay ANY), and only of the funcs it is asked of: the funcs `roots` names
 * and, transitively, the funcs called by a CallStmt at the top level of their blocks — the calls
 * `alwaysDefined` consults (a nested block's calls only matter through the locals it may leave
 * undefined). For code without types, whose only question is whether the funcs a direct-value
 * entrypoint calls before its value are defined (emit/functions.ts); each fact is the one
 * `analyseFuncs` gives. (A func not asked of is absent: looking it up means "may be undefined".)
 * The call graph gives those calls of a func, by index in the policy's funcs (calls.ts's walk
 * records them), so funcs are tracked by index, not in maps keyed by func.
 */
export function analyseDefinedness(
  policy: Policy,
  calls: Pick<CallGraph, "funcIndex" | "topLevelCalleesAt">,
  roots: Iterable<string>,
): Map<string, FuncFacts> {
  const all = policy.funcs.funcs;
  // The funcs asked of, then in an order where each comes after those it depends on.
  const asked: number[] = [];
  const seen = new Uint8Array(all.length);
  const visit = (i: number | undefined) => {
    if (i !== undefined && seen[i] === 0) {
      seen[i] = 1;
      asked.push(i);
    }
  };
  for (const name of roots) visit(calls.funcIndex.get(name));
  for (let k = 0; k < asked.length; k++) for (const i of calls.topLevelCalleesAt(asked[k]!)) visit(i);
  const facts = new Map<string, FuncFacts>();
  for (const i of calleesFirstByIndex(asked, all.length, calls.topLevelCalleesAt)) {
    const f = all[i]!;
    facts.set(f.name, { returns: ANY, defined: alwaysDefined(f, facts) });
  }
  return facts;
}

/** The kinds of the elements a func adds to the set in its return local (ANY: not only those). */
function setElements(f: Func, kinds: LocalKinds): Kinds {
  let out = 0;
  forEachStmt(f.blocks, (s) => {
    if (s.type === "SetAddStmt" && s.stmt.set === f.return) {
      out |= s.stmt.value.type === "local" ? (kinds.get(s.stmt.value.value) ?? ANY) : s.stmt.value.type === "bool" ? K.boolean : K.string;
    } else if (((s.type === "AssignVarStmt" || s.type === "AssignVarOnceStmt") && s.stmt.target === f.return) || (s.type === "CallStmt" && s.stmt.result === f.return)) {
      // A set made elsewhere (a comprehension's, a callee's).
      out = ANY;
    }
  });
  return out;
}

/** The kinds of the elements of the set a plan's local holds: a partial set rule's (FuncFacts'
 * `elements`), through copies (ANY: unknown). */
export function planSetElements(blocks: readonly Block[], local: number, facts: ReadonlyMap<string, FuncFacts>): Kinds {
  const elements = new Map<number, Kinds>();
  forEachStmt(blocks, (s) => {
    if (s.type === "CallStmt") elements.set(s.stmt.result, facts.get(s.stmt.func)?.elements ?? ANY);
    else if ((s.type === "AssignVarStmt" || s.type === "AssignVarOnceStmt") && s.stmt.source.type === "local") {
      elements.set(s.stmt.target, elements.get(s.stmt.source.value) ?? ANY);
    }
  });
  return elements.get(local) ?? ANY;
}

/** The funcs, each after the funcs it calls (CallStmt). */
export function calleesFirstByCallStmts(funcs: readonly Func[]): Func[] {
  const byName = new Map(funcs.map((f) => [f.name, f]));
  return calleesFirst(funcs, (f) => {
    const out: Func[] = [];
    forEachStmt(f.blocks, (s) => {
      if (s.type !== "CallStmt") return;
      const g = byName.get(s.stmt.func);
      if (g) out.push(g);
    });
    return out;
  });
}

function alwaysDefined(f: Func, facts: Map<string, FuncFacts>): boolean {
  const mayBeUndefinedCall = (s: Stmt) => s.type !== "CallStmt" || !(facts.get(s.stmt.func)?.defined ?? false);
  let d: LocalSet | null = LocalSet.of(f.params);
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
