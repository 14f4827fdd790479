// Statement builders (stmts.ts): the functions the planner calls, taking the fields as arguments,
// build exactly what the table of builders below (BUILD, the planner's former generic path) builds
// from a fields object: the same keys in the same order (the plan's JSON), the location last, and
// each statement counted against the planner's budget.
import assert from "node:assert/strict";
import { Planner } from "../../../../compiler/planner/planner.js";
import * as S from "../../../../compiler/planner/stmts.js";
import { STMT_TYPES, type StmtMap, type StmtOf, type StmtType } from "../../../../compiler/ir/types.js";

function planner(): Planner {
  return new Planner({ modules: [], ruleRef: () => [], ruleTree: { values: [], children: new Map() }, builtins: new Map(), queries: [] });
}

/** Stmt fields without the location (the builder adds it). */
type Fields<T extends StmtType> = Omit<StmtMap[T], "file" | "row" | "col">;

/** Builds a statement (`{type, stmt}`) from the call site's fields and the location. */
type Build<T extends StmtType> = (f: Fields<T>, file: number, col: number, row: number) => StmtOf<T>;

/** Each statement type built from an object of its fields, in the field order the plan's JSON has
 * always had (the planner's former generic path, kept here as the reference). */
const BUILD: { readonly [T in StmtType]: Build<T> } = {
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

// The functions with another field order.

const SET_ADD_VALUE_FIRST: Build<"SetAddStmt"> = (f, file, col, row) => ({ type: "SetAddStmt", stmt: { value: f.value, set: f.set, file, col, row } });

const OBJECT_INSERT_OBJECT_LAST: Build<"ObjectInsertStmt"> = (f, file, col, row) => ({
  type: "ObjectInsertStmt",
  stmt: { key: f.key, value: f.value, object: f.object, file, col, row },
});

const OBJECT_INSERT_ONCE_OBJECT_LAST: Build<"ObjectInsertOnceStmt"> = (f, file, col, row) => ({
  type: "ObjectInsertOnceStmt",
  stmt: { key: f.key, value: f.value, object: f.object, file, col, row },
});

const LOCATION = new Set(["file", "col", "row", "Index"]);

/** What `build` makes of a fields object with a distinct value per field, and the fields in the
 * order it writes them. */
function reference(build: (f: never, file: number, col: number, row: number) => { stmt: object }): { json: string; values: unknown[] } {
  const seen: string[] = [];
  const fields = new Proxy({}, { get: (_t, k) => (typeof k === "string" ? (seen.push(k), `v:${k}`) : undefined) });
  const out = build(fields as never, 0, 0, 0);
  const order = Object.keys(out.stmt).filter((k) => !LOCATION.has(k));
  return { json: JSON.stringify(out), values: order.map((k) => `v:${k}`) };
}

describe("planner: statement builders", () => {
  const fns = S as unknown as Record<string, (p: Planner, ...fields: unknown[]) => object>;
  const alts: [string, Parameters<typeof reference>[0]][] = [
    ["SetAddStmtValueFirst", SET_ADD_VALUE_FIRST as never],
    ["ObjectInsertStmtObjectLast", OBJECT_INSERT_OBJECT_LAST as never],
    ["ObjectInsertOnceStmtObjectLast", OBJECT_INSERT_ONCE_OBJECT_LAST as never],
  ];
  const all: [string, Parameters<typeof reference>[0]][] = [...STMT_TYPES.map((t) => [t, BUILD[t] as never] as [string, Parameters<typeof reference>[0]]), ...alts];

  it("builds every statement type as BUILD does, field for field and in the same order", () => {
    for (const [name, build] of all) {
      const fn = fns[name];
      assert.equal(typeof fn, "function", name);
      const { json, values } = reference(build);
      assert.equal(JSON.stringify(fn!(planner(), ...values)), json, name);
    }
  });

  it("counts each statement against the budget, as the generic path does", () => {
    const p = planner();
    (p as unknown as { stmtBudget: number }).stmtBudget = 1;
    S.BreakStmt(p, 0);
    assert.throws(() => S.BreakStmt(p, 0), /policy too large to plan/);
  });
});
