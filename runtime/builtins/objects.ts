// Builtins of OPA's "object" category: object.get (a key or a path array), object.keys,
// object.union, object.union_n, object.remove, object.filter, object.subset, and json.filter,
// json.remove, json.patch (their path logic is in jsonPaths.ts).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { equal } from "../value/compare.js";
import { RegoObject, isObject, makeObject, objectGet, objectHas, objectKeys, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import { arr, obj, operandElementError, operandTypeError, typeError } from "./args.js";
import { findPath, jsonFilter, jsonPatch, jsonRemove } from "./jsonPaths.js";

type Entry = readonly [Value, Value];

/** The entries of an object in storage order (order-free work). */
export function entriesOf(o: ObjectValue): Iterable<Entry> {
  if (o instanceof RegoObject) return o.unordered();
  return Object.keys(o).map((k) => [k, o[k]!] as const);
}

function objectGetBuiltin(_ctx: EvalContext, o: Value, key: Value, dflt: Value): Value {
  const x = obj(o, 1);
  // A null value is a value: only a missing key or path gives the default.
  const found = Array.isArray(key) ? (key.length === 0 ? x : findPath(x, key)) : objectGet(x, key);
  return found === undefined ? dflt : found;
}

function keys(_ctx: EvalContext, o: Value): Value {
  return new RegoSet(objectKeys(obj(o, 1)));
}

/** One object pair being merged: a's entries visited so far went to `out`; `key` awaits a child. */
interface MergeFrame {
  a: ObjectValue;
  b: ObjectValue;
  entries: Entry[];
  next: number;
  out: Entry[];
  key: Value;
}

const mergeFrame = (a: ObjectValue, b: ObjectValue): MergeFrame => ({ a, b, entries: [...entriesOf(a)], next: 0, out: [], key: null });

/**
 * b's values win; where both values are objects they are merged the same way, nested as deep as
 * the inputs are (an explicit stack: the input's depth must not bound the JS call stack).
 */
export function mergeObjects(a: ObjectValue, b: ObjectValue): ObjectValue {
  const stack = [mergeFrame(a, b)];
  for (;;) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.entries.length) {
      const [k, v] = top.entries[top.next++]!;
      const w = objectGet(top.b, k);
      if (w === undefined) top.out.push([k, v]);
      else if (isObject(v) && isObject(w)) {
        top.key = k;
        stack.push(mergeFrame(v, w));
      } else top.out.push([k, w]);
      continue;
    }
    for (const [k, w] of entriesOf(top.b)) if (!objectHas(top.a, k)) top.out.push([k, w]);
    const merged = makeObject(top.out);
    stack.pop();
    const parent = stack[stack.length - 1];
    if (parent === undefined) return merged;
    parent.out.push([parent.key, merged]);
  }
}

function union(_ctx: EvalContext, a: Value, b: Value): Value {
  const x = obj(a, 1);
  const y = obj(b, 2);
  if (equal(x, y)) return x;
  return mergeObjects(x, y);
}

/** Left to right, later objects win (merging nested objects), like a fold of object.union. */
function unionN(_ctx: EvalContext, a: Value): Value {
  const xs = arr(a, 1);
  // OPA walks the array back to front, so the last bad element is the one reported.
  for (let i = xs.length - 1; i >= 0; i--) if (!isObject(xs[i])) throw operandElementError(1, xs, xs[i]!, "object");
  let out: ObjectValue = makeObject([]);
  for (const x of xs) out = mergeObjects(out, x as ObjectValue);
  return out;
}

/** The key set of object.remove / object.filter: an array's elements, a set, or an object's keys. */
function keySet(v: Value): RegoSet {
  if (Array.isArray(v)) return new RegoSet(v);
  if (v instanceof RegoSet) return v;
  if (isObject(v)) return new RegoSet(objectKeys(v));
  throw operandTypeError(2, v, "object", "set", "array");
}

function remove(_ctx: EvalContext, o: Value, ks: Value): Value {
  const x = obj(o, 1);
  const drop = keySet(ks);
  const out: Entry[] = [];
  for (const e of entriesOf(x)) if (!drop.has(e[0])) out.push(e);
  return makeObject(out);
}

function filter(_ctx: EvalContext, o: Value, ks: Value): Value {
  const x = obj(o, 1);
  const keep = keySet(ks);
  const out: Entry[] = [];
  for (const e of entriesOf(x)) if (keep.has(e[0])) out.push(e);
  return makeObject(out);
}

// --- object.subset -----------------------------------------------------------------------------

function objectSubset(sup: ObjectValue, sub: ObjectValue): boolean {
  for (const [k, v] of entriesOf(sub)) {
    const w = objectGet(sup, k);
    if (w === undefined) return false;
    if (equal(v, w)) continue;
    if (isObject(w) && isObject(v)) {
      if (!objectSubset(w, v)) return false;
    } else if (w instanceof RegoSet && v instanceof RegoSet) {
      if (!setSubset(w, v)) return false;
    } else if (Array.isArray(w) && Array.isArray(v)) {
      if (!arraySubset(w, v)) return false;
    } else return false;
  }
  return true;
}

function setSubset(sup: RegoSet, sub: RegoSet): boolean {
  for (const v of sub.unordered()) if (!sup.has(v)) return false;
  return true;
}

/** The whole sub array appears contiguously in sup. */
function arraySubset(sup: readonly Value[], sub: readonly Value[]): boolean {
  if (sub.length > sup.length) return false;
  outer: for (let start = 0; start + sub.length <= sup.length; start++) {
    for (let i = 0; i < sub.length; i++) if (!equal(sup[start + i], sub[i])) continue outer;
    return true;
  }
  return false;
}

/** Every element of the set occurs in the array (OPA answers false for an empty array). */
function arraySetSubset(sup: readonly Value[], sub: RegoSet): boolean {
  let unmatched = sub.size;
  for (const v of sup) {
    if (sub.has(v)) unmatched--;
    if (unmatched === 0) return true;
  }
  return false;
}

function subset(_ctx: EvalContext, sup: Value, sub: Value): Value {
  if (isObject(sup) && isObject(sub)) return objectSubset(sup, sub);
  if (sup instanceof RegoSet && sub instanceof RegoSet) return setSubset(sup, sub);
  if (Array.isArray(sup) && Array.isArray(sub)) return arraySubset(sup, sub);
  if (Array.isArray(sup) && sub instanceof RegoSet) return arraySetSubset(sup, sub);
  throw typeError("both arguments object.subset must be of the same type or array and set");
}

export const objectsBuiltins: BuiltinTable = {
  "object.get": { fn: objectGetBuiltin },
  "object.keys": { fn: keys },
  "object.union": { fn: union },
  "object.union_n": { fn: unionN },
  "object.remove": { fn: remove },
  "object.filter": { fn: filter },
  "object.subset": { fn: subset },
  "json.filter": { fn: (_ctx: EvalContext, o: Value, paths: Value): Value => jsonFilter(obj(o, 1), paths) },
  "json.remove": { fn: (_ctx: EvalContext, o: Value, paths: Value): Value | undefined => jsonRemove(obj(o, 1), paths) },
  "json.patch": { fn: (_ctx: EvalContext, doc: Value, ops: Value): Value | undefined => jsonPatch(doc, arr(ops, 2)) },
};
