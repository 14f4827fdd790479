// Builtins of OPA's "conversions" category: to_number and the deprecated cast_* functions.
//
// to_number accepts what Go's strconv.ParseFloat accepts (decimal and hexadecimal float syntax,
// but not inf/nan), and keeps the string's value exactly: "12345678901234567890" stays that integer.
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { RegoSet } from "../value/set.js";
import { isObject } from "../value/object.js";
import { BigNum, normalize, type Num } from "../value/number.js";
import type { Value } from "../value/value.js";
import { builtinError, operandTypeError } from "./args.js";
import { quote as goQuote } from "./go/strconv.js";

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const HEX = /^([+-]?)0[xX](_?[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)?(?:\.([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)?)?[pP]([+-]?\d+(?:_\d+)*)$/;

function syntaxError(s: string): never {
  throw builtinError(`strconv.ParseFloat: parsing ${goQuote(s)}: invalid syntax`);
}

function rangeError(s: string): never {
  throw builtinError(`strconv.ParseFloat: parsing ${goQuote(s)}: value out of range`);
}

/** The value of a short integer's text (an optional sign, 1 to 15 ASCII digits), or undefined:
 * exact as a double, read without the regular expression's match array. */
function shortInteger(s: string): number | undefined {
  const n = s.length;
  const signed = n > 0 && (s.charCodeAt(0) === 0x2d || s.charCodeAt(0) === 0x2b);
  const digits = signed ? n - 1 : n;
  if (digits < 1 || digits > 15) return undefined;
  for (let i = signed ? 1 : 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  const v = Number(s);
  return v === 0 ? 0 : v; // "-0" is 0
}

/** A number from a string in Go's float syntax, exactly; errors as strconv.ParseFloat reports them. */
export function parseNumberString(s: string): Num {
  const d = DECIMAL.exec(s);
  if (d) {
    const [, sgn, int = "", frac = "", exp] = d;
    if (int === "" && frac === "") syntaxError(s);
    const e = exp === undefined ? 0 : Number(exp);
    const mant = BigInt(`${sgn === "-" ? "-" : ""}${int}${frac}` || "0");
    if (!Number.isSafeInteger(e)) {
      if (mant === 0n || e < 0) return 0;
      rangeError(s);
    }
    const n = normalize(mant, e - frac.length);
    checkRange(n, s);
    return n;
  }
  const h = HEX.exec(s);
  if (h) {
    const [, sgn, int = "", frac = "", exp = "0"] = h;
    const digits = (int + frac).replaceAll("_", "");
    if (digits === "") syntaxError(s);
    const mant = BigInt(`0x${digits}`) * (sgn === "-" ? -1n : 1n);
    const e2 = Number(exp.replaceAll("_", "")) - 4 * frac.replaceAll("_", "").length;
    if (mant === 0n) return 0;
    if (e2 > 1100) rangeError(s);
    if (e2 < -1200) return 0;
    const n = e2 >= 0 ? normalize(mant * 2n ** BigInt(e2), 0) : normalize(mant * 5n ** BigInt(-e2), e2);
    checkRange(n, s);
    return n;
  }
  return syntaxError(s);
}

// ParseFloat(s, 64) fails with ErrRange when the value rounds beyond the largest double.
function checkRange(n: Num, s: string): void {
  if (n instanceof BigNum && !Number.isFinite(n.toNumber())) rangeError(s);
}

function toNumber(_ctx: EvalContext, v: Value): Value {
  switch (typeof v) {
    case "boolean":
      return v ? 1 : 0;
    case "number":
      return v;
    case "string": {
      const short = shortInteger(v);
      if (short !== undefined) return short;
      const word = v.replace(/^[+-]+/, "").toLowerCase();
      if (word === "inf" || word === "infinity" || word === "nan") throw operandTypeError(1, v, "valid number string");
      return parseNumberString(v);
    }
    default:
      if (v === null) return 0;
      if (v instanceof BigNum) return v;
      throw operandTypeError(1, v, "null", "boolean", "number", "string");
  }
}

function castArray(_ctx: EvalContext, v: Value): Value {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted().slice();
  throw operandTypeError(1, v, "array", "set");
}

function castSet(_ctx: EvalContext, v: Value): Value {
  if (v instanceof RegoSet) return v;
  if (Array.isArray(v)) return new RegoSet(v);
  throw operandTypeError(1, v, "array", "set");
}

function castString(_ctx: EvalContext, v: Value): Value {
  if (typeof v === "string") return v;
  throw operandTypeError(1, v, "string");
}

function castBoolean(_ctx: EvalContext, v: Value): Value {
  if (typeof v === "boolean") return v;
  throw operandTypeError(1, v, "boolean");
}

function castNull(_ctx: EvalContext, v: Value): Value {
  if (v === null) return v;
  throw operandTypeError(1, v, "null");
}

function castObject(_ctx: EvalContext, v: Value): Value {
  if (isObject(v)) return v;
  throw operandTypeError(1, v, "object");
}

export const castsBuiltins: BuiltinTable = {
  to_number: { fn: toNumber },
  cast_array: { fn: castArray },
  cast_set: { fn: castSet },
  cast_string: { fn: castString },
  cast_boolean: { fn: castBoolean },
  cast_null: { fn: castNull },
  cast_object: { fn: castObject },
};
