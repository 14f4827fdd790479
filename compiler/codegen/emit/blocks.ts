// Control flow (§3 of the IR reference): every IR block is a JS block with a label, emitted only
// when something jumps to it; BreakStmt k is `break` to the label k levels up.
//   BlockStmt  each child block gets 1 level (the BlockStmt itself none)
//   NotStmt    1 level; falling off its block's end makes the NotStmt undefined
//   WithStmt   1 level, aliasing the enclosing block (an undefined with-block makes the WithStmt,
//              hence the enclosing block, undefined); the local is replaced (copy-on-write upsert),
//              the memo frame swapped for a fresh one, and both restored in `finally`
//   ScanStmt   2 levels: `continue` (this iteration) and `break` (the whole loop) of a labelled
//              `while` over a scan cursor; scans never fail, statements after them still run
import type { Block, Stmt, StmtMap, StmtType } from "../../ir/types.js";
import { _, braced, join, lit, type Node } from "../code.js";
import { done, type Emitted, type FuncEmitter, type Level } from "./context.js";
import * as calls from "./calls.js";
import * as collections from "./collections.js";
import * as values from "./values.js";

type E<T extends StmtType> = (fe: FuncEmitter, s: StmtMap[T]) => Emitted;

/** Emits statements until one that never falls through. */
export function emitStmts(fe: FuncEmitter, stmts: readonly Stmt[]): Emitted {
  const nodes: Node[] = [];
  for (const s of stmts) {
    const e = (EMITTERS[s.type] as E<StmtType>)(fe, s.stmt);
    nodes.push(e.node);
    if (e.terminal) return done(nodes, true);
  }
  return done(nodes);
}

/** A block with its own label as level 0 (top-level blocks, BlockStmt children). */
export function labelledBlock(fe: FuncEmitter, block: Block): Emitted {
  const label = fe.label("b");
  const inner = fe.within([{ label, verb: "break" }], () => emitStmts(fe, block.stmts));
  // The block's end is reached if its body falls through or anything breaks to it.
  return done(braced(null, label, [inner.node]), inner.terminal && !label.used);
}

const blockStmt: E<"BlockStmt"> = (fe, s) => {
  const nodes: Node[] = [];
  for (const b of s.blocks) nodes.push(labelledBlock(fe, b).node);
  return done(nodes);
};

const breakStmt: E<"BreakStmt"> = (fe, s) => done(fe.jump(s.index), true);

const notStmt: E<"NotStmt"> = (fe, s) => {
  const label = fe.label("n");
  const inner = fe.within([{ label, verb: "break" }], () => emitStmts(fe, s.block.stmts));
  const body: Node[] = [inner.node];
  // Completing the negated block makes the NotStmt undefined: leave the enclosing block.
  if (!inner.terminal) body.push(fe.jump(0));
  // Execution continues after the NotStmt only when its block was left through its own label.
  return done(braced(null, label, body), !label.used);
};

const scanStmt: E<"ScanStmt"> = (fe, s) => {
  const loop = fe.label("s");
  const it = fe.scope.name("i");
  const levels: Level[] = [
    { label: loop, verb: "break" },
    { label: loop, verb: "continue" },
  ];
  const inner = fe.within(levels, () => emitStmts(fe, s.block.stmts));
  loop.used = true; // the loop is always written with its label: clearer than a bare continue
  return done([
    _`const ${it} = ${fe.mod.rt("scan")}(${fe.local(s.source)});`,
    braced(_`while (${it}.next())`, loop, [_`${fe.local(s.key)} = ${it}.key;`, _`${fe.local(s.value)} = ${it}.value;`, inner.node]),
  ]);
};

const withStmt: E<"WithStmt"> = (fe, s) => {
  const l = fe.local(s.local);
  const saved = fe.scope.name("w");
  const memo = fe.scope.name("m");
  const $ = fe.state;
  const value = fe.operand(s.value);
  const replace =
    s.path.length === 0
      ? _`${l} = ${value};`
      : _`${l} = ${fe.mod.rt("upsert")}(${l}, [${join(s.path.map((p) => lit(fe.mod.string(p))))}], ${value});`;
  // Level 0 inside the with-block is the enclosing block's level 0: if the block is undefined,
  // so is the WithStmt, which ends the enclosing block.
  const inner = fe.within([fe.level(0)], () => emitStmts(fe, s.block.stmts));
  const V = fe.mod.fixed.V;
  return done(
    [
      _`const ${fe.mod.annotated(saved, V)} = ${l}, ${fe.mod.annotated(memo, fe.mod.rt("MemoFrame"))} = ${$}.pushMemo();`,
      replace,
      braced(_`try`, null, [inner.node], _` finally { ${l} = ${saved}; ${$}.popMemo(${memo}); }`),
    ],
    inner.terminal,
  );
};

const returnLocalStmt: E<"ReturnLocalStmt"> = (fe, s) => done(fe.returnValue(fe.local(s.source)), true);

const EMITTERS: { [T in StmtType]: E<T> } = {
  // control flow
  BlockStmt: blockStmt,
  BreakStmt: breakStmt,
  NotStmt: notStmt,
  ScanStmt: scanStmt,
  WithStmt: withStmt,
  ReturnLocalStmt: returnLocalStmt,
  NopStmt: values.nopStmt,
  // calls
  CallStmt: calls.callStmt,
  CallDynamicStmt: calls.callDynamicStmt,
  // lookups, comparisons, type checks
  DotStmt: values.dotStmt,
  LenStmt: values.lenStmt,
  EqualStmt: values.equalStmt,
  NotEqualStmt: values.notEqualStmt,
  IsArrayStmt: values.isArrayStmt,
  IsObjectStmt: values.isObjectStmt,
  IsSetStmt: values.isSetStmt,
  IsDefinedStmt: values.isDefinedStmt,
  IsUndefinedStmt: values.isUndefinedStmt,
  // assignment
  AssignVarStmt: values.assignVarStmt,
  AssignVarOnceStmt: values.assignVarOnceStmt,
  AssignIntStmt: values.assignIntStmt,
  ResetLocalStmt: values.resetLocalStmt,
  MakeNullStmt: values.makeNullStmt,
  MakeNumberIntStmt: values.makeNumberIntStmt,
  MakeNumberRefStmt: values.makeNumberRefStmt,
  // collections
  MakeArrayStmt: collections.makeArrayStmt,
  MakeObjectStmt: collections.makeObjectStmt,
  MakeSetStmt: collections.makeSetStmt,
  ArrayAppendStmt: collections.arrayAppendStmt,
  SetAddStmt: collections.setAddStmt,
  ObjectInsertStmt: collections.objectInsertStmt,
  ObjectInsertOnceStmt: collections.objectInsertOnceStmt,
  ObjectMergeStmt: collections.objectMergeStmt,
  ResultSetAddStmt: collections.resultSetAddStmt,
};
