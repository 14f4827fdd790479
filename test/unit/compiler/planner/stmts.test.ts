// Statement builders (stmts.ts): the functions the planner calls, taking the fields as arguments,
// build exactly what the table of builders (BUILD, the generic path) builds from a fields object:
// the same keys in the same order (the plan's JSON), the location last, and each statement
// counted against the planner's budget.
import assert from "node:assert/strict";
import { Planner } from "../../../../compiler/planner/planner.js";
import * as S from "../../../../compiler/planner/stmts.js";
import { BUILD, OBJECT_INSERT_OBJECT_LAST, OBJECT_INSERT_ONCE_OBJECT_LAST, SET_ADD_VALUE_FIRST } from "../../../../compiler/planner/stmts.js";
import { STMT_TYPES } from "../../../../compiler/ir/types.js";

function planner(): Planner {
  return new Planner({ modules: [], ruleRef: () => [], builtins: new Map(), queries: [] });
}

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
