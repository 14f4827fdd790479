// Builtins of OPA's "time" category. Timestamps are nanoseconds since the epoch, exact as bigint
// (results beyond 2^53 become BigNum through fromBigInt) and limited, as in OPA, to what an int64 of
// nanoseconds can hold (1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z).
// Layouts are Go's (time/layout.ts, time/layoutParse.ts, time/duration.ts); zones are IANA names through Intl
// (time/calendar.ts).
import { INT64_MAX, INT64_MIN, builtinError, goErrors, int, operandTypeError, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { civilFromDays, daysFromCivil, loadZone, UnknownZoneError, UTC, wallToUnix, type Zone } from "./time/calendar.js";
import { parseDuration } from "./time/duration.js";
import { formatLayout, LAYOUT_CONSTANTS, LayoutError, LONG_DAYS, type WallTime } from "./time/layout.js";
import { daysIn, parsedUnixSeconds, parseLayout } from "./time/layoutParse.js";
import type { BuiltinTable } from "./registry.js";
import { BigNum, fromBigInt, isInteger, toBigInt, type Num } from "../value/number.js";
import type { Value } from "../value/value.js";

const NS = 1_000_000_000n;
/** Nanoseconds OPA holds in an int64. */
const MIN_NS = INT64_MIN;
const MAX_NS = INT64_MAX;

/** An instant: whole seconds since the epoch and nanoseconds within the second (0 ≤ nsec < 1e9). */
interface Instant {
  sec: number;
  nsec: number;
}

function instantOf(ns: bigint): Instant {
  let sec = ns / NS;
  let nsec = ns % NS;
  if (nsec < 0n) {
    nsec += NS;
    sec -= 1n;
  }
  return { sec: Number(sec), nsec: Number(nsec) };
}

/** OPA's toSafeUnixNano: the instant as an int64 of nanoseconds, or "time outside of valid range". */
function safeUnixNano(sec: number, nsec: number): Num {
  if (!Number.isFinite(sec) || Math.abs(sec) > 1e13) throw builtinError("time outside of valid range");
  const ns = BigInt(sec) * NS + BigInt(nsec);
  if (ns < MIN_NS || ns > MAX_NS) throw builtinError("time outside of valid range");
  return fromBigInt(ns);
}

/** A Go time error (parse, duration, zone) as OPA reports it: a builtin error with Go's text. */
const goError = <T>(f: () => T): T => goErrors([LayoutError, UnknownZoneError], f);

interface ZonedTime {
  ns: bigint;
  zone: Zone;
  layout: string;
}

const TIME_OPERAND = "either number (ns) or [number (ns), string (tz)]";

/** OPA's tzTime: a number of ns, or [ns, tz] / [ns, tz, layout]. Errors always name operand 1. */
function zonedTime(v: Value): ZonedTime {
  let n: Value;
  let zone = UTC;
  let layout = "";
  if (Array.isArray(v)) {
    if (v.length === 0) throw operandTypeError(1, v, TIME_OPERAND);
    n = v[0]!;
    if (typeof n !== "number" && !(n instanceof BigNum)) throw operandTypeError(1, n, "number");
    if (v.length > 1) zone = goError(() => loadZone(str(v[1]!, 1)));
    if (v.length > 2) layout = str(v[2]!, 1);
  } else if (typeof v === "number" || v instanceof BigNum) {
    n = v;
  } else {
    throw operandTypeError(1, v, TIME_OPERAND);
  }
  // Go converts the number to an int64 exactly or not at all.
  if (!isInteger(n as Num)) throw builtinError("timestamp too big");
  const ns = toBigInt(n as Num);
  if (ns < MIN_NS || ns > MAX_NS) throw builtinError("timestamp too big");
  return { ns, zone, layout };
}

/** The wall-clock fields of an instant in a zone. */
function wallTime(t: Instant, zone: Zone): WallTime {
  const offset = zone.offsetAt(t.sec);
  const local = t.sec + offset;
  const days = Math.floor(local / 86400);
  const secOfDay = local - days * 86400;
  const civil = civilFromDays(days);
  return {
    ...civil,
    hour: Math.floor(secOfDay / 3600),
    min: Math.floor((secOfDay % 3600) / 60),
    sec: secOfDay % 60,
    nsec: t.nsec,
    weekday: (((days + 4) % 7) + 7) % 7,
    yday: days - daysFromCivil(civil.year, 1, 1) + 1,
    offset,
    zoneName: zone.abbreviationAt(t.sec),
  };
}

function timeNowNs(ctx: EvalContext): Value {
  return fromBigInt(ctx.now());
}

function layoutName(layout: string): string {
  return Object.hasOwn(LAYOUT_CONSTANTS, layout) ? LAYOUT_CONSTANTS[layout]! : layout;
}

function parseToNs(layout: string, value: string): Value {
  const p = goError(() => parseLayout(layout, value));
  return safeUnixNano(parsedUnixSeconds(p), p.nsec);
}

function timeParseNs(_ctx: EvalContext, layout: Value, value: Value): Value {
  const l = str(layout, 1);
  const v = str(value, 2);
  return parseToNs(layoutName(l), v);
}

function timeParseRfc3339Ns(_ctx: EvalContext, value: Value): Value {
  return parseToNs(LAYOUT_CONSTANTS.RFC3339!, str(value, 1));
}

function timeParseDurationNs(_ctx: EvalContext, duration: Value): Value {
  const d = str(duration, 1);
  return fromBigInt(goError(() => parseDuration(d)));
}

function timeFormat(_ctx: EvalContext, x: Value): Value {
  const t = zonedTime(x);
  const layout = t.layout === "" ? LAYOUT_CONSTANTS.RFC3339Nano! : layoutName(t.layout);
  return formatLayout(wallTime(instantOf(t.ns), t.zone), layout);
}

function timeDate(_ctx: EvalContext, x: Value): Value {
  const t = zonedTime(x);
  const w = wallTime(instantOf(t.ns), t.zone);
  return [w.year, w.month, w.day];
}

function timeClock(_ctx: EvalContext, x: Value): Value {
  const t = zonedTime(x);
  const w = wallTime(instantOf(t.ns), t.zone);
  return [w.hour, w.min, w.sec];
}

function timeWeekday(_ctx: EvalContext, x: Value): Value {
  const t = zonedTime(x);
  return LONG_DAYS[wallTime(instantOf(t.ns), t.zone).weekday]!;
}

/** Go's Time.AddDate: the wall-clock date moved, normalised, and resolved in the same zone. */
function timeAddDate(_ctx: EvalContext, x: Value, years: Value, months: Value, days: Value): Value {
  const t = zonedTime(x);
  const y = int(years, 2);
  const m = int(months, 3);
  const d = int(days, 4);
  const instant = instantOf(t.ns);
  const w = wallTime(instant, t.zone);
  const day = daysFromCivil(w.year + y, w.month + m, 1) + (w.day - 1) + d;
  const wallSec = day * 86400 + w.hour * 3600 + w.min * 60 + w.sec;
  if (!Number.isFinite(wallSec) || Math.abs(wallSec) > 1e13) throw builtinError("time outside of valid range");
  return safeUnixNano(wallToUnix(t.zone, wallSec), instant.nsec);
}

/** [years, months, days, hours, minutes, seconds] between two times, both read in the first's zone. */
function timeDiff(_ctx: EvalContext, a: Value, b: Value): Value {
  const t1 = zonedTime(a);
  const t2 = zonedTime(b);
  const [first, second] = t1.ns <= t2.ns ? [t1.ns, t2.ns] : [t2.ns, t1.ns];
  const w1 = wallTime(instantOf(first), t1.zone);
  const w2 = wallTime(instantOf(second), t1.zone);
  let year = w2.year - w1.year;
  let month = w2.month - w1.month;
  let day = w2.day - w1.day;
  let hour = w2.hour - w1.hour;
  let min = w2.min - w1.min;
  let sec = w2.sec - w1.sec;
  if (sec < 0) {
    sec += 60;
    min--;
  }
  if (min < 0) {
    min += 60;
    hour--;
  }
  if (hour < 0) {
    hour += 24;
    day--;
  }
  if (day < 0) {
    day += daysIn(w1.month, w1.year);
    month--;
  }
  if (month < 0) {
    month += 12;
    year--;
  }
  return [year, month, day, hour, min, sec];
}

export const timeBuiltins: BuiltinTable = {
  "time.now_ns": { fn: timeNowNs, nondeterministic: true },
  "time.parse_ns": { fn: timeParseNs },
  "time.parse_rfc3339_ns": { fn: timeParseRfc3339Ns },
  "time.parse_duration_ns": { fn: timeParseDurationNs },
  "time.format": { fn: timeFormat },
  "time.date": { fn: timeDate },
  "time.clock": { fn: timeClock },
  "time.weekday": { fn: timeWeekday },
  "time.add_date": { fn: timeAddDate },
  "time.diff": { fn: timeDiff },
};
