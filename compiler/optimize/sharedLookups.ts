// Shared lookups: a lookup a later body of a rule repeats from an earlier body (`input.user`,
// then `data.user_roles[input.user]`, in each of two bodies) reads the earlier body's result
// instead of looking it up again:
//   [l3 = l0["user"]; l4 = l1["roles"]; l5 = l4[l3]; ...]  [...; l9 = l0["user"]; ...]
//   -> [l3 = l0["user"]; ...]  [...; l9 = l3; IsDefined l9; ...]
// (just `IsDefined l3` where the later lookup has the same target, or nothing else reads l9).
// The earlier lookups are the chain of DotStmts a top-level block of the plan or func starts
// with: the first always runs, and each later one runs exactly when the ones before it in the
// chain succeeded (a failed lookup leaves its target undefined and ends the block). A lookup of a
// later top-level block reads chain lookup j's result when it looks up the same key in the same
// source, and lookups that gave chain lookups 1..j-1's values have succeeded before it on its way
// (in its list or an enclosing one): then lookup j has run, on the same values, and its target
// holds what this lookup would give, undefined where it would fail. "The same" is by construction:
// a constant, a local that nothing in the body writes (input, data), or the target of a lookup
// already matched. Every target involved is consistent: written only by lookups of one key in one
// source, themselves constants, unwritten or consistent locals, so that once it has a value it
// keeps it (the planner reuses a body's locals in the next body).
// Lookups inside an IndexStmt's cases are left as they are.
import type { Block, DotStmt, Local, Operand, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { at, block, mapBodies, mk, nestedBlocks, withBlocks } from "./stmts.js";

function sameOperand(a: Operand, b: Operand): boolean {
  return a.type === b.type && a.value === b.value;
}

/** The longest chain shared: each later lookup is compared with the chain's lookups. */
const MAX_CHAIN = 16;

/** The DotStmts a top-level block starts with (MAX_CHAIN at most). */
function chainOf(b: Block): DotStmt[] {
  const chain: DotStmt[] = [];
  for (const s of b.stmts) {
    if (s.type !== "DotStmt" || chain.length === MAX_CHAIN) break;
    chain.push(s.stmt);
  }
  return chain;
}

function shareInBody(blocks: Block[]): Block[] {
  const first = blocks[0];
  if (first === undefined || blocks.length < 2) return blocks;
  const written = new Set<Local>();
  forEachStmt(blocks, (s) => forEachWrite(s, (l) => written.add(l)));
  const stable = (l: Local) => !written.has(l);
  // Per local, the lookup all its writes in the blocks so far are (null: written otherwise, or by
  // different lookups); which locals are consistent in them.
  const writes = new Map<Local, DotStmt | null>();
  const addWrites = (b: Block) =>
    forEachStmt([b], (s) =>
      forEachWrite(s, (l) => {
        const w = writes.get(l);
        if (s.type !== "DotStmt" || s.stmt.target !== l) writes.set(l, null);
        else if (w === undefined) writes.set(l, s.stmt);
        else if (w !== null && !(sameOperand(w.source, s.stmt.source) && sameOperand(w.key, s.stmt.key))) writes.set(l, null);
      }),
    );
  let consistency = new Map<Local, boolean>();
  const consistent = (l: Local): boolean => {
    let c = consistency.get(l);
    if (c === undefined) {
      consistency.set(l, false); // a cycle is not consistent
      const w = writes.get(l);
      const ok = (o: Operand) => o.type !== "local" || stable(o.value) || consistent(o.value);
      c = w !== undefined && w !== null && ok(w.source) && ok(w.key);
      consistency.set(l, c);
    }
    return c;
  };

  // The first block's chain, as far as its sources and keys are constants, unwritten locals or
  // targets of the chain before them.
  const chain: DotStmt[] = [];
  const targets = new Set<Local>();
  for (const d of chainOf(first)) {
    const ok = (o: Operand) => o.type !== "local" || stable(o.value) || targets.has(o.value);
    if (!ok(d.source) || !ok(d.key)) break;
    chain.push(d);
    targets.add(d.target);
  }
  if (chain.length === 0) return blocks;
  addWrites(first);

  /** Whether `e` reads the same as `d` given the matched targets (e's target -> d's target). */
  const same = (e: Operand, d: Operand, matched: ReadonlyMap<Local, Local>): boolean => {
    if (e.type !== "local" || d.type !== "local") return sameOperand(e, d);
    return (e.value === d.value && stable(e.value)) || matched.get(e.value) === d.value;
  };

  /** What a lookup list sees: which chain lookups lookups on the way here have matched, and the
   * targets matched (this lookup's target -> the chain lookup's). */
  interface Seen {
    done: boolean[];
    matched: Map<Local, Local>;
  }

  /** The chain lookup that `e` may read the result of. */
  const find = (e: DotStmt, seen: Seen): number | undefined => {
    for (let j = 0; j < chain.length; j++) {
      const d = chain[j]!;
      if (!consistent(d.target)) return undefined;
      if (same(e.source, d.source, seen.matched) && same(e.key, d.key, seen.matched)) return j;
      if (!seen.done[j]) return undefined;
    }
    return undefined;
  };

  let changed = false;
  // The statements made: each check of a chain lookup's target, with the lookup; the copies.
  const checks = new Map<Stmt, DotStmt>();
  const copies = new Set<Stmt>();
  const rewrite = (stmts: readonly Stmt[], seen: Seen): Stmt[] => {
    const out: Stmt[] = [];
    for (const s of stmts) {
      const j = s.type === "DotStmt" && consistent(s.stmt.target) ? find(s.stmt, seen) : undefined;
      if (s.type === "DotStmt" && j !== undefined) {
        const d = chain[j]!;
        seen.done[j] = true;
        seen.matched.set(s.stmt.target, d.target);
        const check = mk("IsDefinedStmt", { ...at(s), source: d.target });
        checks.set(check, d);
        out.push(check);
        if (d.target !== s.stmt.target) {
          const copy = mk("AssignVarStmt", { ...at(s), source: { type: "local", value: d.target }, target: s.stmt.target });
          copies.add(copy);
          out.push(copy);
        }
        changed = true;
        continue;
      }
      const nb = nestedBlocks(s);
      out.push(
        nb.length === 0
          ? s
          : withBlocks(
              s,
              nb.map((b) => block(b, rewrite(b.stmts, { done: [...seen.done], matched: new Map(seen.matched) }))),
            ),
      );
    }
    return out;
  };

  const result = blocks.map((b, i) => {
    if (i === 0) return b;
    addWrites(b);
    consistency = new Map();
    return block(b, rewrite(b.stmts, { done: chain.map(() => false), matched: new Map() }));
  });
  return changed ? tidied(result, checks, copies) : blocks;
}

/**
 * Without the statements made that say nothing: a copy no one reads, and a check right before a
 * check of a lookup that reads the first one's local (its source or key). That lookup succeeded
 * only with the local defined, and a consistent local, once defined, stays so.
 */
function tidied(blocks: Block[], checks: ReadonlyMap<Stmt, DotStmt>, copies: ReadonlySet<Stmt>): Block[] {
  const reads = new Map<Local, number>();
  forEachStmt(blocks, (s) => forEachRead(s, (l) => reads.set(l, (reads.get(l) ?? 0) + 1)));
  const names = (o: Operand, l: Local) => o.type === "local" && o.value === l;
  const tidy = (stmts: readonly Stmt[]): Stmt[] => {
    const out: Stmt[] = [];
    for (let i = stmts.length - 1; i >= 0; i--) {
      const s = stmts[i]!;
      if (copies.has(s) && s.type === "AssignVarStmt" && !reads.has(s.stmt.target)) continue;
      const next = checks.get(out[out.length - 1]!);
      if (checks.has(s) && s.type === "IsDefinedStmt" && next !== undefined && (names(next.source, s.stmt.source) || names(next.key, s.stmt.source))) continue;
      const nb = nestedBlocks(s);
      out.push(nb.length === 0 ? s : withBlocks(s, nb.map((b) => block(b, tidy(b.stmts)))));
    }
    return out.reverse();
  };
  return blocks.map((b) => block(b, tidy(b.stmts)));
}

function shareLookups(policy: Policy): Policy {
  return mapBodies(policy, shareInBody);
}

export const sharedLookups: Pass = { name: "shared-lookups", run: shareLookups };
