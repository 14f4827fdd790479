// Counting form: `count` of an array the body builds only to count it —
// `count([u | some u in users; u.dept == d])` — counts instead of building:
//   l = MakeArray; ... ArrayAppend(l, x) ...; r = count(l)
//     →   l = 0 (AssignInt); ... Increment(l) ...; r = l
// when the MakeArray and the call sit in one list, and l's only other uses are appends nested
// between them: an array's count is the number of appends made to it, and count never fails on
// an array. (A set or object comprehension is left: its count is of distinct elements.)
import type { Block, Local, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { at, bodyPass, everyStmt, mk, nestedBlocks, replaceStmts } from "./stmts.js";

function countBody(blocks: Block[]): Block[] {
  if (blocks.every((b) => everyStmt(b.stmts, (s) => !(s.type === "CallStmt" && s.stmt.func === "count")))) return blocks;
  const uses = new Map<Local, Stmt[]>();
  forEachStmt(blocks, (s) => {
    const named = new Set<Local>();
    forEachRead(s, (l) => named.add(l));
    forEachWrite(s, (l) => named.add(l));
    for (const l of named) {
      const u = uses.get(l);
      if (u) u.push(s);
      else uses.set(l, [s]);
    }
  });
  // The statements of the counted arrays, and what each is replaced by.
  const rewrites = new Map<Stmt, Stmt>();

  /** Finds the counted arrays made in a list (and in the lists nested in it). */
  const scanList = (stmts: readonly Stmt[]): void => {
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      for (const b of nestedBlocks(s)) scanList(b.stmts);
      if (s.type !== "MakeArrayStmt") continue;
      const a = s.stmt.target;
      const all = uses.get(a)!;
      const calls = all.filter((u): u is Stmt & { type: "CallStmt" } => u.type === "CallStmt" && u.stmt.func === "count" && u.stmt.args.length === 1);
      const call = calls[0];
      if (call === undefined || calls.length !== 1) continue;
      const j = stmts.indexOf(call, i + 1);
      if (j < 0) continue;
      const between = new Set<Stmt>();
      forEachStmt([{ stmts: stmts.slice(i + 1, j) }], (t) => between.add(t));
      const appends = all.filter((u) => u !== s && u !== call);
      if (!appends.every((u) => u.type === "ArrayAppendStmt" && u.stmt.array === a && (u.stmt.value.type !== "local" || u.stmt.value.value !== a) && between.has(u))) continue;
      rewrites.set(s, mk("AssignIntStmt", { ...at(s), value: 0, target: a }));
      for (const u of appends) rewrites.set(u, mk("IncrementStmt", { ...at(u), target: a }));
      rewrites.set(call, mk("AssignVarStmt", { ...at(call), source: { type: "local", value: a }, target: call.stmt.result }));
    }
  };
  for (const b of blocks) scanList(b.stmts);
  return replaceStmts(blocks, rewrites);
}

export const countForm: Pass = bodyPass("count-form", countBody);
