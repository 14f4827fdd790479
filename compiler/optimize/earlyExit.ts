// Early exit: a complete rule (or function) whose every body assigns the same constant — `allow if
// ...` bodies all give `true` — has its value as soon as one body succeeds, and no later body can
// conflict with it. So, as OPA's topdown evaluator does (its rule index's EarlyExit: complete
// rules, values ground and equal, no else), evaluation stops there:
//   - a body assigns the constant to the return local itself, then leaves the body (out of any
//     scan it is in);
//   - each body after the first starts with `IsUndefined return`: once the rule has its value,
//     the remaining bodies are skipped. A default (`IsUndefined return; return := d`) still runs
//     only when no body succeeded.
// No assignment can conflict any more, so all are plain: the per-body result local, its reset and
// the blocks copying it to the return local (which checked for conflicts) go.
// The func must have the planner's complete-rule shape exactly (§6 of the IR reference):
//   [ResetLocal lr; body...; AssignVarOnce lr ← c] [IsDefined lr; AssignVarOnce ret ← lr] ...
//   [IsUndefined ret; AssignVarOnce ret ← default]? [ReturnLocal ret]
// with c the same bool or string constant everywhere lr is assigned, lr and ret otherwise not named
// in the bodies and lr not assigned inside a NotStmt. Else chains, partial sets and objects, and
// rules whose values are computed keep their shape. What later bodies would have done is skipped,
// as topdown skips it: their builtin errors in strict mode, their prints.
import type { Block, Func, Operand, Policy, Stmt } from "../ir/types.js";
import { namesLocal } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { at, block, mk, nestedBlocks, withBlocks } from "./stmts.js";

function sameConstant(a: Operand, b: Operand): boolean {
  return a.type !== "local" && a.type === b.type && a.value === b.value;
}

/** `IsDefined lr; AssignVarOnce ret ← lr`: the local lr, or undefined. */
function collectOf(b: Block, ret: number): number | undefined {
  const [d, a] = b.stmts;
  if (b.stmts.length !== 2 || d?.type !== "IsDefinedStmt" || a?.type !== "AssignVarOnceStmt") return undefined;
  const src = a.stmt.source;
  return a.stmt.target === ret && src.type === "local" && src.value === d.stmt.source ? src.value : undefined;
}

function isDefault(b: Block, ret: number): boolean {
  const [u, a] = b.stmts;
  return b.stmts.length === 2 && u?.type === "IsUndefinedStmt" && u.stmt.source === ret && a?.type === "AssignVarOnceStmt" && a.stmt.target === ret;
}

function isReturn(b: Block, ret: number): boolean {
  const [r] = b.stmts;
  return b.stmts.length === 1 && r?.type === "ReturnLocalStmt" && r.stmt.source === ret;
}

/** Checks a body's statements: every write of lr or ret is an AssignVarOnce lr ← constant (the
 * same as `value.c`, or the first one found), none in a NotStmt. Counts them in `value.n`. */
function checkBody(stmts: readonly Stmt[], lr: number, ret: number, inNot: boolean, value: { c?: Operand; n: number }): boolean {
  for (const s of stmts) {
    if (s.type === "AssignVarOnceStmt" && s.stmt.target === lr) {
      if (inNot || s.stmt.source.type === "local") return false;
      if (value.c === undefined) value.c = s.stmt.source;
      else if (!sameConstant(value.c, s.stmt.source)) return false;
      value.n++;
      continue;
    }
    if (namesLocal(s, lr) || namesLocal(s, ret)) return false;
    const not = inNot || s.type === "NotStmt";
    for (const b of nestedBlocks(s)) if (!checkBody(b.stmts, lr, ret, not, value)) return false;
  }
  return true;
}

/** The body with each assignment of lr made a plain one of ret, followed by a break out of the
 * body (`depth` levels below it). */
function exitAfterAssign(stmts: readonly Stmt[], lr: number, ret: number, depth: number): Stmt[] {
  const out: Stmt[] = [];
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    if (s.type === "AssignVarOnceStmt" && s.stmt.target === lr) {
      out.push(mk("AssignVarStmt", { ...s.stmt, target: ret }));
      if (depth > 0 || i < stmts.length - 1) out.push(mk("BreakStmt", { ...at(s), index: depth }));
      return out; // what follows never runs
    }
    const nb = nestedBlocks(s);
    if (nb.length === 0) {
      out.push(s);
      continue;
    }
    const levels = s.type === "ScanStmt" ? 2 : 1;
    out.push(
      withBlocks(
        s,
        nb.map((b) => block(b, exitAfterAssign(b.stmts, lr, ret, depth + levels))),
      ),
    );
  }
  return out;
}

/** The default block (`IsUndefined ret; AssignVarOnce ret ← d`) with a plain assignment. */
function plainDefault(b: Block): Block {
  const [guard, assign] = b.stmts as [Stmt, Stmt & { type: "AssignVarOnceStmt" }];
  return block(b, [guard, mk("AssignVarStmt", assign.stmt)]);
}

function earlyExitFunc(f: Func): Func {
  const ret = f.return;
  const blocks = f.blocks;
  const n = blocks.length;
  if (n < 3 || !isReturn(blocks[n - 1]!, ret)) return f;
  const end = isDefault(blocks[n - 2]!, ret) ? n - 2 : n - 1;
  if (end % 2 !== 0) return f;
  let lr: number | undefined;
  const value: { c?: Operand; n: number } = { n: 0 };
  for (let i = 0; i < end; i += 2) {
    const body = blocks[i]!;
    const first = body.stmts[0];
    if (first?.type !== "ResetLocalStmt") return f;
    lr ??= first.stmt.target;
    if (first.stmt.target !== lr || collectOf(blocks[i + 1]!, ret) !== lr || lr === ret) return f;
    if (!checkBody(body.stmts.slice(1), lr, ret, false, value)) return f;
  }
  if (lr === undefined || value.n === 0) return f;
  const out: Block[] = [];
  for (let i = 0; i < end; i += 2) {
    const body = blocks[i]!;
    const stmts = exitAfterAssign(body.stmts.slice(1), lr, ret, 0);
    if (i > 0) stmts.unshift(mk("IsUndefinedStmt", { ...at(body.stmts[0]!), source: ret }));
    out.push({ stmts });
  }
  if (end === n - 2) out.push(plainDefault(blocks[end]!));
  out.push(blocks[n - 1]!);
  return { ...f, blocks: out };
}

export const earlyExit: Pass = {
  name: "early-exit",
  run(policy: Policy): Policy {
    let changed = false;
    const funcs = policy.funcs.funcs.map((f) => {
      const g = earlyExitFunc(f);
      if (g !== f) changed = true;
      return g;
    });
    return changed ? { ...policy, funcs: { funcs } } : policy;
  },
};
