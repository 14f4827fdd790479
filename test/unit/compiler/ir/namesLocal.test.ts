// namesLocal (ir/walk.ts: whether a statement names a local, without an array per statement) must
// say what the enumeration it replaced says — `localsOf(s).includes(local)`, kept below as the
// reference — for every statement type and every field (each filled with a different local, and
// operands also as constants of the same number).
import assert from "node:assert/strict";
import type { Operand, Stmt, StmtType } from "../../../../compiler/ir/types.js";
import { forEachStmt, namesLocal } from "../../../../compiler/ir/walk.js";
import { preparePolicy } from "../../../../compiler/codegen/generate.js";
import { authz, hostile, partialSet, query, withAndDynamic } from "../codegen/samplePlans.js";

/** The operands a statement reads (locals and constants). */
function operandsOf(s: Stmt): Operand[] {
  switch (s.type) {
    case "ArrayAppendStmt":
    case "SetAddStmt":
    case "WithStmt":
      return [s.stmt.value];
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
    case "LenStmt":
      return [s.stmt.source];
    case "CallStmt":
      return s.stmt.args;
    case "CallDynamicStmt":
      return s.stmt.path;
    case "DotStmt":
      return [s.stmt.source, s.stmt.key];
    case "EqualStmt":
    case "NotEqualStmt":
      return [s.stmt.a, s.stmt.b];
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      return [s.stmt.key, s.stmt.value];
    default:
      return [];
  }
}

/** The locals a statement assigns or mutates in place. */
function targetsOf(s: Stmt): number[] {
  switch (s.type) {
    case "AssignIntStmt":
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "DotStmt":
    case "LenStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "MakeSetStmt":
    case "ObjectMergeStmt":
    case "ResetLocalStmt":
      return [s.stmt.target];
    case "CallStmt":
    case "CallDynamicStmt":
      return [s.stmt.result];
    case "ScanStmt":
      return [s.stmt.key, s.stmt.value];
    case "WithStmt":
      return [s.stmt.local];
    case "ObjectInsertStmt":
    case "ObjectInsertOnceStmt":
      return [s.stmt.object];
    case "ArrayAppendStmt":
      return [s.stmt.array];
    case "SetAddStmt":
      return [s.stmt.set];
    default:
      return [];
  }
}

/** Every local a statement names (read or written), nested blocks excluded. */
function localsOf(s: Stmt): number[] {
  const out: number[] = [];
  for (const op of operandsOf(s)) if (op.type === "local") out.push(op.value);
  out.push(...targetsOf(s));
  switch (s.type) {
    case "CallDynamicStmt":
      out.push(...s.stmt.args);
      break;
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "ReturnLocalStmt":
    case "ScanStmt":
      out.push(s.stmt.source);
      break;
    case "ObjectMergeStmt":
      out.push(s.stmt.a, s.stmt.b);
      break;
    case "ResultSetAddStmt":
      out.push(s.stmt.value);
      break;
    default:
      break;
  }
  return out;
}

const loc = { file: 0, row: 1, col: 1 };
const empty = { stmts: [] };

/** One statement of each type, its locals numbered from 1; `asConst` writes operands as
 * string_index constants of the same numbers instead. */
function everyType(asConst: boolean): Stmt[] {
  const op = (n: number): Operand => (asConst ? { type: "string_index", value: n } : { type: "local", value: n });
  const all: { [T in StmtType]: Extract<Stmt, { type: T }>["stmt"] } = {
    ArrayAppendStmt: { ...loc, array: 1, value: op(2) },
    AssignIntStmt: { ...loc, value: 2, target: 1 },
    AssignVarOnceStmt: { ...loc, source: op(2), target: 1 },
    AssignVarStmt: { ...loc, source: op(2), target: 1 },
    BlockStmt: { ...loc, blocks: [] },
    BreakStmt: { ...loc, index: 1 },
    CallDynamicStmt: { ...loc, args: [1, 2], path: [op(3), op(4)], result: 5 },
    CallStmt: { ...loc, func: "f", args: [op(1), op(2)], result: 3 },
    DotStmt: { ...loc, source: op(1), key: op(2), target: 3 },
    EqualStmt: { ...loc, a: op(1), b: op(2) },
    IsArrayStmt: { ...loc, source: op(1) },
    IsDefinedStmt: { ...loc, source: 1 },
    IsObjectStmt: { ...loc, source: op(1) },
    IsSetStmt: { ...loc, source: op(1) },
    IsUndefinedStmt: { ...loc, source: 1 },
    LenStmt: { ...loc, source: op(1), target: 2 },
    MakeArrayStmt: { ...loc, capacity: 2, target: 1 },
    MakeNullStmt: { ...loc, target: 1 },
    MakeNumberIntStmt: { ...loc, value: 2, target: 1 },
    MakeNumberRefStmt: { ...loc, index: 2, target: 1 },
    MakeObjectStmt: { ...loc, target: 1 },
    MakeSetStmt: { ...loc, target: 1 },
    NopStmt: { ...loc },
    NotEqualStmt: { ...loc, a: op(1), b: op(2) },
    NotStmt: { ...loc, block: empty },
    ObjectInsertOnceStmt: { ...loc, object: 1, key: op(2), value: op(3) },
    ObjectInsertStmt: { ...loc, object: 1, key: op(2), value: op(3) },
    ObjectMergeStmt: { ...loc, a: 1, b: 2, target: 3 },
    ResetLocalStmt: { ...loc, target: 1 },
    ResultSetAddStmt: { ...loc, value: 1 },
    ReturnLocalStmt: { ...loc, source: 1 },
    ScanStmt: { ...loc, source: 1, key: 2, value: 3, block: empty },
    SetAddStmt: { ...loc, set: 1, value: op(2) },
    WithStmt: { ...loc, local: 1, path: [2, 3], value: op(4), block: empty },
  };
  return Object.entries(all).map(([type, stmt]) => ({ type, stmt }) as Stmt);
}

describe("ir: namesLocal", () => {
  it("says what localsOf says, for every statement type and field", () => {
    for (const asConst of [false, true]) {
      for (const s of everyType(asConst)) {
        for (let l = 0; l <= 6; l++) assert.equal(namesLocal(s, l), localsOf(s).includes(l), `${s.type} ${l}${asConst ? " (constants)" : ""}`);
      }
    }
  });

  it("says what localsOf says, on every statement of the sample plans", () => {
    for (const plan of [authz, partialSet, withAndDynamic, query, hostile]) {
      const policy = preparePolicy(plan().json());
      for (const body of [...policy.plans.plans, ...policy.funcs.funcs]) {
        forEachStmt(body.blocks, (s) => {
          for (let l = 0; l <= 12; l++) assert.equal(namesLocal(s, l), localsOf(s).includes(l), `${body.name}: ${s.type} ${l}`);
        });
      }
    }
  });
});
