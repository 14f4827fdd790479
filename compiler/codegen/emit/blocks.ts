// Control flow (§3 of the IR reference): every IR block is a JS block with a label, emitted only
// when something jumps to it; BreakStmt k is `break` to the label k levels up.
//   BlockStmt  each child block gets 1 level (the BlockStmt itself none)
//   NotStmt    1 level; falling off its block's end makes the NotStmt undefined
//   WithStmt   1 level, aliasing the enclosing block (an undefined with-block makes the WithStmt,
//              hence the enclosing block, undefined); the local is replaced (copy-on-write upsert),
//              the memo frame swapped for a fresh one, and both restored in `finally`
//   ScanStmt   2 levels: `continue` (this iteration) and `break` (the whole loop) of a labelled
//              `for` over the source's scan view by index (an array is its own view); scans never
//              fail, statements after them still run
//   IndexStmt  (the optimiser's) a `switch` running one case's blocks, each as a BlockStmt child
//              (emit/ruleIndex.ts)
import type { AnyStmtMap, AnyStmtType, Block, Stmt, StmtOf } from "../../ir/types.js";
import { _, join, lit, type Name } from "../code.js";
import { Level, type Emit, type FuncEmitter } from "./context.js";
import * as calls from "./calls.js";
import * as collections from "./collections.js";
import { literalRun, type EmitOne } from "./literals.js";
import { indexStmt } from "./ruleIndex.js";
import * as values from "./values.js";

type E<T extends AnyStmtType> = Emit<AnyStmtMap[T]>;

/** Emits statements (from `from` on) until one that never falls through; true if that happened.
 * `continued`: the statements run right after the ones before (a with, not or scan body), not as
 * a block of their own (for coverage's runs of rows). */
export function emitStmts(fe: FuncEmitter, stmts: readonly Stmt[], from = 0, continued = false): boolean {
  const outer = fe.coverRun;
  // A statement standing in a literal run (emit/literals.ts): never nested, never the list's last.
  const emitOne: EmitOne = (j, end) => {
    const s = stmts[j]!;
    const n = literalRun(fe, stmts, j, end, emitOne);
    if (n > 0) return n;
    (EMITTERS[s.type] as E<AnyStmtType>)(fe, s.stmt);
    values.knownConstant(fe, s);
    return 1;
  };
  if (!continued) fe.coverRun = { file: -1, row: -1 };
  try {
    // The constants known in the list (FuncEmitter.constants) hold from their statement to the next
    // write of their local or the next nested construct (which may loop, or be left by a break).
    fe.forgetConstants();
    for (let i = from; i < stmts.length; i++) {
      const s = stmts[i]!;
      fe.previous = i > 0 ? stmts[i - 1] : undefined;
      if (fe.mod.coverage) cover(fe, s);
      else if (s.type === "MakeArrayStmt" || s.type === "MakeObjectStmt") {
        // (a run's statements report no rows of their own: not with coverage on)
        const n = literalRun(fe, stmts, i, stmts.length, emitOne);
        if (n > 0) {
          i += n - 1;
          continue;
        }
      }
      if (s.type === "CallStmt" && !fe.mod.coverage && calls.operatorTest(fe, s.stmt, stmts[i + 1])) {
        values.knownConstant(fe, s);
        i++;
        continue;
      }
      const nested = NESTED.has(s.type);
      if (nested) fe.forgetConstants();
      if ((EMITTERS[s.type] as E<AnyStmtType>)(fe, s.stmt)) return true;
      if (nested) fe.forgetConstants();
      else values.knownConstant(fe, s);
    }
    return false;
  } finally {
    fe.coverRun = outer;
  }
}

/** A row is reached when its first statement in a run runs. A func's opening ResetLocalStmt and
 * closing ReturnLocalStmt carry the rule head's row, which counts only once a body succeeded; so
 * do the statements a block opens with when they are a head's (argument and result assignments):
 * those are marked `opening`, for the report to tell (the runtime's `cover`). */
function cover(fe: FuncEmitter, s: Stmt): void {
  const { file, row } = s.stmt;
  if (row <= 0 || s.type === "ResetLocalStmt" || s.type === "ReturnLocalStmt" || (row === fe.coverRun.row && file === fe.coverRun.file)) return;
  const opening = fe.coverRun.row === -1;
  fe.coverRun = { file, row };
  fe.out.line`${fe.mod.rt("cover")}(${lit(file)}, ${lit(row)}${opening ? _`, true` : _``});`;
}

const NESTED = new Set<AnyStmtType>(["BlockStmt", "NotStmt", "WithStmt", "ScanStmt", "IndexStmt"]);

/** A block with its own label as level 0 (top-level blocks, BlockStmt children); true if its end
 * is never reached. */
export function labelledBlock(fe: FuncEmitter, block: Block): boolean {
  const first = block.stmts[0];
  if (block.stmts.length > 1 && (first?.type === "IsDefinedStmt" || first?.type === "IsUndefinedStmt")) return guardedBlock(fe, block, first);
  if (block.stmts.length === 1 && first?.type === "DotStmt" && !fe.mod.coverage) return values.soleDotStmt(fe, first.stmt);
  const label = fe.label("b");
  fe.out.open(null, label);
  fe.enter(new Level(label, "break"));
  const terminal = emitStmts(fe, block.stmts);
  fe.exit(1);
  fe.out.close();
  // The block's end is reached if its body falls through or anything breaks to it.
  return terminal && !label.used;
}

// The blocks run in turn: one whose end is never reached ends the BlockStmt (the rest would be
// unreachable code).
/** A block that starts by testing a local (defined, or undefined) is `if (test) { ... }` (one line
 * when the rest is: a rule's result, a default), labelled if the rest breaks out of it. */
function guardedBlock(fe: FuncEmitter, block: Block, guard: StmtOf<"IsDefinedStmt" | "IsUndefinedStmt">): boolean {
  const label = fe.label("b");
  const x = fe.local(guard.stmt.source);
  fe.out.openInline(guard.type === "IsDefinedStmt" ? _`if (${x} !== undefined)` : _`if (${x} === undefined)`, label);
  fe.enter(new Level(label, "break"));
  fe.guards++;
  emitStmts(fe, block.stmts, 1);
  fe.guards--;
  fe.exit(1);
  fe.out.close();
  return false; // the test may fail: the end is reached
}

const blockStmt: E<"BlockStmt"> = (fe, s) => {
  for (const b of s.blocks) if (labelledBlock(fe, b)) return true;
  return false;
};

const breakStmt: E<"BreakStmt"> = (fe, s) => fe.out.codeLast(fe.jump(s.index));

const notStmt: E<"NotStmt"> = (fe, s) => {
  const label = fe.label("n");
  fe.out.open(null, label);
  fe.enter(new Level(label, "break"));
  const terminal = emitStmts(fe, s.block.stmts, 0, true);
  fe.exit(1);
  // Completing the negated block makes the NotStmt undefined: leave the enclosing block.
  if (!terminal) fe.out.code(fe.jump(0));
  fe.out.close();
  // Execution continues after the NotStmt only when its block was left through its own label.
  return !label.used;
};

const scanStmt: E<"ScanStmt"> = (fe, s) => {
  const loop = fe.label("s");
  const x = fe.scope.name("x");
  const v = fe.scope.name("v");
  const a = fe.scope.name("ar");
  const i = fe.scope.name("i");
  const mod = fe.mod;
  loop.used = true; // the loop is always written with its label: clearer than a bare continue
  // The source is held before the loop (its local may be reassigned in the body); the view and the
  // index are all the state a scan has. In a guarded block (see emit/values.ts, lookup) an array
  // is its own view tested in place, without a call V8 may leave out of line. Whether the source
  // is its own view (an array) is a constant of the scan, `ar`, declared only when an element's key
  // or value is read (known once the body is settled): tested in the loop, it costs a branch, where
  // `x === v` would test both for objects at each element.
  const view = fe.guards > 0 ? _`Array.isArray(${x}) ? ${x} : ${mod.rt("scanView")}(${x})` : _`${mod.rt("scanView")}(${x})`;
  const held = _`const ${x} = ${fe.local(s.source)}, ${v} = ${view}`;
  const heldAt = fe.out.reserve();
  fe.out.fill(heldAt, _`${held};`);
  // (The source is widened to V: TypeScript may have narrowed it to a kind that is no array.)
  const isArray = (): Name => {
    fe.out.fill(heldAt, _`${held}, ${a} = ${mod.typedAs(x, mod.fixed.V)} === ${v};`);
    return a;
  };
  // (arrays the body only appends to are sized for the loop: emit/collections.ts)
  const sized = collections.reservedArrays(fe, s);
  const counters = collections.reserveCounters(fe, sized, _`${v}.length`);
  fe.out.open(_`for (let ${i} = 0${counters}; ${i} < ${v}.length; )`, loop);
  // The loop counts towards the evaluation's deadline (runtime/eval/deadline.ts) in stretches of
  // TICKS iterations: tickTo is called once a stretch, none inside one, so that nothing the body
  // loaded is lost to a call that may run in the middle of it. The body's `continue` is the
  // stretch's; its `break` leaves the scan.
  const stretch = fe.label("st");
  const end = fe.scope.name("e");
  fe.out.open(_`for (const ${end} = ${mod.rt("tickTo")}(${fe.state}, ${i}, ${v}.length); ${i} < ${end}; ${i}++)`, stretch);
  fe.write(s.key, values.NO_LOCALS, (key) => _`${key} = ${isArray()} ? ${i} : ${mod.rt("scanKey")}(${x}, ${v}, ${i});`);
  // An array's element is read here, so that the load keeps an inline cache of this loop's own
  // (scanValue's load sees every collection in the process).
  fe.write(s.value, values.NO_LOCALS, (value) => _`${value} = ${isArray()} ? ${mod.cast(_`${v}[${i}]`, mod.fixed.V)} : ${mod.rt("scanValue")}(${x}, ${v}, ${i});`);
  fe.enter(new Level(loop, "break"), new Level(stretch, "continue"));
  fe.scans++;
  for (const [array, n] of sized) fe.reserved.set(array, n);
  emitStmts(fe, s.block.stmts, 0, true);
  for (const [array] of sized) fe.reserved.delete(array);
  fe.scans--;
  fe.exit(2);
  fe.out.close();
  collections.trimReserved(fe, sized, _`${i} === ${v}.length`);
  fe.out.close();
  return false;
};

const withStmt: E<"WithStmt"> = (fe, s) => {
  const l = fe.local(s.local);
  const saved = fe.scope.name("w");
  const memo = fe.scope.name("m");
  const $ = fe.state;
  const value = fe.operand(s.value);
  const V = fe.mod.fixed.V;
  fe.out.line`const ${fe.mod.annotated(saved, V)} = ${l}, ${fe.mod.annotated(memo, fe.mod.rt("MemoFrame"))} = ${$}.pushMemo();`;
  if (s.path.length === 0) fe.out.line`${l} = ${value};`;
  else fe.out.line`${l} = ${fe.mod.rt("upsert")}(${l}, [${join(s.path.map((p) => fe.mod.stringLiteral(p)))}], ${value});`;
  fe.out.open(_`try`, null, _` finally { ${l} = ${saved}; ${$}.popMemo(${memo}); }`);
  // Level 0 inside the with-block is the enclosing block's level 0: if the block is undefined,
  // so is the WithStmt, which ends the enclosing block.
  fe.enter(fe.level(0));
  const terminal = emitStmts(fe, s.block.stmts, 0, true);
  fe.exit(1);
  fe.out.close();
  return terminal;
};

const returnLocalStmt: E<"ReturnLocalStmt"> = (fe, s) => fe.out.codeLast(fe.returnValue(fe.local(s.source)));

const EMITTERS: { [T in AnyStmtType]: E<T> } = {
  // control flow
  BlockStmt: blockStmt,
  IndexStmt: indexStmt,
  IncrementStmt: values.incrementStmt,
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
  GroupAddStmt: collections.groupAddStmt,
  GroupsStmt: collections.groupsStmt,
  ObjectInsertOnceStmt: collections.objectInsertOnceStmt,
  ObjectMergeStmt: collections.objectMergeStmt,
  ResultSetAddStmt: collections.resultSetAddStmt,
};
