// The call graph of a plan: which funcs the selected entrypoints reach (only those are
// generated), which funcs CallDynamicStmt may dispatch to, which funcs are async (they reach an
// async builtin), and which rule funcs are memoised (2 params, i.e. input/data only, and possibly
// called more than once per evaluation: from several sites, from a loop, or from a caller that
// itself runs several times). Every body is walked once; `reach` answers later reachability
// questions (e.g. per entrypoint group) from the same graph.
import { isAsyncBuiltin } from "../../../runtime/builtins/catalog.js";
import type { Block, Func, Plan, Policy, Stmt } from "../../ir/types.js";
import { FuncPaths } from "../../ir/walk.js";
import { calleesFirstByIndex } from "./order.js";
import { assertNever } from "../../../runtime/errors.js";

/** The builtins that never fail, whatever their arguments and mode, which generated code calls as
 * runtime operators (emit/calls.ts): the comparisons, membership and the type tests. They need no
 * call site and no EvalState. Each maps to the operator's name and its number of arguments. */
export const OPERATOR_BUILTINS: ReadonlyMap<string, readonly [OperatorName, number]> = new Map([
  ["equal", ["eq", 2]],
  ["lt", ["lt", 2]],
  ["lte", ["lte", 2]],
  ["gt", ["gt", 2]],
  ["gte", ["gte", 2]],
  ["neq", ["neq", 2]],
  ["internal.member_2", ["member", 2]],
  ["is_array", ["isArrayType", 1]],
  ["is_boolean", ["isBooleanType", 1]],
  ["is_null", ["isNullType", 1]],
  ["is_number", ["isNumberType", 1]],
  ["is_object", ["isObjectType", 1]],
  ["is_set", ["isSetType", 1]],
  ["is_string", ["isStringType", 1]],
]);

/** String builtins that are a method of JS strings when their operands are strings (the builtin
 * table's own implementation, runtime/builtins/strings.ts): generated code calls the method on
 * strings and the builtin otherwise, for its error (emit/calls.ts). */
export const STRING_METHOD_BUILTINS: ReadonlyMap<string, "startsWith" | "endsWith" | "includes"> = new Map([
  ["startswith", "startsWith"],
  ["endswith", "endsWith"],
  ["contains", "includes"],
]);

type OperatorName = "eq" | "lt" | "lte" | "gt" | "gte" | "neq" | "member" | `is${"Array" | "Boolean" | "Null" | "Number" | "Object" | "Set" | "String"}Type`;

export interface CallGraph {
  /** Funcs to generate, in plan order (callees first in planner output). */
  funcs: Func[];
  /** Funcs a CallDynamicStmt may reach, keyed by name. */
  dynamicTargets: Set<string>;
  /** Names of async funcs. */
  asyncFuncs: Set<string>;
  /** Is a given plan async. */
  asyncPlans: Set<string>;
  /** Builtins the generated code calls. */
  builtins: Set<string>;
  /** Whether calls of a builtin return a Promise (OPA's async ones, a registered or the
   * compile's own async custom builtin: GenerateOptions.asyncBuiltins). */
  isAsyncBuiltin(name: string): boolean;
  /** The funcs some of the selected plans reach, in policy order. */
  reach(plans: readonly Plan[]): Func[];
  /** Whether a selected plan's or generated func's body has a DotStmt with a local key (told by
   * the same walk, so that shapes.ts's baseDataDots need not walk it again to find out). */
  readsWithLocalKey(body: Plan | Func): boolean;
  /** Every func's index in the policy's funcs, by name (what the emitter looks callees up by). */
  funcIndex: ReadonlyMap<string, number>;
  /** Whether the func at an index is async (asyncFuncs, without a lookup by name). */
  isAsyncAt(index: number): boolean;
  /** Whether the func at an index is memoised (see the top of this file). */
  isMemoisedAt(index: number): boolean;
  /** Whether a selected plan's or generated func's evaluation needs an EvalState: it (or a func
   * it reaches) is memoised, has a WithStmt or a CallDynamicStmt, or calls a builtin other than
   * the comparison operators. */
  usesState(body: Plan | Func): boolean;
  /** Whether a selected plan's or generated func's evaluation runs a loop (a ScanStmt in it or in a
   * func it reaches): its loops tick the evaluation's deadline, so a plan that needs no state
   * otherwise takes one when given a deadline. */
  loops(body: Plan | Func): boolean;
  /** The funcs (indexes) the func at an index calls by a CallStmt at the top level of its blocks,
   * in order (told by the same walk, for kinds.ts's analyseDefinedness). */
  topLevelCalleesAt(index: number): readonly number[];
}

/** One body as the analyses see it, with funcs by their index in the policy's funcs: its call
 * sites (a CallDynamicStmt counts as a site in a loop for each func it may reach), the builtins it
 * calls, and whether it has a CallDynamicStmt at all. Kept until the module is generated, so each
 * list is exactly as long as it needs (and an empty one is shared): a list grown by push keeps
 * spare room. */
interface Body {
  /** Func call sites, each `index * 2 + (in a scan ? 1 : 0)`. */
  sites: readonly number[];
  /** Names of the builtins (callees that are not funcs) of its CallStmts. */
  builtinCalls: readonly string[];
  /** The funcs called by a CallStmt at the top level of its blocks (what definedness consults). */
  topLevelCalls: readonly number[];
  dynamic: boolean;
  /** The funcs its CallDynamicStmts may reach. */
  dynamicCallees: readonly number[];
  /** Whether it has a DotStmt with a local key. */
  localKeyDot: boolean;
  /** Whether it has a WithStmt (a memo frame of its own) or a GroupsStmt (memoised groups). */
  memo: boolean;
  /** Whether it has a ScanStmt. */
  scan: boolean;
}

/** A Body as it is found: one per analysis, its lists reused body after body. */
interface BodyWalk {
  sites: List<number>;
  builtinCalls: List<string>;
  topLevelCalls: List<number>;
  dynamic: boolean;
  dynamicCallees: List<number>;
  localKeyDot: boolean;
  memo: boolean;
  scan: boolean;
}

/** A list written from the start again for each body: its first `n` items. (Not `length = 0`,
 * which lets V8 drop the array's capacity.) */
interface List<T> {
  items: T[];
  n: number;
}

function list<T>(): List<T> {
  return { items: [], n: 0 };
}

function put<T>(l: List<T>, x: T): void {
  l.items[l.n++] = x;
}

const NONE: readonly never[] = [];

/** The list's items in an array of their own length (or the shared empty one); the list is then
 * empty. */
function take<T>(l: List<T>): readonly T[] {
  const out = l.n === 0 ? NONE : l.items.slice(0, l.n);
  l.n = 0;
  return out;
}

/** What a body walk needs of the policy: funcs by name (index), and funcs by data path. */
interface Lookup {
  policy: Policy;
  funcIndex: Map<string, number>;
  paths: () => FuncPaths;
  /** The walk's lists, emptied for each body. */
  walk: BodyWalk;
}

function bodyOf(blocks: readonly Block[], look: Lookup): Body {
  const w = look.walk;
  w.dynamic = false;
  w.localKeyDot = false;
  w.memo = false;
  w.scan = false;
  for (let i = 0; i < blocks.length; i++) walkStmts(blocks[i]!.stmts, false, true, w, look);
  return {
    sites: take(w.sites),
    builtinCalls: take(w.builtinCalls),
    topLevelCalls: take(w.topLevelCalls),
    dynamic: w.dynamic,
    dynamicCallees: take(w.dynamicCallees),
    localKeyDot: w.localKeyDot,
    memo: w.memo,
    scan: w.scan,
  };
}

/** One walk over a statement list and the blocks nested in it (its own, not walk.ts's forEachStmt:
 * it also tells whether a statement is at the top level, and keeps no closure per body). */
function walkStmts(stmts: readonly Stmt[], inScan: boolean, topLevel: boolean, body: BodyWalk, look: Lookup): void {
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    switch (s.type) {
      case "CallStmt": {
        const callee = look.funcIndex.get(s.stmt.func);
        if (callee === undefined) put(body.builtinCalls, s.stmt.func);
        else {
          put(body.sites, callee * 2 + (inScan ? 1 : 0));
          if (topLevel) put(body.topLevelCalls, callee);
        }
        break;
      }
      case "DotStmt":
        if (s.stmt.key.type === "local") body.localKeyDot = true;
        break;
      case "CallDynamicStmt":
        body.dynamic = true;
        for (const [callee] of look.paths().candidatesByIndex(s.stmt, look.policy)) {
          put(body.sites, callee * 2 + 1);
          put(body.dynamicCallees, callee);
        }
        break;
      case "BlockStmt": {
        const bs = s.stmt.blocks;
        for (let j = 0; j < bs.length; j++) walkStmts(bs[j]!.stmts, inScan, false, body, look);
        break;
      }
      case "IndexStmt":
        for (const c of s.stmt.cases) for (const b of c.blocks) walkStmts(b.stmts, inScan, false, body, look);
        break;
      case "NotStmt":
        walkStmts(s.stmt.block.stmts, inScan, false, body, look);
        break;
      case "GroupsStmt":
        body.memo = true;
        break;
      case "WithStmt":
        body.memo = true;
        walkStmts(s.stmt.block.stmts, inScan, false, body, look);
        break;
      case "ScanStmt":
        body.scan = true;
        walkStmts(s.stmt.block.stmts, true, false, body, look);
        break;
      case "ArrayAppendStmt":
      case "IncrementStmt":
      case "GroupAddStmt":
      case "AssignIntStmt":
      case "AssignVarOnceStmt":
      case "AssignVarStmt":
      case "BreakStmt":
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
      case "MakeSetStmt":
      case "NopStmt":
      case "NotEqualStmt":
      case "ObjectInsertOnceStmt":
      case "ObjectInsertStmt":
      case "ObjectMergeStmt":
      case "ResetLocalStmt":
      case "ResultSetAddStmt":
      case "ReturnLocalStmt":
      case "SetAddStmt":
        break;
      default:
        assertNever(s);
    }
  }
}

export function analyseCalls(policy: Policy, plans: readonly Plan[], asyncCustom: readonly string[] = []): CallGraph {
  const isAsyncCall = (name: string): boolean => isAsyncBuiltin(name) || asyncCustom.includes(name);
  const all = policy.funcs.funcs;
  const count = all.length;
  // By name, the last func of a name wins (as a Map built in order keeps it).
  const funcIndex = new Map<string, number>();
  for (let i = 0; i < count; i++) funcIndex.set(all[i]!.name, i);
  // The funcs by data path: only a CallDynamicStmt asks (most plans have none).
  let funcPaths: FuncPaths | undefined;
  const walk: BodyWalk = { sites: list(), builtinCalls: list(), topLevelCalls: list(), dynamic: false, dynamicCallees: list(), localKeyDot: false, memo: false, scan: false };
  const look: Lookup = { policy, funcIndex, paths: () => (funcPaths ??= new FuncPaths(all)), walk };
  // Funcs' bodies by index; plans' by the plan itself.
  const funcBodies: Array<Body | undefined> = new Array(count);
  const funcBody = (i: number): Body => (funcBodies[i] ??= bodyOf(all[i]!.blocks, look));
  const planBodies = new Map<Plan, Body>();
  const planBody = (p: Plan): Body => {
    let b = planBodies.get(p);
    if (!b) planBodies.set(p, (b = bodyOf(p.blocks, look)));
    return b;
  };
  const bodyFor = (p: Plan | Func): Body => {
    const i = funcIndex.get(p.name);
    return i !== undefined && all[i] === p ? funcBody(i) : planBody(p as Plan);
  };

  /** Funcs (indices) reached from `from`, transitively, in policy order; builtins called on the way. */
  const reachFrom = (from: readonly Plan[], builtins?: Set<string>): number[] => {
    const reached = new Uint8Array(count);
    const stack: Body[] = from.map(planBody);
    while (stack.length > 0) {
      const body = stack.pop()!;
      if (builtins) for (const b of body.builtinCalls) builtins.add(b);
      for (const site of body.sites) {
        const f = site >> 1;
        if (reached[f]) continue;
        reached[f] = 1;
        stack.push(funcBody(f));
      }
    }
    const order: number[] = [];
    for (let i = 0; i < count; i++) if (reached[i]) order.push(i);
    return order;
  };

  const builtins = new Set<string>();
  const reached = reachFrom(plans, builtins);
  const funcs = reached.map((i) => all[i]!);
  const isDynamicTarget = new Uint8Array(count);
  for (const p of plans) for (const i of planBody(p).dynamicCallees) isDynamicTarget[i] = 1;
  for (const f of reached) for (const i of funcBody(f).dynamicCallees) isDynamicTarget[i] = 1;

  // Async: reaches an async builtin (fixpoint over the acyclic graph). The one dynamic dispatcher
  // is async when any of its targets is, and then so is every body with a CallDynamicStmt.
  const isAsync = new Uint8Array(count);
  let dispatchAsync = false;
  const isAsyncBody = (body: Body): boolean => {
    for (const site of body.sites) if (isAsync[site >> 1]) return true;
    for (const b of body.builtinCalls) if (isAsyncCall(b)) return true;
    return dispatchAsync && body.dynamic;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of reached) {
      if (!isAsync[f] && isAsyncBody(funcBody(f))) {
        isAsync[f] = 1;
        if (isDynamicTarget[f]) dispatchAsync = true;
        changed = true;
      }
    }
  }
  const asyncPlans = new Set<string>();
  for (const p of plans) if (isAsyncBody(planBody(p))) asyncPlans.add(p.name);

  // Memoisation: how often may each func run per evaluation (1 or "many" = 2)? The graph is
  // acyclic (recursion is a compile error), so one pass with every caller before its callees
  // settles it: a func's count is final when it is visited.
  const runs = new Uint8Array(count);
  const isMemoised = new Uint8Array(count);
  const add = (site: number, callerRuns: number) => {
    const f = site >> 1;
    runs[f] = Math.min(2, runs[f]! + (site & 1 ? 2 : callerRuns));
  };
  for (const p of plans) for (const site of planBody(p).sites) add(site, 1);
  const calleesOf = (f: number): number[] => funcBody(f).sites.map((site) => site >> 1);
  const byCallers = calleesFirstByIndex(reached, count, calleesOf).reverse();
  for (const f of byCallers) {
    const n = runs[f]!;
    if (n === 0) continue;
    if (all[f]!.params.length === 2 && n >= 2) isMemoised[f] = 1;
    const callerRuns = isMemoised[f] ? 1 : n;
    for (const site of funcBody(f).sites) add(site, callerRuns);
  }

  // State: by func index, 0 not known yet, 1 none, 2 needed (the graph is acyclic).
  const stateOf = new Uint8Array(count);
  const bodyUsesState = (body: Body): boolean => {
    if (body.dynamic || body.memo) return true;
    for (const b of body.builtinCalls) if (!OPERATOR_BUILTINS.has(b)) return true;
    for (const site of body.sites) if (funcUsesState(site >> 1)) return true;
    return false;
  };
  // Loops: by func index, as stateOf.
  const loopsOf = new Uint8Array(count);
  const bodyLoops = (body: Body): boolean => {
    if (body.scan) return true;
    for (const site of body.sites) if (funcLoops(site >> 1)) return true;
    return false;
  };
  const funcLoops = (f: number): boolean => {
    if (loopsOf[f] === 0) loopsOf[f] = bodyLoops(funcBody(f)) ? 2 : 1;
    return loopsOf[f] === 2;
  };
  const funcUsesState = (f: number): boolean => {
    if (stateOf[f] === 0) stateOf[f] = isMemoised[f] || bodyUsesState(funcBody(f)) ? 2 : 1;
    return stateOf[f] === 2;
  };

  const names = (flags: Uint8Array): Set<string> => {
    const out = new Set<string>();
    for (const i of reached) if (flags[i]) out.add(all[i]!.name);
    return out;
  };
  return {
    funcs,
    dynamicTargets: names(isDynamicTarget),
    asyncFuncs: names(isAsync),
    asyncPlans,
    builtins,
    isAsyncBuiltin: isAsyncCall,
    reach: (from) => reachFrom(from).map((i) => all[i]!),
    readsWithLocalKey: (b) => bodyFor(b).localKeyDot,
    funcIndex,
    isAsyncAt: (i) => isAsync[i] === 1,
    isMemoisedAt: (i) => isMemoised[i] === 1,
    usesState: (b) => {
      const i = funcIndex.get(b.name);
      return i !== undefined && all[i] === b ? funcUsesState(i) : bodyUsesState(planBody(b as Plan));
    },
    loops: (b) => {
      const i = funcIndex.get(b.name);
      return i !== undefined && all[i] === b ? funcLoops(i) : bodyLoops(planBody(b as Plan));
    },
    topLevelCalleesAt: (i) => funcBody(i).topLevelCalls,
  };
}
