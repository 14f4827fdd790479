// Builtins of OPA's "strings" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
// Go strings are UTF-8 bytes and JS strings UTF-16: where OPA counts, it counts runes (indexof,
// indexof_n, substring, strings.reverse), and so do these; Go's own string semantics (case
// mapping, trimming, splitting, replacing) live in go/strings.ts, Go's fmt in go/sprintf.ts.
import { isInteger, toBigInt, decimalOf, type Num } from "../value/number.js";
import { objectEntries } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import {
  arr,
  builtinError,
  intOperand,
  num,
  obj,
  operandElementError,
  operandEnumError,
  operandError,
  operandTypeError,
  str,
} from "./args.js";
import type { EvalContext } from "./context.js";
import { fromRunes, runes } from "./go/strconv.js";
import {
  goCount,
  goReplace,
  goSplit,
  goToLower,
  goToUpper,
  goTrim,
  goTrimSpace,
  runeIndexesOf,
  runeIndexOf,
} from "./go/strings.js";
import type { BuiltinTable } from "./registry.js";
import { goArg, goSprintf } from "./go/sprintf.js";

/** The strings of an array or set operand (OPA's StringSliceOperand), sets in OPA order. */
function stringSlice(v: Value, pos: number): string[] {
  const elems = Array.isArray(v) ? v : v instanceof RegoSet ? v.sorted() : undefined;
  if (elems === undefined) throw operandTypeError(pos, v, "array", "set");
  return elems.map((e) => {
    if (typeof e !== "string") throw operandElementError(pos, v, e, "string");
    return e;
  });
}

/** A string, array of strings or set of strings (strings.any_prefix_match and friends). */
function stringOrSlice(v: Value, pos: number): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) || v instanceof RegoSet) return stringSlice(v, pos);
  throw operandTypeError(pos, v, "string", "set", "array");
}

function anyAffixMatch(a: Value, b: Value, suffix: boolean): boolean {
  const strs = stringOrSlice(a, 1);
  const affixes = stringOrSlice(b, 2);
  return strs.some((s) => affixes.some((x) => (suffix ? s.endsWith(x) : s.startsWith(x))));
}

function concat(_ctx: EvalContext, delim: Value, coll: Value): Value {
  const sep = str(delim, 1);
  const elems = Array.isArray(coll) ? coll : coll instanceof RegoSet ? coll.sorted() : undefined;
  if (elems === undefined) throw operandTypeError(2, coll, "set", "array");
  for (const e of elems) if (typeof e !== "string") throw operandElementError(2, coll, e, "string");
  return (elems as string[]).join(sep);
}

/** The integer part of a number, truncated toward zero. */
function truncate(n: Num): bigint {
  if (isInteger(n)) return toBigInt(n);
  if (typeof n === "number") return BigInt(Math.trunc(n));
  const [m, e] = decimalOf(n);
  return m / 10n ** BigInt(-e);
}

function formatInt(_ctx: EvalContext, x: Value, base: Value): Value {
  const n = num(x, 1);
  const b = num(base, 2);
  if (b !== 2 && b !== 8 && b !== 10 && b !== 16) throw operandEnumError(2, "2", "8", "10", "16");
  return truncate(n).toString(b);
}

function indexOf(_ctx: EvalContext, base: Value, search: Value): Value {
  const s = str(base, 1);
  const sub = str(search, 2);
  if (sub === "") throw builtinError("empty search character");
  return runeIndexOf(s, sub);
}

function indexOfN(_ctx: EvalContext, base: Value, search: Value): Value {
  const s = str(base, 1);
  const sub = str(search, 2);
  if (sub === "") throw builtinError("empty search character");
  return runeIndexesOf(s, sub);
}

function substring(_ctx: EvalContext, base: Value, start: Value, length: Value): Value {
  const s = str(base, 1);
  const from = intOperand(start, 2);
  const len = intOperand(length, 3);
  if (from < 0) throw builtinError("negative offset");
  const rs = runes(s);
  if (from >= rs.length) return "";
  if (from === 0 && (len < 0 || len >= rs.length)) return s;
  return fromRunes(rs.slice(from, len < 0 ? undefined : Math.min(rs.length, from + len)));
}

function splitN(_ctx: EvalContext, text: Value, delim: Value, count: Value): Value {
  const s = str(text, 1);
  const d = str(delim, 2);
  const n = intOperand(count, 3);
  const parts = goSplit(s, d);
  if (n >= 0) return parts.slice(0, n);
  return parts.slice(Math.max(parts.length + n, 0));
}

function replaceN(_ctx: EvalContext, patterns: Value, text: Value): Value {
  const o = obj(patterns, 1);
  const s = str(text, 2);
  const pairs: Array<[string, string]> = [];
  // Keys in OPA's order: the first pattern (in that order) matching at a position wins.
  for (const [k, v] of objectEntries(o)) {
    if (typeof k !== "string") throw operandError(1, "non-string key found in pattern object");
    if (typeof v !== "string") throw operandError(1, "non-string value found in pattern object");
    pairs.push([k, v]);
  }
  return goReplace(s, pairs);
}

function sprintf(_ctx: EvalContext, format: Value, values: Value): Value {
  const f = str(format, 1);
  const a = arr(values, 2);
  return goSprintf(f, a.map(goArg));
}

const s1 = (f: (s: string) => Value) => (_ctx: EvalContext, a: Value) => f(str(a, 1));
const s2 = (f: (a: string, b: string) => Value) => (_ctx: EvalContext, a: Value, b: Value) => f(str(a, 1), str(b, 2));

export const stringsBuiltins: BuiltinTable = {
  concat: { fn: concat },
  contains: { fn: s2((s, sub) => s.includes(sub)) },
  startswith: { fn: s2((s, p) => s.startsWith(p)) },
  endswith: { fn: s2((s, p) => s.endsWith(p)) },
  format_int: { fn: formatInt },
  indexof: { fn: indexOf },
  indexof_n: { fn: indexOfN },
  lower: { fn: s1(goToLower) },
  upper: { fn: s1(goToUpper) },
  split: { fn: s2(goSplit) },
  "strings.split_n": { fn: splitN },
  replace: {
    fn: (_ctx: EvalContext, s: Value, old: Value, rep: Value) => goReplace(str(s, 1), [[str(old, 2), str(rep, 3)]]),
  },
  "strings.replace_n": { fn: replaceN },
  substring: { fn: substring },
  trim: { fn: s2((s, c) => goTrim(s, c, true, true)) },
  trim_left: { fn: s2((s, c) => goTrim(s, c, true, false)) },
  trim_right: { fn: s2((s, c) => goTrim(s, c, false, true)) },
  trim_prefix: { fn: s2((s, p) => (s.startsWith(p) ? s.slice(p.length) : s)) },
  trim_suffix: { fn: s2((s, p) => (s.endsWith(p) ? s.slice(0, s.length - p.length) : s)) },
  trim_space: { fn: s1(goTrimSpace) },
  sprintf: { fn: sprintf },
  "strings.any_prefix_match": { fn: (_ctx: EvalContext, a: Value, b: Value) => anyAffixMatch(a, b, false) },
  "strings.any_suffix_match": { fn: (_ctx: EvalContext, a: Value, b: Value) => anyAffixMatch(a, b, true) },
  "strings.count": { fn: s2(goCount) },
  "strings.reverse": { fn: s1((s) => fromRunes(runes(s).reverse())) },
};
