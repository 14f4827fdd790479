// The operations generated code calls for IR statements that are more than a line of JS:
// lookups (DotStmt), lengths, scans in OPA's order, collection building (ArrayAppend, SetAdd,
// ObjectInsert[Once]), ObjectMerge, the copy-on-write upsert of WithStmt, conflict checks and
// number constants. They read the caller's JSON as it is (own properties only) and never mutate
// input or data: the collections they mutate are ones the plan has just made.
import { RegoError, type Location } from "../errors.js";
import { compare, equal } from "../value/compare.js";
import { BigNum, numberFromText, numberText, type Num } from "../value/number.js";
import { RegoObject, isObject, objectGet, objectHas, objectInsert, sortedPlainKeys, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { ConflictSites } from "./sites.js";
import { Special, copyPlainObject, isPlainObject, newPlainObject, rank, setOwn, type MaybeValue, type PlainObject, type Value } from "../value/value.js";

type V = MaybeValue;

/** A broken invariant of the plan (the planner never produces it); not a policy error. */
export function internalError(message: string): RegoError {
  return new RegoError("eval_internal_error", message);
}

/** DotStmt: `source[key]` — object value, array element (integral index in range), set member. */
export function dot(source: V, key: V): V {
  if (typeof key === "string") return dotKey(source, key);
  if (typeof source !== "object" || source === null || key === undefined) return undefined;
  if (Array.isArray(source)) {
    return typeof key === "number" && Number.isInteger(key) && key >= 0 && key < source.length ? source[key] : undefined;
  }
  if (source instanceof Special) {
    if (source instanceof RegoObject || source instanceof RegoSet) return source.get(key);
  }
  return undefined;
}

/** DotStmt with a constant string key (the common `input.user.role` chain). */
export function dotKey(source: V, key: string): V {
  if (typeof source !== "object" || source === null) return undefined;
  if (source instanceof Special) return source instanceof RegoObject || source instanceof RegoSet ? source.get(key) : undefined;
  // An array's own keys ("0", "length") are not fields: checked only on a hit.
  return hasOwnProperty.call(source, key) && !Array.isArray(source) ? source[key] : undefined;
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/**
 * Generated code reads each constant key with a reader of its own, so that each load keeps an
 * inline cache for its one key (a shared dotKey's load sees every shape and key in the process):
 *   const dotOwner = (o) => (o !== undefined && o !== null && o["owner"] !== undefined &&
 *     (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("owner" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null)
 *     ? o["owner"] : dotKey(o, "owner"))
 * The value loaded is an own property when the object's prototype is Object.prototype and
 * Object.prototype has no such key, or when it has no prototype: a polluted prototype is never
 * read through; an array, a scalar (its prototype is its wrapper's) or a Rego value goes to dotKey.
 * The load comes first, after only the two tests a load needs not to throw: its map check then
 * stands for the object test (a `typeof o === "object"` before it is a test of its own), the
 * object's shape is known, and the prototype test and the `in` fold to constants in optimised code
 * (no lookup of the key is left). The prototype test is written in the reader, not called: a call
 * into the runtime does not fold as well. In a loop of a guarded block (a later rule body) the
 * reader's body is written in place on the value read: V8 inlines no call at a site the
 * function's early runs rarely reached, however small the callee.
 */
export const getPrototypeOf: (o: NonNullable<Value>) => object | null = Object.getPrototypeOf;

/** Object.prototype, for the field readers' test that it has no such key (see getPrototypeOf). */
export const OBJECT_PROTOTYPE: object = Object.prototype;

/**
 * DotStmt on base data: OPA reads base documents by storage path, where a number key is its text
 * (`data[2]` reads key "2"); everything else is `dot`.
 */
export function dotData(source: V, key: V): V {
  if (typeof key === "string") return dotKey(source, key);
  if ((typeof key === "number" || key instanceof BigNum) && typeof source === "object" && source !== null && !Array.isArray(source) && !(source instanceof Special)) {
    const k = numberText(key);
    return hasOwnProperty.call(source, k) ? source[k] : undefined;
  }
  return dot(source, key);
}

/** LenStmt: elements of an array, object or set; code points of a string; 0 otherwise. */
export function len(v: V): number {
  if (typeof v === "string") {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff || i + 1 === v.length) n++;
      else {
        const d = v.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
        n++;
      }
    }
    return n;
  }
  if (typeof v !== "object" || v === null) return 0;
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoSet || v instanceof RegoObject) return v.size;
  if (v instanceof Special) return 0;
  return Object.keys(v).length;
}

// The comparison builtins, called without a call site or context: OPA's total order over any two
// values never fails. Undefined when an operand is (as every builtin call).

/** `a < b` (builtin lt). */
export function lt(a: V, b: V): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  return typeof a === "number" && typeof b === "number" ? a < b : compare(a, b) < 0;
}

/** `a <= b` (builtin lte). */
export function lte(a: V, b: V): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  return typeof a === "number" && typeof b === "number" ? a <= b : compare(a, b) <= 0;
}

/** `a > b` (builtin gt). */
export function gt(a: V, b: V): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  return typeof a === "number" && typeof b === "number" ? a > b : compare(a, b) > 0;
}

/** `a >= b` (builtin gte). */
export function gte(a: V, b: V): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  return typeof a === "number" && typeof b === "number" ? a >= b : compare(a, b) >= 0;
}

/** `a == b` (builtin equal, which OPA's own plans call for `==`). */
export function eq(a: V, b: V): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  return equal(a, b);
}

/** `a != b` (builtin neq). */
export function neq(a: V, b: V): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  return !equal(a, b);
}

/** `x in coll` (builtin internal.member_2): an element of an array or set, a value of an object. */
export function member(x: V, coll: V): boolean | undefined {
  if (x === undefined || coll === undefined) return undefined;
  if (Array.isArray(coll)) {
    // A string, boolean or null equals exactly the elements it is `===` to (numbers may be BigNums).
    if (typeof x === "string" || typeof x === "boolean" || x === null) return coll.includes(x);
    for (let i = 0; i < coll.length; i++) if (equal(x, coll[i])) return true;
    return false;
  }
  if (coll instanceof RegoSet) return coll.has(x);
  if (coll instanceof RegoObject) {
    for (const [, v] of coll.unordered()) if (equal(x, v)) return true;
    return false;
  }
  if (isPlainObject(coll)) {
    for (const k of Object.keys(coll)) if (equal(x, coll[k])) return true;
  }
  return false;
}

// The type tests (builtins is_<type>), true or false for any value.
export const isNullType = (v: V): boolean | undefined => (v === undefined ? undefined : v === null);
export const isBooleanType = (v: V): boolean | undefined => (v === undefined ? undefined : typeof v === "boolean");
export const isNumberType = (v: V): boolean | undefined => (v === undefined ? undefined : rank(v) === 2);
export const isStringType = (v: V): boolean | undefined => (v === undefined ? undefined : typeof v === "string");
export const isArrayType = (v: V): boolean | undefined => (v === undefined ? undefined : Array.isArray(v));
export const isObjectType = (v: V): boolean | undefined => (v === undefined ? undefined : isObject(v));
export const isSetType = (v: V): boolean | undefined => (v === undefined ? undefined : v instanceof RegoSet);

/** IsSetStmt. */
export function isSetValue(v: V): boolean {
  return v instanceof RegoSet;
}

/** IsObjectStmt. */
export function isObjectValue(v: V): boolean {
  return v !== undefined && isObject(v);
}

/**
 * ScanStmt's view of a collection, in OPA's order: an array is its own view (keys are indices); a
 * set's view is its sorted elements (key and value alike), a plain object's its sorted keys, a
 * RegoObject's its sorted entries — each cached by the collection, so a scan allocates nothing;
 * anything else has an empty view (scans never fail). Generated loops read it by index:
 * `for (let x = src, v = scanView(x), i = 0; i < v.length; i++) { k = scanKey(x, v, i); ... }`.
 */
export type ScanView = readonly unknown[];

export function scanView(source: V): ScanView {
  if (typeof source !== "object" || source === null) return NONE;
  if (Array.isArray(source)) return source;
  if (source instanceof RegoSet || source instanceof RegoObject) return source.sorted();
  if (source instanceof Special) return NONE;
  return sortedPlainKeys(source);
}

/** The key of a scan's element `i` (see scanView). */
export function scanKey(source: V, view: ScanView, i: number): Value {
  if (source === view) return i;
  return source instanceof RegoObject ? (view[i] as Entry)[0] : (view[i] as Value);
}

/** The value of a scan's element `i` (see scanView). */
export function scanValue(source: V, view: ScanView, i: number): Value {
  if (source === view || source instanceof RegoSet) return view[i] as Value;
  if (source instanceof RegoObject) return (view[i] as Entry)[1];
  return (source as PlainObject)[view[i] as string]!;
}

type Entry = readonly [Value, Value];

const NONE: readonly never[] = Object.freeze([]);

/** An array of constants generated code builds once, at load (a module constant): frozen, as it
 * is shared by every evaluation (the code only scans it and tests membership in it). */
export function constantArray(values: Value[]): Value[] {
  return Object.freeze(values) as Value[];
}

/** MakeObjectStmt: a fresh null-prototype object. */
export function newObject(): PlainObject {
  return newPlainObject();
}

/** ArrayAppendStmt. */
export function push(array: V, value: V): void {
  if (!Array.isArray(array)) throw internalError("ArrayAppendStmt: target is not an array");
  if (value === undefined) throw internalError("ArrayAppendStmt: value is undefined");
  array.push(value);
}

/** Makes room for `n` more elements at the end of an array a comprehension is building, and returns
 * the index of the first: the caller writes them in order, then sets the length it reached (the
 * array is sized once, not grown by each push). */
export function reserve(array: V, n: number): number {
  const a = array as Value[];
  const at = a.length;
  a.length = at + n;
  return at;
}

/** SetAddStmt. */
export function addTo(set: V, value: V): void {
  if (!(set instanceof RegoSet)) throw internalError("SetAddStmt: target is not a set");
  if (value === undefined) throw internalError("SetAddStmt: value is undefined");
  set.add(value);
}

function objectTarget(o: V, what: string): ObjectValue {
  if (o === undefined || !isObject(o)) throw internalError(`${what}: target is not an object`);
  return o;
}

/** ObjectInsertStmt: inserts or overwrites; returns the object (a RegoObject once a key is not a string). */
export function insert(object: V, key: V, value: V): Value {
  const o = objectTarget(object, "ObjectInsertStmt");
  if (key === undefined || value === undefined) throw internalError("ObjectInsertStmt: key or value is undefined");
  return objectInsert(o, key, value);
}

/** GroupAddStmt (comprehension indexing): adds to the group of `key` in `groups`, an object from
 * group key to group (a RegoObject) — groupCount adds 1 to a count, groupPush appends `value` to an
 * array, groupAddTo adds it to a set — making the group when there is none. Each returns the object.
 * An undefined key adds nothing, as an EqualStmt with it fails.
 * (One function per kind: each is small enough to inline into the loop that builds the index.) */
export function groupCount(groups: V, key: V): Value {
  const o = groupsObject(groups);
  if (key !== undefined) {
    const e = o.slot(key, 0);
    e[1] = (e[1] as number) + 1;
  }
  return o;
}

export function groupPush(groups: V, key: V, value: V): Value {
  const o = groupsObject(groups);
  const e = groupSlot(o, key, value);
  if (e === undefined) return o;
  if (e[1] === null) e[1] = [value!];
  else (e[1] as Value[]).push(value!);
  return o;
}

export function groupAddTo(groups: V, key: V, value: V): Value {
  const o = groupsObject(groups);
  const e = groupSlot(o, key, value);
  if (e === undefined) return o;
  if (e[1] === null) e[1] = new RegoSet([value!]);
  else (e[1] as RegoSet).add(value!);
  return o;
}

/** The entry of an array or set group (its value null: no group yet; a group is never null), or
 * undefined for an undefined key. */
function groupSlot(o: RegoObject, key: V, value: V): [Value, Value] | undefined {
  if (key === undefined) return undefined;
  if (value === undefined) throw internalError("GroupAddStmt: value is undefined");
  return o.slot(key, null);
}

/** The groups object: a RegoObject (GroupsStmt's, or MakeObjectStmt's for a local GroupAddStmts
 * add to: emit/collections.ts). */
function groupsObject(groups: V): RegoObject {
  if (!(groups instanceof RegoObject)) throw internalError("GroupAddStmt: target is not a groups object");
  return groups;
}

/** Where a conflict is raised from: OPA's message and the statement's location (generated code
 * holds its sites in a table: sites.ts, `ConflictSites`). */
export interface ConflictSite {
  readonly message: string;
  readonly location: Location;
}

function conflictError(site: ConflictSite): RegoError {
  return new RegoError("eval_conflict_error", site.message, site.location);
}

/** ObjectInsertOnceStmt: a key already present with a different value is a conflict (at site
 * `index` of the module's table). */
export function insertOnce(object: V, key: V, value: V, sites: ConflictSites, index: number): Value {
  const o = objectTarget(object, "ObjectInsertOnceStmt");
  if (key === undefined || value === undefined) throw internalError("ObjectInsertOnceStmt: key or value is undefined");
  if (objectHas(o, key)) {
    if (equal(objectGet(o, key), value)) return o;
    throw conflictError(sites.site(index));
  }
  return objectInsert(o, key, value);
}

/** AssignVarOnceStmt: returns the local's new value; a different defined value is a conflict (at
 * site `index` of the module's table). */
export function assignOnce(target: V, value: V, sites: ConflictSites, index: number): V {
  if (target === undefined) return value;
  if (equal(target, value)) return target;
  throw conflictError(sites.site(index));
}

/** ObjectMergeStmt: recursive merge of base data `a` with rule documents `b`; `a` wins on clashes. */
export function merge(a: V, b: V): V {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (!isObject(a) || !isObject(b)) return a;
  let out: ObjectValue = newPlainObject();
  const add = (k: Value, v: Value) => {
    out = objectInsert(out, k, v);
  };
  forEachEntry(a, (k, va) => {
    const vb = objectGet(b, k);
    add(k, vb !== undefined && isObject(va) && isObject(vb) ? (merge(va, vb) as Value) : va);
  });
  forEachEntry(b, (k, vb) => {
    if (!objectHas(a, k)) add(k, vb);
  });
  return out;
}

function forEachEntry(o: ObjectValue, fn: (k: Value, v: Value) => void): void {
  if (o instanceof RegoObject) for (const [k, v] of o.unordered()) fn(k, v);
  else for (const k of Object.keys(o)) fn(k, o[k]!);
}

function shallowCopy(o: ObjectValue): ObjectValue {
  return o instanceof RegoObject ? new RegoObject(o.unordered()) : copyPlainObject(o);
}

/**
 * WithStmt with a path: a copy of `doc` with `value` at `path` (string keys). Objects along the
 * path are shallow-copied; missing or non-object nodes become fresh objects. `doc` is unchanged.
 */
export function upsert(doc: V, path: readonly string[], value: V): V {
  if (path.length === 0) return value;
  if (value === undefined) throw internalError("WithStmt: value is undefined");
  const root: ObjectValue = doc !== undefined && isObject(doc) ? shallowCopy(doc) : newPlainObject();
  let parent = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const child = objectGet(parent, key);
    const copy: ObjectValue = child !== undefined && isObject(child) ? shallowCopy(child) : newPlainObject();
    setKey(parent, key, copy);
    parent = copy;
  }
  setKey(parent, path[path.length - 1]!, value);
  return root;
}

function setKey(o: ObjectValue, key: string, v: Value): void {
  if (o instanceof RegoObject) o.set(key, v);
  else setOwn(o, key, v);
}

/** MakeNumberRefStmt for literals a double cannot hold exactly: hoisted to a module constant. */
export function num(text: string): Num {
  const n = numberFromText(text);
  if (n === undefined) throw internalError(`MakeNumberRefStmt: ${JSON.stringify(text)} is not a number`);
  return n;
}

/** The data document when the caller gives none: an empty, frozen, null-prototype object. */
export const EMPTY_OBJECT: PlainObject = Object.freeze(newPlainObject());

/** CallDynamicStmt: the dispatch key of a path (JSON text), or undefined when a segment is not a string. */
export function pathKey(segments: readonly V[]): string | undefined {
  for (const s of segments) if (typeof s !== "string") return undefined;
  return JSON.stringify(segments);
}

/** CallDynamicStmt: what the generated dispatcher returns when no func has the path. */
export const NOT_FOUND: unique symbol = Symbol("regoc.notFound");

export { BigNum };
