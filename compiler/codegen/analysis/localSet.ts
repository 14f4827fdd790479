// A set of locals for the definedness flow (kinds.ts), which makes and intersects one per block
// of every func it asks of: as a bitset, the locals of a func (small numbers, in practice) cost one
// typed array, and a copy or an intersection one pass over it — where a Set<number> grows by
// rehashing and copies element by element. Locals from BITSET_LIMIT on (a valid plan may number
// them up to 2^31 - 1) go to a Set instead, so that a huge number costs no huge array.

/** Locals below this are bits; the rest are kept in a Set. */
const BITSET_LIMIT = 1 << 16;

export class LocalSet {
  private words: Int32Array;
  private large: Set<number> | undefined;

  private constructor(words: Int32Array, large: Set<number> | undefined) {
    this.words = words;
    this.large = large;
  }

  static of(locals: Iterable<number>): LocalSet {
    const s = new LocalSet(new Int32Array(2), undefined);
    for (const l of locals) s.add(l);
    return s;
  }

  has(local: number): boolean {
    if (local >= BITSET_LIMIT) return this.large?.has(local) ?? false;
    const w = local >>> 5;
    return w < this.words.length && (this.words[w]! & (1 << (local & 31))) !== 0;
  }

  add(local: number): void {
    if (local >= BITSET_LIMIT) {
      (this.large ??= new Set()).add(local);
      return;
    }
    const w = local >>> 5;
    if (w >= this.words.length) {
      const grown = new Int32Array(Math.max(w + 1, this.words.length * 2));
      grown.set(this.words);
      this.words = grown;
    }
    this.words[w]! |= 1 << (local & 31);
  }

  delete(local: number): void {
    if (local >= BITSET_LIMIT) {
      this.large?.delete(local);
      return;
    }
    const w = local >>> 5;
    if (w < this.words.length) this.words[w]! &= ~(1 << (local & 31));
  }

  copy(): LocalSet {
    return new LocalSet(this.words.slice(), this.large && new Set(this.large));
  }

  /** Keeps only the locals that are also in `other`, except that `minus` goes and `plus` stays
   * (if it is here): this ∩ (other − minus + plus). */
  intersect(other: LocalSet, minus?: number, plus?: number): void {
    const keepPlus = plus !== undefined && this.has(plus);
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] = i < b.length ? a[i]! & b[i]! : 0;
    if (this.large) for (const x of this.large) if (!other.has(x)) this.large.delete(x);
    if (minus !== undefined) this.delete(minus);
    if (keepPlus) this.add(plus);
  }
}
