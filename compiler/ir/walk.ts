// Walking the statements of a plan or func, with the facts consumers need: how many break levels
// a nested block adds (§3.2 of the IR reference: a top-level block gives 1, each BlockStmt child,
// NotStmt and WithStmt block 1 more, a ScanStmt block 2 more) and whether a statement runs inside
// a scan (it may run more than once); what statements read, assign and mutate.
import type { Block, CallDynamicStmt, Func, Operand, Policy, Stmt } from "./types.js";

/** Calls `f` on each block nested directly in a statement, with the break levels it adds. */
export function forEachChildBlock(s: Stmt, f: (block: Block, levels: number, index: number) => void): void {
  switch (s.type) {
    case "BlockStmt": {
      const bs = s.stmt.blocks;
      for (let i = 0; i < bs.length; i++) f(bs[i]!, 1, i);
      return;
    }
    case "NotStmt":
    case "WithStmt":
      f(s.stmt.block, 1, -1);
      return;
    case "ScanStmt":
      f(s.stmt.block, 2, -1);
      return;
    default:
      return;
  }
}

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
      default:
        break;
    }
  }
}

/** Every statement of the blocks, flattened (order: depth first). */
export function allStmts(blocks: readonly Block[]): Stmt[] {
  const out: Stmt[] = [];
  forEachStmt(blocks, (s) => out.push(s));
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

  /** Funcs whose path may equal the statement's path (same length, same constant segments), in
   * policy order. */
  candidates(stmt: CallDynamicStmt, policy: Policy): Func[] {
    return this.candidatesByIndex(stmt, policy).map(([, f]) => f);
  }

  /** The candidates with their index in the policy's funcs, in policy order. */
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
