// Early exit: a complete rule (or function) whose every body assigns the same constant — `allow if
// ...` bodies all give `true` — has its value as soon as one body succeeds, and no later body can
// conflict with it. So, as OPA's topdown evaluator does (its rule index's EarlyExit: complete
// rules, values ground and equal, no else), evaluation stops there:
//   - right after a body assigns the constant, the body is left (out of any scan it is in);
//   - each body after the first starts with `IsUndefined return`: once the rule has its value,
//     the remaining bodies are skipped. A default (`IsUndefined return; return := d`) still runs
//     only when no body succeeded.
// No assignment there can conflict any more: the rule's value is only ever that constant, the
// default is assigned only to an undefined return local. They become plain assignments (no
// conflict check at run time).
// The func must have the planner's complete-rule shape exactly (§6 of the IR reference):
//   [ResetLocal lr; body...; AssignVarOnce lr ← c] [IsDefined lr; AssignVarOnce ret ← lr] ...
//   [IsUndefined ret; AssignVarOnce ret ← default]? [ReturnLocal ret]
// with c the same bool or string constant everywhere lr is assigned, lr written nowhere else and
// not assigned inside a NotStmt. Else chains, partial sets and objects, and rules whose values are
// computed keep their shape. What later bodies would have done is skipped, as topdown skips it:
// their builtin errors in strict mode, their prints.
import type { Block, Func, Operand, Policy, Stmt } from "../ir/types.js";
import { forEachWrite } from "../ir/walk.js";
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
    let bad = false;
    forEachWrite(s, (l) => (bad ||= l === lr || l === ret));
    if (bad) return false;
    const not = inNot || s.type === "NotStmt";
    for (const b of nestedBlocks(s)) if (!checkBody(b.stmts, lr, ret, not, value)) return false;
  }
  return true;
}

/** The body with a break out of it after each assignment of lr (`depth` levels below the body). */
function exitAfterAssign(stmts: readonly Stmt[], lr: number, depth: number): Stmt[] {
  const out: Stmt[] = [];
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    if (s.type === "AssignVarOnceStmt" && s.stmt.target === lr) {
      out.push(plainAssign(s));
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
        nb.map((b) => block(b, exitAfterAssign(b.stmts, lr, depth + levels))),
      ),
    );
  }
  return out;
}

/** An AssignVarOnce that cannot conflict, as a plain assignment. */
function plainAssign(s: Stmt): Stmt {
  return s.type === "AssignVarOnceStmt" ? mk("AssignVarStmt", s.stmt) : s;
}

/** A collect or default block (two statements, the second an AssignVarOnce of the return local)
 * with that assignment plain. */
function plainSecond(b: Block): Block {
  return block(b, [b.stmts[0]!, plainAssign(b.stmts[1]!)]);
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
  const out = blocks.slice();
  for (let i = 0; i < end; i += 2) {
    const body = blocks[i]!;
    let stmts = exitAfterAssign(body.stmts, lr, 0);
    if (i > 0) stmts = [mk("IsUndefinedStmt", { ...at(body.stmts[0]!), source: ret }), ...stmts];
    out[i] = block(body, stmts);
    out[i + 1] = plainSecond(blocks[i + 1]!);
  }
  if (end === n - 2) out[end] = plainSecond(blocks[end]!);
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
