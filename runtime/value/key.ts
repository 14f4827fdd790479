// Structural keys for hash-based collections (RegoSet, RegoObject, dedup in builtins).
// Strings, booleans, null and doubles (other than integer doubles beyond 2^53) are their own Map
// key; every other value has a canonical text, equal exactly when the values are equal
// (1 and 1.0 are one number; an integer double beyond 2^53 and the BigNum of the same integer are
// one number; object keys and set elements are sorted by their canonical text).
import { BigNum, numberText } from "./number.js";
import { Special, type PlainObject, type Value } from "./value.js";
import type { RegoObject } from "./object.js";
import type { RegoSet } from "./set.js";

export type PrimitiveKey = string | number | boolean | null;

/** The value itself when it can key a Map directly, else undefined (use `canonicalKey`). */
export function primitiveKey(v: Value): PrimitiveKey | undefined {
  // A string, the common key, is tested first and alone: the switch's dispatch costs a hashed
  // collection's every add and lookup.
  if (typeof v === "string") return v;
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
      return Number.isInteger(v) && !Number.isSafeInteger(v) ? undefined : v === 0 ? 0 : v;
    default:
      return v === null ? null : undefined;
  }
}

/** Canonical text of any value; distinct values get distinct texts. */
export function canonicalKey(v: Value): string {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "boolean":
      return v ? "t" : "f";
    case "number":
      return `n${numberText(v)}`;
    case "object": {
      if (v === null) return "z";
      if (Array.isArray(v)) {
        let s = "[";
        for (let i = 0; i < v.length; i++) s += (i ? "," : "") + canonicalKey(v[i]!);
        return `${s}]`;
      }
      if (v instanceof Special) {
        if (v instanceof BigNum) return `n${v.toString()}`;
        return (v as unknown as { canonical(): string }).canonical();
      }
      return plainCanonical(v);
    }
    default:
      return "?";
  }
}

function plainCanonical(o: PlainObject): string {
  const keys = Object.keys(o);
  // One entry: nothing to sort (the same text as collectionCanonical's).
  if (keys.length === 1) return `{${JSON.stringify(keys[0])}:${canonicalKey(o[keys[0]!]!)}}`;
  const parts: string[] = [];
  for (const k of keys) parts.push(`${JSON.stringify(k)}:${canonicalKey(o[k]!)}`);
  return collectionCanonical("object", parts);
}

/** Canonical text of a set or non-string-keyed object, from its entries. */
export function collectionCanonical(kind: "set" | "object", parts: string[]): string {
  parts.sort();
  return kind === "set" ? `<${parts.join(",")}>` : `{${parts.join(",")}}`;
}

