// The call graph of a plan: which funcs the selected entrypoints reach (only those are
// generated), which funcs CallDynamicStmt may dispatch to, which funcs are async (they reach an
// async builtin), and which rule funcs are memoised (2 params, i.e. input/data only, and possibly
// called more than once per evaluation: from several sites, from a loop, or from a caller that
// itself runs several times). Every body is walked once; `reach` answers later reachability
// questions (e.g. per entrypoint group) from the same graph.
import { getBuiltin } from "../../../runtime/builtins/registry.js";
import type { Block, Func, Plan, Policy } from "../../ir/types.js";
import { FuncPaths, forEachStmt } from "../../ir/walk.js";
import { calleesFirst } from "./order.js";

export interface CallGraph {
  /** Funcs to generate, in plan order (callees first in planner output). */
  funcs: Func[];
  /** Funcs a CallDynamicStmt may reach, keyed by name. */
  dynamicTargets: Set<string>;
  /** Names of async funcs. */
  asyncFuncs: Set<string>;
  /** Names of memoised funcs. */
  memoised: Set<string>;
  /** Is a given plan async. */
  asyncPlans: Set<string>;
  /** Builtins the generated code calls. */
  builtins: Set<string>;
  /** The funcs some of the selected plans reach, in policy order. */
  reach(plans: readonly Plan[]): Func[];
  /** Whether a selected plan's or generated func's body has a DotStmt with a local key (told by
   * the same walk, so that shapes.ts's baseDataDots need not walk it again to find out). */
  readsWithLocalKey(body: Plan | Func): boolean;
}

interface Site {
  callee: string;
  inScan: boolean;
}

/** One body as the analyses see it: its call sites (a CallDynamicStmt counts as a site in a loop
 * for each func it may reach), and whether it has a CallDynamicStmt at all. */
interface Body {
  sites: Site[];
  dynamic: boolean;
  /** The funcs its CallDynamicStmts may reach. */
  dynamicCallees: string[];
  /** Whether it has a DotStmt with a local key. */
  localKeyDot: boolean;
}

function bodyOf(blocks: readonly Block[], policy: Policy, paths: () => FuncPaths): Body {
  const body: Body = { sites: [], dynamic: false, dynamicCallees: [], localKeyDot: false };
  forEachStmt(blocks, (s, inScan) => {
    if (s.type === "CallStmt") body.sites.push({ callee: s.stmt.func, inScan });
    else if (s.type === "DotStmt") body.localKeyDot ||= s.stmt.key.type === "local";
    else if (s.type === "CallDynamicStmt") {
      body.dynamic = true;
      for (const f of paths().candidates(s.stmt, policy)) {
        body.sites.push({ callee: f.name, inScan: true });
        body.dynamicCallees.push(f.name);
      }
    }
  });
  return body;
}

export function analyseCalls(policy: Policy, plans: readonly Plan[]): CallGraph {
  const funcsByName = new Map<string, Func>();
  const funcIndex = new Map<string, number>();
  policy.funcs.funcs.forEach((f, i) => {
    funcsByName.set(f.name, f);
    funcIndex.set(f.name, i);
  });
  // The funcs by data path: only a CallDynamicStmt asks (most plans have none).
  let funcPaths: FuncPaths | undefined;
  const paths = () => (funcPaths ??= new FuncPaths(policy.funcs.funcs));
  // Keyed by the plan or func itself: the fixpoints below look bodies up once per func per pass.
  const bodies = new Map<Plan | Func, Body>();
  const bodyFor = (p: Plan | Func): Body => {
    let b = bodies.get(p);
    if (!b) bodies.set(p, (b = bodyOf(p.blocks, policy, paths)));
    return b;
  };

  /** Funcs reached from `from`, transitively, in policy order; builtins called on the way. */
  const reachFrom = (from: readonly Plan[], builtins?: Set<string>): Func[] => {
    const reached = new Set<string>();
    const stack: Body[] = from.map(bodyFor);
    while (stack.length > 0) {
      for (const s of stack.pop()!.sites) {
        const f = funcsByName.get(s.callee);
        if (!f) {
          builtins?.add(s.callee);
          continue;
        }
        if (reached.has(f.name)) continue;
        reached.add(f.name);
        stack.push(bodyFor(f));
      }
    }
    const order = Int32Array.from(reached, (n) => funcIndex.get(n)!).sort();
    return Array.from(order, (i) => policy.funcs.funcs[i]!);
  };

  const builtins = new Set<string>();
  const funcs = reachFrom(plans, builtins);
  const dynamicTargets = new Set<string>();
  for (const p of plans) for (const n of bodyFor(p).dynamicCallees) dynamicTargets.add(n);
  for (const f of funcs) for (const n of bodyFor(f).dynamicCallees) dynamicTargets.add(n);

  // Async: reaches an async builtin (fixpoint over the acyclic graph). The one dynamic dispatcher
  // is async when any of its targets is, and then so is every body with a CallDynamicStmt.
  const isAsyncBuiltin = (name: string) => getBuiltin(name)?.async === true;
  const asyncFuncs = new Set<string>();
  let dispatchAsync = false;
  const isAsyncBody = (body: Body) =>
    body.sites.some((s) => asyncFuncs.has(s.callee) || (!funcsByName.has(s.callee) && isAsyncBuiltin(s.callee))) || (dispatchAsync && body.dynamic);
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of funcs) {
      if (!asyncFuncs.has(f.name) && isAsyncBody(bodyFor(f))) {
        asyncFuncs.add(f.name);
        if (dynamicTargets.has(f.name)) dispatchAsync = true;
        changed = true;
      }
    }
  }
  const asyncPlans = new Set<string>();
  for (const p of plans) if (isAsyncBody(bodyFor(p))) asyncPlans.add(p.name);

  // Memoisation: how often may each func run per evaluation (1 or "many" = 2)? The graph is
  // acyclic (recursion is a compile error), so one pass with every caller before its callees
  // settles it: a func's count is final when it is visited.
  const runs = new Map<string, number>();
  const memoised = new Set<string>();
  const add = (callee: string, n: number) => runs.set(callee, Math.min(2, (runs.get(callee) ?? 0) + n));
  for (const p of plans) for (const s of bodyFor(p).sites) add(s.callee, s.inScan ? 2 : 1);
  const calleesOf = (f: Func): Func[] => {
    const out: Func[] = [];
    for (const s of bodyFor(f).sites) {
      const g = funcsByName.get(s.callee);
      if (g) out.push(g);
    }
    return out;
  };
  for (const f of calleesFirst(funcs, calleesOf).reverse()) {
    const n = runs.get(f.name) ?? 0;
    if (n === 0) continue;
    if (f.params.length === 2 && n >= 2) memoised.add(f.name);
    const callerRuns = memoised.has(f.name) ? 1 : n;
    for (const s of bodyFor(f).sites) add(s.callee, s.inScan ? 2 : callerRuns);
  }
  return {
    funcs,
    dynamicTargets,
    asyncFuncs,
    memoised,
    asyncPlans,
    builtins,
    reach: (from) => reachFrom(from),
    readsWithLocalKey: (b) => bodyFor(b).localKeyDot,
  };
}
