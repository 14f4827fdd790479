// What may enter the store: JSON, checked and copied. The copy is made of null-prototype objects
// (so a key such as "__proto__" stays an ordinary key) and shares nothing with the caller's value,
// so a later change to that value cannot reach the store. BigInt, functions, symbols, undefined,
// non-finite numbers, cycles and class instances are refused with storage_invalid_value_error.
import { RegoError } from "../errors.js";
import { newPlainObject, type PlainObject, type Value } from "../value/value.js";

export function copyJSON(value: unknown, where = "value"): Value {
  return copy(value, where, new Set());
}

function fail(where: string, what: string): never {
  throw new RegoError("storage_invalid_value_error", `${where}: ${what} is not JSON`);
}

function copy(v: unknown, where: string, seen: Set<object>): Value {
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
    if (Array.isArray(o)) return o.map((e, i) => copy(e, `${where}[${i}]`, seen));
    const proto = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) fail(where, `an instance of ${o.constructor?.name ?? "a class"}`);
    const out: PlainObject = newPlainObject();
    for (const k of Object.keys(o)) out[k] = copy((o as Record<string, unknown>)[k], `${where}.${k}`, seen);
    return out;
  } finally {
    seen.delete(o);
  }
}
