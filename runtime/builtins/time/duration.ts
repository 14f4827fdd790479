// Go's time.ParseDuration for time.parse_duration_ns: the same grammar ([-+]?([0-9]*(\.[0-9]*)?[a-z]+)+),
// units, int64 overflow checks, float64 rounding of fractions, and error texts.
import { isDigitAt, LayoutError, quote } from "./layout.js";

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  "\u00b5s": 1000n,
  "\u03bcs": 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX = 1n << 63n;

/** Go's time.ParseDuration, in nanoseconds. */
export function parseDuration(input: string): bigint {
  const invalid = () => new LayoutError(`time: invalid duration ${quote(input)}`);
  let s = input;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") throw invalid();
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigitAt(s, 0))) throw invalid();
    const intPart = /^[0-9]*/.exec(s)![0];
    s = s.slice(intPart.length);
    let v = 0n;
    for (const ch of intPart) {
      v = v * 10n + BigInt(ch.charCodeAt(0) - 48);
      if (v > MAX) throw invalid();
    }
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === ".") {
      s = s.slice(1);
      const frac = /^[0-9]*/.exec(s)![0];
      s = s.slice(frac.length);
      post = frac.length > 0;
      let overflow = false;
      for (const ch of frac) {
        if (overflow) continue;
        const y = f * 10n + BigInt(ch.charCodeAt(0) - 48);
        if (y > MAX) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
    }
    if (intPart === "" && !post) throw invalid();
    const unitText = /^[^0-9.]*/.exec(s)![0];
    if (unitText === "") throw new LayoutError(`time: missing unit in duration ${quote(input)}`);
    s = s.slice(unitText.length);
    const unit = UNITS[unitText];
    if (unit === undefined) throw new LayoutError(`time: unknown unit ${quote(unitText)} in duration ${quote(input)}`);
    if (v > MAX / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      // Go computes the fraction in float64, then truncates.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX) throw invalid();
    }
    d += v;
    if (d > MAX) throw invalid();
  }
  if (neg) return -d;
  if (d > MAX - 1n) throw invalid();
  return d;
}
