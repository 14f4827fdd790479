// Go's time.Parse for the time.* builtins (with UTC as both the default and the local zone), with
// Go's leniencies, range checks and error texts. See layout.ts for the layout elements.
import { daysFromCivil, type Civil } from "./calendar.js";
import { isDigitAt, LayoutError, LONG_DAYS, LONG_MONTHS, nextStdChunk, quote, SHORT_DAYS, SHORT_MONTHS, Std, type Chunk } from "./layout.js";

function parseError(layout: string, value: string, layoutElem: string, valueElem: string, message: string): LayoutError {
  if (message !== "") return new LayoutError(`parsing time ${quote(value)}${message}`);
  return new LayoutError(`parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`);
}

/** The fields time.Parse found; `offset` (seconds east of UTC) is 0 when the value names none. */
export interface ParsedTime extends Civil {
  hour: number;
  min: number;
  sec: number;
  nsec: number;
  offset: number;
}

class Bad extends Error {}
const BAD = new Bad();

/** getnum / getnum3: 1–2 (or 1–3) digits, exactly 2 (3) when fixed. */
function getnum(s: string, fixed: boolean, max = 2): [number, string] {
  let n = 0;
  let i = 0;
  for (; i < max && isDigitAt(s, i); i++) n = n * 10 + (s.charCodeAt(i) - 48);
  if (i === 0 || (fixed && i !== max)) throw BAD;
  return [n, s.slice(i)];
}

function skip(value: string, prefix: string): string {
  while (prefix.length > 0) {
    if (prefix[0] === " ") {
      if (value.length > 0 && value[0] !== " ") throw BAD;
      prefix = prefix.replace(/^ +/, "");
      value = value.replace(/^ +/, "");
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) throw BAD;
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

function lookup(table: readonly string[], value: string): [number, string] {
  for (let i = 0; i < table.length; i++) {
    const v = table[i]!;
    if (value.length >= v.length && value.slice(0, v.length).toLowerCase() === v.toLowerCase()) return [i, value.slice(v.length)];
  }
  throw BAD;
}

/** Go's parseNanoseconds: value starts with the separator; n is the length to use (at most 10). */
function parseNanos(value: string, n: number): [number, string] {
  if (value[0] !== "." && value[0] !== ",") throw BAD;
  // Go's atoi takes a sign; the sign counts as a digit position when scaling.
  const digits = value.slice(1, Math.min(n, 10));
  if (!/^[+-]?[0-9]+$/.test(digits)) throw BAD;
  const ns = Number(digits.padEnd(9, "0"));
  return ns < 0 ? [0, "fractional second"] : [ns, ""];
}

/** Go's parseTimeZone: the length of a zone abbreviation at the start of value, or 0. */
function timeZoneLength(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith("ChST") || value.startsWith("MeST")) return 4;
  if (value.startsWith("GMT")) return 3 + signedOffsetLength(value.slice(3));
  if (value[0] === "+" || value[0] === "-") return signedOffsetLength(value);
  let upper = 0;
  while (upper < 6 && upper < value.length && value[upper]! >= "A" && value[upper]! <= "Z") upper++;
  if (upper === 5 && value[4] === "T") return 5;
  if (upper === 4 && (value[3] === "T" || value.startsWith("WITA"))) return 4;
  return upper === 3 ? 3 : 0;
}

function signedOffsetLength(value: string): number {
  if (value === "" || (value[0] !== "+" && value[0] !== "-")) return 0;
  const m = /^[0-9]+/.exec(value.slice(1));
  if (m === null || Number(m[0]) > 12) return 0;
  return 1 + m[0].length;
}

const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

export function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysIn(month: number, year: number): number {
  if (month === 2 && isLeap(year)) return 29;
  return DAYS_BEFORE[month]! - DAYS_BEFORE[month - 1]!;
}

/** Go's time.Parse (with UTC as the default and local zone). */
export function parseLayout(layout: string, input: string): ParsedTime {
  const st: ParseState = { year: 0, month: -1, day: -1, yday: -1, hour: 0, min: 0, sec: 0, nsec: 0, utc: false, offset: undefined, zoneName: "", am: false, pm: false };
  let value = input;
  for (let rest = layout; ; ) {
    const c = nextStdChunk(rest);
    const stdstr = rest.slice(c.prefix.length, rest.length - c.suffix.length);
    try {
      value = skip(value, c.prefix);
    } catch {
      throw parseError(layout, input, c.prefix, value, "");
    }
    if (c.std === Std.None) {
      if (value.length !== 0) throw parseError(layout, input, "", value, `: extra text: ${quote(value)}`);
      break;
    }
    rest = c.suffix;
    const hold = value;
    let rangeErr = "";
    try {
      [value, rangeErr] = parseElement(st, c, value, rest);
    } catch (e) {
      if (e !== BAD) throw e;
      throw parseError(layout, input, stdstr, hold, "");
    }
    if (rangeErr !== "") throw parseError(layout, input, stdstr, value, `: ${rangeErr} out of range`);
  }
  if (st.pm && st.hour < 12) st.hour += 12;
  else if (st.am && st.hour === 12) st.hour = 0;
  if (st.yday >= 0) {
    let yday = st.yday;
    let m = 0;
    let d = 0;
    if (isLeap(st.year)) {
      if (yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yday > 31 + 29) yday--;
    }
    if (yday < 1 || yday > 365) throw parseError(layout, input, "", value, ": day-of-year out of range");
    if (m === 0) {
      m = Math.floor((yday - 1) / 31) + 1;
      if (DAYS_BEFORE[m]! < yday) m++;
      d = yday - DAYS_BEFORE[m - 1]!;
    }
    if (st.month >= 0 && st.month !== m) throw parseError(layout, input, "", value, ": day-of-year does not match month");
    st.month = m;
    if (st.day >= 0 && st.day !== d) throw parseError(layout, input, "", value, ": day-of-year does not match day");
    st.day = d;
  } else {
    if (st.month < 0) st.month = 1;
    if (st.day < 0) st.day = 1;
  }
  if (st.day < 1 || st.day > daysIn(st.month, st.year)) throw parseError(layout, input, "", value, ": day out of range");
  // A "Z" or "UTC" wins over a numeric offset, which wins over an abbreviation. An abbreviation names
  // no offset (Go looks it up in the local zone, here UTC), except GMT+N.
  let offset = 0;
  if (st.utc) offset = 0;
  else if (st.offset !== undefined) offset = st.offset;
  else if (st.zoneName.length > 3 && st.zoneName.startsWith("GMT")) offset = Number(st.zoneName.slice(3)) * 3600;
  return { year: st.year, month: st.month, day: st.day, hour: st.hour, min: st.min, sec: st.sec, nsec: st.nsec, offset };
}

interface ParseState {
  year: number;
  month: number;
  day: number;
  yday: number;
  hour: number;
  min: number;
  sec: number;
  nsec: number;
  utc: boolean;
  offset: number | undefined;
  zoneName: string;
  am: boolean;
  pm: boolean;
}

/** Parses one layout element; returns the rest of the value and a range error ("" if none). */
function parseElement(st: ParseState, c: Chunk, value: string, layoutRest: string): [string, string] {
  let n: number;
  switch (c.std) {
    case Std.Year: {
      if (value.length < 2 || !/^[+-]?[0-9]+$/.test(value.slice(0, 2))) throw BAD;
      n = Number(value.slice(0, 2));
      st.year = n >= 69 ? n + 1900 : n + 2000;
      return [value.slice(2), ""];
    }
    case Std.LongYear:
      if (!/^[0-9]{4}/.test(value)) throw BAD;
      st.year = Number(value.slice(0, 4));
      return [value.slice(4), ""];
    case Std.Month:
    case Std.LongMonth:
      [n, value] = lookup(c.std === Std.Month ? SHORT_MONTHS : LONG_MONTHS, value);
      st.month = n + 1;
      return [value, ""];
    case Std.NumMonth:
    case Std.ZeroMonth:
      [st.month, value] = getnum(value, c.std === Std.ZeroMonth);
      return [value, st.month <= 0 || st.month > 12 ? "month" : ""];
    case Std.WeekDay:
    case Std.LongWeekDay:
      [, value] = lookup(c.std === Std.WeekDay ? SHORT_DAYS : LONG_DAYS, value);
      return [value, ""];
    case Std.Day:
    case Std.UnderDay:
    case Std.ZeroDay:
      if (c.std === Std.UnderDay && value[0] === " ") value = value.slice(1);
      [st.day, value] = getnum(value, c.std === Std.ZeroDay);
      return [value, ""];
    case Std.UnderYearDay:
    case Std.ZeroYearDay:
      for (let i = 0; i < 2; i++) if (c.std === Std.UnderYearDay && value[0] === " ") value = value.slice(1);
      [st.yday, value] = getnum(value, c.std === Std.ZeroYearDay, 3);
      return [value, ""];
    case Std.Hour:
      [st.hour, value] = getnum(value, false);
      return [value, st.hour >= 24 ? "hour" : ""];
    case Std.Hour12:
    case Std.ZeroHour12:
      [st.hour, value] = getnum(value, c.std === Std.ZeroHour12);
      return [value, st.hour > 12 ? "hour" : ""];
    case Std.Minute:
    case Std.ZeroMinute:
      [st.min, value] = getnum(value, c.std === Std.ZeroMinute);
      return [value, st.min >= 60 ? "minute" : ""];
    case Std.Second:
    case Std.ZeroSecond: {
      [st.sec, value] = getnum(value, c.std === Std.ZeroSecond);
      if (st.sec >= 60) return [value, "second"];
      // A fractional second in the value that the layout does not spell out.
      if (value.length >= 2 && (value[0] === "." || value[0] === ",") && isDigitAt(value, 1)) {
        const next = nextStdChunk(layoutRest).std;
        if (next === Std.FracSecond0 || next === Std.FracSecond9) return [value, ""];
        let k = 2;
        while (isDigitAt(value, k)) k++;
        let rangeErr: string;
        [st.nsec, rangeErr] = parseNanos(value, k);
        return [value.slice(k), rangeErr];
      }
      return [value, ""];
    }
    case Std.PM:
    case Std.pm: {
      if (value.length < 2) throw BAD;
      const p = value.slice(0, 2);
      const [pmText, amText] = c.std === Std.PM ? ["PM", "AM"] : ["pm", "am"];
      if (p === pmText) st.pm = true;
      else if (p === amText) st.am = true;
      else throw BAD;
      return [value.slice(2), ""];
    }
    case Std.TZ: {
      if (value.startsWith("UTC")) {
        st.utc = true;
        return [value.slice(3), ""];
      }
      const len = timeZoneLength(value);
      if (len === 0) throw BAD;
      st.zoneName = value.slice(0, len);
      return [value.slice(len), ""];
    }
    case Std.FracSecond0: {
      const ndigit = 1 + c.digits;
      if (value.length < ndigit) throw BAD;
      let rangeErr: string;
      [st.nsec, rangeErr] = parseNanos(value, ndigit);
      return [value.slice(ndigit), rangeErr];
    }
    case Std.FracSecond9: {
      if (value.length < 2 || (value[0] !== "." && value[0] !== ",") || !isDigitAt(value, 1)) return [value, ""];
      let k = 1;
      while (isDigitAt(value, k)) k++;
      let rangeErr: string;
      [st.nsec, rangeErr] = parseNanos(value, k);
      return [value.slice(k), rangeErr];
    }
    default:
      return parseOffset(st, c.std, value);
  }
}

function parseOffset(st: ParseState, std: Std, value: string): [string, string] {
  const iso = std === Std.ISO8601TZ || std === Std.ISO8601ShortTZ || std === Std.ISO8601ColonTZ || std === Std.ISO8601SecondsTZ || std === Std.ISO8601ColonSecondsTZ;
  if (iso && value[0] === "Z") {
    st.utc = true;
    return [value.slice(1), ""];
  }
  let sign: string, hh: string, mm: string, ss: string;
  if (std === Std.ISO8601ColonTZ || std === Std.NumColonTZ) {
    if (value.length < 6 || value[3] !== ":") throw BAD;
    [sign, hh, mm, ss, value] = [value[0]!, value.slice(1, 3), value.slice(4, 6), "00", value.slice(6)];
  } else if (std === Std.NumShortTZ || std === Std.ISO8601ShortTZ) {
    if (value.length < 3) throw BAD;
    [sign, hh, mm, ss, value] = [value[0]!, value.slice(1, 3), "00", "00", value.slice(3)];
  } else if (std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ) {
    if (value.length < 9 || value[3] !== ":" || value[6] !== ":") throw BAD;
    [sign, hh, mm, ss, value] = [value[0]!, value.slice(1, 3), value.slice(4, 6), value.slice(7, 9), value.slice(9)];
  } else if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz) {
    if (value.length < 7) throw BAD;
    [sign, hh, mm, ss, value] = [value[0]!, value.slice(1, 3), value.slice(3, 5), value.slice(5, 7), value.slice(7)];
  } else {
    if (value.length < 5) throw BAD;
    [sign, hh, mm, ss, value] = [value[0]!, value.slice(1, 3), value.slice(3, 5), "00", value.slice(5)];
  }
  const [h] = getnum(hh, true);
  const [m] = getnum(mm, true);
  const [s] = getnum(ss, true);
  let rangeErr = "";
  if (h > 24) rangeErr = "time zone offset hour";
  if (m > 60) rangeErr = "time zone offset minute";
  if (s > 60) rangeErr = "time zone offset second";
  if (sign !== "+" && sign !== "-") throw BAD;
  const offset = (h * 60 + m) * 60 + s;
  st.offset = sign === "-" ? -offset : offset;
  return [value, rangeErr];
}

/** Seconds since the epoch of a parsed time (fields normalised as Go's time.Date does). */
export function parsedUnixSeconds(p: ParsedTime): number {
  return daysFromCivil(p.year, p.month, p.day) * 86400 + p.hour * 3600 + p.min * 60 + p.sec - p.offset;
}
