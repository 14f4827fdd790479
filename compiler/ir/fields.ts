// The fields of every statement type and what each holds: what the decoder (decode.ts) reads and
// the decoded-shape check (decoded.ts) expects.
import type { StmtType } from "./types.js";

/** What a statement field holds. `?` suffix: null/absent decodes to []. */
export type FieldKind = "local" | "operand" | "int" | "uint" | "string" | "block" | "blocks?" | "locals?" | "operands?" | "ints?";

/** The fields of every statement type (location fields excluded). */
export const STMT_FIELDS: { readonly [T in StmtType]: Readonly<Record<string, FieldKind>> } = {
  ArrayAppendStmt: { array: "local", value: "operand" },
  AssignIntStmt: { value: "int", target: "local" },
  AssignVarOnceStmt: { source: "operand", target: "local" },
  AssignVarStmt: { source: "operand", target: "local" },
  BlockStmt: { blocks: "blocks?" },
  BreakStmt: { index: "uint" },
  CallDynamicStmt: { args: "locals?", path: "operands?", result: "local" },
  CallStmt: { func: "string", args: "operands?", result: "local" },
  DotStmt: { source: "operand", key: "operand", target: "local" },
  EqualStmt: { a: "operand", b: "operand" },
  IsArrayStmt: { source: "operand" },
  IsDefinedStmt: { source: "local" },
  IsObjectStmt: { source: "operand" },
  IsSetStmt: { source: "operand" },
  IsUndefinedStmt: { source: "local" },
  LenStmt: { source: "operand", target: "local" },
  MakeArrayStmt: { capacity: "int", target: "local" },
  MakeNullStmt: { target: "local" },
  MakeNumberIntStmt: { value: "int", target: "local" },
  MakeNumberRefStmt: { index: "uint", target: "local" },
  MakeObjectStmt: { target: "local" },
  MakeSetStmt: { target: "local" },
  NopStmt: {},
  NotEqualStmt: { a: "operand", b: "operand" },
  NotStmt: { block: "block" },
  ObjectInsertOnceStmt: { object: "local", key: "operand", value: "operand" },
  ObjectInsertStmt: { object: "local", key: "operand", value: "operand" },
  ObjectMergeStmt: { a: "local", b: "local", target: "local" },
  ResetLocalStmt: { target: "local" },
  ResultSetAddStmt: { value: "local" },
  ReturnLocalStmt: { source: "local" },
  ScanStmt: { source: "local", key: "local", value: "local", block: "block" },
  SetAddStmt: { set: "local", value: "operand" },
  WithStmt: { local: "local", path: "ints?", value: "operand", block: "block" },
};

/** Largest local index accepted (Go's int32 range; OPA allocates locals densely from 0). */
export const MAX_LOCAL = 0x7fffffff;
