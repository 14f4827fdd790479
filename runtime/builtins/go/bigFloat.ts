// Binary floating point with a fixed mantissa precision and round-half-even, the way OPA computes
// with non-integer numbers: Go's math/big.Float. OPA parses a number's text into a 64-bit-mantissa
// float, does the operation at 64 bits (53 for `product`, whose accumulator starts as a float64), and
// prints the shortest decimal that reads back to the same float at that precision. That is why
// `0.1 + 0.2` is `0.3` in OPA, where a JS double gives 0.30000000000000004.
//
// A value is m × 2^e with a signed bigint m; only the arithmetic OPA needs is here.
import { decimalOf, fromBigInt, normalize, type Num } from "../../value/number.js";
import { builtinError } from "../args.js";
import { roundDecimal, roundDown, roundUp, trimZeros, type Decimal } from "./float.js";

export interface BigFloat {
  readonly m: bigint;
  readonly e: number;
}

/** OPA's default precision (big.Float parses text at 64 bits). */
export const PREC = 64;

/** Decimal exponents beyond this are refused rather than expanded into enormous integers. */
export const MAX_EXP10 = 100_000;

const ZERO: BigFloat = { m: 0n, e: 0 };

export function bitLength(a: bigint): number {
  if (a < 0n) a = -a;
  if (a === 0n) return 0;
  const hex = a.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
}

/** Rounds m × 2^e to `prec` bits, half to even; `sticky` says nonzero bits were already dropped below m. */
export function roundTo(m: bigint, e: number, prec: number, sticky = false): BigFloat {
  if (m === 0n) return ZERO;
  const neg = m < 0n;
  const a = neg ? -m : m;
  const bits = bitLength(a);
  if (bits <= prec) return { m, e };
  const shift = bits - prec;
  const big = BigInt(shift);
  let q = a >> big;
  const r = a & ((1n << big) - 1n);
  const half = 1n << (big - 1n);
  if (r > half || (r === half && (sticky || (q & 1n) === 1n))) q += 1n;
  return { m: neg ? -q : q, e: e + shift };
}

export function mul(x: BigFloat, y: BigFloat, prec: number): BigFloat {
  return roundTo(x.m * y.m, x.e + y.e, prec);
}

export function add(x: BigFloat, y: BigFloat, prec: number): BigFloat {
  if (x.m === 0n) return roundTo(y.m, y.e, prec);
  if (y.m === 0n) return roundTo(x.m, x.e, prec);
  const e = Math.min(x.e, y.e);
  return roundTo((x.m << BigInt(x.e - e)) + (y.m << BigInt(y.e - e)), e, prec);
}

export function neg(x: BigFloat): BigFloat {
  return { m: -x.m, e: x.e };
}

/** x / y rounded to prec bits; y must not be zero. */
export function quo(x: BigFloat, y: BigFloat, prec: number): BigFloat {
  if (x.m === 0n) return ZERO;
  // Scale the dividend so the quotient carries at least prec + 2 bits; the remainder is the sticky bit.
  const k = Math.max(0, prec + 2 - (bitLength(x.m) - bitLength(y.m)));
  const n = x.m << BigInt(k);
  const q = n / y.m;
  return roundTo(q, x.e - y.e - k, prec, n % y.m !== 0n);
}

function fromInt(i: bigint, prec: number): BigFloat {
  return roundTo(i, 0, prec);
}

// 5^n as big.Float.pow5 computes it: exact up to 5^27, then by squaring with rounding.
function pow5(n: number, prec: number): BigFloat {
  if (n <= 27) return fromInt(pow5Exact(n), prec);
  let z = fromInt(pow5Exact(27), prec);
  let f = fromInt(5n, prec + 64);
  let k = n - 27;
  while (k > 0) {
    if (k & 1) z = mul(z, f, prec);
    f = mul(f, f, prec + 64);
    k = Math.floor(k / 2);
  }
  return z;
}

/** The float OPA gets from a number's decimal text (big.Float.SetString at `prec` bits). */
export function fromNum(n: Num, prec: number = PREC): BigFloat {
  const [mant, exp10] = decimalOf(n);
  if (mant === 0n) return ZERO;
  if (Math.abs(exp10) > MAX_EXP10) throw builtinError("number too large");
  // The mantissa digits stay exact; one rounding happens in the multiplication by 5^exp10.
  const x: BigFloat = { m: mant, e: exp10 };
  if (exp10 === 0) return roundTo(mant, 0, prec);
  const p = pow5(Math.abs(exp10), prec + 64);
  return exp10 > 0 ? mul(x, p, prec) : quo(x, p, prec);
}

export function isInt(x: BigFloat): boolean {
  if (x.e >= 0 || x.m === 0n) return true;
  return (x.m & ((1n << BigInt(-x.e)) - 1n)) === 0n;
}

/** Truncation toward zero (big.Float.Int). */
export function trunc(x: BigFloat): bigint {
  if (x.e >= 0) return x.m << BigInt(x.e);
  const a = x.m < 0n ? -x.m : x.m;
  const t = a >> BigInt(-x.e);
  return x.m < 0n ? -t : t;
}

/** The number OPA makes of a float: integers exactly, others as the shortest decimal at `prec` bits. */
export function toNum(x: BigFloat, prec: number = PREC): Num {
  if (x.m === 0n) return 0;
  if (isInt(x)) return fromBigInt(trunc(x));
  const [digits, point] = shortest(x, prec);
  return normalize((x.m < 0n ? -1n : 1n) * BigInt(digits), point - digits.length);
}

// --- shortest decimal (Go's big.Float roundShortest) -------------------------------------------
// Decimals and their rounding are strconv's (float.ts): value = 0.d × 10^dp, no trailing zeros.

const POW5 = new Map<number, bigint>();

function pow5Exact(k: number): bigint {
  let p = POW5.get(k);
  if (p === undefined) {
    p = 5n ** BigInt(k);
    if (POW5.size < 4096) POW5.set(k, p);
  }
  return p;
}

/** The exact decimal of n × 10^-k (n ≥ 0). */
function decimalOfScaled(n: bigint, k: number): Decimal {
  const text = n.toString();
  return { d: trimZeros(text), dp: text.length - k };
}

/** The value, lower and upper bounds (m - 1, m, m + 1) × 2^e as exact decimals. */
function exactDecimals(m: bigint, e: number): [Decimal, Decimal, Decimal] {
  if (e >= 0) {
    const unit = 1n << BigInt(e);
    const v = m << BigInt(e);
    return [decimalOfScaled(v - unit, 0), decimalOfScaled(v, 0), decimalOfScaled(v + unit, 0)];
  }
  // m × 2^e = m × 5^-e × 10^e
  const unit = pow5Exact(-e);
  const v = m * unit;
  return [decimalOfScaled(v - unit, -e), decimalOfScaled(v, -e), decimalOfScaled(v + unit, -e)];
}

const digitAt = (x: Decimal, i: number): string => (i < x.d.length ? x.d[i]! : "0");

/** Digits and point of the shortest decimal that rounds back to x at `prec` bits. */
function shortest(x: BigFloat, prec: number): [string, number] {
  let m = x.m < 0n ? -x.m : x.m;
  let e = x.e;
  // Give the mantissa exactly prec + 1 bits, so its lowest bit is half an ulp.
  const s = bitLength(m) - (prec + 1);
  if (s < 0) m <<= BigInt(-s);
  else if (s > 0) m >>= BigInt(s);
  e += s;
  const [lo, d, up] = exactDecimals(m, e);
  const inclusive = (m & 2n) === 0n;
  // Digits are compared position by position, as Go does, even when a bound's decimal point
  // differs from the value's (a power of ten between them).
  for (let i = 0; i < d.d.length; i++) {
    const c = d.d[i]!;
    const l = digitAt(lo, i);
    const u = digitAt(up, i);
    const okDown = l !== c || (inclusive && i + 1 === lo.d.length);
    const okUp = c !== u && (inclusive || c.charCodeAt(0) + 1 < u.charCodeAt(0) || i + 1 < up.d.length);
    let r: Decimal | undefined;
    if (okDown && okUp) r = roundDecimal(d, i + 1);
    else if (okDown) r = roundDown(d, i + 1);
    else if (okUp) r = roundUp(d, i + 1);
    if (r) return [r.d, r.dp];
  }
  return [d.d, d.dp];
}
