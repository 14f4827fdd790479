// Single assignment: an AssignVarOnceStmt that runs at most once into a local no other statement
// writes is a plain AssignVarStmt —
//   l3 := l4 (once, outside any scan; l3 otherwise only reset)   →   l3 = l4
// The once-assignment fails only when its local already holds another value, and such a local is
// undefined when it runs: the function's locals start undefined and a reset leaves them so. (A
// complete rule of one body assigns its value and its result this way; copy propagation can then
// fold the copies.) Params (input and data in plans) arrive defined and are left alone.
import type { Block, Func, Local, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { at, mapBodies, mk, replaceStmts } from "./stmts.js";

function singleAssignBody(blocks: Block[], body: Plan | Func): Block[] {
  const params = "params" in body ? body.params : [0, 1];
  const candidates: Stmt[] = [];
  forEachStmt(blocks, (s, inScan) => {
    if (s.type === "AssignVarOnceStmt" && !inScan && !params.includes(s.stmt.target)) candidates.push(s);
  });
  if (candidates.length === 0) return blocks;
  const writes = new Map<Local, number>();
  for (const s of candidates) if (s.type === "AssignVarOnceStmt") writes.set(s.stmt.target, 0);
  const count = (l: Local) => {
    const n = writes.get(l);
    if (n !== undefined) writes.set(l, n + 1);
  };
  forEachStmt(blocks, (s) => {
    if (s.type !== "ResetLocalStmt") forEachWrite(s, count);
  });
  const rewrites = new Map<Stmt, Stmt>();
  for (const s of candidates) {
    if (s.type !== "AssignVarOnceStmt" || writes.get(s.stmt.target) !== 1) continue;
    rewrites.set(s, mk("AssignVarStmt", { ...at(s), source: s.stmt.source, target: s.stmt.target }));
  }
  return replaceStmts(blocks, rewrites);
}

export const singleAssign: Pass = {
  name: "single-assign",
  run: (policy: Policy) => mapBodies(policy, singleAssignBody),
};
