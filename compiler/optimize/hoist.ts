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
import type { Block, Func, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { block, mapBodies, nestedBlocks, withBlocks } from "./stmts.js";
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

function hoistBody(blocks: Block[], body: Plan | Func): Block[] {
  const isFunc = "params" in body;
  const facts: BodyFacts = analyse(blocks, isFunc ? (body.params[1] ?? -1) : 1);
  const fixed = new Set<number>(isFunc ? [...body.params, body.return] : [0, 1]);
  let pos = 0;

  /** Whether `local`, written in S (positions [from, to]) of block T, is seen only there: not
   * read before it, and read after it only once rewritten. */
  const privateTo = (local: number, T: number, from: number, to: number): boolean => {
    if (fixed.has(local) || (facts.lastExposed.get(local) ?? -1) > T) return false;
    const u = facts.uses[T]!;
    const lo = u.minRead.get(local);
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

export const hoist: Pass = {
  name: "hoist",
  run: (policy: Policy) => mapBodies(policy, hoistBody),
};
