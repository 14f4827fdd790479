// Numbers. OPA's numbers are arbitrary precision; ours are a JS double wherever a double holds the
// value exactly enough (every integer up to 2^53, and decimals whose shortest double text is the
// decimal itself), and a BigNum otherwise: mant × 10^exp with a bigint mantissa. Integer arithmetic
// never loses digits (it moves to bigint when a result leaves the safe range); decimal arithmetic is
// double arithmetic, as OPA's results for those are float-formatted anyway.
//
// Canonical form: a BigNum is never a value that `normalize` would turn into a double, so a number
// has one representation except for integer-valued doubles beyond 2^53 that arrive from JSON.parse
// in the caller's input; comparison, equality and hashing treat those exactly.
import { Special } from "./value.js";

export class BigNum extends Special {
  readonly rank = 2;
  /** value = mant × 10^exp; mant has no trailing zeros (unless it is 0). */
  readonly mant: bigint;
  readonly exp: number;
  constructor(mant: bigint, exp: number) {
    super();
    this.mant = mant;
    this.exp = exp;
  }
  isInteger(): boolean {
    return this.exp >= 0;
  }
  toBigInt(): bigint {
    return this.exp >= 0 ? this.mant * 10n ** BigInt(this.exp) : this.mant / 10n ** BigInt(-this.exp);
  }
  toNumber(): number {
    return Number(this.toString());
  }
  /** Exact decimal text: plain digits for integers, `1.25`-style or exponent form for decimals. */
  override toString(): string {
    return bigText(this.mant, this.exp);
  }
  /** JSON.stringify of a BigNum gives the nearest double; use toJSONText for exact text. */
  toJSON(): number {
    return this.toNumber();
  }
}

export type Num = number | BigNum;

export function isNumber(v: unknown): v is Num {
  return typeof v === "number" || v instanceof BigNum;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function bigText(mant: bigint, exp: number): string {
  if (exp >= 0) {
    if (exp <= 30) return (mant * 10n ** BigInt(exp)).toString();
    return `${mant}e${exp}`;
  }
  const neg = mant < 0n;
  const digits = (neg ? -mant : mant).toString();
  const point = digits.length + exp; // position of the decimal point
  let body: string;
  if (point > 0) body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (point > -20) body = `0.${"0".repeat(-point)}${digits}`;
  else body = `${digits[0]}${digits.length > 1 ? "." + digits.slice(1) : ""}e${point - 1}`;
  return neg ? `-${body}` : body;
}

/** mant × 10^exp in canonical form: a double when that is exact, else a BigNum. */
export function normalize(mant: bigint, exp: number): Num {
  if (mant === 0n) return 0;
  while (mant % 10n === 0n) {
    mant /= 10n;
    exp++;
  }
  if (exp >= 0) {
    if (exp <= 16) {
      const i = mant * 10n ** BigInt(exp);
      if (i <= MAX_SAFE && i >= -MAX_SAFE) return Number(i);
    }
    return new BigNum(mant, exp);
  }
  // A decimal: a double stands for it when the double's shortest text is this very decimal.
  const d = Number(bigText(mant, exp));
  if (Number.isFinite(d)) {
    const back = parseDecimal(String(d));
    if (back && back[0] === mant && back[1] === exp) return d;
  }
  return new BigNum(mant, exp);
}

/** Parses JSON/Rego number text into [mant, exp] with trailing zeros stripped; null if malformed. */
function parseDecimal(text: string): [bigint, number] | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[3] ?? "";
  let mant = BigInt(`${m[1]}${m[2]}${frac}`);
  let exp = (m[4] ? Number(m[4]) : 0) - frac.length;
  if (!Number.isSafeInteger(exp)) return null;
  if (mant === 0n) return [0n, 0];
  while (mant % 10n === 0n) {
    mant /= 10n;
    exp++;
  }
  return [mant, exp];
}

/** A number from its literal text (`"3.14"`, `"1e3"`, `"123456789012345678901234"`); exact. */
export function numberFromText(text: string): Num | undefined {
  const d = Number(text);
  // Fast path: short integers and short decimals are exact as doubles.
  if (Number.isSafeInteger(d) && /^-?\d{1,15}$/.test(text)) return d;
  const p = parseDecimal(text.trim());
  if (!p) return undefined;
  return normalize(p[0], p[1]);
}

/** The exact [mant, exp] of any number (a double contributes its shortest decimal text). */
export function decimalOf(n: Num): [bigint, number] {
  if (n instanceof BigNum) return [n.mant, n.exp];
  if (Number.isInteger(n)) return [BigInt(n), 0];
  return parseDecimal(String(n).replace("e+", "e")) ?? [0n, 0];
}

export function isInteger(n: Num): boolean {
  return typeof n === "number" ? Number.isInteger(n) : n.exp >= 0;
}

/** The nearest double. */
export function toDouble(n: Num): number {
  return typeof n === "number" ? n : n.toNumber();
}

/** An integer number as a bigint (callers check isInteger first). */
export function toBigInt(n: Num): bigint {
  return typeof n === "number" ? BigInt(n) : n.toBigInt();
}

/** A bigint as a number in canonical form. */
export function fromBigInt(i: bigint): Num {
  return i <= MAX_SAFE && i >= -MAX_SAFE ? Number(i) : normalize(i, 0);
}

/** A double result as a number; non-finite results (overflow) are not numbers. */
export function fromDouble(d: number): Num | undefined {
  return Number.isFinite(d) ? (d === 0 ? 0 : d) : undefined;
}

/** Canonical text: what json.marshal, sprintf %v and object-key conversion print. */
export function numberText(n: Num): string {
  if (typeof n === "number") {
    if (Number.isInteger(n) && !Number.isSafeInteger(n)) return BigInt(n).toString();
    return String(n);
  }
  return n.toString();
}

/** Numeric comparison, exact for integers and BigNums. */
export function compareNumbers(a: Num, b: Num): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  const [am, ae] = decimalOf(a);
  const [bm, be] = decimalOf(b);
  // Bring both to the smaller exponent; the exponents of real numbers here are small.
  if (Math.abs(ae - be) > 10000) {
    const da = toDouble(a);
    const db = toDouble(b);
    return da < db ? -1 : da > db ? 1 : 0;
  }
  const e = Math.min(ae, be);
  const x = am * 10n ** BigInt(ae - e);
  const y = bm * 10n ** BigInt(be - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function numbersEqual(a: Num, b: Num): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  return compareNumbers(a, b) === 0;
}

function bothIntegers(a: Num, b: Num): boolean {
  return isInteger(a) && isInteger(b);
}

function exactAdd(a: Num, b: Num, sign: 1n | -1n): Num {
  const [am, ae] = decimalOf(a);
  const [bm, be] = decimalOf(b);
  const e = Math.min(ae, be);
  return normalize(am * 10n ** BigInt(ae - e) + sign * bm * 10n ** BigInt(be - e), e);
}

export function add(a: Num, b: Num): Num | undefined {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (Number.isSafeInteger(r) || (!Number.isInteger(r) && Number.isFinite(r))) return r;
    if (!Number.isFinite(r) || bothIntegers(a, b)) return exactAdd(a, b, 1n);
    return r;
  }
  return exactAdd(a, b, 1n);
}

export function subtract(a: Num, b: Num): Num | undefined {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (Number.isSafeInteger(r) || (!Number.isInteger(r) && Number.isFinite(r))) return r;
    if (!Number.isFinite(r) || bothIntegers(a, b)) return exactAdd(a, b, -1n);
    return r;
  }
  return exactAdd(a, b, -1n);
}

export function multiply(a: Num, b: Num): Num | undefined {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (Number.isSafeInteger(r) || (!Number.isInteger(r) && Number.isFinite(r))) return r === 0 ? 0 : r;
    if (!Number.isFinite(r) || bothIntegers(a, b)) {
      const [am, ae] = decimalOf(a);
      const [bm, be] = decimalOf(b);
      return normalize(am * bm, ae + be);
    }
    return r;
  }
  const [am, ae] = decimalOf(a);
  const [bm, be] = decimalOf(b);
  return normalize(am * bm, ae + be);
}

/** Division; undefined for a zero divisor (callers raise OPA's "divide by zero"). */
export function divide(a: Num, b: Num): Num | undefined {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0) return undefined;
    const r = a / b;
    if (Number.isFinite(r) && (Number.isSafeInteger(a) || !Number.isInteger(a)) && Math.abs(r) < 1e15) return r === 0 ? 0 : r;
  }
  const [am, ae] = decimalOf(a);
  const [bm, be] = decimalOf(b);
  if (bm === 0n) return undefined;
  // Exact when the quotient terminates within the precision; else 34 significant digits, rounded.
  const PREC = 40;
  const scaled = am * 10n ** BigInt(PREC);
  const q = scaled / bm;
  const r = normalize(q, ae - be - PREC);
  if (scaled % bm === 0n) return r;
  return typeof r === "number" ? r : fromDouble(toDouble(a) / toDouble(b)) ?? r;
}

/** Integer remainder with the sign of the dividend (Go's %); callers check integrality and zero. */
export function remainder(a: Num, b: Num): Num | undefined {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0) return undefined;
    const r = a % b;
    return r === 0 ? 0 : r;
  }
  const bi = toBigInt(b);
  if (bi === 0n) return undefined;
  return fromBigInt(toBigInt(a) % bi);
}

export function negate(a: Num): Num {
  if (typeof a === "number") return a === 0 ? 0 : -a;
  return normalize(-a.mant, a.exp);
}

export function absolute(a: Num): Num {
  if (typeof a === "number") return Math.abs(a);
  return a.mant < 0n ? normalize(-a.mant, a.exp) : a;
}

export function sign(a: Num): number {
  if (typeof a === "number") return a < 0 ? -1 : a > 0 ? 1 : 0;
  return a.mant < 0n ? -1 : a.mant > 0n ? 1 : 0;
}
