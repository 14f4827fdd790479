// The variables of an expression as the safety analysis counts them: what visit.ts' varsOf
// collects with SAFETY_PARAMS (call operators' names and closures skipped). A walk of its own,
// with the parameters fixed, because the reordering runs it for every expression of every body
// (hot, see bench/frontend.bench.ts). Tests hold the two to
// the same answers (test/unit/compiler/passes/safety.test.ts).
import type { Body, Expr, Term, With } from "../ast/nodes.js";

/** Where the walk adds the vars it finds: a set, or a list that keeps them distinct itself. */
export interface VarSink {
  add(v: string): unknown;
}

/** What a NameList with nothing in it takes out (shared, never written). */
export const NO_NAMES: readonly string[] = [];

/** Distinct names in the order first added (a set's order), in a buffer reused from use to use
 * and copied out at its exact length: an expression has a handful of vars, and the safety
 * analysis collects them for every expression it walks and every equality it unifies. Past 16
 * names a set answers the look-ups, so a long list (a unification of thousands of vars) stays
 * linear. */
export class NameList implements VarSink {
  private readonly buf: string[] = [];
  private seen: Set<string> | undefined;
  private count = 0;

  /** How many names it holds. */
  get n(): number {
    return this.count;
  }

  clear(): void {
    this.count = 0;
    this.seen = undefined;
  }

  has(v: string): boolean {
    if (this.seen !== undefined) return this.seen.has(v);
    const buf = this.buf;
    for (let i = 0; i < this.count; i++) if (buf[i] === v) return true;
    return false;
  }

  add(v: string): void {
    const n = this.count;
    const seen = this.seen;
    if (seen !== undefined) {
      if (seen.has(v)) return;
      seen.add(v);
    } else {
      const buf = this.buf;
      for (let i = 0; i < n; i++) if (buf[i] === v) return;
      if (n === 16) this.seen = new Set(buf.slice(0, n)).add(v);
    }
    this.buf[n] = v;
    this.count = n + 1;
  }

  at(i: number): string {
    return this.buf[i]!;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.count; i++) yield this.buf[i]!;
  }

  /** Keeps the names `drop` does not have, in their order. */
  remove(drop: { has(v: string): boolean }): void {
    const buf = this.buf;
    let k = 0;
    for (let i = 0; i < this.count; i++) if (!drop.has(buf[i]!)) buf[k++] = buf[i]!;
    if (k === this.count) return;
    this.count = k;
    this.seen = k > 16 ? new Set(buf.slice(0, k)) : undefined;
  }

  /** The names (a new array, or NO_NAMES) and an empty list. */
  take(): readonly string[] {
    const n = this.count;
    this.clear();
    return n === 0 ? NO_NAMES : this.buf.slice(0, n);
  }
}

/** Adds the vars of an expression (SAFETY_PARAMS) to `into`, in varsOf's order. */
export function safetyVarsOfExpr(e: Expr, into: VarSink): void {
  const ts = e.terms;
  if (Array.isArray(ts)) {
    operator(ts[0]!, into);
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  } else if (ts.type === "some") {
    for (const s of ts.symbols) term(s, into);
  } else if (ts.type === "every") {
    // a closure: only its domain counts
    term(ts.domain, into);
  } else if (ts.type !== "and" && ts.type !== "or" && ts.type !== "not") {
    term(ts as Term, into);
  }
  for (const w of e.with) withVars(w, into);
}

/** Adds the vars of a body's expressions (SAFETY_PARAMS) to `into`. */
export function safetyVarsOfBody(body: Body, into: VarSink): void {
  for (const e of body) safetyVarsOfExpr(e, into);
}

/** A call's operator: only the operands of an operator ref. */
function operator(op: Term, into: VarSink): void {
  if (op.type === "ref") {
    const ts = op.value;
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  } else term(op, into);
}

function withVars(w: With, into: VarSink): void {
  if (w.target.type === "ref") {
    const ts = w.target.value;
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  }
  if (w.value.type === "ref") {
    const ts = w.value.value;
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  } else term(w.value, into);
}

function term(t: Term, into: VarSink): void {
  switch (t.type) {
    case "var":
      into.add(t.value);
      return;
    case "ref":
    case "array":
    case "set":
      for (const x of t.value) term(x, into);
      return;
    case "object":
      for (const [k, v] of t.value) {
        term(k, into);
        term(v, into);
      }
      return;
    case "call": {
      const ts = t.value;
      operator(ts[0]!, into);
      for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
      return;
    }
    default:
      // scalars, and closures (comprehensions, template strings): nothing
      return;
  }
}
