// Paths into documents for object.get, json.filter, json.remove and json.patch.
//
// A path is a list of keys: from a JSON-pointer-like string ("a/b/0", leading slashes ignored,
// ~1 → "/", ~0 → "~") or from an array of keys of any type. Objects are indexed by key, arrays by
// an integer (or, for json.* strings, its decimal text), sets by the element itself.
import { equal } from "../value/compare.js";
import { isInteger, isNumber, toDouble } from "../value/number.js";
import { RegoObject, isObject, makeObject, objectGet, objectHas, objectInsert, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { typeName, type Value } from "../value/value.js";
import { operandError, operandTypeError } from "./args.js";

type Path = readonly Value[];

/** value[path[0]][path[1]]... or undefined (object.get's path form: arrays by integer index). */
export function findPath(v: Value, path: Path): Value | undefined {
  let cur: Value = v;
  for (const seg of path) {
    if (isObject(cur)) {
      const next = objectGet(cur, seg);
      if (next === undefined) return undefined;
      cur = next;
    } else if (Array.isArray(cur)) {
      if (!isNumber(seg) || !isInteger(seg)) return undefined;
      const i = toDouble(seg);
      if (i < 0 || i >= cur.length) return undefined;
      cur = cur[i]!;
    } else if (cur instanceof RegoSet) {
      const el = cur.get(seg);
      if (el === undefined) return undefined;
      cur = el;
    } else return undefined;
  }
  return cur;
}

/** A path operand element of json.filter/json.remove/json.patch. */
function parsePath(p: Value): Path | undefined {
  if (typeof p === "string") {
    if (p === "") return [];
    return p
      .replace(/^\/+/, "")
      .split("/")
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  }
  if (Array.isArray(p)) return p;
  return undefined;
}

function pathOperand(p: Value): Path {
  const path = parsePath(p);
  if (path === undefined) {
    throw operandError(2, `must be one of {set, array} containing string paths or array of path segments but got ${typeName(p)}`);
  }
  return path;
}

function pathsOperand(v: Value): Path[] {
  if (Array.isArray(v)) return v.map(pathOperand);
  if (v instanceof RegoSet) return v.sorted().map(pathOperand);
  throw operandTypeError(2, v, "set", "array");
}

// The paths as a tree: every key maps to a subtree, or to null where a path ends (a path that
// ends above another one wins: "a" and "a/b" select all of "a").
type Tree = RegoObject;

function pathsToTree(paths: Path[]): Tree {
  const root = new RegoObject();
  for (const path of paths) {
    if (path.length === 0) continue;
    let node = root;
    let done = false;
    for (let i = 0; i < path.length - 1 && !done; i++) {
      const child = node.get(path[i]!);
      if (child === undefined) {
        const next = new RegoObject();
        node.set(path[i]!, next);
        node = next;
      } else if (child === null) done = true;
      else node = child as Tree;
    }
    if (!done) node.set(path[path.length - 1]!, null);
  }
  return root;
}

function filterValue(v: Value, f: Value): Value {
  if (f === null || !(f instanceof RegoObject)) return v;
  if (Array.isArray(v)) {
    const out: Value[] = [];
    for (let i = 0; i < v.length; i++) {
      const sub = f.get(String(i));
      if (sub !== undefined) out.push(filterValue(v[i]!, sub));
    }
    return out;
  }
  if (v instanceof RegoSet) {
    const out = new RegoSet();
    for (const x of v.sorted()) {
      const sub = f.get(x);
      if (sub !== undefined) out.add(filterValue(x, sub));
    }
    return out;
  }
  if (isObject(v)) {
    const out: Array<[Value, Value]> = [];
    for (const [k, sub] of f.unordered()) {
      const x = objectGet(v, k);
      if (x !== undefined) out.push([k, filterValue(x, sub)]);
    }
    return makeObject(out);
  }
  return v;
}

export function jsonFilter(o: ObjectValue, paths: Value): Value {
  return filterValue(o, pathsToTree(pathsOperand(paths)));
}

function removeValue(v: Value, f: Value | undefined): Value | undefined {
  if (f === undefined) return v;
  if (f === null) return undefined;
  if (!(f instanceof RegoObject)) return v;
  if (Array.isArray(v)) {
    const out: Value[] = [];
    for (let i = 0; i < v.length; i++) {
      const x = removeValue(v[i]!, f.get(String(i)));
      if (x !== undefined) out.push(x);
    }
    return out;
  }
  if (v instanceof RegoSet) {
    const out = new RegoSet();
    for (const x of v.sorted()) {
      const y = removeValue(x, f.get(x));
      if (y !== undefined) out.add(y);
    }
    return out;
  }
  if (isObject(v)) {
    const out: Array<[Value, Value]> = [];
    const entries = v instanceof RegoObject ? [...v.unordered()] : Object.keys(v).map((k) => [k, v[k]!] as const);
    for (const [k, x] of entries) {
      const y = removeValue(x, f.get(k));
      if (y !== undefined) out.push([k, y]);
    }
    return makeObject(out);
  }
  return v;
}

export function jsonRemove(o: ObjectValue, paths: Value): Value | undefined {
  return removeValue(o, pathsToTree(pathsOperand(paths)));
}

// --- json.patch (RFC 6902 on Rego values; any failure makes the call undefined) ------------------

const FAIL = Symbol("patch failed");
type Doc = Value | undefined; // undefined: the whole document was removed
type Result<T> = T | typeof FAIL;

/** An array index from a path key: an integer, "-" (the end, for add), or decimal digits. */
function toIndex(length: number, key: Value): Result<number> {
  if (typeof key === "string") {
    if (key === "-") return length;
    if (!/^[+-]?\d+$/.test(key)) return FAIL;
    if (key !== "0" && key.startsWith("0")) return FAIL;
    const i = Number(key);
    return Number.isSafeInteger(i) ? i : FAIL;
  }
  if (isNumber(key) && isInteger(key)) return toDouble(key);
  return FAIL;
}

function found(v: Value | undefined): Result<Value> {
  return v === undefined ? FAIL : v;
}

function child(c: Value, key: Value): Result<Value> {
  if (isObject(c)) return found(objectGet(c, key));
  if (c instanceof RegoSet) return found(c.get(key));
  if (Array.isArray(c)) {
    const i = toIndex(c.length, key);
    return i === FAIL || i < 0 || i >= c.length ? FAIL : c[i]!;
  }
  return FAIL;
}

function getAt(doc: Doc, path: Path): Result<Value> {
  if (doc === undefined) return FAIL;
  let cur: Value = doc;
  for (const key of path) {
    const next = child(cur, key);
    if (next === FAIL) return FAIL;
    cur = next;
  }
  return cur;
}

function withoutKey(o: ObjectValue, key: Value): ObjectValue {
  const out: Array<[Value, Value]> = [];
  const entries = o instanceof RegoObject ? [...o.unordered()] : Object.keys(o).map((k) => [k, o[k]!] as const);
  for (const [k, v] of entries) if (!equal(k, key)) out.push([k, v]);
  return makeObject(out);
}

function withKey(o: ObjectValue, key: Value, value: Value): ObjectValue {
  return objectInsert(withoutKey(o, key), key, value);
}

function insertInto(c: Value, key: Value, value: Value): Result<Value> {
  if (isObject(c)) return withKey(c, key, value);
  if (c instanceof RegoSet) {
    if (!equal(key, value)) return FAIL;
    const out = new RegoSet(c.unordered());
    out.add(value);
    return out;
  }
  if (Array.isArray(c)) {
    const i = toIndex(c.length, key);
    if (i === FAIL || i < 0 || i > c.length) return FAIL;
    return [...c.slice(0, i), value, ...c.slice(i)];
  }
  return FAIL;
}

function deleteFrom(c: Value, key: Value): Result<Value> {
  if (isObject(c)) return objectHas(c, key) ? withoutKey(c, key) : FAIL;
  if (c instanceof RegoSet) {
    if (!c.has(key)) return FAIL;
    const out = new RegoSet();
    for (const v of c.unordered()) if (!equal(v, key)) out.add(v);
    return out;
  }
  if (Array.isArray(c)) {
    const i = toIndex(c.length, key);
    if (i === FAIL || i < 0 || i >= c.length) return FAIL;
    return [...c.slice(0, i), ...c.slice(i + 1)];
  }
  return FAIL;
}

/** Puts a changed child back into its container (a set swaps the old element for the new one). */
function replaceChild(c: Value, key: Value, old: Value, next: Value): Value {
  if (isObject(c)) return withKey(c, key, next);
  if (c instanceof RegoSet) {
    const out = new RegoSet();
    for (const v of c.unordered()) if (!equal(v, old)) out.add(v);
    out.add(next);
    return out;
  }
  const a = (c as Value[]).slice();
  a[toIndex(a.length, key) as number] = next;
  return a;
}

/** Applies `edit` to the container at `parent` and rebuilds the document above it. */
function editAt(doc: Doc, parent: Path, edit: (c: Value) => Result<Value>): Result<Value> {
  if (doc === undefined) return FAIL;
  if (parent.length === 0) return edit(doc);
  const key = parent[0]!;
  const c = child(doc, key);
  if (c === FAIL) return FAIL;
  const next = editAt(c, parent.slice(1), edit);
  return next === FAIL ? FAIL : replaceChild(doc, key, c, next);
}

function insertAt(doc: Doc, path: Path, value: Value): Result<Doc> {
  if (path.length === 0) return value;
  return editAt(doc, path.slice(0, -1), (c) => insertInto(c, path[path.length - 1]!, value));
}

function deleteAt(doc: Doc, path: Path): Result<Doc> {
  if (path.length === 0) return doc === undefined ? FAIL : undefined;
  return editAt(doc, path.slice(0, -1), (c) => deleteFrom(c, path[path.length - 1]!));
}

const OPS = new Set(["add", "remove", "replace", "move", "copy", "test"]);

function applyOne(doc: Doc, op: Value): Result<Doc> {
  if (!isObject(op)) return FAIL;
  const kind = objectGet(op, "op");
  if (typeof kind !== "string" || !OPS.has(kind)) return FAIL;
  const rawPath = objectGet(op, "path");
  if (rawPath === undefined) return FAIL;
  const from = kind === "move" || kind === "copy" ? objectGet(op, "from") : null;
  const value = kind === "add" || kind === "replace" || kind === "test" ? objectGet(op, "value") : null;
  if (from === undefined || value === undefined) return FAIL;
  const path = parsePath(rawPath);
  if (path === undefined) return FAIL;
  switch (kind) {
    case "add":
      return insertAt(doc, path, value);
    case "remove":
      return deleteAt(doc, path);
    case "replace": {
      const d = deleteAt(doc, path);
      return d === FAIL ? FAIL : insertAt(d, path, value);
    }
    case "test": {
      const cur = getAt(doc, path);
      return cur !== FAIL && equal(cur, value) ? doc : FAIL;
    }
    default: {
      const fromPath = parsePath(from);
      if (fromPath === undefined) return FAIL;
      const chunk = getAt(doc, fromPath);
      if (chunk === FAIL) return FAIL;
      const d = kind === "move" ? deleteAt(doc, fromPath) : doc;
      return d === FAIL ? FAIL : insertAt(d, path, chunk);
    }
  }
}

/** json.patch: undefined when any operation fails. */
export function jsonPatch(doc: Value, ops: readonly Value[]): Value | undefined {
  let cur: Doc = doc;
  for (const op of ops) {
    const next = applyOne(cur, op);
    if (next === FAIL) return undefined;
    cur = next;
  }
  return cur;
}
