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

  read(local: number, pos: number): void {
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
    const visit = (stmts: readonly Stmt[], top: boolean): void => {
      for (const s of stmts) {
        const here = pos++;
        forEachRead(s, (l) => {
          u.read(l, here);
          if (!seen.has(l)) {
            seen.add(l);
            lastExposed.set(l, T);
          }
        });
        forEachWrite(s, (l) => {
          u.write(l, here);
          totalWrites.set(l, (totalWrites.get(l) ?? 0) + 1);
          if (!seen.has(l)) {
            seen.add(l);
            if (!(top && KILLS.has(s.type))) lastExposed.set(l, T);
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
        for (const nb of nestedBlocks(s)) visit(nb.stmts, false);
        ends[here] = pos - 1;
      }
    };
    visit(b.stmts, true);
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

