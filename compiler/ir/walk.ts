// Walking the statements of a plan or func, with the facts every consumer needs: the JSON path
// of each statement (for error messages), how many break levels enclose it (§3.2 of the IR
// reference: a top-level block gives 1, each BlockStmt child, NotStmt and WithStmt block 1 more,
// a ScanStmt block 2 more) and whether it runs inside a scan (it may run more than once).
import type { Block, CallDynamicStmt, Func, Operand, Policy, Stmt } from "./types.js";

export interface StmtVisit {
  stmt: Stmt;
  /** JSON path of the statement envelope, e.g. `funcs.funcs[0].blocks[1].stmts[2]`. */
  path: string;
  /** Break levels enclosing the statement: a BreakStmt index must be below this. */
  levels: number;
  /** True when the statement is inside a ScanStmt body. */
  inScan: boolean;
}

/** The nested blocks of a statement, with the break levels each adds and their JSON paths. */
export function childBlocks(s: Stmt, path: string): Array<{ block: Block; levels: number; path: string }> {
  switch (s.type) {
    case "BlockStmt":
      return s.stmt.blocks.map((block, i) => ({ block, levels: 1, path: `${path}.stmt.blocks[${i}]` }));
    case "NotStmt":
    case "WithStmt":
      return [{ block: s.stmt.block, levels: 1, path: `${path}.stmt.block` }];
    case "ScanStmt":
      return [{ block: s.stmt.block, levels: 2, path: `${path}.stmt.block` }];
    default:
      return [];
  }
}

/** Visits every statement of top-level `blocks` (depth first, in order). */
export function walkBlocks(blocks: readonly Block[], path: string, visit: (v: StmtVisit) => void): void {
  blocks.forEach((b, i) => walkBlock(b, `${path}[${i}]`, 1, false, visit));
}

function walkBlock(block: Block, path: string, levels: number, inScan: boolean, visit: (v: StmtVisit) => void): void {
  block.stmts.forEach((stmt, i) => {
    const sp = `${path}.stmts[${i}]`;
    visit({ stmt, path: sp, levels, inScan });
    for (const child of childBlocks(stmt, sp)) {
      walkBlock(child.block, child.path, levels + child.levels, inScan || stmt.type === "ScanStmt", visit);
    }
  });
}

/** Every statement of the blocks, flattened (order: depth first). */
export function allStmts(blocks: readonly Block[]): Stmt[] {
  const out: Stmt[] = [];
  walkBlocks(blocks, "", (v) => out.push(v.stmt));
  return out;
}

/** The operands a statement reads (locals and constants), with their field names. */
export function operandsOf(s: Stmt): Array<[field: string, op: Operand]> {
  switch (s.type) {
    case "ArrayAppendStmt":
    case "SetAddStmt":
      return [["value", s.stmt.value]];
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
    case "LenStmt":
      return [["source", s.stmt.source]];
    case "CallStmt":
      return s.stmt.args.map((a, i) => [`args[${i}]`, a]);
    case "CallDynamicStmt":
      return s.stmt.path.map((a, i) => [`path[${i}]`, a]);
    case "DotStmt":
      return [
        ["source", s.stmt.source],
        ["key", s.stmt.key],
      ];
    case "EqualStmt":
    case "NotEqualStmt":
      return [
        ["a", s.stmt.a],
        ["b", s.stmt.b],
      ];
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      return [
        ["key", s.stmt.key],
        ["value", s.stmt.value],
      ];
    case "WithStmt":
      return [["value", s.stmt.value]];
    default:
      return [];
  }
}

/** The locals a statement assigns (not the collections it mutates in place). */
export function targetsOf(s: Stmt): number[] {
  switch (s.type) {
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "DotStmt":
    case "LenStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "MakeSetStmt":
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
      return [s.stmt.target];
    case "CallStmt":
    case "CallDynamicStmt":
      return [s.stmt.result];
    case "ScanStmt":
      return [s.stmt.key, s.stmt.value];
    case "WithStmt":
      return [s.stmt.local];
    case "ObjectInsertStmt":
    case "ObjectInsertOnceStmt":
      // objectInsert may turn a plain object into a RegoObject: the local is reassigned.
      return [s.stmt.object];
    default:
      return [];
  }
}

/** The locals whose collection a statement mutates in place. */
export function mutatedOf(s: Stmt): number[] {
  switch (s.type) {
    case "ArrayAppendStmt":
      return [s.stmt.array];
    case "SetAddStmt":
      return [s.stmt.set];
    case "ObjectInsertStmt":
    case "ObjectInsertOnceStmt":
      return [s.stmt.object];
    default:
      return [];
  }
}

/** Funcs whose path may equal the CallDynamicStmt's path (same length, same constant segments). */
export function dynamicCandidates(stmt: CallDynamicStmt, policy: Policy, funcsByName: ReadonlyMap<string, Func>): Func[] {
  const strings = policy.static.strings;
  const out: Func[] = [];
  for (const f of funcsByName.values()) {
    if (f.params.length !== 2 || f.path.length !== stmt.path.length) continue;
    const ok = stmt.path.every((op, i) => {
      if (op.type === "string_index") return strings[op.value]!.value === f.path[i];
      return op.type === "local";
    });
    if (ok) out.push(f);
  }
  return out;
}


/** Every local a statement names (read or written), nested blocks excluded. */
export function localsOf(s: Stmt): number[] {
  const out: number[] = [];
  for (const [, op] of operandsOf(s)) if (op.type === "local") out.push(op.value);
  out.push(...targetsOf(s), ...mutatedOf(s));
  switch (s.type) {
    case "CallDynamicStmt":
      out.push(...s.stmt.args);
      break;
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "ReturnLocalStmt":
    case "ScanStmt":
      out.push(s.stmt.source);
      break;
    case "ObjectMergeStmt":
      out.push(s.stmt.a, s.stmt.b);
      break;
    case "ResultSetAddStmt":
      out.push(s.stmt.value);
      break;
    default:
      break;
  }
  return out;
}
