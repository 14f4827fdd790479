// What may enter the store: JSON, checked and copied. The copy is made of null-prototype objects
// (so a key such as "__proto__" stays an ordinary key) and shares nothing with the caller's value,
// so a later change to that value cannot reach the store. BigInt, functions, symbols, undefined,
// non-finite numbers, cycles, class instances, Array subclasses and sparse arrays are refused with
// storage_invalid_value_error; so is a value that throws while it is read (a getter, a proxy) or
// that is nested deeper than the copy can follow.
import { RegoError, resourceFailure } from "../errors.js";
import { invalidValueError, readingThrew } from "./errors.js";
import { newPlainObject, type PlainObject, type Value } from "../value/value.js";

/** `freeze`: every array and object of the copy is frozen (the store's, which callers only read). */
export function copyJSON(value: unknown, where = "value", options: { freeze?: boolean } = {}): Value {
  try {
    return copy(value, where, new Set(), options.freeze === true);
  } catch (e) {
    if (e instanceof RegoError) throw e;
    throw invalidValueError(where, resourceFailure(e) ?? readingThrew(e), e);
  }
}

/** o[k], or a storage_invalid_value_error naming where when reading it throws (a getter). */
function read(o: object, k: string | number, where: string): unknown {
  try {
    return (o as Record<string | number, unknown>)[k];
  } catch (e) {
    throw invalidValueError(where, readingThrew(e), e);
  }
}

function fail(where: string, what: string): never {
  throw invalidValueError(where, `${what} is not JSON`);
}

function copy(v: unknown, where: string, seen: Set<object>, freeze: boolean): Value {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (!Number.isFinite(v)) fail(where, String(v));
      return v;
    case "bigint":
      return fail(where, `a BigInt (${v}n)`);
    case "undefined":
      return fail(where, "undefined");
    case "function":
      return fail(where, "a function");
    case "symbol":
      return fail(where, "a symbol");
    default:
      break;
  }
  if (v === null) return null;
  const o = v as object;
  if (seen.has(o)) fail(where, "a cycle");
  seen.add(o);
  try {
    const proto = Object.getPrototypeOf(o);
    if (Array.isArray(o)) {
      if (proto !== Array.prototype) fail(where, `an instance of ${o.constructor?.name ?? "an Array subclass"}`);
      const out: Value[] = [];
      for (let i = 0; i < o.length; i++) {
        if (!(i in o)) fail(`${where}[${i}]`, "a hole in a sparse array");
        out.push(copy(read(o, i, `${where}[${i}]`), `${where}[${i}]`, seen, freeze));
      }
      if (freeze) Object.freeze(out);
      return out;
    }
    if (proto !== Object.prototype && proto !== null) fail(where, `an instance of ${o.constructor?.name ?? "a class"}`);
    const out: PlainObject = newPlainObject();
    for (const k of Object.keys(o)) out[k] = copy(read(o, k, `${where}.${k}`), `${where}.${k}`, seen, freeze);
    if (freeze) Object.freeze(out);
    return out;
  } finally {
    seen.delete(o);
  }
}
