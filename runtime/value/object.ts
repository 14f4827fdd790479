// Objects. A string-keyed Rego object is a plain JS object (the caller's JSON, a null-prototype
// object the runtime made, or an object literal of generated code); an object with any non-string
// key is a RegoObject, a hash map keyed structurally. The helpers here work on both and are the
// only way the runtime reads objects.
import { compare, sortStrings } from "./compare.js";
import { canonicalKey, collectionCanonical, primitiveKey, type PrimitiveKey } from "./key.js";
import { Special, isPlainObject, newPlainObject, setOwn, type PlainObject, type Value } from "./value.js";

type Entry = [key: Value, value: Value];

export class RegoObject extends Special {
  readonly rank = 5;
  private readonly prim = new Map<PrimitiveKey, Entry>();
  private comp: Map<string, Entry> | undefined;
  private sortedCache: Entry[] | undefined;

  constructor(entries?: Iterable<readonly [Value, Value]>) {
    super();
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  get size(): number {
    return this.prim.size + (this.comp ? this.comp.size : 0);
  }

  private entry(k: Value): Entry | undefined {
    const pk = primitiveKey(k);
    if (pk !== undefined) return this.prim.get(pk);
    return this.comp?.get(canonicalKey(k));
  }

  get(k: Value): Value | undefined {
    return this.entry(k)?.[1];
  }

  has(k: Value): boolean {
    return this.entry(k) !== undefined;
  }

  set(k: Value, v: Value): void {
    const e = this.entry(k);
    if (e) {
      e[1] = v;
      return;
    }
    const pk = primitiveKey(k);
    if (pk !== undefined) this.prim.set(pk, [k, v]);
    else (this.comp ??= new Map()).set(canonicalKey(k), [k, v]);
    this.sortedCache = undefined;
  }

  /** The entry of key `k`, added with value `v` when there is none: its value may be replaced in
   * place (one hash for a read and a write). */
  slot(k: Value, v: Value): Entry {
    const pk = primitiveKey(k);
    let e = pk !== undefined ? this.prim.get(pk) : this.comp?.get(canonicalKey(k));
    if (e !== undefined) return e;
    e = [k, v];
    if (pk !== undefined) this.prim.set(pk, e);
    else (this.comp ??= new Map()).set(canonicalKey(k), e);
    this.sortedCache = undefined;
    return e;
  }

  /** Entries sorted by key in OPA's order (cached; do not mutate). */
  sorted(): readonly Entry[] {
    if (this.sortedCache) return this.sortedCache;
    const out: Entry[] = [...this.prim.values()];
    if (this.comp) for (const e of this.comp.values()) out.push(e);
    out.sort((a, b) => compare(a[0], b[0]));
    this.sortedCache = out;
    return out;
  }

  unordered(): IterableIterator<Entry> {
    const prim = this.prim.values();
    const comp = this.comp?.values();
    return (function* () {
      yield* prim;
      if (comp) yield* comp;
    })();
  }

  canonical(): string {
    const parts: string[] = [];
    for (const [k, v] of this.unordered()) parts.push(`${canonicalKey(k)}:${canonicalKey(v)}`);
    return collectionCanonical("object", parts);
  }
}

export type ObjectValue = PlainObject | RegoObject;

export function isObject(v: unknown): v is ObjectValue {
  return isPlainObject(v) || v instanceof RegoObject;
}

/** `o[k]` for any object and any key value (own properties only). */
export function objectGet(o: ObjectValue, k: Value): Value | undefined {
  if (o instanceof RegoObject) return o.get(k);
  return typeof k === "string" && Object.hasOwn(o, k) ? o[k] : undefined;
}

export function objectHas(o: ObjectValue, k: Value): boolean {
  if (o instanceof RegoObject) return o.has(k);
  return typeof k === "string" && Object.hasOwn(o, k);
}

export function objectSize(o: ObjectValue): number {
  return o instanceof RegoObject ? o.size : Object.keys(o).length;
}

const sortedKeysCache = new WeakMap<PlainObject, string[]>();

/** The number of own enumerable keys, without the array Object.keys makes. */
function ownKeyCount(o: PlainObject): number {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k)) n++;
  return n;
}

/** The keys of a plain object in OPA's order. Cached per object: do not mutate the object after. */
export function sortedPlainKeys(o: PlainObject): readonly string[] {
  let keys = sortedKeysCache.get(o);
  if (keys === undefined || keys.length !== ownKeyCount(o)) {
    keys = sortStrings(Object.keys(o));
    sortedKeysCache.set(o, keys);
  }
  return keys;
}

/** Entries in OPA's key order. */
export function objectEntries(o: ObjectValue): Array<readonly [Value, Value]> {
  if (o instanceof RegoObject) return o.sorted().slice();
  return sortedPlainKeys(o).map((k) => [k, o[k]!] as const);
}

/** Keys in OPA's order. */
export function objectKeys(o: ObjectValue): Value[] {
  if (o instanceof RegoObject) return o.sorted().map((e) => e[0]);
  return sortedPlainKeys(o).slice();
}

/**
 * Inserts into an object the runtime is building (never into input or data) and returns the
 * object, which is a new RegoObject when a non-string key meets a plain object.
 */
export function objectInsert(o: ObjectValue, k: Value, v: Value): ObjectValue {
  if (o instanceof RegoObject) {
    o.set(k, v);
    return o;
  }
  if (typeof k === "string") {
    setOwn(o, k, v);
    return o;
  }
  const r = new RegoObject();
  for (const key of Object.keys(o)) r.set(key, o[key]!);
  r.set(k, v);
  return r;
}

/** An object from entries, plain when every key is a string. */
export function makeObject(entries: Iterable<readonly [Value, Value]>): ObjectValue {
  let o: ObjectValue = newPlainObject();
  for (const [k, v] of entries) o = objectInsert(o, k, v);
  return o;
}
