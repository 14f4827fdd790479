// Where each local of a plan or func is read and written, for the passes that move or drop
// statements (copyPropagation.ts, hoist.ts). Statements are numbered in preorder over the whole
// body (a statement, then what is nested in it); each top-level block gets its own tables.
import type { Block, Operand, Stmt } from "../ir/types.js";
import { forEachRead, forEachWrite } from "../ir/walk.js";
import { countBelow } from "../syntax/source.js";
import { nestedBlocks } from "./stmts.js";

/** Statements that always (re)assign their target, even when they then fail. */
export const KILLS: ReadonlySet<string> = new Set([
  "AssignVarStmt",
  "DotStmt",
  "ResetLocalStmt",
  "AssignIntStmt",
  "MakeArrayStmt",
  "MakeNullStmt",
  "MakeNumberIntStmt",
  "MakeNumberRefStmt",
  "MakeObjectStmt",
  "MakeSetStmt",
  "LenStmt",
]);

/** Per top-level block: where each local is read and written, by preorder position. */
export class Uses {
  readonly minRead = new Map<number, number>();
  readonly maxRead = new Map<number, number>();
  readonly writes = new Map<number, number[]>();
  /** Per local: the positions of its reads (in order) and, for each, the last earlier statement
   * that always rewrites it on every path to that read (-1 when none). */
  private readonly readAt = new Map<number, number[]>();
  private readonly coverAt = new Map<number, number[]>();
  private readonly coverMin = new Map<number, number[]>();

  read(local: number, pos: number, cover = -1): void {
    const r = this.readAt.get(local);
    if (r) {
      // Kept in position order: a pass may record a read where a copy will be replaced.
      const i = r.length > 0 && r[r.length - 1]! > pos ? countBelow(r, pos) : r.length;
      r.splice(i, 0, pos);
      this.coverAt.get(local)!.splice(i, 0, cover);
      this.coverMin.delete(local);
    } else {
      this.readAt.set(local, [pos]);
      this.coverAt.set(local, [cover]);
    }
    const lo = this.minRead.get(local);
    if (lo === undefined || pos < lo) this.minRead.set(local, pos);
    const hi = this.maxRead.get(local);
    if (hi === undefined || pos > hi) this.maxRead.set(local, pos);
  }

  write(local: number, pos: number): void {
    const w = this.writes.get(local);
    if (w) w.push(pos);
    else this.writes.set(local, [pos]);
  }

  /** Whether every read of `local` after position `to` sees only a value written after `to`. */
  deadAfter(local: number, to: number): boolean {
    const r = this.readAt.get(local);
    if (!r) return true;
    const i = countBelow(r, to + 1);
    if (i === r.length) return true;
    let m = this.coverMin.get(local);
    if (!m) {
      const c = this.coverAt.get(local)!;
      m = c.slice();
      for (let j = m.length - 2; j >= 0; j--) m[j] = Math.min(m[j]!, m[j + 1]!);
      this.coverMin.set(local, m);
    }
    return m[i]! > to;
  }

  /** Whether `local` is written at a position in [from, to] (positions are pushed in order). */
  writtenIn(local: number, from: number, to: number): boolean {
    const w = this.writes.get(local);
    if (!w) return false;
    const i = countBelow(w, from);
    return i < w.length && w[i]! <= to;
  }
}

export interface BodyFacts {
  uses: Uses[];
  /** For each statement (by preorder position, numbered across the body): the last position of
   * its subtree. */
  ends: number[];
  /** The last top-level block where each local may hold a value from an earlier block. */
  lastExposed: Map<number, number>;
  /** Writes of each local in the whole body. */
  totalWrites: Map<number, number>;
  /** Locals that may hold a part of the data document (reached from it by lookups and scans),
   * and locals from which a lookup with a local key may be reached (by lookups, scans, copies):
   * worked out when first asked. */
  dataFlow(): { fromData: Set<number>; toKeyLookup: Set<number> };
}

/** The locals reached from `roots` along the edges. */
function reach(roots: Iterable<number>, edges: Map<number, number[]>): Set<number> {
  const seen = new Set<number>(roots);
  const work = [...seen];
  while (work.length > 0) {
    for (const n of edges.get(work.pop()!) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        work.push(n);
      }
    }
  }
  return seen;
}

function addEdge(edges: Map<number, number[]>, from: number, to: number): void {
  const e = edges.get(from);
  if (e) e.push(to);
  else edges.set(from, [to]);
}

export function analyse(blocks: readonly Block[], dataLocal: number): BodyFacts {
  const ends: number[] = [];
  // Value flow between locals (forwards and backwards), for the data-path rule in propagateBody.
  const flow = new Map<number, number[]>();
  const back = new Map<number, number[]>();
  const keyLookups: number[] = [];
  const edge = (from: Operand, to: number) => {
    if (from.type !== "local") return;
    addEdge(flow, from.value, to);
    addEdge(back, to, from.value);
  };
  const lastExposed = new Map<number, number>();
  const totalWrites = new Map<number, number>();
  const uses: Uses[] = [];
  let pos = 0;
  blocks.forEach((b, T) => {
    const u = new Uses();
    uses.push(u);
    const seen = new Set<number>();
    // The statements that rewrite each local at the top level of the lists being visited, innermost
    // last: a list is entered only at its start, so a read later in it always follows them.
    const kills = new Map<number, number[]>();
    const kill = (l: number, at: number, frame: number[]) => {
      const k = kills.get(l);
      if (k) k.push(at);
      else kills.set(l, [at]);
      frame.push(l);
    };
    const visit = (stmts: readonly Stmt[], top: boolean, frame: number[]): void => {
      for (const s of stmts) {
        const here = pos++;
        forEachRead(s, (l) => {
          const k = kills.get(l);
          const cover = k && k.length > 0 ? k[k.length - 1]! : -1;
          u.read(l, here, cover);
          if (cover < 0 && !seen.has(l)) {
            seen.add(l);
            lastExposed.set(l, T);
          }
        });
        forEachWrite(s, (l) => {
          u.write(l, here);
          totalWrites.set(l, (totalWrites.get(l) ?? 0) + 1);
          // A rewrite (or a scan's key and value, seen by its body only) exposes nothing itself:
          // only a read it does not cover does.
          if (KILLS.has(s.type) || (s.type === "ScanStmt" && (l === s.stmt.key || l === s.stmt.value))) {
            if (top) seen.add(l);
          } else if (!seen.has(l)) {
            seen.add(l);
            lastExposed.set(l, T);
          }
        });
        if (s.type === "DotStmt") {
          edge(s.stmt.source, s.stmt.target);
          if (s.stmt.source.type === "local" && s.stmt.key.type === "local") keyLookups.push(s.stmt.source.value);
        } else if (s.type === "AssignVarStmt" || s.type === "AssignVarOnceStmt") edge(s.stmt.source, s.stmt.target);
        else if (s.type === "ScanStmt") {
          edge({ type: "local", value: s.stmt.source }, s.stmt.key);
          edge({ type: "local", value: s.stmt.source }, s.stmt.value);
        }
        if (KILLS.has(s.type)) forEachWrite(s, (l) => kill(l, here, frame));
        for (const nb of nestedBlocks(s)) {
          const inner: number[] = [];
          // Each iteration of a scan's body starts with its key and value just written.
          if (s.type === "ScanStmt") {
            kill(s.stmt.key, here, inner);
            kill(s.stmt.value, here, inner);
          }
          visit(nb.stmts, false, inner);
          for (const l of inner) kills.get(l)!.pop();
        }
        ends[here] = pos - 1;
      }
    };
    const outer: number[] = [];
    visit(b.stmts, true, outer);
    for (const l of outer) kills.get(l)!.pop();
  });
  let dataFlow: { fromData: Set<number>; toKeyLookup: Set<number> } | undefined;
  return {
    uses,
    ends,
    lastExposed,
    totalWrites,
    dataFlow: () => (dataFlow ??= { fromData: reach([dataLocal], flow), toKeyLookup: reach(keyLookups, back) }),
  };
}

