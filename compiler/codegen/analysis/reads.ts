// The locals a func or plan reads: a statement that only writes a local nothing reads (a scan's
// unused key, a copy never used) is left out of the generated code, which then has no variable
// TypeScript calls assigned but never read (noUnusedLocals). Leaving out such a write may leave
// the locals it read unread in turn (`a = b` where nothing reads `a`: `b` too): that is followed
// through, each write left out once.
import type { Block, Operand, Stmt } from "../../ir/types.js";
import { LocalSet } from "./localSet.js";

/** The locals the statements of `blocks` read, apart from reads by writes left out (an object or
 * set added to counts: the emitted code reads it to write it back; a result assigned once counts:
 * the conflict check reads it). */
export function readLocals(blocks: readonly Block[]): LocalSet {
  /** Reads of each local, by local number (a Map: numbers may be large and sparse). */
  const count = new Map<number, number>();
  /** The locals each local's writes-that-may-be-left-out read (a local without: none). */
  const sources = new Map<number, number[]>();
  const read = (l: number): void => void count.set(l, (count.get(l) ?? 0) + 1);
  const op = (o: Operand) => {
    if (o.type === "local") read(o.value);
  };
  /** A write that may be left out: `target` from `from` (locals or constants). */
  const pure = (target: number, ...from: Operand[]) => {
    let list = sources.get(target);
    if (list === undefined) sources.set(target, (list = []));
    for (const o of from) {
      if (o.type !== "local") continue;
      list.push(o.value);
      read(o.value);
    }
  };
  const visit = (s: Stmt): void => {
    switch (s.type) {
      case "ArrayAppendStmt":
        read(s.stmt.array);
        return op(s.stmt.value);
      case "SetAddStmt":
        read(s.stmt.set);
        return op(s.stmt.value);
      case "AssignVarOnceStmt":
        read(s.stmt.target);
        return op(s.stmt.source);
      case "AssignVarStmt":
      case "LenStmt":
        return pure(s.stmt.target, s.stmt.source);
      case "ObjectMergeStmt":
        return pure(s.stmt.target, { type: "local", value: s.stmt.a }, { type: "local", value: s.stmt.b });
      case "AssignIntStmt":
      case "MakeArrayStmt":
      case "MakeNullStmt":
      case "MakeNumberIntStmt":
      case "MakeNumberRefStmt":
      case "MakeObjectStmt":
      case "MakeSetStmt":
      case "ResetLocalStmt":
        return pure(s.stmt.target);
      case "IsArrayStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
        return op(s.stmt.source);
      case "CallStmt":
        for (const a of s.stmt.args) op(a);
        return;
      case "CallDynamicStmt":
        for (const a of s.stmt.args) read(a);
        for (const p of s.stmt.path) op(p);
        return;
      case "DotStmt":
        op(s.stmt.source);
        return op(s.stmt.key);
      case "EqualStmt":
      case "NotEqualStmt":
        op(s.stmt.a);
        return op(s.stmt.b);
      case "ObjectInsertOnceStmt":
      case "ObjectInsertStmt":
        read(s.stmt.object);
        op(s.stmt.key);
        return op(s.stmt.value);
      case "WithStmt":
        read(s.stmt.local);
        op(s.stmt.value);
        return walk(s.stmt.block);
      case "ScanStmt":
        pure(s.stmt.key);
        pure(s.stmt.value);
        read(s.stmt.source);
        return walk(s.stmt.block);
      case "IsDefinedStmt":
      case "IsUndefinedStmt":
      case "ReturnLocalStmt":
        return read(s.stmt.source);
      case "ResultSetAddStmt":
        return read(s.stmt.value);
      case "BlockStmt":
        for (const b of s.stmt.blocks) walk(b);
        return;
      case "NotStmt":
        return walk(s.stmt.block);
      default:
        return;
    }
  };
  /** A block's statements up to the first that always leaves it: the emitter writes no more. */
  const walk = (b: Block): void => {
    for (const s of b.stmts) {
      visit(s);
      if (s.type === "BreakStmt" || s.type === "ReturnLocalStmt") return;
    }
  };
  for (const b of blocks) walk(b);
  // Unread locals' writes go: what they read is read once less.
  const unread: number[] = [];
  for (const l of sources.keys()) if (!count.has(l)) unread.push(l);
  while (unread.length > 0) {
    for (const src of sources.get(unread.pop()!)!) {
      const n = count.get(src)! - 1;
      if (n > 0) count.set(src, n);
      else {
        count.delete(src);
        if (sources.has(src)) unread.push(src);
      }
    }
  }
  return LocalSet.of(count.keys());
}
