// Helpers the passes share: rebuilding a statement with new nested blocks or fields (the input
// plan is never mutated). The locals a statement reads and writes: ../ir/walk.ts.
import { STMT_FIELDS, type FieldKind } from "../ir/fields.js";
import type { AnyStmtMap, AnyStmtType, Block, Func, Local, Operand, Plan, Policy, Stmt, StmtLocation, StmtMap, StmtType } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import { assertNever } from "../../runtime/errors.js";
import type { BodyRewrite, Pass } from "./index.js";

/** A statement of the given type (the envelope OPA's JSON uses). */
export function mk<T extends AnyStmtType>(type: T, stmt: AnyStmtMap[T]): Stmt {
  return { type, stmt } as Stmt;
}

/** The location of a statement, for statements a pass adds next to it. */
export function at(s: Stmt): StmtLocation {
  return { file: s.stmt.file, row: s.stmt.row, col: s.stmt.col };
}

/** The statement with its nested block(s) replaced (the same statement when nothing changed). */
export function withBlocks(s: Stmt, blocks: Block[]): Stmt {
  switch (s.type) {
    case "BlockStmt":
      return sameList(s.stmt.blocks, blocks) ? s : mk("BlockStmt", { ...s.stmt, blocks });
    case "NotStmt":
    case "WithStmt":
    case "ScanStmt":
      return s.stmt.block === blocks[0] ? s : ({ type: s.type, stmt: { ...s.stmt, block: blocks[0]! } } as Stmt);
    case "ArrayAppendStmt":
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
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
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "SetAddStmt":
    case "IndexStmt":
    case "IncrementStmt":
    case "GroupAddStmt":
      return s;
    default:
      assertNever(s);
  }
}

/** What nestedBlocks gives for a simple statement (one list for all). */
const NO_BLOCKS: readonly Block[] = [];

/** The nested blocks of a statement ([] for a simple one). */
export function nestedBlocks(s: Stmt): readonly Block[] {
  switch (s.type) {
    case "BlockStmt":
      return s.stmt.blocks;
    case "NotStmt":
    case "WithStmt":
    case "ScanStmt":
      return [s.stmt.block];
    case "ArrayAppendStmt":
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
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
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "SetAddStmt":
    case "IndexStmt":
    case "IncrementStmt":
    case "GroupAddStmt":
      return NO_BLOCKS;
    default:
      assertNever(s);
  }
}

/** Whether a break or dynamic call inside the statements leaves them (`depth` levels up to them). */
export function leaves(stmts: readonly Stmt[], depth: number): boolean {
  return stmts.some((s) => {
    switch (s.type) {
      case "BreakStmt":
        return s.stmt.index >= depth;
      case "CallDynamicStmt":
        return true;
      case "ScanStmt":
        return leaves(s.stmt.block.stmts, depth + 2);
      case "IndexStmt":
        return s.stmt.cases.some((c) => c.blocks.some((b) => leaves(b.stmts, depth + 1)));
      default:
        return nestedBlocks(s).some((b) => leaves(b.stmts, depth + 1));
    }
  });
}

/** Whether the statements and everything nested in them satisfy `ok`. */
export function everyStmt(stmts: readonly Stmt[], ok: (s: Stmt) => boolean): boolean {
  for (const s of stmts) {
    if (!ok(s)) return false;
    for (const b of nestedBlocks(s)) if (!everyStmt(b.stmts, ok)) return false;
  }
  return true;
}

/** Whether two lists hold the same elements (so the old one can be kept). */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A block with the given statements (the same block when they are the same). */
export function block(old: Block, stmts: Stmt[]): Block {
  return sameList(old.stmts, stmts) ? old : { stmts };
}

/** The blocks with each statement that `rewrites` maps replaced, at any depth; a list, block or
 * statement nothing in changed stays the same object. */
export function replaceStmts(blocks: Block[], rewrites: ReadonlyMap<Stmt, Stmt>): Block[] {
  if (rewrites.size === 0) return blocks;
  const inBlock = (b: Block): Block => {
    const stmts = list(b.stmts);
    return stmts === b.stmts ? b : block(b, stmts);
  };
  const list = (stmts: Stmt[]): Stmt[] => {
    let out: Stmt[] | undefined;
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      let r = rewrites.get(s) ?? s;
      const nb = r === s ? nestedBlocks(s) : NO_BLOCKS;
      if (nb.length > 0) {
        const changed = nb.map(inBlock);
        if (!sameList(changed, nb)) r = withBlocks(s, changed);
      }
      if (r !== s) out ??= stmts.slice(0, i);
      out?.push(r);
    }
    return out ?? stmts;
  };
  const out = blocks.map(inBlock);
  return sameList(out, blocks) ? blocks : out;
}

/** The policy with every plan's and func's blocks mapped (sharing what `f` keeps). */
export function mapBodies(policy: Policy, f: (blocks: Block[], body: Plan | Func) => Block[]): Policy {
  let changed = false;
  const plans = policy.plans.plans.map((p) => {
    const blocks = f(p.blocks, p);
    if (sameList(blocks, p.blocks)) return p;
    changed = true;
    return { ...p, blocks };
  });
  const funcs = policy.funcs.funcs.map((fn) => {
    const blocks = f(fn.blocks, fn);
    if (sameList(blocks, fn.blocks)) return fn;
    changed = true;
    return { ...fn, blocks };
  });
  return changed ? { ...policy, plans: { plans }, funcs: { funcs } } : policy;
}

/** STMT_FIELDS as lists, for mapLocals. */
const FIELD_LISTS: ReadonlyMap<string, ReadonlyArray<readonly [string, FieldKind]>> = new Map(
  Object.entries(STMT_FIELDS).map(([type, fields]) => [type, Object.entries(fields)]),
);

/** A pass that rewrites each plan and func on its own. */
export function bodyPass(name: string, rewrite: BodyRewrite): Pass {
  return { name, run: (policy, names) => mapBodies(policy, (blocks, body) => rewrite(blocks, body, names)), body: rewrite };
}

/** The statement with every local mapped, its nested blocks by `inner` (by default: their
 * statements mapped alike). */
export function mapLocals(s: Stmt, f: (l: Local) => Local, inner: (b: Block) => Block = (b) => ({ stmts: b.stmts.map((t) => mapLocals(t, f)) })): Stmt {
  // (the passes that map locals run before the rule index makes these)
  if (s.type === "IndexStmt") throw new Error("mapLocals: an IndexStmt");
  if (s.type === "IncrementStmt") return mk("IncrementStmt", { ...s.stmt, target: f(s.stmt.target) });
  if (s.type === "GroupsStmt") return mk("GroupsStmt", { ...s.stmt, target: f(s.stmt.target) });
  if (s.type === "GroupAddStmt") {
    const value = s.stmt.value;
    return mk("GroupAddStmt", { ...s.stmt, groups: f(s.stmt.groups), key: f(s.stmt.key), ...(value?.type === "local" ? { value: { type: "local", value: f(value.value) } } : {}) });
  }
  const st = s.stmt as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...st };
  const op = (o: Operand): Operand => (o.type === "local" ? { type: "local", value: f(o.value) } : o);
  for (const [field, kind] of FIELD_LISTS.get(s.type)!) {
    const v = st[field];
    if (kind === "local") out[field] = f(v as Local);
    else if (kind === "locals?") out[field] = (v as Local[]).map(f);
    else if (kind === "operand") out[field] = op(v as Operand);
    else if (kind === "operands?") out[field] = (v as Operand[]).map(op);
    else if (kind === "block") out[field] = inner(v as Block);
    else if (kind === "blocks?") out[field] = (v as Block[]).map(inner);
  }
  return { type: s.type, stmt: out } as unknown as Stmt;
}

/** The largest local a plan or func names. */
export function maxLocal(body: Plan | Func): number {
  let max = "params" in body ? Math.max(body.return, ...body.params) : 1;
  const see = (l: Local): void => {
    max = Math.max(max, l);
  };
  forEachStmt(body.blocks, (s) => {
    forEachRead(s, see);
    forEachWrite(s, see);
  });
  return max;
}
