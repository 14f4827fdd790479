// The value model. JSON stays plain JavaScript — the caller's `input` and `data` are read as they
// are, never converted on the way in:
//   null, boolean, number (a JS double), string, arrays, plain objects (string keys).
// Rego-only values are small classes, all extending `Special` so one `instanceof` tells them apart
// from plain objects:
//   BigNum    — a number a double cannot hold exactly (integers beyond 2^53, 2e308, ...)
//   RegoSet   — a set (set.ts)
//   RegoObject — an object with at least one non-string key (object.ts)
// Object access is own-property only; runtime-made objects have a null prototype, so keys such as
// `__proto__` and `constructor` are ordinary keys and nothing can reach a prototype. (Generated
// code's object literals, `{ "msg": m }`, have Object.prototype, as parsed JSON has: their keys are
// constants, never `__proto__`.)

/** Base class of the Rego-only values; `v instanceof Special` separates them from JSON objects. */
export abstract class Special {
  /** Type rank in OPA's order: number 2, object 5, set 6. */
  abstract readonly rank: number;
}

/** A JSON-shaped object: string keys only. Read with `getOwn`, never with plain indexing. */
export interface PlainObject {
  [key: string]: Value;
}

// The concrete classes are declared in their own files; the union refers to them through
// interfaces to keep this file free of import cycles.
import type { BigNum } from "./number.js";
import type { RegoSet } from "./set.js";
import type { RegoObject } from "./object.js";

export type Value = null | boolean | number | BigNum | string | Value[] | PlainObject | RegoObject | RegoSet;

/** A value, or undefined (Rego's "undefined": no value). */
export type MaybeValue = Value | undefined;

export type TypeName = "null" | "boolean" | "number" | "string" | "array" | "object" | "set";

/** OPA's type rank: null < boolean < number < string < array < object < set. */
export function rank(v: Value): number {
  switch (typeof v) {
    case "boolean":
      return 1;
    case "number":
      return 2;
    case "string":
      return 3;
    case "object":
      if (v === null) return 0;
      if (Array.isArray(v)) return 4;
      if (v instanceof Special) return v.rank;
      return 5;
    default:
      return 5;
  }
}

const TYPE_NAMES: readonly TypeName[] = ["null", "boolean", "number", "string", "array", "object", "set"];

/** OPA's type name of a value (`type_name` builtin, error messages). */
export function typeName(v: Value): TypeName {
  return TYPE_NAMES[rank(v)]!;
}

/** True for plain (string-keyed) objects: not null, not an array, not a Rego class. */
export function isPlainObject(v: unknown): v is PlainObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Special);
}

/** Own-property read of a plain object; inherited members (`toString`, `__proto__`...) are not keys. */
export function getOwn(o: PlainObject, key: string): Value | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** A fresh, empty, null-prototype object for the runtime to fill. (Made by setting the prototype
 * of `{}`: V8 gives Object.create(null) dictionary-mode properties, slow to enumerate and read.) */
export function newPlainObject(): PlainObject {
  return Object.setPrototypeOf({}, null) as PlainObject;
}

/** Sets an own property, safely even for keys such as `__proto__` and on objects with a prototype. */
export function setOwn(o: PlainObject, key: string, value: Value): void {
  if (key === "__proto__" && Object.getPrototypeOf(o) !== null) {
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    o[key] = value;
  }
}

/** A shallow copy with a null prototype. */
export function copyPlainObject(o: PlainObject): PlainObject {
  const out = newPlainObject();
  for (const k of Object.keys(o)) out[k] = o[k]!;
  return out;
}
