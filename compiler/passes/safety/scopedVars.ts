// Sets of bound variable names for the safety analysis (outputVars.ts) and its users. A closure's
// scope is a layer over the enclosing one (ScopedVars), never a copy: a body of n expressions with
// closures would otherwise copy O(n) names n times.

/** What the analysis asks of the variables known to be bound. */
export interface VarLookup {
  has(v: string): boolean;
}

/** Bound variables that can also be listed. */
export interface VarSet extends VarLookup, Iterable<string> {}

/** Additions of this scope over the enclosing one; lookups and iteration see both. */
export class ScopedVars implements VarSet {
  private readonly own = new Set<string>();
  constructor(private readonly parent: VarSet) {}

  has(v: string): boolean {
    // a loop down the scopes (they nest as deep as the closures do)
    let s: VarSet = this;
    while (s instanceof ScopedVars) {
      if (s.own.has(v)) return true;
      s = s.parent;
    }
    return s.has(v);
  }

  add(v: string): this {
    this.own.add(v);
    return this;
  }

  *[Symbol.iterator](): Iterator<string> {
    yield* this.parent;
    for (const v of this.own) if (!this.parent.has(v)) yield v;
  }
}
