// Between Rego values and JSON.
//   toJSON(v)       — for callers: sets become sorted arrays, non-string object keys become their
//                     JSON text (as OPA does), BigNums the nearest double. Subtrees that are
//                     already plain JSON are returned as they are, not copied.
//   toJSONText(v)   — exact JSON text (BigNums keep every digit), keys sorted as OPA prints them.
//   fromJSONText(s) — parses JSON without losing digits: numbers a double cannot hold stay exact.
//   writeJSON(v, o) — the one JSON writer behind toJSONText and the builtins' Go encoder
//                     (builtins/go/json.ts passes Go's string escaping and MarshalIndent's layout).
import { parse as parseLossless } from "lossless-json";
import { RegoError } from "../errors.js";
import { sortStrings } from "./compare.js";
import { BigNum, numberFromText, numberText } from "./number.js";
import { CYCLE_CHECK_DEPTH, openCollection } from "./cycles.js";
import { RegoObject, sortedPlainKeys } from "./object.js";
import { RegoSet } from "./set.js";
import { Special, newPlainObject, setOwn, type PlainObject, type Value } from "./value.js";

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export function toJSON(v: Value): JSONValue {
  return toJSONAt(v, 0);
}

/** Nesting depth from which toJSON continues with an explicit stack instead of recursion. */
const RECURSION_DEPTH = 1000;

function toJSONAt(v: Value, depth: number): JSONValue {
  switch (typeof v) {
    case "number":
    case "string":
    case "boolean":
      return v;
    default:
      break;
  }
  if (v === null) return null;
  if (depth > RECURSION_DEPTH) return toJSONIterative(v);
  if (Array.isArray(v)) {
    let out: JSONValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e = v[i]!;
      const j = toJSONAt(e, depth + 1);
      if (out === undefined && j !== e) out = v.slice(0, i) as JSONValue[];
      if (out !== undefined) out.push(j);
    }
    return out ?? (v as JSONValue[]);
  }
  if (v instanceof Special) {
    if (v instanceof BigNum) return v.toNumber();
    if (v instanceof RegoSet) return v.sorted().map((e) => toJSONAt(e, depth + 1));
    const out = newPlainObject() as { [key: string]: JSONValue };
    for (const [k, val] of (v as RegoObject).sorted()) {
      setOwn(out as PlainObject, typeof k === "string" ? k : toJSONText(k), toJSONAt(val, depth + 1) as Value);
    }
    return out;
  }
  let out: { [key: string]: JSONValue } | undefined;
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const e = (v as PlainObject)[k]!;
    const j = toJSONAt(e, depth + 1);
    if (out === undefined && j !== e) {
      out = newPlainObject() as { [key: string]: JSONValue };
      for (let p = 0; p < i; p++) setOwn(out as PlainObject, keys[p]!, (v as PlainObject)[keys[p]!]!);
    }
    if (out !== undefined) setOwn(out as PlainObject, k, j as Value);
  }
  return out ?? (v as { [key: string]: JSONValue });
}

/** One open container of toJSONIterative: its children left to convert and its JSON so far. */
class JSONFrame {
  next = 0;
  /** Where the finished container goes in its parent. */
  key: string | number = 0;
  constructor(
    readonly children: readonly (readonly [string | number, Value])[],
    readonly out: JSONValue[] | { [key: string]: JSONValue },
  ) {}
}

/** toJSON for values nested deeper than the JS call stack may follow: a copy, built bottom-up. */
function toJSONIterative(root: Value): JSONValue {
  const open = (v: Value): JSONValue | JSONFrame => {
    if (typeof v !== "object" || v === null) return v as JSONValue;
    if (Array.isArray(v)) return new JSONFrame(v.map((x, i) => [i, x] as const), []);
    if (v instanceof BigNum) return v.toNumber();
    if (v instanceof RegoSet) return new JSONFrame(v.sorted().map((x, i) => [i, x] as const), []);
    const out = newPlainObject() as { [key: string]: JSONValue };
    if (v instanceof RegoObject) return new JSONFrame(v.sorted().map(([k, x]) => [typeof k === "string" ? k : toJSONText(k), x] as const), out);
    return new JSONFrame(Object.keys(v).map((k) => [k, (v as PlainObject)[k]!] as const), out);
  };
  const put = (frame: JSONFrame, key: string | number, value: JSONValue): void => {
    if (Array.isArray(frame.out)) frame.out.push(value);
    else setOwn(frame.out as PlainObject, key as string, value as Value);
  };
  const first = open(root);
  if (!(first instanceof JSONFrame)) return first;
  const stack = [first];
  for (;;) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.children.length) {
      const [key, child] = top.children[top.next++]!;
      const opened = open(child);
      if (opened instanceof JSONFrame) {
        opened.key = key;
        stack.push(opened);
      } else put(top, key, opened);
      continue;
    }
    stack.pop();
    const parent = stack[stack.length - 1];
    if (parent === undefined) return top.out;
    put(parent, top.key, top.out);
  }
}

/** Exact JSON text; `indent` pretty-prints as JSON.stringify does. */
export function toJSONText(v: Value, indent?: string): string {
  return writeJSON(v, indent ? { indent } : {});
}

export interface JSONWriteOptions {
  /** A string literal's text (default JSON.stringify; the builtins pass Go's escaping). */
  quote?: (s: string) => string;
  /** Pretty layout (Go's MarshalIndent, even when empty): every line after the first starts with `prefix`, then `indent` per level. */
  indent?: string;
  prefix?: string;
}

/** One open array or object: what is left to write. Frames are reused from depth to depth. */
class Frame {
  /** Array elements, or a RegoObject's values (by `keys`); undefined for a plain object. */
  vals: readonly Value[] | undefined = undefined;
  /** Object keys in order; undefined for an array. */
  keys: readonly string[] | undefined = undefined;
  obj: PlainObject | undefined = undefined;
  /** The collection itself (for the cycle check). */
  value: Value | undefined = undefined;
  n = 0;
  i = 0;

  /** Takes up a collection (v is not a scalar); returns its member count. */
  open(v: Value, quote: (s: string) => string): number {
    this.i = 0;
    this.value = v;
    this.obj = undefined;
    if (Array.isArray(v)) {
      this.vals = v;
      this.keys = undefined;
    } else if (v instanceof RegoSet) {
      this.vals = v.sorted();
      this.keys = undefined;
    } else if (v instanceof RegoObject) {
      // Non-string keys become their JSON text; keys that share a text (the string "1" and the
      // number 1) keep the last in OPA's order, as a Go map does.
      const byKey = new Map<string, Value>();
      for (const [k, x] of v.sorted()) byKey.set(typeof k === "string" ? k : writeJSON(k, { quote }), x);
      const keys = sortStrings([...byKey.keys()]);
      this.keys = keys;
      this.vals = keys.map((k) => byKey.get(k)!);
    } else {
      this.obj = v as PlainObject;
      this.keys = sortedPlainKeys(this.obj);
      this.vals = undefined;
    }
    return (this.n = this.keys !== undefined ? this.keys.length : this.vals!.length);
  }

  /** The member at i; for objects, its key is `keys[i]`. */
  member(i: number): Value {
    return this.vals !== undefined ? this.vals[i]! : this.obj![this.keys![i]!]!;
  }
}

/**
 * The one JSON writer: keys sorted by code point (UTF-8 byte order, as Go sorts map keys), sets
 * as sorted arrays, numbers as their exact text. It keeps its own stack, so values nested deeper
 * than the JS call stack allows are written too; a value that contains itself is an error.
 */
export function writeJSON(root: Value, options: JSONWriteOptions = {}): string {
  const quote = options.quote ?? JSON.stringify;
  const indent = options.indent;
  const sep = indent !== undefined ? ": " : ":";
  // pads[d]: the line break and indentation before an item at depth d (pretty only).
  const pads: string[] = indent !== undefined ? [`\n${options.prefix ?? ""}`] : [];
  const frames: Frame[] = [];
  let depth = 0; // open collections: frames[0 .. depth-1]
  let open: Set<unknown> | undefined; // the open collections, once the writer is deep (cycles.ts)
  let out = "";
  let v: Value = root;
  for (;;) {
    // Write v: a scalar whole; a collection's opening, its first member becoming v.
    const t = typeof v;
    if (t === "string") out += quote(v as string);
    else if (t === "number") out += numberText(v as number);
    else if (t === "boolean") out += v ? "true" : "false";
    else if (v === null) out += "null";
    else if (v instanceof BigNum) out += v.toString();
    else {
      const f = depth < frames.length ? frames[depth]! : (frames[depth] = new Frame());
      const n = f.open(v, quote);
      const array = f.keys === undefined;
      if (n === 0) out += array ? "[]" : "{}";
      else {
        if (open !== undefined || depth >= CYCLE_CHECK_DEPTH) open = openCollection(open, v, () => frames.slice(0, depth).map((fr) => fr.value));
        depth++;
        out += array ? "[" : "{";
        if (indent !== undefined) {
          while (pads.length <= depth) pads.push(pads[pads.length - 1] + indent);
          out += pads[depth]!;
        }
        if (!array) out += quote(f.keys![0]!) + sep;
        v = f.member(0);
        continue;
      }
    }
    // Move to the next member of the innermost open collection, closing the finished ones.
    for (;;) {
      if (depth === 0) return out;
      const top = frames[depth - 1]!;
      const i = ++top.i;
      if (i < top.n) {
        out += indent !== undefined ? `,${pads[depth]!}` : ",";
        if (top.keys !== undefined) out += quote(top.keys[i]!) + sep;
        v = top.member(i);
        break;
      }
      depth--;
      if (indent !== undefined) out += pads[depth]!;
      out += top.keys === undefined ? "]" : "}";
      if (open !== undefined) open.delete(top.value);
      top.vals = top.keys = top.obj = top.value = undefined; // let go of the value
    }
  }
}

/** Parses JSON text, keeping numbers exact; a syntax error is a RegoError naming the position. */
export function fromJSONText(text: string, what = "JSON"): Value {
  try {
    return parseLossless(text, null, (s: string) => numberFromText(s) ?? Number(s)) as Value;
  } catch (e) {
    throw jsonTextError(what, e);
  }
}

/** JSON text that does not parse (a builtin's operand or a data file); `what` names it. */
function jsonTextError(what: string, e: unknown): RegoError {
  return new RegoError("eval_builtin_error", `${what}: ${(e as Error).message}`);
}
