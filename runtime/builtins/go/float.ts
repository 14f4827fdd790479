// Go's strconv.FormatFloat for float64 (and the shortest float32 form YAML keys use), with the
// exact rounding Go applies: digits come from the double's exact binary value, rounded half to
// even. JS's toFixed/toExponential round exact ties away from zero (2.5 → "3", Go "2"), so the
// digits are produced here from the double's bits with bigint arithmetic.
// Hand-written because no JS library reproduces Go's %e/%f/%g/%b/%x layouts and rounding.

/** A decimal: value = 0.d × 10^dp; d holds no trailing zeros ("" is zero). */
export interface Decimal {
  d: string;
  dp: number;
}

export type FloatFormat = "e" | "E" | "f" | "g" | "G" | "b" | "x" | "X";

const view = new DataView(new ArrayBuffer(8));

/** The bits of a double: sign, biased exponent, 52-bit mantissa. */
function bitsOf(x: number): { neg: boolean; exp: number; mant: bigint } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  return { neg: hi >>> 31 === 1, exp: (hi >>> 20) & 0x7ff, mant: (BigInt(hi & 0xfffff) << 32n) | BigInt(lo) };
}

/** The digits without trailing zeros. */
export function trimZeros(d: string): string {
  let n = d.length;
  while (n > 0 && d.charCodeAt(n - 1) === 48) n--;
  return d.slice(0, n);
}

/** The exact decimal value of |x| (finite). */
export function exactDecimal(x: number): Decimal {
  const { exp, mant } = bitsOf(x);
  let m = mant;
  let e2: number;
  if (exp === 0) e2 = -1074;
  else {
    m |= 1n << 52n;
    e2 = exp - 1075;
  }
  if (m === 0n) return { d: "", dp: 0 };
  if (e2 >= 0) {
    const s = (m << BigInt(e2)).toString();
    return { d: trimZeros(s), dp: s.length };
  }
  const k = -e2;
  const s = (m * 5n ** BigInt(k)).toString();
  return { d: trimZeros(s), dp: s.length - k };
}

/** The shortest decimal that reads back as |x| (Go's and JS's shortest forms agree). */
export function shortestDecimal(x: number, bits: 32 | 64 = 64): Decimal {
  x = Math.abs(x);
  if (x === 0) return { d: "", dp: 0 };
  let text = x.toExponential();
  if (bits === 32) {
    const f = Math.fround(x);
    for (let p = 1; p <= 9; p++) {
      const t = f.toExponential(p - 1);
      if (Math.fround(Number(t)) === f) {
        text = t;
        break;
      }
    }
  }
  const [mant, e] = text.split("e") as [string, string];
  const d = trimZeros(mant.replace(".", ""));
  return { d, dp: Number(e) + 1 };
}

/** Truncates to nd significant digits (Go's decimal.RoundDown). */
export function roundDown(a: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= a.d.length) return a;
  const d = trimZeros(a.d.slice(0, nd));
  return { d, dp: d.length === 0 ? 0 : a.dp };
}

/** Rounds up (away from zero) to nd significant digits (Go's decimal.RoundUp). */
export function roundUp(a: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= a.d.length) return a;
  let i = nd - 1;
  while (i >= 0 && a.d[i] === "9") i--;
  if (i < 0) return { d: "1", dp: a.dp + 1 };
  return { d: a.d.slice(0, i) + String.fromCharCode(a.d.charCodeAt(i) + 1), dp: a.dp };
}

/**
 * Rounds to nd significant digits, half to even (Go's decimal.Round in strconv and math/big;
 * nd < 0 leaves it as is).
 */
export function roundDecimal(a: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= a.d.length) return a;
  const c = a.d.charCodeAt(nd);
  let up: boolean;
  if (c > 53) up = true;
  else if (c < 53) up = false;
  else if (nd + 1 === a.d.length) up = nd > 0 && (a.d.charCodeAt(nd - 1) - 48) % 2 === 1;
  else up = true;
  return up ? roundUp(a, nd) : roundDown(a, nd);
}

function fmtE(neg: boolean, d: Decimal, prec: number, ch: string): string {
  let out = neg ? "-" : "";
  out += d.d.length > 0 ? d.d[0] : "0";
  if (prec > 0) {
    out += ".";
    const m = Math.min(d.d.length, prec + 1);
    out += d.d.slice(1, m) + "0".repeat(Math.max(0, prec + 1 - Math.max(m, 1)));
  }
  let exp = d.d.length === 0 ? 0 : d.dp - 1;
  const sign = exp < 0 ? "-" : "+";
  exp = Math.abs(exp);
  return `${out}${ch}${sign}${exp < 10 ? `0${exp}` : exp}`;
}

function fmtF(neg: boolean, d: Decimal, prec: number): string {
  let out = neg ? "-" : "";
  if (d.dp > 0) {
    const m = Math.min(d.d.length, d.dp);
    out += d.d.slice(0, m) + "0".repeat(d.dp - m);
  } else out += "0";
  if (prec > 0) {
    out += ".";
    for (let i = 1; i <= prec; i++) {
      const j = d.dp + i - 1;
      out += j >= 0 && j < d.d.length ? d.d[j] : "0";
    }
  }
  return out;
}

/** %b: decimal mantissa and binary exponent, e.g. 4503599627370496p-52. */
function fmtB(x: number): string {
  const { neg, exp, mant } = bitsOf(x);
  let m = mant;
  let e = exp;
  if (e === 0) e = 1;
  else m |= 1n << 52n;
  e += -1023 - 52;
  return `${neg ? "-" : ""}${m}p${e >= 0 ? "+" : ""}${e}`;
}

/** %x: -0x1.yyyyp±dd (prec < 0: shortest hex digits). */
function fmtX(x: number, prec: number, upper: boolean): string {
  const { neg, exp: bexp, mant: raw } = bitsOf(x);
  let mant = raw;
  let exp = bexp;
  if (exp === 0) exp = 1;
  else mant |= 1n << 52n;
  exp -= 1023;
  if (mant === 0n) exp = 0;
  const ONE60 = 1n << 60n;
  mant <<= 8n; // leading 1 (if any) at bit 60
  while (mant !== 0n && (mant & ONE60) === 0n) {
    mant <<= 1n;
    exp--;
  }
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & (ONE60 - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  let out = `${neg ? "-" : ""}0${upper ? "X" : "x"}${(mant >> 60n) & 1n}`;
  mant = (mant << 4n) & ((1n << 64n) - 1n);
  if ((prec < 0 && mant !== 0n) || prec > 0) {
    out += ".";
    for (let i = 0; prec < 0 ? mant !== 0n : i < prec; i++) {
      out += digits[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & ((1n << 64n) - 1n);
    }
  }
  const sign = exp < 0 ? "-" : "+";
  exp = Math.abs(exp);
  return `${out}${upper ? "P" : "p"}${sign}${exp < 10 ? `0${exp}` : exp}`;
}

/**
 * Whether x lies exactly halfway between two multiples of 10^-prec. A double with k fractional
 * bits has exactly k fractional decimal digits, the last a 5, so that happens only for k = prec + 1.
 */
function halfwayAt(x: number, prec: number): boolean {
  return Number.isInteger(x * 2 ** (prec + 1)) && !Number.isInteger(x * 2 ** prec);
}

/** strconv.FormatFloat(x, fmt, prec, bits) for finite x. */
export function formatFloat(x: number, fmt: FloatFormat, prec: number, bits: 32 | 64 = 64): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : "-Inf";
  if (fmt === "b") return fmtB(x);
  if (fmt === "x" || fmt === "X") return fmtX(x, prec, fmt === "X");
  const neg = x < 0 || Object.is(x, -0);
  if (fmt === "f" && prec >= 0 && prec <= 100 && Math.abs(x) < 1e21 && !halfwayAt(x, prec)) {
    // toFixed rounds the exact binary value to nearest too; only exact halves differ (JS rounds
    // them up, Go to even), and those are taken below.
    return `${neg ? "-" : ""}${Math.abs(x).toFixed(prec)}`;
  }
  const shortest = prec < 0;
  let d: Decimal;
  if (shortest) {
    d = shortestDecimal(x, bits);
    if (fmt === "e" || fmt === "E") prec = Math.max(d.d.length - 1, 0);
    else if (fmt === "f") prec = Math.max(d.d.length - d.dp, 0);
    else prec = d.d.length;
  } else {
    d = exactDecimal(x);
    if (fmt === "f") d = roundDecimal(d, d.dp + prec);
    else {
      if ((fmt === "g" || fmt === "G") && prec === 0) prec = 1;
      d = roundDecimal(d, fmt === "e" || fmt === "E" ? prec + 1 : prec);
    }
  }
  switch (fmt) {
    case "e":
    case "E":
      return fmtE(neg, d, prec, fmt);
    case "f":
      return fmtF(neg, d, prec);
    default: {
      let eprec = prec;
      if (eprec > d.d.length && d.d.length >= d.dp) eprec = d.d.length;
      if (shortest) eprec = 6;
      const exp = d.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > d.d.length) prec = d.d.length;
        return fmtE(neg, d, prec - 1, fmt === "g" ? "e" : "E");
      }
      if (prec > d.dp) prec = d.d.length;
      return fmtF(neg, d, Math.max(prec - d.dp, 0));
    }
  }
}

/** How Go's encoding/json writes a float64: %f, or %e outside [1e-6, 1e21), with e-09 → e-9. */
export function jsonFloat(x: number): string {
  const abs = Math.abs(x);
  const useE = abs !== 0 && (abs < 1e-6 || abs >= 1e21);
  let s = formatFloat(x, useE ? "e" : "f", -1);
  if (useE) s = s.replace(/e-0(\d)$/, "e-$1");
  return s;
}
