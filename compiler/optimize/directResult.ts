// Direct result: a rule's value that reaches its result through a local of its own goes to the
// result directly —
//   { reset l3; ...; l3 = v }  { defined l3; l2 = l3 }   →   { ...; l2 = v }
// when the value's local is written only there (and reset) and read only by the guard block, and
// the result only by that block. Either way the result is v when the first block reaches its end
// and stays undefined when it breaks. (Single-assign makes the copies; this runs after it.)
import type { Block, Func, Local, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { block, mapBodies, mk, at } from "./stmts.js";

/** The guard block `defined t; r = t`: its t and r. */
function guardOf(b: Block): { t: Local; r: Local } | undefined {
  const [d, a] = b.stmts;
  if (b.stmts.length !== 2 || d?.type !== "IsDefinedStmt" || a?.type !== "AssignVarStmt") return undefined;
  const src = a.stmt.source;
  return src.type === "local" && src.value === d.stmt.source ? { t: src.value, r: a.stmt.target } : undefined;
}

function directBody(blocks: Block[], body: Plan | Func): Block[] {
  const pairs: number[] = []; // indexes of blocks followed by a guard on their last copy
  for (let k = 0; k + 1 < blocks.length; k++) {
    const last = blocks[k]!.stmts.at(-1);
    const g = guardOf(blocks[k + 1]!);
    if (g && last?.type === "AssignVarStmt" && last.stmt.target === g.t) pairs.push(k);
  }
  if (pairs.length === 0) return blocks;
  // The reads and writes of the pairs' locals alone.
  const reads = new Map<Local, number>();
  const writes = new Map<Local, number>();
  for (const k of pairs) {
    const { t, r } = guardOf(blocks[k + 1]!)!;
    for (const l of [t, r]) {
      reads.set(l, 0);
      writes.set(l, 0);
    }
  }
  const bump = (m: Map<Local, number>) => (l: Local) => {
    const n = m.get(l);
    if (n !== undefined) m.set(l, n + 1);
  };
  const read = bump(reads);
  const write = bump(writes);
  forEachStmt(blocks, (s) => {
    forEachRead(s, read);
    if (s.type !== "ResetLocalStmt") forEachWrite(s, write);
  });
  const params = "params" in body ? body.params : [0, 1];
  const out = [...blocks];
  const dropped = new Set<number>();
  const unused = new Set<Local>();
  for (const k of pairs) {
    const { t, r } = guardOf(blocks[k + 1]!)!;
    if (params.includes(t) || params.includes(r) || writes.get(t) !== 1 || reads.get(t) !== 2 || writes.get(r) !== 1) continue;
    const stmts = blocks[k]!.stmts;
    const last = stmts.at(-1)!;
    if (last.type !== "AssignVarStmt") continue;
    out[k] = block(blocks[k]!, [...stmts.slice(0, -1), mk("AssignVarStmt", { ...at(last), source: last.stmt.source, target: r })]);
    dropped.add(k + 1);
    unused.add(t);
  }
  if (dropped.size === 0) return blocks;
  // (t's resets, now of a local nothing reads, go too: they stand at the top level of its block)
  return out
    .filter((_, k) => !dropped.has(k))
    .map((b) => {
      const kept = b.stmts.filter((s: Stmt) => !(s.type === "ResetLocalStmt" && unused.has(s.stmt.target)));
      return kept.length === b.stmts.length ? b : block(b, kept);
    });
}

export const directResult: Pass = {
  name: "direct-result",
  run: (policy: Policy) => mapBodies(policy, directBody),
};
