// Constant locals of their own: in a top-level block (a rule body) that sets local t to a number or
// null constant (`l6 = 1`, `l8 = 0`, MakeNull), t is renamed to a fresh local throughout that
// block when no other block can see the block's t: in that block and every later one, t's first
// mention (if any) is a write at the block's top level by a statement that either sets t or fails
// (a call's result: when the call is undefined, the block ends before anything reads t).
//
// IR operands hold no numbers, so the constant itself is substituted by the emitter: an operand
// reading a local just set to a number or null in the same statement list is printed as that
// literal (emit/blocks.ts, FuncEmitter.constants), `if (l7 !== 1)`, `dot(l5, 0)`. Its write then
// goes when nothing else reads the local, which is what this pass makes true where the planner
// reused one local for the constant of several bodies and for other values (a call's result).
import type { Block, Func, Local, Plan, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite, namesLocal } from "../ir/walk.js";
import type { Pass } from "./index.js";
import type { NameTable } from "./names.js";
import { block, bodyPass, everyStmt, mapLocals, maxLocal, nestedBlocks } from "./stmts.js";
import { KILLS } from "./uses.js";
import { assertNever } from "../../runtime/errors.js";

/** The local a statement sets to a number or null constant. */
function constantTarget(s: Stmt): Local | undefined {
  switch (s.type) {
    case "AssignIntStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeNullStmt":
      return s.stmt.target;
    case "ArrayAppendStmt":
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "BlockStmt":
    case "BreakStmt":
    case "CallDynamicStmt":
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
    case "ScanStmt":
    case "SetAddStmt":
    case "WithStmt":
    case "IndexStmt":
    case "IncrementStmt":
    case "GroupAddStmt":
      return undefined;
    default:
      assertNever(s);
  }
}

/** For each local, the last top-level block that may see its value from an earlier block. */
function lastSeeing(blocks: readonly Block[]): Map<Local, number> {
  const out = new Map<Local, number>();
  const seen = new Set<Local>();
  // The block being visited, and whether the statement being visited sets its targets before
  // anything can read them (at the block's top level: a rewrite, or a call that fails instead).
  let T = 0;
  let writesFirst = false;
  const onRead = (l: Local): void => {
    if (!seen.has(l)) out.set(l, T);
    seen.add(l);
  };
  const onWrite = (l: Local): void => {
    if (!seen.has(l) && !writesFirst) out.set(l, T);
    seen.add(l);
  };
  const visit = (stmts: readonly Stmt[], top: boolean): void => {
    for (const s of stmts) {
      writesFirst = top && (KILLS.has(s.type) || s.type === "CallStmt");
      forEachRead(s, onRead);
      forEachWrite(s, onWrite);
      for (const nb of nestedBlocks(s)) visit(nb.stmts, false);
    }
  };
  blocks.forEach((b, i) => {
    T = i;
    seen.clear();
    visit(b.stmts, true);
  });
  return out;
}

function splitBody(blocks: Block[], body: Plan | Func, names: NameTable | undefined): Block[] {
  const isFunc = "params" in body;
  const fixed = new Set<Local>(isFunc ? [...body.params, body.return] : [0, 1]);
  let seeing: Map<Local, number> | undefined;
  let next = -1;
  // The current block's constant targets.
  const targets = new Set<Local>();
  const collect = (s: Stmt): void => {
    const t = constantTarget(s);
    if (t !== undefined && !fixed.has(t)) targets.add(t);
  };
  return blocks.map((b, T) => {
    targets.clear();
    forEachStmt([b], collect);
    if (targets.size === 0) return b;
    seeing ??= lastSeeing(blocks);
    const renamed = new Map<Local, Local>();
    for (const t of targets) {
      if ((seeing.get(t) ?? -1) >= T) continue;
      if (next < 0) next = maxLocal(body) + 1;
      renamed.set(t, next);
      names?.inherit(body, t, next);
      next++;
    }
    if (renamed.size === 0) return b;
    const rename = (l: Local): Local => renamed.get(l) ?? l;
    const untouched = (t: Stmt): boolean => {
      for (const l of renamed.keys()) if (namesLocal(t, l)) return false;
      return true;
    };
    // (a statement naming none of them, nested ones included, is kept as it is)
    return block(
      b,
      b.stmts.map((s) => (everyStmt([s], untouched) ? s : mapLocals(s, rename))),
    );
  });
}

export const splitConstants: Pass = bodyPass("split-constants", splitBody);
