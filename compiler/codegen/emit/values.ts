// Statements that read, compare and assign values: DotStmt, LenStmt, EqualStmt, NotEqualStmt,
// the type checks, IsDefined/IsUndefined, AssignVar[Once], AssignInt, ResetLocal and the number
// and null constructors. A statement that is "undefined" jumps out of the current block.
import type { IncrementStmt, StmtMap, Operand, Stmt } from "../../ir/types.js";
import { forEachWrite } from "../../ir/walk.js";
import { exactDouble } from "../analysis/scalars.js";
import { _, lit, type Code } from "../code.js";
import type { Emit, FuncEmitter } from "./context.js";
import { assertNever } from "../../../runtime/errors.js";

type E<T extends keyof StmtMap> = Emit<StmtMap[T]>;

export const NO_LOCALS: readonly number[] = [];

/** The locals an operand reads (for FuncEmitter.write). */
export function sourceLocals(op: Operand): readonly number[] {
  return op.type === "local" ? [op.value] : NO_LOCALS;
}

/** The constant value of a non-local operand (strings resolved), for compile-time comparisons. */
function constant(fe: FuncEmitter, op: Operand): string | boolean | undefined {
  if (op.type === "bool") return op.value;
  if (op.type === "string_index") return fe.mod.string(op.value);
  return fe.known.get(op.value);
}

export const dotStmt: E<"DotStmt"> = (fe, s) => {
  const t = fe.local(s.target);
  if (s.source.type !== "local") {
    fe.out.line`${t} = undefined;`;
    return fe.out.codeLast(fe.jump(0));
  }
  return fe.out.line`${t} = ${lookup(fe, s, s.source.value)}; if (${t} === undefined) ${fe.jump(0)}`;
};

/** A DotStmt alone in its block: failing leaves the block where it ends anyway, so no test. */
export const soleDotStmt: E<"DotStmt"> = (fe, s) => fe.out.line`${fe.local(s.target)} = ${s.source.type === "local" ? lookup(fe, s, s.source.value) : _`undefined`};`;

/** The value a DotStmt reads (undefined when the lookup fails). */
function lookup(fe: FuncEmitter, s: StmtMap["DotStmt"], source: number): Code {
  const src = fe.local(source);
  // (local 0 is input, in plans and funcs alike)
  if (s.key.type === "string_index") {
    // In a loop that runs only when a guard holds (a later rule body, run when the earlier ones
    // did not decide), the read is written in place: V8 leaves out of line the calls of code its
    // profile rarely reached (the scan's array view is in place there too, emit/blocks.ts).
    // Elsewhere the reader's call is inlined, and reads faster in a hot loop.
    if (fe.scans > 0 && fe.guards > 0 && source !== 0) return fe.mod.fieldRead(s.key.value, src);
    return _`${fe.mod.fieldReader(s.key.value, source === 0)}(${src})`;
  }
  return _`${fe.mod.rt(fe.dataDots.has(s) ? "dotData" : "dot")}(${src}, ${fe.operand(s.key)})`;
}

export const lenStmt: E<"LenStmt"> = (fe, s) => fe.write(s.target, sourceLocals(s.source), (t) => _`${t} = ${fe.mod.rt("len")}(${fe.operand(s.source)});`);

/** Whether `===` compares the operand with anything exactly as Rego's equality does: a string or
 * boolean constant, or a local holding only exact scalars (analysis/scalars.ts). */
function exact(fe: FuncEmitter, op: Operand): boolean {
  return op.type !== "local" || fe.scalars.exact(op.value);
}

function equalityTest(fe: FuncEmitter, a: Operand, b: Operand, negate: boolean): boolean {
  const ca = constant(fe, a);
  const cb = constant(fe, b);
  if (ca !== undefined && cb !== undefined) {
    // Both constant: decided now.
    return (ca === cb) !== negate ? false : fe.out.codeLast(fe.jump(0));
  }
  if (a.type === "local" && b.type === "local" && a.value === b.value) return negate ? fe.out.codeLast(fe.jump(0)) : false;
  if (exact(fe, a) || exact(fe, b)) {
    // An exact scalar equals exactly what is `===` to it: strict (in)equality. The local is
    // widened to V: TypeScript may have narrowed it (`l4 = true;`, an earlier comparison) to a
    // type that does not overlap the other side.
    const [x, y] = ca !== undefined ? [b, a] : [a, b];
    return fe.out.line`if ((${fe.mod.cast(fe.operand(x), fe.mod.fixed.V)}) ${negate ? _`===` : _`!==`} ${fe.operand(y)}) ${fe.jump(0)}`;
  }
  // Two locals. A string equals only itself: that case is `===` here, and equal is called for the
  // others. A call the code never makes is left out of the optimised code (its site, here, has no
  // calls recorded), where equal's own call for structures would stay in a loop that inlines it.
  // (The other side widened to V, as above.)
  const equal = fe.mod.rt("equal");
  const [x, y] = [fe.operand(a), fe.operand(b)];
  const wide = fe.mod.cast(y, fe.mod.fixed.V);
  if (negate) return fe.out.line`if (typeof ${x} === "string" ? ${x} === (${wide}) : ${equal}(${x}, ${y})) ${fe.jump(0)}`;
  return fe.out.line`if (typeof ${x} === "string" ? ${x} !== (${wide}) : !${equal}(${x}, ${y})) ${fe.jump(0)}`;
}

export const equalStmt: E<"EqualStmt"> = (fe, s) => equalityTest(fe, s.a, s.b, false);
export const notEqualStmt: E<"NotEqualStmt"> = (fe, s) => equalityTest(fe, s.a, s.b, true);

function typeTest(fe: FuncEmitter, op: Operand, test: (v: Code) => Code): boolean {
  if (op.type !== "local") return fe.out.codeLast(fe.jump(0)); // constants are never collections
  return fe.out.line`if (!${test(fe.local(op.value))}) ${fe.jump(0)}`;
}

export const isArrayStmt: E<"IsArrayStmt"> = (fe, s) => typeTest(fe, s.source, (v) => _`Array.isArray(${v})`);
export const isObjectStmt: E<"IsObjectStmt"> = (fe, s) => typeTest(fe, s.source, (v) => _`${fe.mod.rt("isObjectValue")}(${v})`);
export const isSetStmt: E<"IsSetStmt"> = (fe, s) => typeTest(fe, s.source, (v) => _`${fe.mod.rt("isSetValue")}(${v})`);

export const isDefinedStmt: E<"IsDefinedStmt"> = (fe, s) => fe.out.line`if (${fe.local(s.source)} === undefined) ${fe.jump(0)}`;
export const isUndefinedStmt: E<"IsUndefinedStmt"> = (fe, s) => fe.out.line`if (${fe.local(s.source)} !== undefined) ${fe.jump(0)}`;

export const assignVarStmt: E<"AssignVarStmt"> = (fe, s) => fe.write(s.target, sourceLocals(s.source), (t) => _`${t} = ${fe.operand(s.source)};`);

/** Whether, once a statement has run, the local is defined: it tested it, or set it to a constant. */
function definesLocal(s: Stmt, local: number): boolean {
  switch (s.type) {
    case "IsDefinedStmt":
      return s.stmt.source === local;
    case "AssignIntStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeNullStmt":
      return s.stmt.target === local;
    case "AssignVarStmt":
      return s.stmt.target === local && s.stmt.source.type !== "local";
    case "ArrayAppendStmt":
    case "AssignVarOnceStmt":
    case "BlockStmt":
    case "BreakStmt":
    case "CallDynamicStmt":
    case "CallStmt":
    case "DotStmt":
    case "EqualStmt":
    case "IsArrayStmt":
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
      return false;
    default:
      assertNever(s);
  }
}

export const assignVarOnceStmt: E<"AssignVarOnceStmt"> = (fe, s) => {
  const t = fe.local(s.target);
  // No conflict is possible when the target is undefined here (the statement before tested it),
  // or when the target only ever holds one constant and the source is defined (a constant, or a
  // local the statement before tested or set): a plain assignment.
  const prev = fe.previous;
  const src = s.source;
  const targetUndefined = prev?.type === "IsUndefinedStmt" && prev.stmt.source === s.target;
  const sourceDefined = src.type !== "local" || (prev !== undefined && definesLocal(prev, src.value));
  if (targetUndefined || (sourceDefined && fe.scalars.constant(s.target) !== undefined)) {
    return fe.out.line`${t} = ${fe.operand(s.source)};`;
  }
  const site = fe.mod.conflictSite(fe.isFunction ? "function" : "rule", s);
  return fe.out.line`${t} = ${fe.mod.rt("assignOnce")}(${t}, ${fe.operand(s.source)}, ${site});`;
};

// (Written only if something reads the local: FuncEmitter.write.)
export const incrementStmt: Emit<IncrementStmt> = (fe, s) => {
  const t = fe.local(s.target);
  return fe.out.line`${t} = (${fe.mod.cast(t, _`number`)}) + 1;`;
};
export const assignIntStmt: E<"AssignIntStmt"> = (fe, s) => fe.write(s.target, NO_LOCALS, (t) => _`${t} = ${s.value};`);
export const makeNumberIntStmt: E<"MakeNumberIntStmt"> = (fe, s) => fe.write(s.target, NO_LOCALS, (t) => _`${t} = ${s.value};`);
export const makeNumberRefStmt: E<"MakeNumberRefStmt"> = (fe, s) =>
  fe.write(s.target, NO_LOCALS, (t) => _`${t} = ${fe.mod.number(fe.mod.string(s.index))};`);
export const makeNullStmt: E<"MakeNullStmt"> = (fe, s) => fe.write(s.target, NO_LOCALS, (t) => _`${t} = null;`);
/** After a statement of a list: the locals it writes lose their known constant; a number or null
 * constructor makes its target's value known, for the operands that read it next (FuncEmitter.operand). */
export function knownConstant(fe: FuncEmitter, s: Stmt): void {
  forEachWrite(s, (l) => (fe.constants.delete(l), fe.known.delete(l)));
  switch (s.type) {
    case "AssignVarStmt": {
      const c = s.stmt.source.type === "local" ? undefined : constant(fe, s.stmt.source);
      return void (c !== undefined && fe.known.set(s.stmt.target, c));
    }
    case "AssignIntStmt":
    case "MakeNumberIntStmt":
      return void fe.constants.set(s.stmt.target, _`${s.stmt.value}`);
    case "MakeNumberRefStmt": {
      // (A number no double holds is a module constant, declared only if something reads it.)
      const d = exactDouble(fe.mod.string(s.stmt.index));
      return void (d !== undefined && fe.constants.set(s.stmt.target, lit(d)));
    }
    case "MakeNullStmt":
      return void fe.constants.set(s.stmt.target, _`null`);
    case "ArrayAppendStmt":
    case "AssignVarOnceStmt":
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
      return;
    default:
      assertNever(s);
  }
}

export const resetLocalStmt: E<"ResetLocalStmt"> = (fe, s) => fe.write(s.target, NO_LOCALS, (t) => _`${t} = undefined;`);
export const nopStmt: E<"NopStmt"> = () => false;
