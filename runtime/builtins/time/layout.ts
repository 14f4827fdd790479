// Go's time layouts ("2006-01-02T15:04:05Z07:00") for the time.* builtins: the chunking of a layout
// into elements and Time.Format here, time.Parse in layoutParse.ts, time.ParseDuration in
// duration.ts. Hand-written: no JS date library speaks Go's reference-time layouts, and
// OPA's results (including Go's parse error texts) depend on Go's exact rules, which are followed
// here: the same chunking of a layout into elements, the same leniencies (1- or 2-digit fields,
// fractional seconds after a seconds field the layout lacks), the same range checks and messages.
// Calendar arithmetic is proleptic Gregorian on day numbers; zones are passed in as offsets.
import type { Civil } from "./calendar.js";
import { LruCache } from "../lruCache.js";
import { utf8 } from "../go/strconv.js";

export enum Std {
  None,
  LongMonth,
  Month,
  NumMonth,
  ZeroMonth,
  LongWeekDay,
  WeekDay,
  Day,
  UnderDay,
  ZeroDay,
  UnderYearDay,
  ZeroYearDay,
  Hour,
  Hour12,
  ZeroHour12,
  Minute,
  ZeroMinute,
  Second,
  ZeroSecond,
  LongYear,
  Year,
  PM,
  pm,
  TZ,
  ISO8601TZ,
  ISO8601SecondsTZ,
  ISO8601ShortTZ,
  ISO8601ColonTZ,
  ISO8601ColonSecondsTZ,
  NumTZ,
  NumSecondsTz,
  NumShortTZ,
  NumColonTZ,
  NumColonSecondsTZ,
  FracSecond0,
  FracSecond9,
}

/** Layout names OPA accepts in place of a layout (Go's time package constants). */
export const LAYOUT_CONSTANTS: Readonly<Record<string, string>> = {
  ANSIC: "Mon Jan _2 15:04:05 2006",
  UnixDate: "Mon Jan _2 15:04:05 MST 2006",
  RubyDate: "Mon Jan 02 15:04:05 -0700 2006",
  RFC822: "02 Jan 06 15:04 MST",
  RFC822Z: "02 Jan 06 15:04 -0700",
  RFC850: "Monday, 02-Jan-06 15:04:05 MST",
  RFC1123: "Mon, 02 Jan 2006 15:04:05 MST",
  RFC1123Z: "Mon, 02 Jan 2006 15:04:05 -0700",
  RFC3339: "2006-01-02T15:04:05Z07:00",
  RFC3339Nano: "2006-01-02T15:04:05.999999999Z07:00",
};

export const LONG_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
export const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3));
export const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3));

export interface Chunk {
  prefix: string;
  std: Std;
  /** Digits of a fractional-second element and its separator ('.' or ','). */
  digits: number;
  sep: string;
  suffix: string;
}

const STD0X = [Std.ZeroMonth, Std.ZeroDay, Std.ZeroHour12, Std.ZeroMinute, Std.ZeroSecond, Std.Year];

export const isDigitAt = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

function chunk(layout: string, i: number, std: Std, len: number, prefixEnd = i): Chunk {
  return { prefix: layout.slice(0, prefixEnd), std, digits: 0, sep: "", suffix: layout.slice(i + len) };
}

/** Chunks by layout text: parsing and formatting walk the same few layouts over and over. */
const chunks = new LruCache<Chunk>(512);

/** Go's nextStdChunk: the text before the first layout element, the element, and the rest. */
export function nextStdChunk(layout: string): Chunk {
  return chunks.get(layout, () => findStdChunk(layout));
}

function findStdChunk(layout: string): Chunk {
  for (let i = 0; i < layout.length; i++) {
    switch (layout[i]) {
      case "J":
        if (layout.startsWith("Jan", i)) {
          if (layout.startsWith("January", i)) return chunk(layout, i, Std.LongMonth, 7);
          if (!/^[a-z]/.test(layout.slice(i + 3, i + 4))) return chunk(layout, i, Std.Month, 3);
        }
        break;
      case "M":
        if (layout.startsWith("Mon", i)) {
          if (layout.startsWith("Monday", i)) return chunk(layout, i, Std.LongWeekDay, 6);
          if (!/^[a-z]/.test(layout.slice(i + 3, i + 4))) return chunk(layout, i, Std.WeekDay, 3);
        }
        if (layout.startsWith("MST", i)) return chunk(layout, i, Std.TZ, 3);
        break;
      case "0": {
        const c = layout.charCodeAt(i + 1);
        if (c >= 49 && c <= 54) return chunk(layout, i, STD0X[c - 49]!, 2);
        if (layout.startsWith("002", i)) return chunk(layout, i, Std.ZeroYearDay, 3);
        break;
      }
      case "1":
        if (layout[i + 1] === "5") return chunk(layout, i, Std.Hour, 2);
        return chunk(layout, i, Std.NumMonth, 1);
      case "2":
        if (layout.startsWith("2006", i)) return chunk(layout, i, Std.LongYear, 4);
        return chunk(layout, i, Std.Day, 1);
      case "_":
        if (layout[i + 1] === "2") {
          // `_2006` is a literal `_` followed by the long year.
          if (layout.startsWith("2006", i + 1)) return chunk(layout, i + 1, Std.LongYear, 4, i + 1);
          return chunk(layout, i, Std.UnderDay, 2);
        }
        if (layout.startsWith("__2", i)) return chunk(layout, i, Std.UnderYearDay, 3);
        break;
      case "3":
        return chunk(layout, i, Std.Hour12, 1);
      case "4":
        return chunk(layout, i, Std.Minute, 1);
      case "5":
        return chunk(layout, i, Std.Second, 1);
      case "P":
        if (layout[i + 1] === "M") return chunk(layout, i, Std.PM, 2);
        break;
      case "p":
        if (layout[i + 1] === "m") return chunk(layout, i, Std.pm, 2);
        break;
      case "-":
        if (layout.startsWith("-070000", i)) return chunk(layout, i, Std.NumSecondsTz, 7);
        if (layout.startsWith("-07:00:00", i)) return chunk(layout, i, Std.NumColonSecondsTZ, 9);
        if (layout.startsWith("-0700", i)) return chunk(layout, i, Std.NumTZ, 5);
        if (layout.startsWith("-07:00", i)) return chunk(layout, i, Std.NumColonTZ, 6);
        if (layout.startsWith("-07", i)) return chunk(layout, i, Std.NumShortTZ, 3);
        break;
      case "Z":
        if (layout.startsWith("Z070000", i)) return chunk(layout, i, Std.ISO8601SecondsTZ, 7);
        if (layout.startsWith("Z07:00:00", i)) return chunk(layout, i, Std.ISO8601ColonSecondsTZ, 9);
        if (layout.startsWith("Z0700", i)) return chunk(layout, i, Std.ISO8601TZ, 5);
        if (layout.startsWith("Z07:00", i)) return chunk(layout, i, Std.ISO8601ColonTZ, 6);
        if (layout.startsWith("Z07", i)) return chunk(layout, i, Std.ISO8601ShortTZ, 3);
        break;
      case ".":
      case ",": {
        const ch = layout[i + 1];
        if (ch === "0" || ch === "9") {
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          // Only a fractional second if the run of digits ends here.
          if (!isDigitAt(layout, j)) {
            return { prefix: layout.slice(0, i), std: ch === "0" ? Std.FracSecond0 : Std.FracSecond9, digits: j - (i + 1), sep: layout[i]!, suffix: layout.slice(j) };
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return { prefix: layout, std: Std.None, digits: 0, sep: "", suffix: "" };
}

/** Go's appendInt: a minus sign for negatives, zero-padded to `width` digits. */
function pad(x: number, width: number): string {
  const digits = String(Math.abs(x)).padStart(width, "0");
  return x < 0 ? `-${digits}` : digits;
}

/** A wall-clock time in a zone, as Time.Format sees it. */
export interface WallTime extends Civil {
  hour: number;
  min: number;
  sec: number;
  nsec: number;
  /** 0 = Sunday. */
  weekday: number;
  /** Day of the year, 1-based. */
  yday: number;
  /** Offset from UTC in seconds. */
  offset: number;
  /** The zone's abbreviation ("UTC", "PST", "+0530"); "" prints a numeric offset for MST. */
  zoneName: string;
}

/** Go's Time.Format. */
export function formatLayout(t: WallTime, layout: string): string {
  let out = "";
  for (let rest = layout; rest !== ""; ) {
    const c = nextStdChunk(rest);
    out += c.prefix;
    if (c.std === Std.None) break;
    rest = c.suffix;
    out += formatElement(t, c);
  }
  return out;
}

function formatElement(t: WallTime, c: Chunk): string {
  switch (c.std) {
    case Std.Year:
      return pad(t.year % 100, 2);
    case Std.LongYear:
      return pad(t.year, 4);
    case Std.Month:
      return SHORT_MONTHS[t.month - 1]!;
    case Std.LongMonth:
      return LONG_MONTHS[t.month - 1]!;
    case Std.NumMonth:
      return pad(t.month, 0);
    case Std.ZeroMonth:
      return pad(t.month, 2);
    case Std.WeekDay:
      return SHORT_DAYS[t.weekday]!;
    case Std.LongWeekDay:
      return LONG_DAYS[t.weekday]!;
    case Std.Day:
      return pad(t.day, 0);
    case Std.UnderDay:
      return (t.day < 10 ? " " : "") + pad(t.day, 0);
    case Std.ZeroDay:
      return pad(t.day, 2);
    case Std.UnderYearDay:
      return (t.yday < 100 ? (t.yday < 10 ? "  " : " ") : "") + pad(t.yday, 0);
    case Std.ZeroYearDay:
      return pad(t.yday, 3);
    case Std.Hour:
      return pad(t.hour, 2);
    case Std.Hour12:
      return pad(t.hour % 12 === 0 ? 12 : t.hour % 12, 0);
    case Std.ZeroHour12:
      return pad(t.hour % 12 === 0 ? 12 : t.hour % 12, 2);
    case Std.Minute:
      return pad(t.min, 0);
    case Std.ZeroMinute:
      return pad(t.min, 2);
    case Std.Second:
      return pad(t.sec, 0);
    case Std.ZeroSecond:
      return pad(t.sec, 2);
    case Std.PM:
      return t.hour >= 12 ? "PM" : "AM";
    case Std.pm:
      return t.hour >= 12 ? "pm" : "am";
    case Std.TZ:
      if (t.zoneName !== "") return t.zoneName;
      return formatOffset(t.offset, Std.NumTZ);
    case Std.FracSecond0:
    case Std.FracSecond9:
      return formatNano(t.nsec, c);
    default:
      return formatOffset(t.offset, c.std);
  }
}

function formatOffset(offset: number, std: Std): string {
  const iso = std === Std.ISO8601TZ || std === Std.ISO8601ColonTZ || std === Std.ISO8601SecondsTZ || std === Std.ISO8601ShortTZ || std === Std.ISO8601ColonSecondsTZ;
  if (offset === 0 && iso) return "Z";
  const zone = Math.trunc(Math.abs(offset) / 60);
  let out = offset < 0 ? "-" : "+";
  out += pad(Math.trunc(zone / 60), 2);
  if (std === Std.ISO8601ColonTZ || std === Std.NumColonTZ || std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ) out += ":";
  if (std !== Std.NumShortTZ && std !== Std.ISO8601ShortTZ) out += pad(zone % 60, 2);
  if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz || std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) {
    if (std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) out += ":";
    out += pad(Math.abs(offset) % 60, 2);
  }
  return out;
}

function formatNano(nsec: number, c: Chunk): string {
  const trim = c.std === Std.FracSecond9;
  if (trim && (c.digits === 0 || nsec === 0)) return "";
  let digits = pad(nsec, 9).slice(0, Math.min(c.digits, 9));
  if (trim) digits = digits.replace(/0+$/, "");
  return digits === "" ? "" : c.sep + digits;
}

/**
 * The time package's own quote() for its errors: ASCII printable stays, other bytes become \xNN.
 * (Not strconv.Quote, which ../go/strconv.ts has: Go's time errors use this simpler form.)
 */
export function quote(s: string): string {
  let out = '"';
  for (const byte of utf8(s)) {
    if (byte >= 0x80 || byte < 0x20) out += `\\x${byte.toString(16).padStart(2, "0")}`;
    else {
      const ch = String.fromCharCode(byte);
      out += ch === '"' || ch === "\\" ? `\\${ch}` : ch;
    }
  }
  return out + '"';
}

/** A Go time parse error; time.ts turns it into a builtin error with the same text. */
export class LayoutError extends Error {}
