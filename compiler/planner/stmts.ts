// Building statement objects. A plan holds a great many statements (hundreds of thousands for a
// large policy set), all kept until the code generator is done, so their size is most of what the
// garbage collector copies while planning. Each statement is built here, envelope and fields, by
// one nested object literal per statement type: the location fields (file, col, row) are in the
// literal (added afterwards to the call site's literal, they would go to a separate,
// out-of-object property array, one more object per statement), and V8 follows each literal's
// objects as one allocation site, which it learns to allocate as long-lived (measured: a little
// less garbage collection, and quicker walks over the plan afterwards).
//
// The order of the fields is the order of the keys of the plan's JSON and must not change. Each
// builder writes its statement's fields in the order the call sites have always written them;
// the few call sites with a different order pass a builder of their own (e.g. SET_ADD_VALUE_FIRST).
import type { StmtMap, StmtOf, StmtType } from "../ir/types.js";

/** Stmt fields without the location (the builder adds it). */
export type Fields<T extends StmtType> = Omit<StmtMap[T], "file" | "row" | "col">;

/** Builds a statement (`{type, stmt}`) from the call site's fields and the location. */
export type Build<T extends StmtType> = (f: Fields<T>, file: number, col: number, row: number) => StmtOf<T>;

/** The builder of each statement type, in the field order of (nearly) every call site. */
export const BUILD: { readonly [T in StmtType]: Build<T> } = {
  ArrayAppendStmt: (f, file, col, row) => ({ type: "ArrayAppendStmt", stmt: { value: f.value, array: f.array, file, col, row } }),
  AssignIntStmt: (f, file, col, row) => ({ type: "AssignIntStmt", stmt: { value: f.value, target: f.target, file, col, row } }),
  AssignVarOnceStmt: (f, file, col, row) => ({ type: "AssignVarOnceStmt", stmt: { target: f.target, source: f.source, file, col, row } }),
  AssignVarStmt: (f, file, col, row) => ({ type: "AssignVarStmt", stmt: { source: f.source, target: f.target, file, col, row } }),
  BlockStmt: (f, file, col, row) => ({ type: "BlockStmt", stmt: { blocks: f.blocks, file, col, row } }),
  BreakStmt: (f, file, col, row) => ({ type: "BreakStmt", stmt: { index: f.index, file, col, row } }),
  CallDynamicStmt: (f, file, col, row) => ({ type: "CallDynamicStmt", stmt: { args: f.args, path: f.path, result: f.result, file, col, row } }),
  CallStmt: (f, file, col, row) => ({ type: "CallStmt", stmt: { func: f.func, args: f.args, result: f.result, file, col, row } }),
  DotStmt: (f, file, col, row) => ({ type: "DotStmt", stmt: { source: f.source, key: f.key, target: f.target, file, col, row } }),
  EqualStmt: (f, file, col, row) => ({ type: "EqualStmt", stmt: { a: f.a, b: f.b, file, col, row } }),
  IsArrayStmt: (f, file, col, row) => ({ type: "IsArrayStmt", stmt: { source: f.source, file, col, row } }),
  IsDefinedStmt: (f, file, col, row) => ({ type: "IsDefinedStmt", stmt: { source: f.source, file, col, row } }),
  IsObjectStmt: (f, file, col, row) => ({ type: "IsObjectStmt", stmt: { source: f.source, file, col, row } }),
  IsSetStmt: (f, file, col, row) => ({ type: "IsSetStmt", stmt: { source: f.source, file, col, row } }),
  IsUndefinedStmt: (f, file, col, row) => ({ type: "IsUndefinedStmt", stmt: { source: f.source, file, col, row } }),
  LenStmt: (f, file, col, row) => ({ type: "LenStmt", stmt: { source: f.source, target: f.target, file, col, row } }),
  MakeArrayStmt: (f, file, col, row) => ({ type: "MakeArrayStmt", stmt: { capacity: f.capacity, target: f.target, file, col, row } }),
  MakeNullStmt: (f, file, col, row) => ({ type: "MakeNullStmt", stmt: { target: f.target, file, col, row } }),
  MakeNumberIntStmt: (f, file, col, row) => ({ type: "MakeNumberIntStmt", stmt: { value: f.value, target: f.target, file, col, row } }),
  // OPA's own planner writes the index as `Index` (Go's field name); older readers look for it
  MakeNumberRefStmt: (f, file, col, row) => ({ type: "MakeNumberRefStmt", stmt: { index: f.index, target: f.target, file, col, row, Index: f.index } }),
  MakeObjectStmt: (f, file, col, row) => ({ type: "MakeObjectStmt", stmt: { target: f.target, file, col, row } }),
  MakeSetStmt: (f, file, col, row) => ({ type: "MakeSetStmt", stmt: { target: f.target, file, col, row } }),
  NopStmt: (_f, file, col, row) => ({ type: "NopStmt", stmt: { file, col, row } }),
  NotEqualStmt: (f, file, col, row) => ({ type: "NotEqualStmt", stmt: { a: f.a, b: f.b, file, col, row } }),
  NotStmt: (f, file, col, row) => ({ type: "NotStmt", stmt: { block: f.block, file, col, row } }),
  ObjectInsertOnceStmt: (f, file, col, row) => ({ type: "ObjectInsertOnceStmt", stmt: { object: f.object, key: f.key, value: f.value, file, col, row } }),
  ObjectInsertStmt: (f, file, col, row) => ({ type: "ObjectInsertStmt", stmt: { object: f.object, key: f.key, value: f.value, file, col, row } }),
  ObjectMergeStmt: (f, file, col, row) => ({ type: "ObjectMergeStmt", stmt: { a: f.a, b: f.b, target: f.target, file, col, row } }),
  ResetLocalStmt: (f, file, col, row) => ({ type: "ResetLocalStmt", stmt: { target: f.target, file, col, row } }),
  ResultSetAddStmt: (f, file, col, row) => ({ type: "ResultSetAddStmt", stmt: { value: f.value, file, col, row } }),
  ReturnLocalStmt: (f, file, col, row) => ({ type: "ReturnLocalStmt", stmt: { source: f.source, file, col, row } }),
  ScanStmt: (f, file, col, row) => ({ type: "ScanStmt", stmt: { source: f.source, key: f.key, value: f.value, block: f.block, file, col, row } }),
  SetAddStmt: (f, file, col, row) => ({ type: "SetAddStmt", stmt: { set: f.set, value: f.value, file, col, row } }),
  WithStmt: (f, file, col, row) => ({ type: "WithStmt", stmt: { local: f.local, path: f.path, value: f.value, block: f.block, file, col, row } }),
};

// The call sites that write their fields in another order (collections and comprehensions built
// from terms, terms.ts).

export const SET_ADD_VALUE_FIRST: Build<"SetAddStmt"> = (f, file, col, row) => ({ type: "SetAddStmt", stmt: { value: f.value, set: f.set, file, col, row } });

export const OBJECT_INSERT_OBJECT_LAST: Build<"ObjectInsertStmt"> = (f, file, col, row) => ({
  type: "ObjectInsertStmt",
  stmt: { key: f.key, value: f.value, object: f.object, file, col, row },
});

export const OBJECT_INSERT_ONCE_OBJECT_LAST: Build<"ObjectInsertOnceStmt"> = (f, file, col, row) => ({
  type: "ObjectInsertOnceStmt",
  stmt: { key: f.key, value: f.value, object: f.object, file, col, row },
});
