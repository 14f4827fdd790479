// The shape of an entrypoint. `opa build -t plan -e pkg/rule` plans `result = data.pkg.rule`:
//   ...; MakeObject r; ObjectInsert(r, "result", v); ResultSetAdd r
// When a plan has exactly that — one ResultSetAdd, outside any loop, in tail position (nothing
// runs after it), whose binding object is made, filled with one constant key and read by nothing
// else — the generated function returns `v` itself: no result-set or binding allocation. Every
// other plan returns a result set.
import type { Block, MakeObjectStmt, ObjectInsertStmt, Operand, Plan, Policy, ResultSetAddStmt, Stmt } from "../../ir/types.js";
import { forEachStmt, namesLocal } from "../../ir/walk.js";

export interface DirectEntry {
  /** The binding name, e.g. "result" (or "x" for `data.test.p = x`). */
  binding: string;
  /** The binding object's local. */
  object: number;
  value: Operand;
  make: MakeObjectStmt;
  insert: ObjectInsertStmt;
  add: ResultSetAddStmt;
  /** The ObjectInsert is the statement just before the ResultSetAdd: the value is returned as it
   * is, without a copy into the object's local. */
  adjacent: boolean;
  /** Statements before the ResultSetAdd when it sits at the top level of the last block. */
  topLevelPrefix: Stmt[] | undefined;
}

/** The statement list holding the plan's ResultSetAdd, if it is in tail position. */
function tailList(blocks: readonly Block[]): { stmts: Stmt[]; topLevel: boolean } | undefined {
  const last = blocks[blocks.length - 1];
  if (!last) return undefined;
  let stmts = last.stmts;
  for (let topLevel = true; ; topLevel = false) {
    const s = stmts[stmts.length - 1];
    if (!s) return undefined;
    if (s.type === "ResultSetAddStmt") return { stmts, topLevel };
    if (s.type === "WithStmt") stmts = s.stmt.block.stmts;
    else if (s.type === "BlockStmt") {
      const b = s.stmt.blocks[s.stmt.blocks.length - 1];
      if (!b) return undefined;
      stmts = b.stmts;
    } else return undefined;
  }
}

export function detectDirect(policy: Policy, plan: Plan): DirectEntry | undefined {
  let adds = 0;
  let inScan = false;
  forEachStmt(plan.blocks, (s, sInScan) => {
    if (s.type === "ResultSetAddStmt") {
      adds++;
      inScan ||= sInScan;
    }
  });
  if (adds !== 1 || inScan) return undefined;
  const tail = tailList(plan.blocks);
  if (!tail) return undefined;
  const addEnv = tail.stmts[tail.stmts.length - 1]!;
  if (addEnv.type !== "ResultSetAddStmt") return undefined;
  const add = addEnv.stmt;
  const r = add.value;
  let make: MakeObjectStmt | undefined;
  let insert: ObjectInsertStmt | undefined;
  for (const s of tail.stmts) {
    if (s.type === "MakeObjectStmt" && s.stmt.target === r && !make) make = s.stmt;
    else if (s.type === "ObjectInsertStmt" && s.stmt.object === r && make && !insert) insert = s.stmt;
  }
  if (!make || !insert || insert.key.type !== "string_index") return undefined;
  // r must be named by these three statements only.
  let uses = 0;
  forEachStmt(plan.blocks, (stmt) => {
    if (namesLocal(stmt, r)) uses += stmt.stmt === make || stmt.stmt === insert || stmt.stmt === add ? 1 : 100;
  });
  if (uses !== 3) return undefined;
  if (insert.value.type === "local" && insert.value.value === r) return undefined;
  return {
    binding: policy.static.strings[insert.key.value]!.value,
    object: r,
    value: insert.value,
    make,
    insert,
    add,
    adjacent: tail.stmts[tail.stmts.length - 2]?.stmt === insert,
    topLevelPrefix: tail.topLevel && plan.blocks.length > 0 ? tail.stmts.slice(0, -1) : undefined,
  };
}
