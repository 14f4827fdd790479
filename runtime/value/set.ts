// RegoSet: a hash-based set of values with structural membership. Iteration and serialisation
// follow OPA's canonical (sorted) order; the sorted view is cached until the next add.
import { sortValues } from "./compare.js";
import { canonicalKey, collectionCanonical, primitiveKey, type PrimitiveKey } from "./key.js";
import { RegoObject } from "./object.js";
import { Special, type Value } from "./value.js";

/** `T` types the elements for signatures (a generated set rule returns `RegoSet<string>`): the set
 * itself holds any value. */
export class RegoSet<T extends Value = Value> extends Special implements Iterable<T> {
  readonly rank = 6;
  /** Strings, booleans, null and most numbers: each its own key and its own element. */
  private readonly prim = new Set<PrimitiveKey>();
  private comp: Map<string, Value> | undefined;
  /** Objects of one string key and a scalar value (`{"msg": "..."}`, the elements of a violation
   * set), by key then value: they need no canonical text. */
  private single: Map<string, Map<PrimitiveKey, Value>> | undefined;
  private singleSize = 0;
  private sortedCache: Value[] | undefined;

  constructor(values?: Iterable<T>) {
    super();
    if (values) for (const v of values) this.add(v);
  }

  get size(): number {
    return this.prim.size + (this.comp ? this.comp.size : 0) + this.singleSize;
  }

  /** Adds a value; returns false when an equal value was already present. */
  add(v: T): boolean {
    const pk = primitiveKey(v);
    if (pk === undefined) return this.addComposite(v);
    // One hash: add, then see whether the size grew. A scalar is its own key (0 for -0).
    const prim = this.prim;
    const n = prim.size;
    prim.add(pk);
    if (prim.size === n) return false;
    this.sortedCache = undefined;
    return true;
  }

  /** add for a value primitiveKey does not key (kept apart so that a scalar's add stays small). */
  private addComposite(v: T): boolean {
    if (singleScalarKey(v) !== undefined) {
      const single = (this.single ??= new Map());
      let byValue = single.get(entryKey);
      if (byValue === undefined) single.set(entryKey, (byValue = new Map()));
      const n = byValue.size;
      byValue.set(entryValue, v);
      if (byValue.size === n) return false;
      this.singleSize++;
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
    if (singleScalarKey(v) !== undefined) return this.single?.get(entryKey)?.has(entryValue) === true;
    return this.comp !== undefined && this.comp.has(canonicalKey(v));
  }

  /** The stored element equal to v, or undefined (a set looked up by a key yields the key). */
  get(v: Value): T | undefined {
    const pk = primitiveKey(v);
    if (pk !== undefined) return this.prim.has(pk) ? (pk as T) : undefined;
    if (singleScalarKey(v) !== undefined) return this.single?.get(entryKey)?.get(entryValue) as T | undefined;
    return this.comp?.get(canonicalKey(v)) as T | undefined;
  }

  /** Elements in OPA's order (cached; do not mutate the returned array). */
  sorted(): readonly T[] {
    if (this.sortedCache) return this.sortedCache as T[];
    const out: Value[] = [...this.prim];
    if (this.comp) for (const v of this.comp.values()) out.push(v);
    if (this.single) for (const byValue of this.single.values()) for (const v of byValue.values()) out.push(v);
    sortValues(out);
    this.sortedCache = out;
    return out as T[];
  }

  /** Elements in insertion order: cheaper, for order-free work (membership, counting, unions). */
  unordered(): IterableIterator<T> {
    const prim = this.prim.values() as IterableIterator<T>;
    const comp = this.comp?.values() as IterableIterator<T> | undefined;
    const single = this.single?.values() as IterableIterator<Map<PrimitiveKey, T>> | undefined;
    return (function* () {
      yield* prim;
      if (comp) yield* comp;
      if (single) for (const byValue of single) yield* byValue.values();
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

// singleScalarKey's answer: the entry of a one-entry object with a scalar value.
let entryKey = "";
let entryValue: PrimitiveKey = null;

/** The key of an object of one string key whose value is a scalar (entryKey and entryValue set to
 * its key and the value's primitiveKey), else undefined. Whether an object goes this way depends
 * on its value alone, so equal objects always do. */
function singleScalarKey(v: Value): string | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  let key: string | undefined;
  let value: Value | undefined;
  if (v instanceof Special) {
    if (!(v instanceof RegoObject) || v.size !== 1) return undefined;
    for (const [k, x] of v.unordered()) {
      if (typeof k !== "string") return undefined;
      key = k;
      value = x;
    }
  } else {
    // (for-in also sees an enumerable inherited key: then there are two, or the one is not own)
    for (const k in v) {
      if (key !== undefined) return undefined;
      key = k;
    }
    if (key === undefined || !Object.hasOwn(v, key)) return undefined;
    value = v[key];
  }
  const pk = value === undefined ? undefined : primitiveKey(value);
  if (pk === undefined) return undefined;
  entryKey = key!;
  entryValue = pk;
  return key;
}
