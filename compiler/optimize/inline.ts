// Inlining: a call to a small user function of the policy with one body (`check_role(role) if
// input.user.role == role`, called as `check_role("admin")`) is replaced by that body's
// statements, its params bound to the call's args and its other locals renumbered to fresh locals
// of the caller; the copy propagation after it then carries constant args into the comparisons.
//
// The func's blocks must be the planner's shape for one body: `[reset r;] S; r := v`, then
// `defined r; ret := r` (or `S; ret := v` directly), then `return ret`. A statement of S that fails
// leaves S's block, the call is then undefined: spliced into the caller's list where the call was,
// the same break leaves the caller's list, as the undefined call would, so no break index changes.
// After S, `result = v` stands for the call's result. What keeps the meaning identical:
//   - one body, and no scan in it: its `r := v` runs at most once, so no conflict is lost;
//   - a rule func (only input and data as params) is inlined only where it runs once per run of
//     its caller's body: called from one site, outside a scan, by another rule func (the emitter
//     memoises a rule func that may run more often, which inlining would undo; a plan's call of
//     its rule is the emitter's to inline);
//   - S calls no func of the policy (no recursion), has no loop, with or dynamic call (NOT_INLINED),
//     and at most MAX_STMTS statements;
//   - the call is not inside a scan: the fresh locals are undefined where S starts, as the func's
//     locals are where its body starts.
import type { Block, Func, Local, Operand, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import type { NameTable } from "./names.js";
import { block, mapBodies, mapLocals, maxLocal, mk, nestedBlocks, withBlocks } from "./stmts.js";

/** The largest body inlined, in statements (nested ones counted). */
const MAX_STMTS = 12;

/** The statements an inlined body may not hold: loops, withs, dynamic calls, and the statements
 * that may conflict (their error names a function) or only belong at a body's edges. */
const NOT_INLINED = new Set<Stmt["type"]>([
  "AssignVarOnceStmt",
  "CallDynamicStmt",
  "IndexStmt",
  "ObjectInsertOnceStmt",
  "ResetLocalStmt",
  "ResultSetAddStmt",
  "ReturnLocalStmt",
  "ScanStmt",
  "WithStmt",
]);

interface Inlinable {
  func: Func;
  /** The body's statements but its result. */
  stmts: readonly Stmt[];
  /** What the body's result is (a local of the func, or a constant). */
  value: Operand;
}

/** The func's one body, when the func can be inlined (see the top of the file). */
function inlinable(f: Func, funcNames: ReadonlySet<string>, onceRules: ReadonlySet<string>): Inlinable | undefined {
  if (f.params.length < 2 || (f.params.length === 2 && !onceRules.has(f.name))) return undefined;
  const blocks = f.blocks;
  const last = blocks[blocks.length - 1]?.stmts;
  if (last?.length !== 1 || last[0]!.type !== "ReturnLocalStmt" || last[0]!.stmt.source !== f.return) return undefined;
  let r = f.return;
  if (blocks.length === 3) {
    const [defined, copy] = blocks[1]!.stmts;
    if (blocks[1]!.stmts.length !== 2 || defined?.type !== "IsDefinedStmt" || copy?.type !== "AssignVarOnceStmt") return undefined;
    r = defined.stmt.source;
    if (copy.stmt.target !== f.return || copy.stmt.source.type !== "local" || copy.stmt.source.value !== r) return undefined;
  } else if (blocks.length !== 2) return undefined;
  let stmts = blocks[0]!.stmts;
  const first = stmts[0];
  if (first?.type === "ResetLocalStmt" && first.stmt.target === r) stmts = stmts.slice(1);
  const result = stmts[stmts.length - 1];
  if ((result?.type !== "AssignVarOnceStmt" && result?.type !== "AssignVarStmt") || result.stmt.target !== r) return undefined;
  const value = result.stmt.source;
  if (value.type === "local" && (value.value === r || value.value === f.return)) return undefined;
  stmts = stmts.slice(0, -1);
  let count = 0;
  let ok = true;
  const params = new Set(f.params);
  forEachStmt([{ stmts: [...stmts] }], (s) => {
    count++;
    if (NOT_INLINED.has(s.type) || (s.type === "CallStmt" && funcNames.has(s.stmt.func))) ok = false;
    forEachRead(s, (l) => (ok &&= l !== r && l !== f.return));
    forEachWrite(s, (l) => (ok &&= l !== r && l !== f.return && !params.has(l)));
  });
  return ok && count <= MAX_STMTS ? { func: f, stmts, value } : undefined;
}

function inlineBody(blocks: Block[], body: Plan | Func, targets: ReadonlyMap<string, Inlinable>, names: NameTable | undefined): Block[] {
  let next = -1;
  const fresh = (): Local => {
    if (next < 0) next = maxLocal(body) + 1;
    return next++;
  };

  /** The call's replacement: its args bound to the params, the body, the result. */
  const expand = (call: Extract<Stmt, { type: "CallStmt" }>, t: Inlinable): Stmt[] => {
    const { func } = t;
    const out: Stmt[] = [];
    const map = new Map<Local, Local>();
    func.params.forEach((p, i) => {
      const arg = call.stmt.args[i]!;
      if (arg.type === "local") map.set(p, arg.value);
      else {
        // A constant arg: copied into a local, which the copy propagation then replaces by it.
        const l = fresh();
        map.set(p, l);
        names?.adopt(func, p, body, l);
        out.push(mk("AssignVarStmt", { ...call.stmt, source: arg, target: l }));
      }
    });
    const local = (l: Local): Local => {
      let m = map.get(l);
      if (m === undefined) {
        map.set(l, (m = fresh()));
        names?.adopt(func, l, body, m);
      }
      return m;
    };
    for (const s of t.stmts) out.push(mapLocals(s, local));
    const v = t.value;
    out.push(mk("AssignVarStmt", { ...call.stmt, source: v.type === "local" ? { type: "local", value: local(v.value) } : v, target: call.stmt.result }));
    return out;
  };

  const rewrite = (stmts: readonly Stmt[], inScan: boolean): Stmt[] => {
    const out: Stmt[] = [];
    for (const s of stmts) {
      const t = s.type === "CallStmt" && !inScan ? targets.get(s.stmt.func) : undefined;
      if (t && s.type === "CallStmt" && s.stmt.args.length === t.func.params.length) {
        out.push(...expand(s, t));
        continue;
      }
      const nb = nestedBlocks(s);
      const scan = inScan || s.type === "ScanStmt";
      out.push(
        nb.length === 0
          ? s
          : withBlocks(
              s,
              nb.map((b) => block(b, rewrite(b.stmts, scan))),
            ),
      );
    }
    return out;
  };
  return blocks.map((b) => block(b, rewrite(b.stmts, false)));
}

/** The rule funcs called from one site, outside a scan, in another rule func: they run once per
 * run of their caller's body, as their inlined body would. */
function rulesCalledOnce(policy: Policy): Set<string> {
  const sites = new Map<string, number>();
  const once = new Set<string>();
  const walk = (blocks: readonly Block[], byRule: boolean) =>
    forEachStmt(blocks, (s, inScan) => {
      if (s.type !== "CallStmt") return;
      const f = s.stmt.func;
      sites.set(f, (sites.get(f) ?? 0) + 1);
      if (byRule && !inScan) once.add(f);
      else once.delete(f);
    });
  for (const p of policy.plans.plans) walk(p.blocks, false);
  for (const f of policy.funcs.funcs) walk(f.blocks, f.params.length === 2);
  for (const f of once) if (sites.get(f) !== 1) once.delete(f);
  return once;
}

function inlinePolicy(policy: Policy, names?: NameTable): Policy {
  const funcNames = new Set(policy.funcs.funcs.map((f) => f.name));
  const onceRules = rulesCalledOnce(policy);
  const targets = new Map<string, Inlinable>();
  for (const f of policy.funcs.funcs) {
    const t = inlinable(f, funcNames, onceRules);
    if (t) targets.set(f.name, t);
  }
  if (targets.size === 0) return policy;
  return mapBodies(policy, (blocks, body) => inlineBody(blocks, body, targets, names));
}

export const inline: Pass = { name: "inline", run: inlinePolicy };
