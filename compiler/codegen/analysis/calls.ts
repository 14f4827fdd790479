// The call graph of a plan: which funcs the selected entrypoints reach (only those are
// generated), which funcs CallDynamicStmt may dispatch to, which funcs are async (they reach an
// async builtin), and which rule funcs are memoised (2 params, i.e. input/data only, and possibly
// called more than once per evaluation: from several sites, from a loop, or from a caller that
// itself runs several times).
import { getBuiltin } from "../../../runtime/builtins/registry.js";
import type { Block, Func, Plan, Policy } from "../../ir/types.js";
import { dynamicCandidates, walkBlocks } from "../../ir/walk.js";

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
}

interface Site {
  callee: string;
  inScan: boolean;
}

function sitesOf(blocks: readonly Block[], policy: Policy, funcsByName: Map<string, Func>): Site[] {
  const out: Site[] = [];
  walkBlocks(blocks, "", (v) => {
    if (v.stmt.type === "CallStmt") out.push({ callee: v.stmt.stmt.func, inScan: v.inScan });
    else if (v.stmt.type === "CallDynamicStmt") {
      for (const f of dynamicCandidates(v.stmt.stmt, policy, funcsByName)) out.push({ callee: f.name, inScan: true });
    }
  });
  return out;
}

export function analyseCalls(policy: Policy, plans: readonly Plan[]): CallGraph {
  const funcsByName = new Map(policy.funcs.funcs.map((f) => [f.name, f]));
  const sites = new Map<string, Site[]>();
  const siteList = (name: string, blocks: readonly Block[]) => {
    let s = sites.get(name);
    if (!s) sites.set(name, (s = sitesOf(blocks, policy, funcsByName)));
    return s;
  };

  // Reachability from the selected plans.
  const reached = new Set<string>();
  const dynamicTargets = new Set<string>();
  const builtins = new Set<string>();
  const visit = (blocks: readonly Block[], key: string) => {
    for (const s of siteList(key, blocks)) {
      const f = funcsByName.get(s.callee);
      if (!f) {
        builtins.add(s.callee);
        continue;
      }
      if (reached.has(f.name)) continue;
      reached.add(f.name);
      visit(f.blocks, `func:${f.name}`);
    }
  };
  for (const p of plans) visit(p.blocks, `plan:${p.name}`);
  const scanDynamic = (blocks: readonly Block[]) =>
    walkBlocks(blocks, "", (v) => {
      if (v.stmt.type === "CallDynamicStmt") for (const f of dynamicCandidates(v.stmt.stmt, policy, funcsByName)) dynamicTargets.add(f.name);
    });
  for (const p of plans) scanDynamic(p.blocks);
  for (const name of reached) scanDynamic(funcsByName.get(name)!.blocks);
  const funcs = policy.funcs.funcs.filter((f) => reached.has(f.name));

  // Async: reaches an async builtin (fixpoint over the acyclic graph). The one dynamic dispatcher
  // is async when any of its targets is, and then so is every body with a CallDynamicStmt.
  const isAsyncBuiltin = (name: string) => getBuiltin(name)?.async === true;
  const asyncFuncs = new Set<string>();
  const hasDynamic = (blocks: readonly Block[]) => {
    let found = false;
    walkBlocks(blocks, "", (v) => (found ||= v.stmt.type === "CallDynamicStmt"));
    return found;
  };
  const isAsyncBody = (key: string, blocks: readonly Block[]) =>
    siteList(key, blocks).some((s) => asyncFuncs.has(s.callee) || (!funcsByName.has(s.callee) && isAsyncBuiltin(s.callee))) ||
    ([...dynamicTargets].some((t) => asyncFuncs.has(t)) && hasDynamic(blocks));
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of funcs) {
      if (!asyncFuncs.has(f.name) && isAsyncBody(`func:${f.name}`, f.blocks)) {
        asyncFuncs.add(f.name);
        changed = true;
      }
    }
  }
  const asyncPlans = new Set<string>();
  for (const p of plans) if (isAsyncBody(`plan:${p.name}`, p.blocks)) asyncPlans.add(p.name);

  // Memoisation: how often may each func run per evaluation (1 or "many" = 2)?
  const runs = new Map<string, number>();
  const memoised = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    const next = new Map<string, number>();
    const add = (callee: string, n: number) => next.set(callee, Math.min(2, (next.get(callee) ?? 0) + n));
    for (const p of plans) for (const s of siteList(`plan:${p.name}`, p.blocks)) add(s.callee, s.inScan ? 2 : 1);
    for (const f of funcs) {
      const callerRuns = memoised.has(f.name) ? Math.min(1, runs.get(f.name) ?? 0) : (runs.get(f.name) ?? 0);
      if (callerRuns === 0) continue;
      for (const s of siteList(`func:${f.name}`, f.blocks)) add(s.callee, s.inScan ? 2 : callerRuns);
    }
    for (const f of funcs) {
      const n = next.get(f.name) ?? 0;
      if (n !== (runs.get(f.name) ?? 0)) changed = true;
      runs.set(f.name, n);
      if (f.params.length === 2 && n >= 2 && !memoised.has(f.name)) {
        memoised.add(f.name);
        changed = true;
      }
    }
  }
  return { funcs, dynamicTargets, asyncFuncs, memoised, asyncPlans, builtins };
}
