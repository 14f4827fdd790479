// Scan merging: consecutive rule bodies of a partial set that scan the same collection — two
// `allowed contains d.id if { some d in data.records; ... }` — run in one loop, each body's test
// in a block of its own:
//   block { P; scan x (k, v) { A } }  block { P; scan x (k', v') { B } }
//     →   block { P; scan x (k, v) { block { A }  block { B[k'→k, v'→v] } } }
// P (the statements computing x) is the same list in both. It keeps the meaning because
//   - A and B raise no errors and have no effects but adding to sets (no builtin calls but the
//     operators, no func calls, no conflicts, no with), so their order cannot be seen: a set
//     is the same whatever order its elements come in;
//   - neither leaves its scan body (a break out of it would end the loop for both);
//   - B's other locals are renamed to fresh ones, so A and B never share a local; neither reads
//     a local the other writes or adds to, and no other block reads what they write.
import type { Block, Func, Local, Plan, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import type { NameTable } from "./names.js";
import { check } from "./scanFusion.js";
import { at, bodyPass, mapLocals, maxLocal, mk } from "./stmts.js";

/** A top-level block `P; scan x { body }` fit for merging. */
interface Candidate {
  pre: readonly Stmt[];
  scan: Stmt & { type: "ScanStmt" };
  /** P as text without locations: the blocks merged must compute x alike. */
  key: string;
  reads: Set<Local>;
  writes: Set<Local>;
  /** The locals the body adds to (SetAdd) and makes (Make*) inside it. */
  adds: Set<Local>;
}

/** What a statement of P may be: it computes x and nothing else that can fail with an error. */
const PRE_TYPES = new Set(["DotStmt", "ResetLocalStmt", "AssignVarStmt"]);

function textOf(stmts: readonly Stmt[]): string {
  return JSON.stringify(stmts, (k, v: unknown) => (k === "file" || k === "row" || k === "col" ? undefined : v));
}

function candidate(b: Block): Candidate | undefined {
  const scan = b.stmts[b.stmts.length - 1];
  if (scan?.type !== "ScanStmt") return undefined;
  const pre = b.stmts.slice(0, -1);
  if (!pre.every((s) => PRE_TYPES.has(s.type))) return undefined;
  const reads = new Set<Local>();
  const writes = new Set<Local>([scan.stmt.key, scan.stmt.value]);
  const adds = new Set<Local>();
  const made = new Set<Local>();
  const n = check(scan.stmt.block.stmts, 0, (s) => {
    if (s.type === "SetAddStmt") adds.add(s.stmt.set);
    if (s.type === "MakeArrayStmt" || s.type === "MakeObjectStmt" || s.type === "MakeSetStmt") made.add(s.stmt.target);
    // Appends and inserts only into what the body itself made (their order is its own).
    if (s.type === "ArrayAppendStmt" && !made.has(s.stmt.array)) return false;
    if (s.type === "ObjectInsertStmt" && !made.has(s.stmt.object)) return false;
    return true;
  });
  if (n < 0) return undefined;
  for (const l of made) adds.delete(l);
  forEachStmt([scan.stmt.block], (s) => {
    // Adding to a set the body did not make is neither a read nor a write of it here: `adds`.
    if (s.type === "SetAddStmt" && adds.has(s.stmt.set)) {
      if (s.stmt.value.type === "local") reads.add(s.stmt.value.value);
      return;
    }
    forEachRead(s, (l) => reads.add(l));
    forEachWrite(s, (l) => writes.add(l));
  });
  return { pre, scan, key: textOf(pre), reads, writes, adds };
}

/** Whether two candidates may share a loop (B's locals not yet renamed: those it writes will be). */
function compatible(a: Candidate, b: Candidate): boolean {
  if (a.key !== b.key || a.scan.stmt.source !== b.scan.stmt.source) return false;
  for (const l of b.reads) if (!b.writes.has(l) && (a.writes.has(l) || a.adds.has(l))) return false;
  for (const l of a.reads) if (b.adds.has(l) && !a.adds.has(l)) return false;
  for (const l of b.adds) if (a.reads.has(l) && !a.adds.has(l)) return false;
  return true;
}

function mergeBody(blocks: Block[], body: Plan | Func, names: NameTable | undefined): Block[] {
  const cands = blocks.map(candidate);
  if (!cands.some((c, i) => c && cands[i + 1] && compatible(c, cands[i + 1]!))) return blocks;
  let next = maxLocal(body) + 1;
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; ) {
    const first = cands[i];
    let j = i + 1;
    while (first && cands[j] && compatible(first, cands[j]!) && cands.slice(i + 1, j).every((c) => compatible(c!, cands[j]!))) j++;
    if (!first || j === i + 1) {
      out.push(blocks[i]!);
      i++;
      continue;
    }
    // Locals written in the group must not be read by any other block.
    const written = new Set<Local>();
    for (let k = i; k < j; k++) for (const l of cands[k]!.writes) written.add(l);
    let readElsewhere = false;
    forEachStmt(
      blocks.filter((_, k) => k < i || k >= j),
      (s) => forEachRead(s, (l) => (readElsewhere ||= written.has(l))),
    );
    if (readElsewhere) {
      out.push(blocks[i]!);
      i++;
      continue;
    }
    const { key, value } = first.scan.stmt;
    const parts: Stmt[] = [];
    for (let k = i; k < j; k++) {
      const c = cands[k]!;
      let stmts = c.scan.stmt.block.stmts;
      if (k > i) {
        const renamed = new Map<Local, Local>([
          [c.scan.stmt.key, key],
          [c.scan.stmt.value, value],
        ]);
        for (const l of c.writes) if (!renamed.has(l)) renamed.set(l, next++);
        for (const [from, to] of renamed) names?.adopt(body, from, body, to);
        stmts = stmts.map((s) => mapLocals(s, (l) => renamed.get(l) ?? l));
      }
      parts.push(mk("BlockStmt", { ...at(c.scan), blocks: [{ stmts }] }));
    }
    const scan = mk("ScanStmt", { ...first.scan.stmt, block: { stmts: parts } });
    out.push({ stmts: [...first.pre, scan] });
    i = j;
  }
  return out;
}

export const scanMerge: Pass = bodyPass("scan-merge", mergeBody);
