// The sink the safety analysis collects an expression's variables in (ast/visit.ts' varsOf with
// SAFETY_PARAMS), once for every expression of every body it reorders.
import type { VarSink } from "../../ast/visit.js";

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
