// Loop-invariant hoisting: a lookup in a scan body that gives the same result in every iteration
// (`input.action` while scanning grants) is done once, before the scan.
//
// A DotStmt X at the top level of scan S's body moves to just before S when:
//   - its source and key do not change in S (neither S's key or value nor written in its body,
//     or the targets of lookups already moved out);
//   - its target is written nowhere else in S, read only after X in S's body or after a later
//     statement rewrites it, and no later top-level block can see it (uses.ts);
//   - S is the last statement of a list whose end means the same as a failure there (a plan's or
//     func's block, a BlockStmt's child, a scan body): if X fails before the loop, the list ends
//     — as when every iteration fails at X and the loop then completes;
//   - the statements before X in the body only check and look up (no call, no assignment that can
//     conflict, no nested block), and the locals they and the scan write are read only in S's
//     body or once rewritten after it: skipping every iteration then changes nothing anyone sees.
// Nested scans are done inside out, so a lookup can leave several loops.
//
// A lookup X deeper in S's body (in a BlockStmt or NotStmt there: one of several rule bodies merged
// into one loop) fails only its own block, so it moves before S guarded, as
//   block { X }  scan S { ... IsDefined(target) ... }
// when its source and key do not change in S and its target is written only by X in S and read
// only after X in X's list: a lookup never raises an error, and a failed one leaves its target
// undefined (uses.ts's KILLS), which the IsDefinedStmt in X's place fails on as X did.
//
// An array of constants made at the top level of S's body (`some kind in ["cpu", "memory"]`:
// MakeArray, then appends of constants) is made once, before S, when nothing else in S writes
// it, it is not read before it is made and no one reads it after S: it cannot fail, and it holds
// the same elements in every iteration.
import type { Block, Func, Operand, Plan, Stmt } from "../ir/types.js";
import { forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { at, block, bodyPass, everyStmt, mk, nestedBlocks, sameList, withBlocks } from "./stmts.js";
import { analyse, type BodyFacts } from "./uses.js";

/** Statements that may come before a hoisted lookup in the body: they only check or compute into
 * locals. */
const QUIET = new Set([
  "DotStmt",
  "AssignVarStmt",
  "EqualStmt",
  "NotEqualStmt",
  "IsArrayStmt",
  "IsObjectStmt",
  "IsSetStmt",
  "IsDefinedStmt",
  "IsUndefinedStmt",
  "LenStmt",
  "MakeNumberIntStmt",
  "MakeNumberRefStmt",
  "AssignIntStmt",
  "MakeNullStmt",
]);

interface Placed {
  s: Stmt;
  /** The statement's position in the body as analysed (uses.ts). */
  pos: number;
}

function hoistBody(blocks: Block[], body: Plan | Func, facts: BodyFacts): Block[] {
  const isFunc = "params" in body;
  const fixed = new Set<number>(isFunc ? [...body.params, body.return] : [0, 1]);
  let pos = 0;

  /** Whether `local`, written in S (positions [from, to]) of block T, is seen only there: not
   * read before it, and read after it only once rewritten. */
  const privateTo = (local: number, T: number, from: number, to: number): boolean => {
    if (fixed.has(local) || (facts.lastExposed.get(local) ?? -1) > T) return false;
    const u = facts.uses[T]!;
    const lo = u.minRead(local);
    return lo === undefined || (lo >= from && u.deadAfter(local, to));
  };

  /** The lookups of S's body (already rewritten) that can move before S, and the body left. */
  const hoistFrom = (scan: Stmt & { type: "ScanStmt" }, body: Placed[], T: number, from: number, to: number): { out: Placed[]; rest: Placed[] } => {
    const u = facts.uses[T]!;
    const moved = new Set<number>();
    const { key: k, value: v } = scan.stmt;
    const invariant = (local: number) => moved.has(local) || (local !== k && local !== v && !u.writtenIn(local, from, to));
    if (!privateTo(k, T, from, to) || !privateTo(v, T, from, to)) return { out: [], rest: body };
    const out: Placed[] = [];
    const rest: Placed[] = [];
    let quiet = true;
    for (const p of body) {
      const s = p.s;
      if (quiet && s.type === "DotStmt") {
        const { source, key, target } = s.stmt;
        const ok =
          (source.type !== "local" || invariant(source.value)) &&
          (key.type !== "local" || invariant(key.value)) &&
          !u.writtenIn(target, from, p.pos - 1) &&
          !u.writtenIn(target, p.pos + 1, to) &&
          privateTo(target, T, p.pos + 1, to);
        if (ok) {
          out.push(p);
          moved.add(target);
          continue;
        }
      }
      rest.push(p);
      if (!quiet || !QUIET.has(s.type)) {
        quiet = false;
        continue;
      }
      forEachWrite(s, (l) => (quiet &&= privateTo(l, T, from, to)));
    }
    return { out, rest };
  };

  /** Rewrites a list; `plain`: its end means the same as a failure in it. */
  const rewriteList = (stmts: readonly Stmt[], T: number, plain: boolean): Placed[] => {
    const out: Placed[] = [];
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      const here = pos++;
      const nb = nestedBlocks(s);
      if (nb.length === 0) {
        out.push({ s, pos: here });
        continue;
      }
      const inner = nb.map((b) => rewriteList(b.stmts, T, s.type === "BlockStmt" || s.type === "ScanStmt"));
      if (s.type === "ScanStmt" && plain && i === stmts.length - 1) {
        const { out: before, rest } = hoistFrom(s, inner[0]!, T, here + 1, facts.ends[here]!);
        out.push(...before);
        out.push({ s: withBlocks(s, [block(nb[0]!, rest.map((p) => p.s))]), pos: here });
        continue;
      }
      out.push({
        s: withBlocks(
          s,
          nb.map((b, j) => block(b, inner[j]!.map((p) => p.s))),
        ),
        pos: here,
      });
    }
    return out;
  };

  return blocks.map((b, T) => block(b, rewriteList(b.stmts, T, true).map((p) => p.s)));
}

/** The guarded hoisting of lookups nested in blocks of a scan's body (see the header). */
function guardBody(blocks: Block[], body: Plan | Func, facts: BodyFacts): Block[] {
  const isFunc = "params" in body;
  const fixed = new Set<number>(isFunc ? [...body.params, body.return] : [0, 1]);
  let pos = 0;

  interface Loop {
    scan: Stmt & { type: "ScanStmt" };
    T: number;
    from: number;
    to: number;
    guards: Stmt[];
  }

  /** X (at `here`, in a list ending at `end`) moved before the loop: the IsDefinedStmt in its place. */
  const guard = (x: Stmt & { type: "DotStmt" }, here: number, end: number, loop: Loop): Stmt | undefined => {
    const u = facts.uses[loop.T]!;
    const { source, key, target } = x.stmt;
    const { key: k, value: v } = loop.scan.stmt;
    const invariant = (o: Operand) => o.type !== "local" || (o.value !== k && o.value !== v && !u.writtenIn(o.value, loop.from, loop.to));
    if (!invariant(source) || !invariant(key) || fixed.has(target)) return undefined;
    if (u.writtenIn(target, loop.from, here - 1) || u.writtenIn(target, here + 1, loop.to)) return undefined;
    if ((facts.lastExposed.get(target) ?? -1) > loop.T) return undefined;
    const lo = u.minRead(target);
    if (lo !== undefined && (lo <= here || !u.deadAfter(target, end))) return undefined;
    loop.guards.push(mk("BlockStmt", { ...at(x), blocks: [{ stmts: [x] }] }));
    return mk("IsDefinedStmt", { ...at(x), source: target });
  };

  /** Rewrites a list; `loop`: the innermost scan whose body holds it, through blocks and nots
   * only (`nested`: below that body's top level). */
  const rewriteList = (stmts: readonly Stmt[], loop: Loop | undefined, nested: boolean): Stmt[] => {
    const out: Stmt[] = [];
    const listEnd = stmts.length === 0 ? pos - 1 : -1;
    const first = pos;
    for (const s of stmts) {
      const here = pos++;
      if (s.type === "DotStmt" && loop && nested) {
        const end = listEnd >= 0 ? listEnd : lastOf(stmts, first);
        out.push(guard(s, here, end, loop) ?? s);
        continue;
      }
      const nb = nestedBlocks(s);
      if (nb.length === 0) {
        out.push(s);
        continue;
      }
      if (s.type === "ScanStmt") {
        const inner: Loop = { scan: s, T: currentT, from: here + 1, to: facts.ends[here]!, guards: [] };
        const body = rewriteList(nb[0]!.stmts, inner, false);
        const made = constantArrays(nb[0]!.stmts, inner);
        out.push(...inner.guards, ...made.map((i) => body[i]!), withBlocks(s, [block(nb[0]!, body.filter((_, i) => !made.includes(i)))]));
        continue;
      }
      const through = s.type === "BlockStmt" || s.type === "NotStmt" ? loop : undefined;
      out.push(
        withBlocks(
          s,
          nb.map((b) => block(b, rewriteList(b.stmts, through, true))),
        ),
      );
    }
    return out;
  };

  /** The indices, in the loop's body, of the statements making arrays of constants that can be
   * made before the loop. */
  const constantArrays = (stmts: readonly Stmt[], loop: Loop): number[] => {
    const u = facts.uses[loop.T]!;
    const at: number[] = [];
    for (let i = 0, p = loop.from; i < stmts.length; i++, p = facts.ends[p]! + 1) at.push(p);
    const out: number[] = [];
    for (let k = 0; k < stmts.length; k++) {
      const s = stmts[k]!;
      if (s.type !== "MakeArrayStmt") continue;
      const a = s.stmt.target;
      let m = k + 1;
      for (; m < stmts.length; m++) {
        const t = stmts[m]!;
        if (t.type !== "ArrayAppendStmt" || t.stmt.array !== a || t.stmt.value.type === "local") break;
      }
      const last = at[m - 1]!;
      const lo = u.minRead(a);
      const ok =
        !fixed.has(a) &&
        (facts.lastExposed.get(a) ?? -1) <= loop.T &&
        !u.writtenIn(a, loop.from, at[k]! - 1) &&
        !u.writtenIn(a, last + 1, loop.to) &&
        (lo === undefined || (lo > at[k]! && u.deadAfter(a, loop.to)));
      if (ok) for (let i = k; i < m; i++) out.push(i);
      k = m - 1;
    }
    return out;
  };

  /** The last position of a list whose first statement is at `first` (positions as analysed). */
  const lastOf = (stmts: readonly Stmt[], first: number): number => {
    let p = first;
    for (let i = 0; i < stmts.length - 1; i++) p = facts.ends[p]! + 1;
    return facts.ends[p]!;
  };

  let currentT = 0;
  return blocks.map((b, T) => {
    currentT = T;
    return block(b, rewriteList(b.stmts, undefined, false));
  });
}

/** Both hoistings over a plan or func, the plain one first; a body without a scan has nothing to
 * hoist. */
function hoistAll(blocks: Block[], body: Plan | Func): Block[] {
  if (blocks.every((b) => everyStmt(b.stmts, (s) => s.type !== "ScanStmt"))) return blocks;
  const dataLocal = "params" in body ? (body.params[1] ?? -1) : 1;
  const facts = analyse(blocks, dataLocal);
  const hoisted = hoistBody(blocks, body, facts);
  // The facts still hold when the plain hoisting moved nothing.
  return guardBody(hoisted, body, sameList(hoisted, blocks) ? facts : analyse(hoisted, dataLocal));
}

export const hoist: Pass = bodyPass("hoist", hoistAll);
