// Building statement objects. A plan holds a great many statements (hundreds of thousands for a
// large policy set), all kept until the code generator is done, so their size is most of what the
// garbage collector copies while planning. Each statement object is built here with its location
// fields (file, col, row) in the object literal: added afterwards to the call site's literal, they
// would go to a separate, out-of-object property array, one more object per statement.
//
// The order of the fields is the order of the keys of the plan's JSON and must not change. Each
// builder writes its statement's fields in the order the call sites have always written them;
// the few call sites with a different order pass a builder of their own (e.g. SET_ADD_VALUE_FIRST).
import type { StmtMap, StmtType } from "../ir/types.js";

/** Stmt fields without the location (the builder adds it). */
export type Fields<T extends StmtType> = Omit<StmtMap[T], "file" | "row" | "col">;

/** Builds a statement's fields object from the call site's fields and the location. */
export type Build<T extends StmtType> = (f: Fields<T>, file: number, col: number, row: number) => StmtMap[T];

/** The builder of each statement type, in the field order of (nearly) every call site. */
export const BUILD: { readonly [T in StmtType]: Build<T> } = {
  ArrayAppendStmt: (f, file, col, row) => ({ value: f.value, array: f.array, file, col, row }),
  AssignIntStmt: (f, file, col, row) => ({ value: f.value, target: f.target, file, col, row }),
  AssignVarOnceStmt: (f, file, col, row) => ({ target: f.target, source: f.source, file, col, row }),
  AssignVarStmt: (f, file, col, row) => ({ source: f.source, target: f.target, file, col, row }),
  BlockStmt: (f, file, col, row) => ({ blocks: f.blocks, file, col, row }),
  BreakStmt: (f, file, col, row) => ({ index: f.index, file, col, row }),
  CallDynamicStmt: (f, file, col, row) => ({ args: f.args, path: f.path, result: f.result, file, col, row }),
  CallStmt: (f, file, col, row) => ({ func: f.func, args: f.args, result: f.result, file, col, row }),
  DotStmt: (f, file, col, row) => ({ source: f.source, key: f.key, target: f.target, file, col, row }),
  EqualStmt: (f, file, col, row) => ({ a: f.a, b: f.b, file, col, row }),
  IsArrayStmt: (f, file, col, row) => ({ source: f.source, file, col, row }),
  IsDefinedStmt: (f, file, col, row) => ({ source: f.source, file, col, row }),
  IsObjectStmt: (f, file, col, row) => ({ source: f.source, file, col, row }),
  IsSetStmt: (f, file, col, row) => ({ source: f.source, file, col, row }),
  IsUndefinedStmt: (f, file, col, row) => ({ source: f.source, file, col, row }),
  LenStmt: (f, file, col, row) => ({ source: f.source, target: f.target, file, col, row }),
  MakeArrayStmt: (f, file, col, row) => ({ capacity: f.capacity, target: f.target, file, col, row }),
  MakeNullStmt: (f, file, col, row) => ({ target: f.target, file, col, row }),
  MakeNumberIntStmt: (f, file, col, row) => ({ value: f.value, target: f.target, file, col, row }),
  // OPA's own planner writes the index as `Index` (Go's field name); older readers look for it
  MakeNumberRefStmt: (f, file, col, row) => ({ index: f.index, target: f.target, file, col, row, Index: f.index }),
  MakeObjectStmt: (f, file, col, row) => ({ target: f.target, file, col, row }),
  MakeSetStmt: (f, file, col, row) => ({ target: f.target, file, col, row }),
  NopStmt: (_f, file, col, row) => ({ file, col, row }),
  NotEqualStmt: (f, file, col, row) => ({ a: f.a, b: f.b, file, col, row }),
  NotStmt: (f, file, col, row) => ({ block: f.block, file, col, row }),
  ObjectInsertOnceStmt: (f, file, col, row) => ({ object: f.object, key: f.key, value: f.value, file, col, row }),
  ObjectInsertStmt: (f, file, col, row) => ({ object: f.object, key: f.key, value: f.value, file, col, row }),
  ObjectMergeStmt: (f, file, col, row) => ({ a: f.a, b: f.b, target: f.target, file, col, row }),
  ResetLocalStmt: (f, file, col, row) => ({ target: f.target, file, col, row }),
  ResultSetAddStmt: (f, file, col, row) => ({ value: f.value, file, col, row }),
  ReturnLocalStmt: (f, file, col, row) => ({ source: f.source, file, col, row }),
  ScanStmt: (f, file, col, row) => ({ source: f.source, key: f.key, value: f.value, block: f.block, file, col, row }),
  SetAddStmt: (f, file, col, row) => ({ set: f.set, value: f.value, file, col, row }),
  WithStmt: (f, file, col, row) => ({ local: f.local, path: f.path, value: f.value, block: f.block, file, col, row }),
};

// The call sites that write their fields in another order (collections and comprehensions built
// from terms, terms.ts).

export const SET_ADD_VALUE_FIRST: Build<"SetAddStmt"> = (f, file, col, row) => ({ value: f.value, set: f.set, file, col, row });

export const OBJECT_INSERT_OBJECT_LAST: Build<"ObjectInsertStmt"> = (f, file, col, row) => ({ key: f.key, value: f.value, object: f.object, file, col, row });

export const OBJECT_INSERT_ONCE_OBJECT_LAST: Build<"ObjectInsertOnceStmt"> = (f, file, col, row) => ({
  key: f.key,
  value: f.value,
  object: f.object,
  file,
  col,
  row,
});
