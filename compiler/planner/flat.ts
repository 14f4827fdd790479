// Keeping the planner's continuations off the JS stack. The planner works in continuation style
// (planner.ts): planning a sequence — the expressions of a body, the elements of a collection,
// the operands of a call, the terms of a ref — plans item i with a continuation that plans item
// i+1, so a naive sequence of n items nests n continuations on the stack. Most items are *flat*:
// their planning calls the continuation at most once, as its last act, in the block it started
// in, and leaves no state behind that differs from what the continuation saw. The rest of the
// sequence can then be planned after the item returns instead of inside it: planSeqOf does that
// in a loop, and nests only at items that open a block (a scan, a `with`, a relation's result, a
// ref over rules with variable keys). The plan is the same statement for statement; only the
// stack shape differs. The same holds for a single term (planFlatTerm): its caller goes on after
// it instead of in a closure. A flat item's continuation is the planner's one SeqProbe, which
// only records that it ran and where.
//
// The isFlat* predicates mirror the planning functions (exprs.ts, terms.ts, refs.ts) and are
// conservative: an item they cannot vouch for is planned nested, as before. planSeqOf and
// planFlatTerm check the promise of each flat item as it runs (an internal error, never a wrong
// plan).
import type { Expr, Ref, Term } from "../ast/nodes.js";
import type { Block } from "../ir/types.js";
import { isScalar } from "../ast/terms.js";
import { varsOf } from "../ast/visit.js";
import { DATA, type Iter, type Planner } from "./planner.js";
import { planTerm } from "./terms.js";
import { assertNever } from "../../runtime/errors.js";

/** What the flat item being planned did with its continuation (see planSeqOf): one per planner,
 * its fields set for each flat item and put back for the sequence around it. */
export class SeqProbe {
  /** Times the continuation ran, and the statement mark (Planner.stmtMark; -1: in another block
   * than `block`) when it did. */
  calls = 0;
  mark = -1;
  block: Block | undefined;

  constructor(private readonly p: Planner) {}

  /** The continuation of every flat item. */
  readonly ran: Iter = () => {
    this.calls++;
    const block = this.block;
    this.mark = this.p.curr === block ? this.p.stmtMark() : -1;
  };
}

/** A sequence to plan (see planSeqOf): `n` items; `flat(p, i)` says whether item i plans
 * flatly; `step(p, i, next, flat)` plans it and calls `next` where the rest goes (for a flat
 * item `next` only records that it ran, and where: `step` may pass it on as it is); `done(p)`
 * continues after the last. */
export interface Seq {
  readonly n: number;
  flat(p: Planner, i: number): boolean;
  step(p: Planner, i: number, next: Iter, flat: boolean): void;
  done(p: Planner): void;
}

/** planSeqOf with the sequence given as functions. */
export function planSeq(
  p: Planner,
  n: number,
  flat: (i: number) => boolean,
  step: (i: number, next: Iter, flat: boolean) => void,
  done: Iter,
  from = 0,
): void {
  if (from >= n) return done();
  planSeqOf(p, new FnSeq(n, flat, step, done), from);
}

class FnSeq implements Seq {
  constructor(
    readonly n: number,
    private readonly isFlat: (i: number) => boolean,
    private readonly plan: (i: number, next: Iter, flat: boolean) => void,
    private readonly then: Iter,
  ) {}

  flat(_p: Planner, i: number): boolean {
    return this.isFlat(i);
  }
  step(_p: Planner, i: number, next: Iter, flat: boolean): void {
    this.plan(i, next, flat);
  }
  done(): void {
    this.then();
  }
}

/** Plans items `from`..n-1 of `seq` in order, each continuing into the next, then its `done`.
 * A sequence is planned for nearly every body, call, ref and collection: the flat items'
 * continuation is the planner's one SeqProbe, the most frequent sequences are objects of their
 * own classes (one object, where functions would be several closures and their context), and
 * this function makes no closure (V8 would give it a context object at every call). */
export function planSeqOf(p: Planner, seq: Seq, from = 0): void {
  const n = seq.n;
  if (from >= n) return seq.done(p);
  const probe = p.probe;
  // the probe of the item this sequence is part of (if any), put back before continuing it
  const outerCalls = probe.calls;
  const outerMark = probe.mark;
  const outerBlock = probe.block;
  let planned = true;
  for (let i = from; i < n; i++) {
    if (!seq.flat(p, i)) {
      probe.calls = outerCalls;
      probe.mark = outerMark;
      probe.block = outerBlock;
      return planSeqNested(p, seq, i);
    }
    const block = p.curr;
    probe.calls = 0;
    probe.mark = -1;
    probe.block = block;
    seq.step(p, i, probe.ran, true);
    const calls = probe.calls;
    // an item that cannot hold (e.g. arrays of different lengths) ends the sequence unplanned
    if (calls === 0) {
      planned = false;
      break;
    }
    if (calls !== 1 || probe.mark < 0 || p.curr !== block || p.stmtMark() !== probe.mark) {
      throw p.internalError("a flat planning step nested its continuation");
    }
  }
  probe.calls = outerCalls;
  probe.mark = outerMark;
  probe.block = outerBlock;
  if (planned) seq.done(p);
}

/** Item `i`, which does not plan flatly, with the rest of the sequence as its continuation. */
function planSeqNested(p: Planner, seq: Seq, i: number): void {
  const rest = i + 1;
  p.enter();
  seq.step(p, i, () => planSeqOf(p, seq, rest), false);
  p.leave();
}

/** Plans term `t`, which isFlatTerm vouches for, with the probe as its continuation (its state
 * saved and put back, as for a sequence of one item): whether it continued. The caller goes on
 * after it (terms.ts's planTermInline). */
export function planFlatTerm(p: Planner, t: Term): boolean {
  const probe = p.probe;
  const outerCalls = probe.calls;
  const outerMark = probe.mark;
  const outerBlock = probe.block;
  const block = p.curr;
  probe.calls = 0;
  probe.mark = -1;
  probe.block = block;
  planTerm(p, t, probe.ran);
  const calls = probe.calls;
  const mark = probe.mark;
  probe.calls = outerCalls;
  probe.mark = outerMark;
  probe.block = outerBlock;
  if (calls === 0) return false;
  if (calls !== 1 || mark < 0 || p.curr !== block || p.stmtMark() !== mark) {
    throw p.internalError("a flat planning step nested its continuation");
  }
  return true;
}

/** Whether planTerm(t) plans flatly. Everything but refs is: collections plan their elements in
 * sequence, comprehensions plan their bodies in a block of their own. */
export function isFlatTerm(p: Planner, t: Term): boolean {
  switch (t.type) {
    case "ref":
      return isFlatRef(p, t.value);
    case "array":
    case "set":
      for (const x of t.value) if (!isFlatTerm(p, x)) return false;
      return true;
    case "object":
      for (const [k, v] of t.value) if (!isFlatTerm(p, k) || !isFlatTerm(p, v)) return false;
      return true;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return true;
    default:
      assertNever(t);
  }
}

/** Refs into data are flat when every term after `data` is a scalar (the path down the rule trie
 * is then fixed: calls, dots and extents, no alternatives); other refs when no term has an unbound
 * var (dots, no scans). */
function isFlatRef(p: Planner, ref: Ref): boolean {
  const head = ref[0];
  if (head?.type !== "var") return true; // an error
  if (head.value === DATA) {
    for (let i = 1; i < ref.length; i++) if (!isScalar(ref[i]!)) return false;
    return true;
  }
  for (let i = 1; i < ref.length; i++) {
    const t = ref[i]!;
    if (isScalar(t)) continue;
    if (t.type === "var") {
      if (p.vars.get(t.value) === undefined) return false;
      continue;
    }
    for (const v of varsOf(t)) if (p.vars.get(v) === undefined) return false;
    if (!isFlatTerm(p, t)) return false;
  }
  return true;
}

/** Whether planUnifyLocal(local, b) plans flatly. */
export function isFlatUnifyLocal(p: Planner, b: Term): boolean {
  switch (b.type) {
    case "var":
      return true;
    case "array":
      for (const x of b.value) if (!isFlatUnifyLocal(p, x)) return false;
      return true;
    case "object":
      for (const [k, v] of b.value) if (!isFlatTerm(p, k) || !isFlatUnifyLocal(p, v)) return false;
      return true;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "ref":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return isFlatTerm(p, b);
    default:
      assertNever(b);
  }
}

function bound(p: Planner, t: Term): boolean {
  return t.type === "var" && p.vars.get(t.value) !== undefined;
}

/** Whether planUnify(a, b) plans flatly. */
export function isFlatUnify(p: Planner, a: Term, b: Term): boolean {
  switch (a.type) {
    case "var":
      return bound(p, a) ? isFlatUnifyLocal(p, b) : isFlatTerm(p, b);
    case "array":
    case "object":
      if (b.type === "var") return bound(p, b) ? isFlatUnifyLocal(p, a) : isFlatTerm(p, a);
      if (a.type === "array" && b.type === "array") {
        if (a.value.length !== b.value.length) return true;
        for (let i = 0; i < a.value.length; i++) if (!isFlatUnify(p, a.value[i]!, b.value[i]!)) return false;
        return true;
      }
      if (a.type === "object" && b.type === "object") {
        // values unify pairwise (planUnify), keys and both objects may be planned as terms: a
        // side that is flat as a term and as a pattern is flat in any of those roles
        return isFlatTerm(p, a) && isFlatUnifyLocal(p, a) && isFlatTerm(p, b) && isFlatUnifyLocal(p, b);
      }
      return isFlatTerm(p, b) && isFlatUnifyLocal(p, a);
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "ref":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return isFlatTerm(p, a) && isFlatUnifyLocal(p, b);
    default:
      assertNever(a);
  }
}

/** Whether planExpr(e) plans flatly: negations, `every`, `and`/`or` and `not` groups plan their
 * insides in blocks of their own and continue last; `with` nests the rest in its blocks; calls
 * are flat when their operands are (and, for relations, when the result is not iterated). */
export function isFlatExpr(p: Planner, e: Expr): boolean {
  if (e.negated) return true;
  if (e.with.length > 0) return false;
  const ts = e.terms;
  if (!Array.isArray(ts)) {
    const t = ts as Term;
    if (t.type === "ref") return isFlatRef(p, t.value);
    return true;
  }
  const op = ts[0];
  if (op?.type !== "ref") return true; // an error
  const operator = p.operatorName(op.value);
  if (operator === "eq") return ts.length !== 3 || isFlatUnify(p, ts[1]!, ts[2]!);
  if (p.mocks.lookup(operator)) return false;
  const node = p.rules.lookup(op.value);
  let arity: number;
  if (node && node.rulesOf().length > 0) arity = node.arity();
  else {
    const decl = p.input.builtins.get(operator);
    if (!decl) return true; // an error
    arity = decl.arity;
    if (decl.relation && ts.length - 1 !== arity) return false;
  }
  const n = ts.length - 1;
  if (n !== arity && n !== arity + 1) return true; // an error
  for (let i = 1; i <= arity; i++) if (!isFlatTerm(p, ts[i]!)) return false;
  return n === arity || isFlatUnifyLocal(p, ts[n]!);
}
