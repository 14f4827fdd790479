// OPA's IR plan (`opa build -t plan`), with OPA's exact JSON field names (v1/ir/ir.go, marshal.go).
// These are the *decoded* shapes: decode.ts turns Go's null-for-empty into [] and reads
// MakeNumberRefStmt's `index ?? Index` into `index`; everything else is as OPA writes it.
// See ../../../shared/docs/opa-ir-reference.md for the semantics of every statement.

/** A plan-scoped (or func-scoped) variable slot. */
export type Local = number;

/** A value a statement reads: a local, a boolean constant or a string from `static.strings`. */
export type Operand =
  | { type: "local"; value: Local }
  | { type: "bool"; value: boolean }
  | { type: "string_index"; value: number };

/** Location fields sit inside each `stmt` object (file indexes `static.files`). */
export interface StmtLocation {
  file: number;
  row: number;
  col: number;
}

export interface Block {
  stmts: Stmt[];
}

// ---- statements (34) ----

export interface ArrayAppendStmt extends StmtLocation { array: Local; value: Operand }
export interface AssignIntStmt extends StmtLocation { value: number; target: Local }
export interface AssignVarOnceStmt extends StmtLocation { source: Operand; target: Local }
export interface AssignVarStmt extends StmtLocation { source: Operand; target: Local }
export interface BlockStmt extends StmtLocation { blocks: Block[] }
export interface BreakStmt extends StmtLocation { index: number }
export interface CallDynamicStmt extends StmtLocation { args: Local[]; path: Operand[]; result: Local }
export interface CallStmt extends StmtLocation { func: string; args: Operand[]; result: Local }
export interface DotStmt extends StmtLocation { source: Operand; key: Operand; target: Local }
export interface EqualStmt extends StmtLocation { a: Operand; b: Operand }
export interface IsArrayStmt extends StmtLocation { source: Operand }
export interface IsDefinedStmt extends StmtLocation { source: Local }
export interface IsObjectStmt extends StmtLocation { source: Operand }
export interface IsSetStmt extends StmtLocation { source: Operand }
export interface IsUndefinedStmt extends StmtLocation { source: Local }
export interface LenStmt extends StmtLocation { source: Operand; target: Local }
export interface MakeArrayStmt extends StmtLocation { capacity: number; target: Local }
export interface MakeNullStmt extends StmtLocation { target: Local }
export interface MakeNumberIntStmt extends StmtLocation { value: number; target: Local }
/** `index` is read from `index ?? Index` (older OPA writes only the capitalised key). */
export interface MakeNumberRefStmt extends StmtLocation { index: number; target: Local }
export interface MakeObjectStmt extends StmtLocation { target: Local }
export interface MakeSetStmt extends StmtLocation { target: Local }
export interface NopStmt extends StmtLocation {}
export interface NotEqualStmt extends StmtLocation { a: Operand; b: Operand }
export interface NotStmt extends StmtLocation { block: Block }
export interface ObjectInsertOnceStmt extends StmtLocation { object: Local; key: Operand; value: Operand }
export interface ObjectInsertStmt extends StmtLocation { object: Local; key: Operand; value: Operand }
export interface ObjectMergeStmt extends StmtLocation { a: Local; b: Local; target: Local }
export interface ResetLocalStmt extends StmtLocation { target: Local }
export interface ResultSetAddStmt extends StmtLocation { value: Local }
export interface ReturnLocalStmt extends StmtLocation { source: Local }
export interface ScanStmt extends StmtLocation { source: Local; key: Local; value: Local; block: Block }
export interface SetAddStmt extends StmtLocation { set: Local; value: Operand }
/** `path` is [] both for `with input as x` and (decoded from null) for the "undo" withs. */
export interface WithStmt extends StmtLocation { local: Local; path: number[]; value: Operand; block: Block }

/** Statement name → its fields. The keys are OPA's `type` strings. */
export interface StmtMap {
  ArrayAppendStmt: ArrayAppendStmt;
  AssignIntStmt: AssignIntStmt;
  AssignVarOnceStmt: AssignVarOnceStmt;
  AssignVarStmt: AssignVarStmt;
  BlockStmt: BlockStmt;
  BreakStmt: BreakStmt;
  CallDynamicStmt: CallDynamicStmt;
  CallStmt: CallStmt;
  DotStmt: DotStmt;
  EqualStmt: EqualStmt;
  IsArrayStmt: IsArrayStmt;
  IsDefinedStmt: IsDefinedStmt;
  IsObjectStmt: IsObjectStmt;
  IsSetStmt: IsSetStmt;
  IsUndefinedStmt: IsUndefinedStmt;
  LenStmt: LenStmt;
  MakeArrayStmt: MakeArrayStmt;
  MakeNullStmt: MakeNullStmt;
  MakeNumberIntStmt: MakeNumberIntStmt;
  MakeNumberRefStmt: MakeNumberRefStmt;
  MakeObjectStmt: MakeObjectStmt;
  MakeSetStmt: MakeSetStmt;
  NopStmt: NopStmt;
  NotEqualStmt: NotEqualStmt;
  NotStmt: NotStmt;
  ObjectInsertOnceStmt: ObjectInsertOnceStmt;
  ObjectInsertStmt: ObjectInsertStmt;
  ObjectMergeStmt: ObjectMergeStmt;
  ResetLocalStmt: ResetLocalStmt;
  ResultSetAddStmt: ResultSetAddStmt;
  ReturnLocalStmt: ReturnLocalStmt;
  ScanStmt: ScanStmt;
  SetAddStmt: SetAddStmt;
  WithStmt: WithStmt;
}

/** OPA's statement types: the ones a plan may hold. */
export type StmtType = keyof StmtMap;

// ---- regoc-internal statements ----
// Made by the optimiser (compiler/optimize) between the decoder and the emitter; never read from
// a plan (the decoder refuses their types as unknown: they are not in STMT_TYPES).

/** A constant an IndexStmt case is selected by. */
export type IndexValue = string | number | boolean | null;

export interface IndexCase {
  /** The values of `key` that select this case. */
  values: IndexValue[];
  /** Run in order, as a BlockStmt runs its blocks (each one level). */
  blocks: Block[];
}

/** Rule indexing: runs the case whose values hold `key`'s value (Rego equality), or nothing when
 * none does (an undefined key or a value of no case). It never fails, as a BlockStmt. */
export interface IndexStmt extends StmtLocation {
  key: Local;
  cases: IndexCase[];
  /** What `key` holds, for a reader of the generated code (`input.path[1]`). */
  ref: string;
}

/** Counting: adds 1 to `target`, a number an AssignIntStmt set (`count` of a comprehension the
 * optimiser counts instead of building: compiler/optimize/countForm.ts). */
export interface IncrementStmt extends StmtLocation {
  target: Local;
}

/** Comprehension indexing: adds to the group of `key` in `groups` (an object from group key to
 * group, compiler/optimize/comprehensionIndex.ts) — appends `value` to its array, adds it to its
 * set, or adds 1 to its count — making the group (an empty array or set, or 0) when there is none.
 * An undefined key adds nothing, as an EqualStmt with it fails. */
export interface GroupAddStmt extends StmtLocation {
  groups: Local;
  key: Local;
  kind: "array" | "set" | "count";
  /** What an array or set group gets (absent for a count). */
  value?: Operand;
}

/** Comprehension indexing in a function, by its arguments: `target` is the groups object `slot`
 * of the evaluation (kept as a memoised result is, per `with` frame), made empty when there is
 * none. An empty one is built (again) by the statements after. */
export interface GroupsStmt extends StmtLocation {
  slot: number;
  target: Local;
}

export interface InternalStmtMap {
  IndexStmt: IndexStmt;
  IncrementStmt: IncrementStmt;
  GroupAddStmt: GroupAddStmt;
  GroupsStmt: GroupsStmt;
}

/** Every statement type: OPA's and the optimiser's. */
export interface AnyStmtMap extends StmtMap, InternalStmtMap {}

export type AnyStmtType = keyof AnyStmtMap;

/** The `{type, stmt}` envelope, discriminated on `type`. */
export type Stmt = { [T in AnyStmtType]: { type: T; stmt: AnyStmtMap[T] } }[AnyStmtType];

/** A statement of one given type. */
export type StmtOf<T extends AnyStmtType> = Extract<Stmt, { type: T }>;

// ---- top level ----

export interface StringConst {
  value: string;
}

/** An OPA type declaration (`types.Function` JSON), as in a capabilities file; kept as read. */
export interface TypeDecl {
  type: string;
  [field: string]: unknown;
}

export interface FunctionDecl extends TypeDecl {
  type: "function";
  args?: TypeDecl[];
  /** Absent for void builtins (internal.print, internal.test_case). */
  result?: TypeDecl;
  variadic?: TypeDecl;
}

export interface BuiltinFunc {
  name: string;
  decl: FunctionDecl;
}

export interface Static {
  strings: StringConst[];
  builtin_funcs: BuiltinFunc[];
  files: StringConst[];
}

export interface Plan {
  name: string;
  blocks: Block[];
}

export interface Func {
  name: string;
  params: Local[];
  return: Local;
  blocks: Block[];
  /** `["g0", "pkg", "rule"]`; used by CallDynamicStmt. May be absent on old plans. */
  path: string[];
}

export interface UnplannedRule {
  path: string;
  location?: unknown;
}

export interface Policy {
  static: Static;
  plans: { plans: Plan[] };
  funcs: { funcs: Func[] };
  /** Newer OPA: rules no entrypoint reaches (coverage only; evaluation ignores it). */
  unplanned_rules?: UnplannedRule[];
}

/** Every statement type, in OPA's marshal order. */
export const STMT_TYPES: readonly StmtType[] = [
  "ArrayAppendStmt",
  "AssignIntStmt",
  "AssignVarOnceStmt",
  "AssignVarStmt",
  "BlockStmt",
  "BreakStmt",
  "CallDynamicStmt",
  "CallStmt",
  "DotStmt",
  "EqualStmt",
  "IsArrayStmt",
  "IsDefinedStmt",
  "IsObjectStmt",
  "IsSetStmt",
  "IsUndefinedStmt",
  "LenStmt",
  "MakeArrayStmt",
  "MakeNullStmt",
  "MakeNumberIntStmt",
  "MakeNumberRefStmt",
  "MakeObjectStmt",
  "MakeSetStmt",
  "NopStmt",
  "NotEqualStmt",
  "NotStmt",
  "ObjectInsertOnceStmt",
  "ObjectInsertStmt",
  "ObjectMergeStmt",
  "ResetLocalStmt",
  "ResultSetAddStmt",
  "ReturnLocalStmt",
  "ScanStmt",
  "SetAddStmt",
  "WithStmt",
];

