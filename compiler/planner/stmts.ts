// Building statement objects. A plan holds a great many statements (hundreds of thousands for a
// large policy set), all kept until the code generator is done, so their size is most of what the
// garbage collector copies while planning. Each statement is built here, envelope and fields, by
// one nested object literal per statement type: the location fields (file, col, row) are in the
// literal (added afterwards to the call site's literal, they would go to a separate,
// out-of-object property array, one more object per statement), and V8 follows each literal's
// objects as one allocation site, which it learns to allocate as long-lived.
//
// The order of the fields is the order of the keys of the plan's JSON and must not change. Each
// function writes its statement's fields in the order the call sites have always written them;
// the few call sites with a different order call a function of their own (SetAddStmtValueFirst,
// ObjectInsertStmtObjectLast, ObjectInsertOnceStmtObjectLast, at the end).
import type { StmtMap, StmtOf } from "../ir/types.js";
import type { Planner } from "./planner.js";

// One function per statement type (and per field order), taking the fields as arguments: what
// the planner calls (no object of fields per statement, no call through a table). Each function
// counts the statement against the planner's budget and stamps its location (Planner.located)
// after its arguments are evaluated.

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

// One object for equal BreakStmts made one after another (the same index at the same location);
// nothing reads a statement's identity but for
// the statements the code generator finds a plan's result in (entry.ts), which are not breaks.
export function BreakStmt(p: Planner, index: StmtMap["BreakStmt"]["index"]): StmtOf<"BreakStmt"> {
  p.located();
  const last = p.lastBreaks[index];
  if (last !== undefined && last.stmt.file === p.stampFile && last.stmt.col === p.stampCol && last.stmt.row === p.stampRow) return last;
  return (p.lastBreaks[index] = { type: "BreakStmt", stmt: { index, file: p.stampFile, col: p.stampCol, row: p.stampRow } });
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

// OPA's own planner writes the index as `Index` (Go's field name); older readers look for it
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

