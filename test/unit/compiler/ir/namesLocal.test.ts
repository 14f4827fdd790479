// namesLocal (ir/walk.ts: whether a statement names a local, a switch over the statement types
// without an array per statement), and forEachRead/forEachWrite together, must say what the IR's
// field table says — `localsOf` below,
// read off ir/fields.ts — for every statement type and every field (each filled with a different
// local, and operands also as constants of the same number).
import assert from "node:assert/strict";
import { STMT_FIELDS } from "../../../../compiler/ir/fields.js";
import type { Operand, Stmt, StmtType } from "../../../../compiler/ir/types.js";
import { forEachRead, forEachStmt, forEachWrite, namesLocal } from "../../../../compiler/ir/walk.js";
import { preparePolicy } from "../../../../compiler/codegen/generate.js";
import { authz, hostile, partialSet, query, withAndDynamic } from "../../../support/samplePlans.js";

/** The locals a statement names, read off the IR's field table (what each field of each
 * statement type holds, ir/fields.ts): its local fields, its local operands, and the locals in its
 * lists of them. */
function localsOf(s: Stmt): number[] {
  const stmt = s.stmt as unknown as Record<string, unknown>;
  const out: number[] = [];
  const operand = (o: Operand) => {
    if (o.type === "local") out.push(o.value);
  };
  for (const [field, kind] of Object.entries(STMT_FIELDS[s.type as StmtType])) {
    const v = stmt[field];
    if (kind === "local") out.push(v as number);
    else if (kind === "locals?") out.push(...(v as number[]));
    else if (kind === "operand") operand(v as Operand);
    else if (kind === "operands?") (v as Operand[]).forEach(operand);
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
  it("says what the field table says, for every statement type and field", () => {
    for (const asConst of [false, true]) {
      for (const s of everyType(asConst)) {
        for (let l = 0; l <= 6; l++) assert.equal(namesLocal(s, l), localsOf(s).includes(l), `${s.type} ${l}${asConst ? " (constants)" : ""}`);
      }
    }
  });

  it("says what the field table says, on every statement of the sample plans", () => {
    for (const plan of [authz, partialSet, withAndDynamic, query, hostile]) {
      const policy = preparePolicy(plan().json());
      for (const body of [...policy.plans.plans, ...policy.funcs.funcs]) {
        forEachStmt(body.blocks, (s) => {
          for (let l = 0; l <= 12; l++) assert.equal(namesLocal(s, l), localsOf(s).includes(l), `${body.name}: ${s.type} ${l}`);
        });
      }
    }
  });

  it("forEachRead and forEachWrite together name what the field table says, for every statement type", () => {
    for (const asConst of [false, true]) {
      for (const s of everyType(asConst)) {
        const named = new Set<number>();
        forEachRead(s, (l) => named.add(l));
        forEachWrite(s, (l) => named.add(l));
        assert.deepEqual([...named].sort(), [...new Set(localsOf(s))].sort(), `${s.type}${asConst ? " (constants)" : ""}`);
      }
    }
  });

  it("a statement's target is written, not read; a collection it mutates is both", () => {
    const [append] = everyType(false);
    const reads: number[] = [];
    const writes: number[] = [];
    forEachRead(append!, (l) => reads.push(l));
    forEachWrite(append!, (l) => writes.push(l));
    assert.deepEqual([reads, writes], [[1, 2], [1]]);
    const dot = everyType(false).find((s) => s.type === "DotStmt")!;
    reads.length = writes.length = 0;
    forEachRead(dot, (l) => reads.push(l));
    forEachWrite(dot, (l) => writes.push(l));
    assert.deepEqual([reads, writes], [[1, 2], [3]]);
  });
});
