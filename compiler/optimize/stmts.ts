// Helpers the passes share: rebuilding a statement with new nested blocks or fields (the input
// plan is never mutated), and the locals a statement reads and writes (nested blocks excluded).
import type { Block, Func, Operand, Plan, Policy, Stmt, StmtLocation, StmtMap, StmtType } from "../ir/types.js";

/** A statement of the given type (the envelope OPA's JSON uses). */
export function mk<T extends StmtType>(type: T, stmt: StmtMap[T]): Stmt {
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
    default:
      return s;
  }
}

/** The nested blocks of a statement ([] for a simple one). */
export function nestedBlocks(s: Stmt): readonly Block[] {
  switch (s.type) {
    case "BlockStmt":
      return s.stmt.blocks;
    case "NotStmt":
    case "WithStmt":
    case "ScanStmt":
      return [s.stmt.block];
    default:
      return [];
  }
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

function opRead(o: Operand, f: (local: number) => void): void {
  if (o.type === "local") f(o.value);
}

/** Calls `f` on each local the statement reads (its nested blocks excluded). A collection it
 * mutates and a with's local count as read too. */
export function forEachRead(s: Stmt, f: (local: number) => void): void {
  switch (s.type) {
    case "ArrayAppendStmt":
      f(s.stmt.array);
      return opRead(s.stmt.value, f);
    case "SetAddStmt":
      f(s.stmt.set);
      return opRead(s.stmt.value, f);
    case "AssignVarOnceStmt":
      f(s.stmt.target); // compared with the source
      return opRead(s.stmt.source, f);
    case "AssignVarStmt":
    case "LenStmt":
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
      return opRead(s.stmt.source, f);
    case "CallStmt":
      for (const a of s.stmt.args) opRead(a, f);
      return;
    case "CallDynamicStmt":
      for (const a of s.stmt.args) f(a);
      for (const p of s.stmt.path) opRead(p, f);
      return;
    case "DotStmt":
      opRead(s.stmt.source, f);
      return opRead(s.stmt.key, f);
    case "EqualStmt":
    case "NotEqualStmt":
      opRead(s.stmt.a, f);
      return opRead(s.stmt.b, f);
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      f(s.stmt.object);
      opRead(s.stmt.key, f);
      return opRead(s.stmt.value, f);
    case "ObjectMergeStmt":
      f(s.stmt.a);
      return f(s.stmt.b);
    case "WithStmt":
      f(s.stmt.local);
      return opRead(s.stmt.value, f);
    case "ScanStmt":
      return f(s.stmt.source);
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "ReturnLocalStmt":
      return f(s.stmt.source);
    case "ResultSetAddStmt":
      return f(s.stmt.value);
    default:
      return;
  }
}

/** Calls `f` on each local the statement writes (its nested blocks excluded): assigned, reset,
 * mutated in place, set by a scan or replaced by a with. */
export function forEachWrite(s: Stmt, f: (local: number) => void): void {
  switch (s.type) {
    case "ArrayAppendStmt":
      return f(s.stmt.array);
    case "SetAddStmt":
      return f(s.stmt.set);
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      return f(s.stmt.object);
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "LenStmt":
    case "DotStmt":
    case "AssignIntStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "MakeSetStmt":
    case "ResetLocalStmt":
    case "ObjectMergeStmt":
      return f(s.stmt.target);
    case "CallStmt":
    case "CallDynamicStmt":
      return f(s.stmt.result);
    case "ScanStmt":
      f(s.stmt.key);
      return f(s.stmt.value);
    case "WithStmt":
      return f(s.stmt.local);
    default:
      return;
  }
}
