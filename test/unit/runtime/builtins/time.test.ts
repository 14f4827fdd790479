import { expect } from "chai";
import { toJSONText, type Value } from "regoc";
import { EvalContext } from "../../../../runtime/builtins/context.js";
import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinErr, callBuiltin, registersLikeOpa, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;
const RANGE = builtinErr("time outside of valid range");
const TOO_BIG = builtinErr("timestamp too big");
const RFC3339 = "2006-01-02T15:04:05Z07:00";
const ns = (layout: string, value: string): Value => callBuiltin("time.parse_ns", [layout, value])!;

describe("builtins: time", () => {
  registersLikeOpa(/^time\./);

  describe("time.now_ns", () => {
    it("is the evaluation's clock, the same for every call in one evaluation", () => {
      let ticks = 0n;
      const now = () => 1_700_000_000_123_456_789n + ticks++;
      const ctx = new EvalContext({ now });
      const a = callBuiltin("time.now_ns", [], {}, ctx);
      const b = callBuiltin("time.now_ns", [], {}, ctx);
      expect(toJSONText(a!)).to.equal("1700000000123456789");
      expect(toJSONText(b!)).to.equal("1700000000123456789");
      // the next evaluation reads the clock again
      expect(toJSONText(callBuiltin("time.now_ns", [], {}, new EvalContext({ now }))!)).to.equal("1700000000123456790");
    });
  });

  describe("time.parse_ns", () => {
    runCases("time.parse_ns", [
      { note: "RFC3339 with offset", args: [RFC3339, "2017-06-02T19:00:00-07:00"], wantText: "1496455200000000000" },
      { note: "min int64", args: [RFC3339, "1677-09-21T00:12:43.145224192-00:00"], wantText: "-9223372036854775808" },
      { note: "max int64", args: [RFC3339, "2262-04-11T23:47:16.854775807-00:00"], wantText: "9223372036854775807" },
      { note: "12-hour clock and 2-digit year", args: ["01/02 03:04:05PM '06 -0700", "06/02 07:00:00PM '17 -0700"], wantText: "1496455200000000000" },
      { note: "month name", args: ["02 Jan 06 15:04 -0700", "02 Jun 17 19:00 -0700"], wantText: "1496455200000000000" },
      { note: "layout constant", args: ["RFC822Z", "02 Jun 17 19:00 -0700"], wantText: "1496455200000000000" },
      { note: "UnixDate with a zone abbreviation (no offset)", args: ["UnixDate", "Tue Feb  3 10:00:00 PST 2009"], wantText: "1233655200000000000" },
      { note: "GMT+N abbreviation", args: ["2006-01-02 15:04 MST", "2009-02-03 10:00 GMT+3"], wantText: "1233644400000000000" },
      { note: "date only is midnight UTC", args: ["2006-01-02", "2020-02-29"], wantText: "1582934400000000000" },
      { note: "day of year, leap year", args: ["2006-002", "2020-060"], wantText: "1582934400000000000" },
      { note: "day of year, common year", args: ["2006-002", "2021-060"], wantText: "1614556800000000000" },
      { note: "fraction the layout does not spell out", args: ["2006-01-02 15:04:05", "2020-01-01 10:00:00.123456789"], wantText: "1577872800123456789" },
      { note: "comma fraction, digits beyond ns dropped", args: ["2006-01-02 15:04:05,999", "2020-01-01 10:00:00,123456789123"], wantText: "1577872800123456789" },
      { note: "lower-case month names are accepted", args: ["Jan 2 2006", "feb 3 2009"], wantText: "1233619200000000000" },
      { note: "one past min", args: [RFC3339, "1677-09-21T00:12:43.145224191-00:00"], error: RANGE },
      { note: "one past max", args: [RFC3339, "2262-04-11T23:47:16.854775808-00:00"], error: RANGE },
      { note: "no year is year 0, out of range", args: ["15:04", "10:00"], error: RANGE },
      { note: "Feb 30", args: ["2006-01-02", "2020-02-30"], error: builtinErr('parsing time "2020-02-30": day out of range') },
      { note: "Feb 29 in a common year", args: ["2006-01-02", "2021-02-29"], error: builtinErr('parsing time "2021-02-29": day out of range') },
      { note: "month 13", args: ["2006-01-02", "2020-13-01"], error: builtinErr('parsing time "2020-13-01": month out of range') },
      { note: "hour 24", args: ["15:04 2006", "24:00 2020"], error: builtinErr('parsing time "24:00 2020": hour out of range') },
      { note: "cannot parse", args: ["2006-01-02", "2020-1-01"], error: builtinErr('parsing time "2020-1-01" as "2006-01-02": cannot parse "1-01" as "01"') },
      { note: "prefix mismatch", args: ["2006-01-02", "x2020-01-01"], error: builtinErr('parsing time "x2020-01-01" as "2006-01-02": cannot parse "x2020-01-01" as "2006"') },
      { note: "extra text", args: ["2006-01-02", "2020-01-01 extra"], error: builtinErr('parsing time "2020-01-01 extra": extra text: " extra"') },
      { note: "non-ASCII in errors is quoted as bytes", args: [RFC3339, "2020-01-01T10:00:00ü"], error: builtinErr('parsing time "2020-01-01T10:00:00\\xc3\\xbc" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xbc" as "Z07:00"') },
      { note: "fraction needs its digits", args: ["15:04:05.000 2006", "10:00:00.12 2020"], error: builtinErr('parsing time "10:00:00.12 2020" as "15:04:05.000 2006": cannot parse ".12 2020" as ".000"') },
      { note: "layout not a string", args: [1, "x"], error: typeErr("operand 1 must be string but got number") },
      { note: "value not a string", args: ["x", 1], error: typeErr("operand 2 must be string but got number") },
    ]);
  });

  describe("time.parse_rfc3339_ns", () => {
    runCases("time.parse_rfc3339_ns", [
      { note: "min", args: ["1677-09-21T00:12:43.145224192-00:00"], wantText: "-9223372036854775808" },
      { note: "epoch", args: ["1970-01-01T00:00:00-00:00"], want: 0 },
      { note: "offset", args: ["2017-06-02T19:00:00-07:00"], wantText: "1496455200000000000" },
      { note: "max", args: ["2262-04-11T23:47:16.854775807-00:00"], wantText: "9223372036854775807" },
      { note: "fraction and Z", args: ["2017-06-02T19:00:00.5Z"], wantText: "1496430000500000000" },
      { note: "too small", args: ["1677-09-21T00:12:43.145224191-00:00"], error: RANGE },
      { note: "too large", args: ["2262-04-11T23:47:16.854775808-00:00"], error: RANGE },
      { note: "date only", args: ["2017-06-02"], error: builtinErr('parsing time "2017-06-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"') },
    ]);
  });

  describe("time.parse_duration_ns", () => {
    runCases("time.parse_duration_ns", [
      { note: "ms", args: ["100ms"], want: 100000000 },
      { note: "compound", args: ["1h30m"], want: 5400000000000 },
      { note: "negative fraction", args: ["-1.5h"], want: -5400000000000 },
      { note: "micro sign", args: ["1µs"], want: 1000 },
      { note: "Greek mu", args: ["1μs"], want: 1000 },
      { note: "us", args: ["1us"], want: 1000 },
      { note: "bare zero", args: ["0"], want: 0 },
      { note: "leading dot", args: [".5s"], want: 500000000 },
      { note: "fraction below 1ns truncates", args: ["1.0000000001s"], want: 1000000000 },
      { note: "max int64", args: ["9223372036854775807ns"], wantText: "9223372036854775807" },
      { note: "min int64", args: ["-9223372036854775808ns"], wantText: "-9223372036854775808" },
      { note: "overflow", args: ["9223372036854775808ns"], error: builtinErr('time: invalid duration "9223372036854775808ns"') },
      { note: "hours overflow", args: ["2562048h"], error: builtinErr('time: invalid duration "2562048h"') },
      { note: "empty", args: [""], error: builtinErr('time: invalid duration ""') },
      { note: "missing unit", args: ["1"], error: builtinErr('time: missing unit in duration "1"') },
      { note: "unknown unit", args: ["1d"], error: builtinErr('time: unknown unit "d" in duration "1d"') },
      { note: "no digits", args: [".s"], error: builtinErr('time: invalid duration ".s"') },
    ]);
  });

  describe("time.date / time.clock / time.weekday", () => {
    const cases: BuiltinCase[] = [
      { note: "date", name: "time.date", args: [1517814000000000000], want: [2018, 2, 5] },
      { note: "date in Los Angeles", name: "time.date", args: [[1517814000000000000, "America/Los_Angeles"]], want: [2018, 2, 4] },
      { note: "date with empty tz is UTC", name: "time.date", args: [[1517832000000000000, ""]], want: [2018, 2, 5] },
      { note: "leap day", name: "time.date", args: [1582977600000000000], want: [2020, 2, 29] },
      { note: "min int64", name: "time.date", args: [n("-9223372036854775808")], want: [1677, 9, 21] },
      { note: "before the epoch", name: "time.date", args: [-1], want: [1969, 12, 31] },
      { note: "date too big", name: "time.date", args: [n("1582977600000000000000")], error: TOO_BIG },
      { note: "fractional ns", name: "time.date", args: [1.5], error: TOO_BIG },
      { note: "unknown zone", name: "time.date", args: [[0, "Mars/Olympus"]], error: builtinErr("unknown time zone Mars/Olympus") },
      { note: "zone names are case-sensitive", name: "time.date", args: [[0, "america/new_york"]], error: builtinErr("unknown time zone america/new_york") },
      { note: "offsets are not zones", name: "time.date", args: [[0, "+05:00"]], error: builtinErr("unknown time zone +05:00") },
      { note: "path tricks", name: "time.date", args: [[0, "../etc/passwd"]], error: builtinErr("time: invalid location name") },
      { note: "empty array", name: "time.date", args: [[]], error: typeErr("operand 1 must be either number (ns) or [number (ns), string (tz)] but got array") },
      { note: "string", name: "time.date", args: ["x"], error: typeErr("operand 1 must be either number (ns) or [number (ns), string (tz)] but got string") },
      { note: "array of string", name: "time.date", args: [["x"]], error: typeErr("operand 1 must be number but got string") },
      { note: "tz not a string", name: "time.date", args: [[0, 1]], error: typeErr("operand 1 must be string but got number") },
      { note: "clock", name: "time.clock", args: [1517832000000000000], want: [12, 0, 0] },
      { note: "clock in New York", name: "time.clock", args: [[1517832000000000000, "America/New_York"]], want: [7, 0, 0] },
      { note: "clock in Kolkata (half-hour offset)", name: "time.clock", args: [[1517832000000000000, "Asia/Kolkata"]], want: [17, 30, 0] },
      { note: "clock too big", name: "time.clock", args: [n("1582977600000000000000")], error: TOO_BIG },
      { note: "clock before the epoch", name: "time.clock", args: [-1], want: [23, 59, 59] },
      { note: "Monday", name: "time.weekday", args: [1517832000000000000], want: "Monday" },
      { note: "Sunday", name: "time.weekday", args: [1518350400000000000], want: "Sunday" },
      { note: "weekday across the date line", name: "time.weekday", args: [[1641038400000000000, "Pacific/Kiritimati"]], want: "Sunday" },
      { note: "weekday at the epoch in Kiritimati (then UTC-10:40)", name: "time.weekday", args: [[0, "Pacific/Kiritimati"]], want: "Wednesday" },
      { note: "weekday too big", name: "time.weekday", args: [n("1582977600000000000000")], error: TOO_BIG },
    ];
    runCases("time.date", cases);
  });

  describe("time.add_date", () => {
    runCases("time.add_date", [
      { note: "year month day", args: [n("1585852421593912000"), 3, 9, 12], wantText: "1705257221593912000" },
      { note: "negative values", args: [n("1585852421593912000"), -1, -1, -1], wantText: "1551465221593912000" },
      { note: "too large result", args: [0, 2262, 1, 1], error: RANGE },
      { note: "too small result", args: [n("-9223372036854775808"), 0, 0, -1], error: RANGE },
      { note: "Feb 29 plus a year normalises to Mar 1", args: [ns("2006-01-02", "2020-02-29"), 1, 0, 0], want: ns("2006-01-02", "2021-03-01") },
      { note: "Jan 31 plus a month normalises to Mar 2", args: [ns("2006-01-02", "2020-01-31"), 0, 1, 0], want: ns("2006-01-02", "2020-03-02") },
      { note: "a day across spring-forward keeps the wall clock", args: [[ns(RFC3339, "2021-03-13T12:00:00-05:00"), "America/New_York"], 0, 0, 1], want: ns(RFC3339, "2021-03-14T12:00:00-04:00") },
      { note: "a day across fall-back keeps the wall clock", args: [[ns(RFC3339, "2021-11-06T12:00:00-04:00"), "America/New_York"], 0, 0, 1], want: ns(RFC3339, "2021-11-07T12:00:00-05:00") },
      { note: "years must be integers", args: [0, 1.5, 0, 0], error: typeErr("operand 2 must be integer number but got floating-point number") },
      { note: "days must be numbers", args: [0, 0, 0, "1"], error: typeErr("operand 4 must be number but got string") },
    ]);
  });

  describe("time.diff", () => {
    const day = 86400 * 1e9;
    runCases("time.diff", [
      { note: "minute and second", args: [1517814061000000000, 1517814000000000000], want: [0, 0, 0, 0, 1, 1] },
      { note: "different zones read in the first's zone", args: [[1517814060000000000, "UTC"], [1517814000000000000, "Asia/Shanghai"]], want: [0, 0, 0, 0, 1, 0] },
      { note: "leap year February", args: [ns("2006-01-02", "2020-02-02"), ns("2006-01-02", "2020-03-01")], want: [0, 0, 28, 0, 0, 0] },
      { note: "common year February", args: [ns("2006-01-02", "2021-02-02"), ns("2006-01-02", "2021-03-01")], want: [0, 0, 27, 0, 0, 0] },
      { note: "leap day to next year", args: [ns("2006-01-02", "2004-02-29"), ns("2006-01-02", "2005-03-01")], want: [1, 0, 1, 0, 0, 0] },
      { note: "order does not matter", args: [ns("2006-01-02", "2005-03-01"), ns("2006-01-02", "2004-02-29")], want: [1, 0, 1, 0, 0, 0] },
      { note: "same instant", args: [day, day], want: [0, 0, 0, 0, 0, 0] },
    ]);
  });

  describe("time.format", () => {
    const t = n("1670006453141828752");
    runCases("time.format", [
      { note: "default RFC3339Nano in UTC", args: [t], want: "2022-12-02T18:40:53.141828752Z" },
      { note: "with a zone", args: [[t, "Asia/Kolkata"]], want: "2022-12-03T00:10:53.141828752+05:30" },
      { note: "with a layout", args: [[t, "Asia/Kolkata", "Mon Jan 02 15:04:05 -0700 2006"]], want: "Sat Dec 03 00:10:53 +0530 2022" },
      { note: "with a layout constant", args: [[t, "Asia/Kolkata", "RFC1123Z"]], want: "Sat, 03 Dec 2022 00:10:53 +0530" },
      { note: "zone abbreviation", args: [[t, "Europe/Berlin", "UnixDate"]], want: "Fri Dec  2 19:40:53 CET 2022" },
      { note: "UTC abbreviation", args: [[t, "UTC", "RFC850"]], want: "Friday, 02-Dec-22 18:40:53 UTC" },
      { note: "every element", args: [[t, "America/Los_Angeles", "Monday January _2 __2 002 3:4:5 pm PM .000 ,999 Z07 -07:00:00 2006 06"]], want: "Friday December  2 336 336 10:40:53 am AM .141 ,141 -08 -08:00:00 2022 22" },
      { note: "trailing zeros trimmed with 9s", args: [[1500000000, "UTC", "05.999999999"]], want: "01.5" },
      { note: "zeros kept with 0s", args: [[1500000000, "UTC", "05.000000"]], want: "01.500000" },
      { note: "Z for UTC with ISO offsets", args: [[0, "UTC", "Z07:00|-07:00"]], want: "Z|+00:00" },
      { note: "summer time", args: [[ns(RFC3339, "2021-07-01T12:00:00Z"), "America/New_York", "15:04 MST -07:00"]], want: "08:00 EDT -04:00" },
      { note: "too big", args: [n("15829776000000000000000")], error: TOO_BIG },
      { note: "layout not a string", args: [[0, "UTC", 1]], error: typeErr("operand 1 must be string but got number") },
    ]);
  });
});
