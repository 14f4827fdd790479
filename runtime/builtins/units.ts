// Builtins of OPA's "units" category: units.parse (SI and binary SI, exact rationals, non-integer
// results rounded to 10 decimal places like big.Rat.FloatString(10)) and units.parse_bytes
// (byte units, computed as a 64-bit-mantissa big.Float and truncated to an integer, as OPA does).
// Errors carry OPA's texts, which repeat the builtin's name (OPA's message is
// "units.parse: units.parse: no amount provided" once the call's name is prefixed).
import { fromBigInt, normalize, numberFromText, type Num } from "../value/number.js";
import type { Value } from "../value/value.js";
import { builtinError, str } from "./args.js";
import * as bigFloat from "./bigFloat.js";
import type { EvalContext } from "./context.js";
import { exactDecimal } from "./goFloat.js";
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

const K = 1000n;
const UNITS = new Map<string, bigint>([
  ["", 1n],
  ["k", K],
  ["K", K],
  ["ki", 1n << 10n],
  ["Ki", 1n << 10n],
  ["M", K ** 2n],
  ["mi", 1n << 20n],
  ["Mi", 1n << 20n],
  ["g", K ** 3n],
  ["G", K ** 3n],
  ["gi", 1n << 30n],
  ["Gi", 1n << 30n],
  ["t", K ** 4n],
  ["T", K ** 4n],
  ["ti", 1n << 40n],
  ["Ti", 1n << 40n],
  ["p", K ** 5n],
  ["P", K ** 5n],
  ["pi", 1n << 50n],
  ["Pi", 1n << 50n],
  ["e", K ** 6n],
  ["E", K ** 6n],
  ["ei", 1n << 60n],
  ["Ei", 1n << 60n],
]);

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
  let num: string;
  let unit: string;
  try {
    [num, unit] = extractNumAndUnit(s);
  } catch (e) {
    if (e instanceof ExponentTooLarge) throw fail("exponent too large");
    throw e;
  }
  if (num === "") throw fail("no amount provided");
  if (unit.length > 1) unit = unit[0] + unit.slice(1).toLowerCase();
  const factor = unitFactor(unit);
  if (factor === undefined) throw fail(`unit ${unit} not recognized`);
  const d = parseDecimal(num);
  if (d === undefined) throw fail("could not parse amount to a number");
  return ratNumber(d[0] * factor[0], d[1] + factor[1]);
}

const BYTE_UNITS: Record<string, bigint> = {
  "": 1n,
  kb: 1000n,
  k: 1000n,
  kib: 1n << 10n,
  ki: 1n << 10n,
  mb: 1000n ** 2n,
  m: 1000n ** 2n,
  mib: 1n << 20n,
  mi: 1n << 20n,
  gb: 1000n ** 3n,
  g: 1000n ** 3n,
  gib: 1n << 30n,
  gi: 1n << 30n,
  tb: 1000n ** 4n,
  t: 1000n ** 4n,
  tib: 1n << 40n,
  ti: 1n << 40n,
  pb: 1000n ** 5n,
  p: 1000n ** 5n,
  pib: 1n << 50n,
  pi: 1n << 50n,
  eb: 1000n ** 6n,
  e: 1000n ** 6n,
  eib: 1n << 60n,
  ei: 1n << 60n,
};

function parseBytes(_ctx: EvalContext, x: Value): Value {
  const fail = (msg: string) => builtinError(`units.parse_bytes: ${msg}`);
  const s = str(x, 1).toLowerCase().replace(/"/g, "");
  if (s.includes(" ")) throw fail("spaces not allowed in resource strings");
  let num: string;
  let unit: string;
  try {
    [num, unit] = extractNumAndUnit(s);
  } catch (e) {
    if (e instanceof ExponentTooLarge) throw fail("exponent too large");
    throw e;
  }
  if (num === "") throw fail("no byte amount provided");
  const factor = Object.hasOwn(BYTE_UNITS, unit) ? BYTE_UNITS[unit]! : undefined;
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
