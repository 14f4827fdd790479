// OPA's total order and structural equality.
//   null < boolean < number < string < array < object < set
//   false < true; numbers by value; strings by code point (UTF-8 byte order); arrays element-wise
//   then by length; objects by sorted keys then values, pairwise, then by size; sets by sorted
//   elements, then by size.
import { BigNum, compareNumbers, numbersEqual, type Num } from "./number.js";
import { RegoObject, objectGet, objectSize, sortedPlainKeys, type ObjectValue } from "./object.js";
import { RegoSet } from "./set.js";
import { rank, type PlainObject, type Value } from "./value.js";

/** Code point order (equal to UTF-8 byte order), not JS's UTF-16 code unit order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800–DFFF) encode code points above U+FFFF: they sort after U+E000–FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Sorts strings in place in code point order: by JS's own code unit order when none holds a
 * surrogate (one code unit per code point: the two orders agree), else by compareStrings. */
export function sortStrings(xs: string[]): string[] {
  for (let i = 0; i < xs.length; i++) if (SURROGATE.test(xs[i]!)) return xs.sort(compareStrings);
  return xs.sort();
}

/** Sorts values in place in OPA's order (strings alone by sortStrings). */
export function sortValues(xs: Value[]): Value[] {
  for (let i = 0; i < xs.length; i++) if (typeof xs[i] !== "string") return xs.sort(compare);
  return sortStrings(xs as string[]);
}

export function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return a === b ? 0 : a ? 1 : -1;
    case 2:
      return compareNumbers(a as Num, b as Num);
    case 3:
      return compareStrings(a as string, b as string);
    case 4:
      return compareArrays(a as Value[], b as Value[]);
    case 5:
      return compareObjects(a as ObjectValue, b as ObjectValue);
    default:
      return compareSorted((a as RegoSet).sorted(), (b as RegoSet).sorted());
  }
}

function compareArrays(a: readonly Value[], b: readonly Value[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
}

const compareSorted = compareArrays;

function sortedEntries(o: ObjectValue): ReadonlyArray<readonly [Value, Value]> {
  if (o instanceof RegoObject) return o.sorted();
  return sortedPlainKeys(o).map((k) => [k, (o as PlainObject)[k]!] as const);
}

function compareObjects(a: ObjectValue, b: ObjectValue): number {
  const ea = sortedEntries(a);
  const eb = sortedEntries(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) {
    const ck = compare(ea[i]![0], eb[i]![0]);
    if (ck !== 0) return ck;
    const cv = compare(ea[i]![1], eb[i]![1]);
    if (cv !== 0) return cv;
  }
  return ea.length < eb.length ? -1 : ea.length > eb.length ? 1 : 0;
}

/** Structural equality (numbers by value: 1 == 1.0). */
export function equal(a: Value | undefined, b: Value | undefined): boolean {
  // Strings first, both tested: `===` on two values known to be strings is a string comparison,
  // where `===` on values of any type (equal is called with every kind) is a generic call.
  if (typeof a === "string") return typeof b === "string" && a === b;
  if (a === b) return true;
  const ta = typeof a;
  // Two distinct booleans, or undefined: `===` has answered. (The rest is a function of its own,
  // so that this small part inlines where it is called.)
  if (ta === "boolean" || a === undefined || b === undefined) return false;
  return structurallyEqual(a, b);
}

function structurallyEqual(a: Value, b: Value): boolean {
  const ta = typeof a;
  if (ta !== "object" || typeof b !== "object") {
    if (ta === "number" || a instanceof BigNum) {
      return (typeof b === "number" || b instanceof BigNum) && numbersEqual(a as Num, b as Num);
    }
    return false;
  }
  if (a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof RegoSet) {
    if (!(b instanceof RegoSet) || a.size !== b.size) return false;
    for (const v of a.unordered()) if (!b.has(v)) return false;
    return true;
  }
  if (a instanceof BigNum) return b instanceof BigNum && numbersEqual(a, b);
  if (b instanceof RegoSet || b instanceof BigNum) return false;
  return objectsEqual(a as ObjectValue, b as ObjectValue);
}

function objectsEqual(a: ObjectValue, b: ObjectValue): boolean {
  if (objectSize(a) !== objectSize(b)) return false;
  if (a instanceof RegoObject) {
    for (const [k, v] of a.unordered()) if (!equal(v, objectGet(b, k))) return false;
    return true;
  }
  for (const k of Object.keys(a)) {
    if (!equal(a[k], objectGet(b, k))) return false;
  }
  return true;
}
