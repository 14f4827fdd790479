// Builtins of OPA's "units" category: units.parse (SI and binary SI, exact rationals, non-integer
// results rounded to 10 decimal places like big.Rat.FloatString(10)) and units.parse_bytes
// (byte units, computed as a 64-bit-mantissa big.Float and truncated to an integer, as OPA does).
// Errors carry OPA's texts, which repeat the builtin's name (OPA's message is
// "units.parse: units.parse: no amount provided" once the call's name is prefixed).
import { fromBigInt, normalize, numberFromText, type Num } from "../value/number.js";
import type { Value } from "../value/value.js";
import { builtinError, str } from "./args.js";
import * as bigFloat from "./go/bigFloat.js";
import type { EvalContext } from "./context.js";
import { exactDecimal } from "./go/float.js";
import type { BuiltinTable } from "./registry.js";

class ExponentTooLarge extends Error {}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** OPA's extractNumAndUnit: the leading number (digits, '.', signs, exponents) and the rest. */
function extractNumAndUnit(s: string): [string, string] {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const numeric = isDigit(c) || c === "." || c === "+" || c === "-";
    if (!numeric && c !== "e" && c !== "E") return i === 0 ? ["", s] : [s.slice(0, i), s.slice(i)];
    if (c === "e" || c === "E") {
      const next = s[i + 1];
      if (next === undefined || (!isDigit(next) && next !== "+" && next !== "-")) {
        return i === 0 ? ["", s] : [s.slice(0, i), s.slice(i)];
      }
      if (next === "+" || next === "-") i++;
      let end = i + 1;
      while (isDigit(s[end])) end++;
      if (end - (i + 1) > 6) throw new ExponentTooLarge();
    }
  }
  return [s, ""];
}

/** A decimal number as big.Rat/big.Float SetString read it: [mantissa, exponent of ten]. */
function parseDecimal(text: string): [bigint, number] | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const frac = m[3] ?? "";
  const mant = BigInt(`${m[1] === "-" ? "-" : ""}${m[2] || "0"}${frac}`);
  return [mant, Number(m[4] ?? 0) - frac.length];
}

// The unit tables. Decimal prefixes are powers of 1000, binary ones (ki, Mi, ...) of 1024.
// units.parse is case-sensitive in the prefix but k and K are both kilo and lower-case m is milli
// (unitFactor), so mega is M only; units.parse_bytes lower-cases its input and accepts kb, k,
// kib, ki, ...
const UNITS = new Map<string, bigint>([["", 1n]]);
const BYTE_UNITS = new Map<string, bigint>([["", 1n]]);
["k", "m", "g", "t", "p", "e"].forEach((p, i) => {
  const decimal = 1000n ** BigInt(i + 1);
  const binary = 1n << BigInt(10 * (i + 1));
  const P = p.toUpperCase();
  if (p !== "m") UNITS.set(p, decimal);
  UNITS.set(P, decimal).set(`${p}i`, binary).set(`${P}i`, binary);
  BYTE_UNITS.set(p, decimal).set(`${p}b`, decimal).set(`${p}i`, binary).set(`${p}ib`, binary);
});

/** extractNumAndUnit with OPA's message for an over-long exponent. */
function numAndUnit(s: string, fail: (msg: string) => Error): [string, string] {
  try {
    return extractNumAndUnit(s);
  } catch (e) {
    if (e instanceof ExponentTooLarge) throw fail("exponent too large");
    throw e;
  }
}

/** The factor of a units.parse unit as an exact decimal [mantissa, exponent], or undefined. */
function unitFactor(unit: string): [bigint, number] | undefined {
  if (unit === "m") {
    // OPA multiplies by the float64 0.001 (big.Rat.SetFloat64): its exact binary value.
    const d = exactDecimal(0.001);
    return [BigInt(d.d), d.dp - d.d.length];
  }
  const f = UNITS.get(unit);
  return f === undefined ? undefined : [f, 0];
}

/** x = mant × 10^exp as OPA prints a big.Rat: the integer, or FloatString(10) (halves away from zero). */
function ratNumber(mant: bigint, exp: number): Num {
  if (exp >= 0 || mant === 0n) return normalize(mant, exp >= 0 ? exp : 0);
  const abs = mant < 0n ? -mant : mant;
  if (abs.toString().length + exp < -11) return 0;
  const scale = 10n ** BigInt(-exp);
  if (mant % scale === 0n) return fromBigInt(mant / scale);
  if (-exp <= 10) return normalize(mant, exp);
  const div = 10n ** BigInt(-exp - 10);
  let q = abs / div;
  if ((abs % div) * 2n >= div) q += 1n;
  return normalize(mant < 0n ? -q : q, -10);
}

function unitsParse(_ctx: EvalContext, x: Value): Value {
  const fail = (msg: string) => builtinError(`units.parse: ${msg}`);
  const s = str(x, 1).replace(/"/g, "");
  if (s.includes(" ")) throw fail("spaces not allowed in resource strings");
  let [num, unit] = numAndUnit(s, fail);
  if (num === "") throw fail("no amount provided");
  if (unit.length > 1) unit = unit[0] + unit.slice(1).toLowerCase();
  const factor = unitFactor(unit);
  if (factor === undefined) throw fail(`unit ${unit} not recognized`);
  const d = parseDecimal(num);
  if (d === undefined) throw fail("could not parse amount to a number");
  return ratNumber(d[0] * factor[0], d[1] + factor[1]);
}

function parseBytes(_ctx: EvalContext, x: Value): Value {
  const fail = (msg: string) => builtinError(`units.parse_bytes: ${msg}`);
  const s = str(x, 1).toLowerCase().replace(/"/g, "");
  if (s.includes(" ")) throw fail("spaces not allowed in resource strings");
  const [num, unit] = numAndUnit(s, fail);
  if (num === "") throw fail("no byte amount provided");
  const factor = BYTE_UNITS.get(unit);
  if (factor === undefined) throw fail(`byte unit ${unit} not recognized`);
  const d = parseDecimal(num);
  if (d === undefined) throw fail("could not parse byte amount to a number");
  // big.Float at 64 bits: the amount is rounded when read, the product rounded again, then truncated.
  const amount = bigFloat.fromNum(numberFromText(`${d[0]}e${d[1]}`) ?? 0);
  const total = bigFloat.mul(amount, { m: factor, e: 0 }, bigFloat.PREC);
  return fromBigInt(bigFloat.trunc(total));
}

export const unitsBuiltins: BuiltinTable = {
  "units.parse": { fn: unitsParse },
  "units.parse_bytes": { fn: parseBytes },
};
