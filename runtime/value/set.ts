// RegoSet: a hash-based set of values with structural membership. Iteration and serialisation
// follow OPA's canonical (sorted) order; the sorted view is cached until the next add.
import { compare } from "./compare.js";
import { canonicalKey, collectionCanonical, primitiveKey, type PrimitiveKey } from "./key.js";
import { Special, type Value } from "./value.js";

/** `T` types the elements for signatures (a generated set rule returns `RegoSet<string>`): the set
 * itself holds any value. */
export class RegoSet<T extends Value = Value> extends Special implements Iterable<T> {
  readonly rank = 6;
  private readonly prim = new Map<PrimitiveKey, Value>();
  private comp: Map<string, Value> | undefined;
  private sortedCache: Value[] | undefined;

  constructor(values?: Iterable<T>) {
    super();
    if (values) for (const v of values) this.add(v);
  }

  get size(): number {
    return this.prim.size + (this.comp ? this.comp.size : 0);
  }

  /** Adds a value; returns false when an equal value was already present. */
  add(v: T): boolean {
    const pk = primitiveKey(v);
    if (pk !== undefined) {
      // One hash: set, then see whether the size grew. A scalar is its own key (0 for -0).
      const n = this.prim.size;
      this.prim.set(pk, pk);
      if (this.prim.size === n) return false;
    } else {
      const ck = canonicalKey(v);
      const comp = (this.comp ??= new Map());
      if (comp.has(ck)) return false;
      comp.set(ck, v);
    }
    this.sortedCache = undefined;
    return true;
  }

  has(v: Value): boolean {
    const pk = primitiveKey(v);
    if (pk !== undefined) return this.prim.has(pk);
    return this.comp !== undefined && this.comp.has(canonicalKey(v));
  }

  /** The stored element equal to v, or undefined (a set looked up by a key yields the key). */
  get(v: Value): T | undefined {
    const pk = primitiveKey(v);
    if (pk !== undefined) return this.prim.get(pk) as T | undefined;
    return this.comp?.get(canonicalKey(v)) as T | undefined;
  }

  /** Elements in OPA's order (cached; do not mutate the returned array). */
  sorted(): readonly T[] {
    if (this.sortedCache) return this.sortedCache as T[];
    const out: Value[] = [...this.prim.values()];
    if (this.comp) for (const v of this.comp.values()) out.push(v);
    out.sort(compare);
    this.sortedCache = out;
    return out as T[];
  }

  /** Elements in insertion order: cheaper, for order-free work (membership, counting, unions). */
  unordered(): IterableIterator<T> {
    const prim = this.prim.values() as IterableIterator<T>;
    const comp = this.comp?.values() as IterableIterator<T> | undefined;
    return (function* () {
      yield* prim;
      if (comp) yield* comp;
    })();
  }

  [Symbol.iterator](): Iterator<T> {
    return this.sorted()[Symbol.iterator]();
  }

  canonical(): string {
    const parts: string[] = [];
    for (const v of this.unordered()) parts.push(canonicalKey(v));
    return collectionCanonical("set", parts);
  }
}

export function isSet(v: unknown): v is RegoSet {
  return v instanceof RegoSet;
}
