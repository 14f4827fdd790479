// Between Rego values and JSON.
//   toJSON(v)       — for callers: sets become sorted arrays, non-string object keys become their
//                     JSON text (as OPA does), BigNums the nearest double. Subtrees that are
//                     already plain JSON are returned as they are, not copied.
//   toJSONText(v)   — exact JSON text (BigNums keep every digit), keys sorted as OPA prints them.
//   fromJSONText(s) — parses JSON without losing digits: numbers a double cannot hold stay exact.
import { parse as parseLossless } from "lossless-json";
import { RegoError } from "../errors.js";
import { BigNum, numberFromText, numberText } from "./number.js";
import { RegoObject, sortedPlainKeys } from "./object.js";
import { RegoSet } from "./set.js";
import { Special, newPlainObject, setOwn, type PlainObject, type Value } from "./value.js";

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export function toJSON(v: Value): JSONValue {
  switch (typeof v) {
    case "number":
    case "string":
    case "boolean":
      return v;
    default:
      break;
  }
  if (v === null) return null;
  if (Array.isArray(v)) {
    let out: JSONValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e = v[i]!;
      const j = toJSON(e);
      if (out === undefined && j !== e) out = v.slice(0, i) as JSONValue[];
      if (out !== undefined) out.push(j);
    }
    return out ?? (v as JSONValue[]);
  }
  if (v instanceof Special) {
    if (v instanceof BigNum) return v.toNumber();
    if (v instanceof RegoSet) return v.sorted().map(toJSON);
    const out = newPlainObject() as { [key: string]: JSONValue };
    for (const [k, val] of (v as RegoObject).sorted()) {
      setOwn(out as PlainObject, typeof k === "string" ? k : toJSONText(k), toJSON(val) as Value);
    }
    return out;
  }
  let out: { [key: string]: JSONValue } | undefined;
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const e = (v as PlainObject)[k]!;
    const j = toJSON(e);
    if (out === undefined && j !== e) {
      out = newPlainObject() as { [key: string]: JSONValue };
      for (let p = 0; p < i; p++) setOwn(out as PlainObject, keys[p]!, (v as PlainObject)[keys[p]!]!);
    }
    if (out !== undefined) setOwn(out as PlainObject, k, j as Value);
  }
  return out ?? (v as { [key: string]: JSONValue });
}

/** Exact JSON text; `indent` pretty-prints as JSON.stringify does. */
export function toJSONText(v: Value, indent?: string): string {
  return write(v, indent ?? "", "");
}

function write(v: Value, indent: string, current: string): string {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return numberText(v);
    default:
      break;
  }
  if (v === null) return "null";
  const inner = current + indent;
  const open = (items: string[], l: string, r: string) =>
    items.length === 0 ? l + r : indent ? `${l}\n${inner}${items.join(`,\n${inner}`)}\n${current}${r}` : `${l}${items.join(",")}${r}`;
  const sep = indent ? ": " : ":";
  if (Array.isArray(v)) return open(v.map((e) => write(e, indent, inner)), "[", "]");
  if (v instanceof BigNum) return v.toString();
  if (v instanceof RegoSet) return open(v.sorted().map((e) => write(e, indent, inner)), "[", "]");
  if (v instanceof RegoObject) {
    const items = v.sorted().map(([k, val]) => {
      const key = typeof k === "string" ? k : toJSONText(k);
      return [key, `${JSON.stringify(key)}${sep}${write(val, indent, inner)}`] as const;
    });
    items.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return open(items.map((i) => i[1]), "{", "}");
  }
  const o = v as PlainObject;
  return open(
    sortedPlainKeys(o).map((k) => `${JSON.stringify(k)}${sep}${write(o[k]!, indent, inner)}`),
    "{",
    "}",
  );
}

/** Parses JSON text, keeping numbers exact; a syntax error is a RegoError naming the position. */
export function fromJSONText(text: string, what = "JSON"): Value {
  try {
    return parseLossless(text, null, (s: string) => numberFromText(s) ?? Number(s)) as Value;
  } catch (e) {
    throw new RegoError("eval_builtin_error", `${what}: ${(e as Error).message}`);
  }
}

