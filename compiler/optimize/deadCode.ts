// Dead-code removal: statements that can never run or that do nothing.
//   - NopStmt; a statement that only sets a local the next statement sets again (`l8 = 0; l8 = 0`);
//   - statements after one that never falls through (a BreakStmt, a ReturnLocalStmt, a nested
//     construct every path of which breaks out);
//   - a trailing `break 0` where it means the same as reaching the end (a plan's or func's block,
//     a BlockStmt's child, a scan body — not a NotStmt's or WithStmt's block);
//   - blocks that do nothing: a BlockStmt child, or a plan's or func's block, left with only
//     checks and no way out but to its own end (e.g. one starting with `break 0`); a BlockStmt
//     without blocks; the children of a BlockStmt after one that always breaks out of it;
//   - a construct that only checks (no statement in it writes a local) and always leaves by the
//     same break becomes that BreakStmt; one that always falls through goes.
// Removing a whole child block or statement never changes another break's level count, so no
// BreakStmt index changes.
import type { Block, Func, Plan, Stmt } from "../ir/types.js";
import type { Pass } from "./index.js";
import { at, block, bodyPass, mk, sameList, withBlocks } from "./stmts.js";
import { assertNever } from "../../runtime/errors.js";

/** How a statement (or list) can be left: by falling through to what follows, or by breaks,
 * given as BreakStmt indexes at its own position. */
interface Exits {
  falls: boolean;
  breaks: ReadonlySet<number>;
  /** No statement in it writes a local or has another effect: only checks and breaks. */
  pure: boolean;
}

/** Where a list sits: whether a trailing `break 0` means the same as its end. */
type ListKind = "plain" | "strict";

interface Simplified extends Exits {
  stmts: Stmt[];
}

const CHECKS = new Set(["EqualStmt", "NotEqualStmt", "IsArrayStmt", "IsObjectStmt", "IsSetStmt", "IsDefinedStmt", "IsUndefinedStmt"]);

/** The exits by breaks of a statement that only falls through, and of one that may also fail
 * (shared: an Exits' breaks are never changed once made). */
const NO_BREAKS: ReadonlySet<number> = new Set();
const BREAK_0: ReadonlySet<number> = new Set([0]);

function shifted(breaks: ReadonlySet<number>, by: number, into: Set<number>): void {
  for (const k of breaks) if (k >= by) into.add(k - by);
}

/** Simplifies a statement: the statement (or null when it does nothing) and its exits. */
function simplifyStmt(s: Stmt): { stmt: Stmt | null } & Exits {
  switch (s.type) {
    case "NopStmt":
      return { stmt: null, falls: true, breaks: NO_BREAKS, pure: true };
    case "BreakStmt":
      return { stmt: s, falls: false, breaks: new Set([s.stmt.index]), pure: true };
    case "ReturnLocalStmt":
      return { stmt: s, falls: false, breaks: NO_BREAKS, pure: false };
    case "CallDynamicStmt":
      return { stmt: s, falls: true, breaks: new Set([0, 3]), pure: false };
    case "BlockStmt": {
      const blocks: Block[] = [];
      const breaks = new Set<number>();
      let pure = true;
      let continues = true;
      for (const b of s.stmt.blocks) {
        const c = simplifyList(b.stmts, "plain");
        // A child that does nothing: only checks, and every way out leads to the next child.
        if (c.pure && (c.breaks.size === 0 || (c.breaks.size === 1 && c.breaks.has(0)))) continue;
        blocks.push(block(b, c.stmts));
        shifted(c.breaks, 1, breaks);
        pure &&= c.pure;
        continues = c.falls || c.breaks.has(0);
        if (!continues) break; // the later children never run
      }
      if (blocks.length === 0) return { stmt: null, falls: true, breaks, pure: true };
      return collapse(withBlocks(s, blocks), { falls: continues, breaks, pure });
    }
    case "NotStmt": {
      const b = simplifyList(s.stmt.block.stmts, "strict");
      const breaks = new Set<number>();
      if (b.falls) breaks.add(0);
      shifted(b.breaks, 1, breaks);
      return collapse(withBlocks(s, [block(s.stmt.block, b.stmts)]), { falls: b.breaks.has(0), breaks, pure: b.pure });
    }
    case "WithStmt": {
      const b = simplifyList(s.stmt.block.stmts, "strict");
      const breaks = new Set<number>();
      if (b.breaks.has(0)) breaks.add(0);
      shifted(b.breaks, 1, breaks);
      return { stmt: withBlocks(s, [block(s.stmt.block, b.stmts)]), falls: b.falls, breaks, pure: false };
    }
    case "ScanStmt": {
      const b = simplifyList(s.stmt.block.stmts, "plain");
      const breaks = new Set<number>();
      shifted(b.breaks, 2, breaks);
      return { stmt: withBlocks(s, [block(s.stmt.block, b.stmts)]), falls: true, breaks, pure: false };
    }
    case "ArrayAppendStmt":
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "CallStmt":
    case "DotStmt":
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
    case "NotEqualStmt":
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
    case "ResultSetAddStmt":
    case "SetAddStmt":
    case "IndexStmt":
    case "IncrementStmt":
    case "GroupAddStmt": {
      if (CHECKS.has(s.type)) return { stmt: s, falls: true, breaks: BREAK_0, pure: true };
      const fails = s.type === "DotStmt" || s.type === "CallStmt";
      return { stmt: s, falls: true, breaks: fails ? BREAK_0 : NO_BREAKS, pure: false };
    }
    default:
      assertNever(s);
  }
}

/** A pure construct that always leaves by one break is that break; one that always falls through
 * is nothing. */
function collapse(s: Stmt, e: Exits): { stmt: Stmt | null } & Exits {
  if (e.pure && e.falls && e.breaks.size === 0) return { stmt: null, ...e };
  if (e.pure && !e.falls && e.breaks.size === 1) {
    const [index] = e.breaks;
    return { stmt: mk("BreakStmt", { ...at(s), index: index! }), ...e };
  }
  return { stmt: s, ...e };
}

/** Statements that only set their target (they read nothing, or only their source). */
const SETS = new Set([
  "AssignVarStmt",
  "AssignIntStmt",
  "MakeNumberIntStmt",
  "MakeNumberRefStmt",
  "MakeNullStmt",
  "MakeArrayStmt",
  "MakeObjectStmt",
  "MakeSetStmt",
  "ResetLocalStmt",
]);

/** Whether `s` sets the local `prev` just set, without reading it: `prev` is a dead store. */
function overwrites(s: Stmt, prev: Stmt): boolean {
  if (!SETS.has(s.type) || !SETS.has(prev.type)) return false;
  const t = (prev.stmt as { target: number }).target;
  if ((s.stmt as { target: number }).target !== t) return false;
  return s.type !== "AssignVarStmt" || s.stmt.source.type !== "local" || s.stmt.source.value !== t;
}

function simplifyList(stmts: readonly Stmt[], kind: ListKind): Simplified {
  const out: Stmt[] = [];
  const outBreaks: Array<ReadonlySet<number>> = [];
  let pure = true;
  let falls = true;
  for (const s of stmts) {
    const r = simplifyStmt(s);
    if (r.stmt === null) continue;
    const prev = out[out.length - 1];
    if (prev && overwrites(r.stmt, prev)) {
      out.pop();
      outBreaks.pop();
    }
    out.push(r.stmt);
    outBreaks.push(r.breaks);
    pure &&= r.pure;
    if (!r.falls) {
      falls = false;
      break;
    }
  }
  // A trailing `break 0` is the list's end, where that means the same.
  const last = out[out.length - 1];
  if (kind === "plain" && last?.type === "BreakStmt" && last.stmt.index === 0) {
    out.pop();
    outBreaks.pop();
    falls = true;
  }
  const breaks = new Set<number>();
  for (const bs of outBreaks) for (const k of bs) breaks.add(k);
  return { stmts: sameList(stmts, out) ? (stmts as Stmt[]) : out, falls, breaks, pure };
}

/** A plan's or func's blocks, simplified; blocks that do nothing are dropped. */
function simplifyBody(blocks: Block[], _body: Plan | Func): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const r = simplifyList(b.stmts, "plain");
    if (r.pure && [...r.breaks].every((k) => k === 0)) continue;
    out.push(block(b, r.stmts));
  }
  if (out.length === 0 && blocks.length > 0) out.push({ stmts: [] });
  return sameList(blocks, out) ? blocks : out;
}

export const deadCode: Pass = bodyPass("dead-code", simplifyBody);
