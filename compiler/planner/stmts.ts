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
import type { Planner } from "./planner.js";

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

// One function per statement type (and per field order), taking the fields as arguments: what
// the planner calls. A call site passing an object of fields to BUILD's builder made a throwaway
// object per statement (some 215,000 for the 1 MB policy set) and called through a table; these
// take the values straight into the statement's literal. The planner's generic stmt() (BUILD)
// stays for the call sites whose statement type is a variable. Each function counts the
// statement against the planner's budget and stamps its location (Planner.located) after its
// arguments are evaluated, as stmt() did.

export function ArrayAppendStmt(p: Planner, value: StmtMap["ArrayAppendStmt"]["value"], array: StmtMap["ArrayAppendStmt"]["array"]): StmtOf<"ArrayAppendStmt"> {
  p.located();
  return { type: "ArrayAppendStmt", stmt: { value, array, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function AssignIntStmt(p: Planner, value: StmtMap["AssignIntStmt"]["value"], target: StmtMap["AssignIntStmt"]["target"]): StmtOf<"AssignIntStmt"> {
  p.located();
  return { type: "AssignIntStmt", stmt: { value, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function AssignVarOnceStmt(p: Planner, target: StmtMap["AssignVarOnceStmt"]["target"], source: StmtMap["AssignVarOnceStmt"]["source"]): StmtOf<"AssignVarOnceStmt"> {
  p.located();
  return { type: "AssignVarOnceStmt", stmt: { target, source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function AssignVarStmt(p: Planner, source: StmtMap["AssignVarStmt"]["source"], target: StmtMap["AssignVarStmt"]["target"]): StmtOf<"AssignVarStmt"> {
  p.located();
  return { type: "AssignVarStmt", stmt: { source, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function BlockStmt(p: Planner, blocks: StmtMap["BlockStmt"]["blocks"]): StmtOf<"BlockStmt"> {
  p.located();
  return { type: "BlockStmt", stmt: { blocks, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function BreakStmt(p: Planner, index: StmtMap["BreakStmt"]["index"]): StmtOf<"BreakStmt"> {
  p.located();
  return { type: "BreakStmt", stmt: { index, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function CallDynamicStmt(p: Planner, args: StmtMap["CallDynamicStmt"]["args"], path: StmtMap["CallDynamicStmt"]["path"], result: StmtMap["CallDynamicStmt"]["result"]): StmtOf<"CallDynamicStmt"> {
  p.located();
  return { type: "CallDynamicStmt", stmt: { args, path, result, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function CallStmt(p: Planner, func: StmtMap["CallStmt"]["func"], args: StmtMap["CallStmt"]["args"], result: StmtMap["CallStmt"]["result"]): StmtOf<"CallStmt"> {
  p.located();
  return { type: "CallStmt", stmt: { func, args, result, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function DotStmt(p: Planner, source: StmtMap["DotStmt"]["source"], key: StmtMap["DotStmt"]["key"], target: StmtMap["DotStmt"]["target"]): StmtOf<"DotStmt"> {
  p.located();
  return { type: "DotStmt", stmt: { source, key, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function EqualStmt(p: Planner, a: StmtMap["EqualStmt"]["a"], b: StmtMap["EqualStmt"]["b"]): StmtOf<"EqualStmt"> {
  p.located();
  return { type: "EqualStmt", stmt: { a, b, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function IsArrayStmt(p: Planner, source: StmtMap["IsArrayStmt"]["source"]): StmtOf<"IsArrayStmt"> {
  p.located();
  return { type: "IsArrayStmt", stmt: { source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function IsDefinedStmt(p: Planner, source: StmtMap["IsDefinedStmt"]["source"]): StmtOf<"IsDefinedStmt"> {
  p.located();
  return { type: "IsDefinedStmt", stmt: { source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function IsObjectStmt(p: Planner, source: StmtMap["IsObjectStmt"]["source"]): StmtOf<"IsObjectStmt"> {
  p.located();
  return { type: "IsObjectStmt", stmt: { source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function IsSetStmt(p: Planner, source: StmtMap["IsSetStmt"]["source"]): StmtOf<"IsSetStmt"> {
  p.located();
  return { type: "IsSetStmt", stmt: { source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function IsUndefinedStmt(p: Planner, source: StmtMap["IsUndefinedStmt"]["source"]): StmtOf<"IsUndefinedStmt"> {
  p.located();
  return { type: "IsUndefinedStmt", stmt: { source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function LenStmt(p: Planner, source: StmtMap["LenStmt"]["source"], target: StmtMap["LenStmt"]["target"]): StmtOf<"LenStmt"> {
  p.located();
  return { type: "LenStmt", stmt: { source, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function MakeArrayStmt(p: Planner, capacity: StmtMap["MakeArrayStmt"]["capacity"], target: StmtMap["MakeArrayStmt"]["target"]): StmtOf<"MakeArrayStmt"> {
  p.located();
  return { type: "MakeArrayStmt", stmt: { capacity, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function MakeNullStmt(p: Planner, target: StmtMap["MakeNullStmt"]["target"]): StmtOf<"MakeNullStmt"> {
  p.located();
  return { type: "MakeNullStmt", stmt: { target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function MakeNumberIntStmt(p: Planner, value: StmtMap["MakeNumberIntStmt"]["value"], target: StmtMap["MakeNumberIntStmt"]["target"]): StmtOf<"MakeNumberIntStmt"> {
  p.located();
  return { type: "MakeNumberIntStmt", stmt: { value, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

// OPA's own planner writes the index as `Index` too (see BUILD)
export function MakeNumberRefStmt(p: Planner, index: StmtMap["MakeNumberRefStmt"]["index"], target: StmtMap["MakeNumberRefStmt"]["target"]): StmtOf<"MakeNumberRefStmt"> {
  p.located();
  return { type: "MakeNumberRefStmt", stmt: { index, target, file: p.stampFile, col: p.stampCol, row: p.stampRow, Index: index } as StmtMap["MakeNumberRefStmt"] };
}

export function MakeObjectStmt(p: Planner, target: StmtMap["MakeObjectStmt"]["target"]): StmtOf<"MakeObjectStmt"> {
  p.located();
  return { type: "MakeObjectStmt", stmt: { target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function MakeSetStmt(p: Planner, target: StmtMap["MakeSetStmt"]["target"]): StmtOf<"MakeSetStmt"> {
  p.located();
  return { type: "MakeSetStmt", stmt: { target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function NopStmt(p: Planner): StmtOf<"NopStmt"> {
  p.located();
  return { type: "NopStmt", stmt: { file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function NotEqualStmt(p: Planner, a: StmtMap["NotEqualStmt"]["a"], b: StmtMap["NotEqualStmt"]["b"]): StmtOf<"NotEqualStmt"> {
  p.located();
  return { type: "NotEqualStmt", stmt: { a, b, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function NotStmt(p: Planner, block: StmtMap["NotStmt"]["block"]): StmtOf<"NotStmt"> {
  p.located();
  return { type: "NotStmt", stmt: { block, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ObjectInsertOnceStmt(p: Planner, object: StmtMap["ObjectInsertOnceStmt"]["object"], key: StmtMap["ObjectInsertOnceStmt"]["key"], value: StmtMap["ObjectInsertOnceStmt"]["value"]): StmtOf<"ObjectInsertOnceStmt"> {
  p.located();
  return { type: "ObjectInsertOnceStmt", stmt: { object, key, value, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ObjectInsertStmt(p: Planner, object: StmtMap["ObjectInsertStmt"]["object"], key: StmtMap["ObjectInsertStmt"]["key"], value: StmtMap["ObjectInsertStmt"]["value"]): StmtOf<"ObjectInsertStmt"> {
  p.located();
  return { type: "ObjectInsertStmt", stmt: { object, key, value, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ObjectMergeStmt(p: Planner, a: StmtMap["ObjectMergeStmt"]["a"], b: StmtMap["ObjectMergeStmt"]["b"], target: StmtMap["ObjectMergeStmt"]["target"]): StmtOf<"ObjectMergeStmt"> {
  p.located();
  return { type: "ObjectMergeStmt", stmt: { a, b, target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ResetLocalStmt(p: Planner, target: StmtMap["ResetLocalStmt"]["target"]): StmtOf<"ResetLocalStmt"> {
  p.located();
  return { type: "ResetLocalStmt", stmt: { target, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ResultSetAddStmt(p: Planner, value: StmtMap["ResultSetAddStmt"]["value"]): StmtOf<"ResultSetAddStmt"> {
  p.located();
  return { type: "ResultSetAddStmt", stmt: { value, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ReturnLocalStmt(p: Planner, source: StmtMap["ReturnLocalStmt"]["source"]): StmtOf<"ReturnLocalStmt"> {
  p.located();
  return { type: "ReturnLocalStmt", stmt: { source, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ScanStmt(p: Planner, source: StmtMap["ScanStmt"]["source"], key: StmtMap["ScanStmt"]["key"], value: StmtMap["ScanStmt"]["value"], block: StmtMap["ScanStmt"]["block"]): StmtOf<"ScanStmt"> {
  p.located();
  return { type: "ScanStmt", stmt: { source, key, value, block, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function SetAddStmt(p: Planner, set: StmtMap["SetAddStmt"]["set"], value: StmtMap["SetAddStmt"]["value"]): StmtOf<"SetAddStmt"> {
  p.located();
  return { type: "SetAddStmt", stmt: { set, value, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function WithStmt(p: Planner, local: StmtMap["WithStmt"]["local"], path: StmtMap["WithStmt"]["path"], value: StmtMap["WithStmt"]["value"], block: StmtMap["WithStmt"]["block"]): StmtOf<"WithStmt"> {
  p.located();
  return { type: "WithStmt", stmt: { local, path, value, block, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function SetAddStmtValueFirst(p: Planner, value: StmtMap["SetAddStmt"]["value"], set: StmtMap["SetAddStmt"]["set"]): StmtOf<"SetAddStmt"> {
  p.located();
  return { type: "SetAddStmt", stmt: { value, set, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ObjectInsertStmtObjectLast(p: Planner, key: StmtMap["ObjectInsertStmt"]["key"], value: StmtMap["ObjectInsertStmt"]["value"], object: StmtMap["ObjectInsertStmt"]["object"]): StmtOf<"ObjectInsertStmt"> {
  p.located();
  return { type: "ObjectInsertStmt", stmt: { key, value, object, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

export function ObjectInsertOnceStmtObjectLast(p: Planner, key: StmtMap["ObjectInsertOnceStmt"]["key"], value: StmtMap["ObjectInsertOnceStmt"]["value"], object: StmtMap["ObjectInsertOnceStmt"]["object"]): StmtOf<"ObjectInsertOnceStmt"> {
  p.located();
  return { type: "ObjectInsertOnceStmt", stmt: { key, value, object, file: p.stampFile, col: p.stampCol, row: p.stampRow } };
}

