// Walking the statements of a plan or func, with whether a statement runs inside a scan (it may
// run more than once); the locals a statement names, reads or writes; the rule funcs a
// CallDynamicStmt may reach.
import type { Block, CallDynamicStmt, Func, Operand, Policy, Stmt } from "./types.js";
import { assertNever } from "../../runtime/errors.js";

/** Calls `f` on every statement of the blocks, depth first, in order (no levels). */
export function forEachStmt(blocks: readonly Block[], f: (s: Stmt, inScan: boolean) => void, inScan = false): void {
  for (let i = 0; i < blocks.length; i++) forEachStmtIn(blocks[i]!, f, inScan);
}

function forEachStmtIn(block: Block, f: (s: Stmt, inScan: boolean) => void, inScan: boolean): void {
  const stmts = block.stmts;
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    f(s, inScan);
    switch (s.type) {
      case "BlockStmt":
        forEachStmt(s.stmt.blocks, f, inScan);
        break;
      case "NotStmt":
      case "WithStmt":
        forEachStmtIn(s.stmt.block, f, inScan);
        break;
      case "ScanStmt":
        forEachStmtIn(s.stmt.block, f, true);
        break;
      case "IndexStmt":
        for (const c of s.stmt.cases) forEachStmt(c.blocks, f, inScan);
        break;
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
      case "IncrementStmt":
      case "GroupAddStmt":
        break;
      default:
        assertNever(s);
    }
  }
}

/** Every statement of the blocks, flattened (order: depth first). */
export function allStmts(blocks: readonly Block[]): Stmt[] {
  const out: Stmt[] = [];
  forEachStmt(blocks, (s) => out.push(s));
  return out;
}

interface PathNode {
  children: Map<string, PathNode>;
  /** Rule funcs whose path ends here, with their position in the policy. */
  funcs: Array<[index: number, func: Func]>;
}

/** The rule funcs (2 params: input and data) of a policy, in a trie over their paths, so that the
 * funcs a CallDynamicStmt may reach are found without scanning every func. */
export class FuncPaths {
  private readonly root: PathNode = { children: new Map(), funcs: [] };

  constructor(funcs: Iterable<Func>) {
    let i = 0;
    for (const f of funcs) {
      const index = i++;
      if (f.params.length !== 2) continue;
      let n = this.root;
      for (const seg of f.path) {
        let c = n.children.get(seg);
        if (!c) n.children.set(seg, (c = { children: new Map(), funcs: [] }));
        n = c;
      }
      n.funcs.push([index, f]);
    }
  }

  /** Funcs whose path may equal the statement's path (same length, same constant segments), with
   * their index in the policy's funcs, in policy order. */
  candidatesByIndex(stmt: CallDynamicStmt, policy: Policy): Array<[index: number, func: Func]> {
    const strings = policy.static.strings;
    const found: Array<[number, Func]> = [];
    const visit = (n: PathNode, i: number): void => {
      if (i === stmt.path.length) {
        found.push(...n.funcs);
        return;
      }
      const op = stmt.path[i]!;
      if (op.type === "string_index") {
        const c = n.children.get(strings[op.value]!.value);
        if (c) visit(c, i + 1);
      } else if (op.type === "local") {
        for (const c of n.children.values()) visit(c, i + 1);
      }
    };
    visit(this.root, 0);
    return found.sort((a, b) => a[0] - b[0]);
  }
}

function isLocal(op: Operand, local: number): boolean {
  return op.type === "local" && op.value === local;
}

/** Whether a statement names a local (reads, assigns or mutates it; nested blocks excluded),
 * without an array per statement. */
export function namesLocal(s: Stmt, local: number): boolean {
  switch (s.type) {
    case "ArrayAppendStmt":
      return isLocal(s.stmt.value, local) || s.stmt.array === local;
    case "SetAddStmt":
      return isLocal(s.stmt.value, local) || s.stmt.set === local;
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "LenStmt":
      return isLocal(s.stmt.source, local) || s.stmt.target === local;
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
      return isLocal(s.stmt.source, local);
    case "CallStmt":
      return s.stmt.result === local || s.stmt.args.some((a) => isLocal(a, local));
    case "CallDynamicStmt":
      return s.stmt.result === local || s.stmt.args.includes(local) || s.stmt.path.some((p) => isLocal(p, local));
    case "DotStmt":
      return isLocal(s.stmt.source, local) || isLocal(s.stmt.key, local) || s.stmt.target === local;
    case "EqualStmt":
    case "NotEqualStmt":
      return isLocal(s.stmt.a, local) || isLocal(s.stmt.b, local);
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      return isLocal(s.stmt.key, local) || isLocal(s.stmt.value, local) || s.stmt.object === local;
    case "WithStmt":
      return isLocal(s.stmt.value, local) || s.stmt.local === local;
    case "AssignIntStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "GroupsStmt":
    case "MakeSetStmt":
    case "ResetLocalStmt":
    case "IncrementStmt":
      return s.stmt.target === local;
    case "ObjectMergeStmt":
      return s.stmt.target === local || s.stmt.a === local || s.stmt.b === local;
    case "ScanStmt":
      return s.stmt.key === local || s.stmt.value === local || s.stmt.source === local;
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "ReturnLocalStmt":
      return s.stmt.source === local;
    case "IndexStmt":
      return s.stmt.key === local;
    case "GroupAddStmt":
      return s.stmt.groups === local || s.stmt.key === local || (s.stmt.value !== undefined && isLocal(s.stmt.value, local));
    case "ResultSetAddStmt":
      return s.stmt.value === local;
    case "BlockStmt":
    case "BreakStmt":
    case "NopStmt":
    case "NotStmt":
      return false;
    default:
      assertNever(s);
  }
}

function readOp(o: Operand, f: (local: number) => void): void {
  if (o.type === "local") f(o.value);
}

/** Calls `f` on each local the statement reads (its nested blocks excluded). A collection it
 * mutates and a with's local count as read too. */
export function forEachRead(s: Stmt, f: (local: number) => void): void {
  switch (s.type) {
    case "ArrayAppendStmt":
      f(s.stmt.array);
      return readOp(s.stmt.value, f);
    case "SetAddStmt":
      f(s.stmt.set);
      return readOp(s.stmt.value, f);
    case "AssignVarOnceStmt":
      f(s.stmt.target); // compared with the source
      return readOp(s.stmt.source, f);
    case "AssignVarStmt":
    case "LenStmt":
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
      return readOp(s.stmt.source, f);
    case "CallStmt":
      for (const a of s.stmt.args) readOp(a, f);
      return;
    case "CallDynamicStmt":
      for (const a of s.stmt.args) f(a);
      for (const p of s.stmt.path) readOp(p, f);
      return;
    case "DotStmt":
      readOp(s.stmt.source, f);
      return readOp(s.stmt.key, f);
    case "EqualStmt":
    case "NotEqualStmt":
      readOp(s.stmt.a, f);
      return readOp(s.stmt.b, f);
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      f(s.stmt.object);
      readOp(s.stmt.key, f);
      return readOp(s.stmt.value, f);
    case "ObjectMergeStmt":
      f(s.stmt.a);
      return f(s.stmt.b);
    case "WithStmt":
      f(s.stmt.local);
      return readOp(s.stmt.value, f);
    case "ScanStmt":
      return f(s.stmt.source);
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "ReturnLocalStmt":
      return f(s.stmt.source);
    case "ResultSetAddStmt":
      return f(s.stmt.value);
    case "IndexStmt":
      return f(s.stmt.key);
    case "IncrementStmt":
      return f(s.stmt.target);
    case "GroupAddStmt":
      f(s.stmt.groups);
      f(s.stmt.key);
      return s.stmt.value === undefined ? undefined : readOp(s.stmt.value, f);
    case "AssignIntStmt":
    case "BlockStmt":
    case "BreakStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "GroupsStmt":
    case "MakeSetStmt":
    case "NopStmt":
    case "NotStmt":
    case "ResetLocalStmt":
      return;
    default:
      assertNever(s);
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
    case "GroupAddStmt":
      return f(s.stmt.groups);
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
    case "GroupsStmt":
    case "MakeSetStmt":
    case "ResetLocalStmt":
    case "ObjectMergeStmt":
    case "IncrementStmt":
      return f(s.stmt.target);
    case "CallStmt":
    case "CallDynamicStmt":
      return f(s.stmt.result);
    case "ScanStmt":
      f(s.stmt.key);
      return f(s.stmt.value);
    case "WithStmt":
      return f(s.stmt.local);
    case "BlockStmt":
    case "BreakStmt":
    case "EqualStmt":
    case "IsArrayStmt":
    case "IsDefinedStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
    case "IsUndefinedStmt":
    case "NopStmt":
    case "NotEqualStmt":
    case "NotStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "IndexStmt":
      return;
    default:
      assertNever(s);
  }
}
