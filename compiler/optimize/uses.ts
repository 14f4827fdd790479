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

/** Where one local is read and written in one top-level block. */
interface LocalUses {
  /** The positions of its reads, in order. */
  reads: number[];
  /** For each read, the last earlier statement that always rewrites the local on every path to
   * that read (-1 when none). */
  covers: number[];
  /** The least of `covers` from each read on: worked out when first asked. */
  coverMin: number[] | undefined;
  /** The positions of its writes, in order. */
  writes: number[];
}

/** Per top-level block: where each local is read and written, by preorder position. */
export class Uses {
  private readonly locals = new Map<number, LocalUses>();

  read(local: number, pos: number, cover = -1): void {
    const u = this.locals.get(local);
    if (u === undefined) {
      // (lists made at their first element: most locals are read once or twice)
      this.locals.set(local, { reads: [pos], covers: [cover], coverMin: undefined, writes: [] });
      return;
    }
    const r = u.reads;
    if (r.length === 0 || r[r.length - 1]! <= pos) {
      r.push(pos);
      u.covers.push(cover);
    } else {
      // Kept in position order: a pass may record a read where a copy will be replaced.
      const i = countBelow(r, pos);
      r.splice(i, 0, pos);
      u.covers.splice(i, 0, cover);
    }
    u.coverMin = undefined;
  }

  write(local: number, pos: number): void {
    const u = this.locals.get(local);
    if (u === undefined) this.locals.set(local, { reads: [], covers: [], coverMin: undefined, writes: [pos] });
    else u.writes.push(pos);
  }

  /** The first position where `local` is read (undefined when it is not read). */
  minRead(local: number): number | undefined {
    return this.locals.get(local)?.reads[0];
  }

  /** The last position where `local` is read (undefined when it is not read). */
  maxRead(local: number): number | undefined {
    const r = this.locals.get(local)?.reads;
    return r === undefined || r.length === 0 ? undefined : r[r.length - 1];
  }

  /** How many statements write `local`. */
  writeCount(local: number): number {
    return this.locals.get(local)?.writes.length ?? 0;
  }

  /** Whether every read of `local` after position `to` sees only a value written after `to`. */
  deadAfter(local: number, to: number): boolean {
    const u = this.locals.get(local);
    if (!u) return true;
    const i = countBelow(u.reads, to + 1);
    if (i === u.reads.length) return true;
    if (!u.coverMin) {
      const m = u.covers.slice();
      for (let j = m.length - 2; j >= 0; j--) m[j] = Math.min(m[j]!, m[j + 1]!);
      u.coverMin = m;
    }
    return u.coverMin[i]! > to;
  }

  /** Whether `local` is written at a position in [from, to] (positions are pushed in order). */
  writtenIn(local: number, from: number, to: number): boolean {
    const u = this.locals.get(local);
    if (!u) return false;
    const i = countBelow(u.writes, from);
    return i < u.writes.length && u.writes[i]! <= to;
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

/** BodyFacts.dataFlow: the value flow between locals (forwards and backwards) and the sources of
 * lookups with a local key, followed from the data local and from those sources. */
function dataFlow(blocks: readonly Block[], dataLocal: number): { fromData: Set<number>; toKeyLookup: Set<number> } {
  const flow = new Map<number, number[]>();
  const back = new Map<number, number[]>();
  const keyLookups: number[] = [];
  const edge = (from: Operand, to: number) => {
    if (from.type !== "local") return;
    addEdge(flow, from.value, to);
    addEdge(back, to, from.value);
  };
  const visit = (stmts: readonly Stmt[]): void => {
    for (const s of stmts) {
      if (s.type === "DotStmt") {
        edge(s.stmt.source, s.stmt.target);
        if (s.stmt.source.type === "local" && s.stmt.key.type === "local") keyLookups.push(s.stmt.source.value);
      } else if (s.type === "AssignVarStmt" || s.type === "AssignVarOnceStmt") edge(s.stmt.source, s.stmt.target);
      else if (s.type === "ScanStmt") {
        edge({ type: "local", value: s.stmt.source }, s.stmt.key);
        edge({ type: "local", value: s.stmt.source }, s.stmt.value);
      }
      for (const nb of nestedBlocks(s)) visit(nb.stmts);
    }
  };
  for (const b of blocks) visit(b.stmts);
  return { fromData: reach([dataLocal], flow), toKeyLookup: reach(keyLookups, back) };
}

export function analyse(blocks: readonly Block[], dataLocal: number): BodyFacts {
  const ends: number[] = [];
  const lastExposed = new Map<number, number>();
  const totalWrites = new Map<number, number>();
  const uses: Uses[] = [];
  // The statements that rewrite each local at the top level of the lists being visited, innermost
  // last: a list is entered only at its start, so a read later in it always follows them.
  const kills = new Map<number, number[]>();
  // The locals the current top-level block has read or written so far.
  const seen = new Set<number>();
  let pos = 0;
  // The statement being visited, for onRead and onWrite: its top-level block (index and uses), its
  // position, whether its writes expose nothing (a rewrite, or a scan's key and value, seen by its
  // body only), whether it sits at the block's top level, and the kills its list has made.
  let T = 0;
  let u = new Uses();
  let here = 0;
  let covering = false;
  let top = false;
  let frame: number[] = [];

  const kill = (l: number, at: number, into: number[]): void => {
    const k = kills.get(l);
    if (k) k.push(at);
    else kills.set(l, [at]);
    into.push(l);
  };
  const onRead = (l: number): void => {
    const k = kills.get(l);
    const cover = k !== undefined && k.length > 0 ? k[k.length - 1]! : -1;
    u.read(l, here, cover);
    if (cover < 0 && !seen.has(l)) {
      seen.add(l);
      lastExposed.set(l, T);
    }
  };
  const onWrite = (l: number): void => {
    u.write(l, here);
    totalWrites.set(l, (totalWrites.get(l) ?? 0) + 1);
    // Only a read a covering write does not cover exposes the local.
    if (covering) {
      if (top) seen.add(l);
    } else if (!seen.has(l)) {
      seen.add(l);
      lastExposed.set(l, T);
    }
  };
  const onKill = (l: number): void => kill(l, here, frame);

  const visit = (stmts: readonly Stmt[], atTop: boolean, list: number[]): void => {
    for (const s of stmts) {
      const at = pos++;
      here = at;
      top = atTop;
      const rewrites = KILLS.has(s.type);
      covering = rewrites || s.type === "ScanStmt";
      forEachRead(s, onRead);
      forEachWrite(s, onWrite);
      if (rewrites) {
        frame = list;
        forEachWrite(s, onKill);
      }
      for (const nb of nestedBlocks(s)) {
        const inner: number[] = [];
        // Each iteration of a scan's body starts with its key and value just written.
        if (s.type === "ScanStmt") {
          kill(s.stmt.key, at, inner);
          kill(s.stmt.value, at, inner);
        }
        visit(nb.stmts, false, inner);
        for (const l of inner) kills.get(l)!.pop();
      }
      ends[at] = pos - 1;
    }
  };
  blocks.forEach((b, i) => {
    T = i;
    u = new Uses();
    uses.push(u);
    seen.clear();
    const outer: number[] = [];
    visit(b.stmts, true, outer);
    for (const l of outer) kills.get(l)!.pop();
  });
  let flow: { fromData: Set<number>; toKeyLookup: Set<number> } | undefined;
  return { uses, ends, lastExposed, totalWrites, dataFlow: () => (flow ??= dataFlow(blocks, dataLocal)) };
}
