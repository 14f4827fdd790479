import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinErr, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string) => numberFromText(text)!;
const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));

describe("builtins: units", () => {
  run("units.parse", [
    { note: "milli is exact after rounding", args: ["500m"], want: 0.5 },
    { note: "kilo", args: ["0.0005K"], want: 0.5 },
    { note: "mega vs milli by case", args: ["0.0000005M"], want: 0.5 },
    { note: "binary", args: ["1Ki"], want: 1024 },
    { note: "fraction of binary unit not rounded", args: ["1.1Ki"], want: 1126.4 },
    { note: "exa is exact", args: ["10E"], wantText: "10000000000000000000" },
    { note: "exbi is exact", args: ["10Ei"], wantText: "11529215046068469760" },
    { note: "quotes removed, suffix lower-cased after its first letter", args: ['"100TI"'], want: 109951162777600 },
    { note: "scientific notation", args: ["2.5e3K"], want: 2500000 },
    { note: "negative exponent", args: ["-3.5E2m"], want: -0.35 },
    { note: "E alone is the exa unit", args: ["5E"], want: n("5000000000000000000") },
    { note: "rounded to 10 decimal places", args: ["1m"], want: 0.001 },
    { note: "integer result has no fraction", args: ["1G"], wantText: "1000000000" },
    { note: "empty", args: [""], error: builtinErr("units.parse: no amount provided") },
    { note: "unit only", args: ["G"], error: builtinErr("units.parse: no amount provided") },
    { note: "bad number", args: ["0.0.0"], error: builtinErr("units.parse: could not parse amount to a number") },
    { note: "spaces", args: ["100 k"], error: builtinErr("units.parse: spaces not allowed in resource strings") },
    { note: "unknown unit", args: ["100MB"], error: builtinErr("units.parse: unit Mb not recognized") },
    { note: "exponent too large", args: ["1e1234567"], error: builtinErr("units.parse: exponent too large") },
    { note: "not a string", args: [1], error: typeErr("operand 1 must be string but got number") },
  ]);
  run("units.parse_bytes", [
    { note: "kilobytes", args: ["10KB"], want: 10000 },
    { note: "kibibytes mixed case", args: ["10Kib"], want: 10240 },
    { note: "fractional kibibytes truncated", args: ["1.1KiB"], want: 1126 },
    { note: "bare fraction", args: [".5KB"], want: 500 },
    { note: "exbibytes exact", args: ["10eib"], wantText: "11529215046068469760" },
    { note: "scientific", args: ["3.2E2MiB"], want: 335544320 },
    { note: "negative exponent", args: ["1e-2KB"], want: 10 },
    { note: "raw number", args: ["12345"], want: 12345 },
    { note: "quotes removed", args: ['"100TIB"'], want: 109951162777600 },
    { note: "E alone is exabytes", args: ["5E"], wantText: "5000000000000000000" },
    { note: "empty", args: [""], error: builtinErr("units.parse_bytes: no byte amount provided") },
    { note: "bad number", args: [".5.2"], error: builtinErr("units.parse_bytes: could not parse byte amount to a number") },
    { note: "spaces", args: [" 327MiB "], error: builtinErr("units.parse_bytes: spaces not allowed in resource strings") },
    { note: "unknown unit", args: ["5xb"], error: builtinErr("units.parse_bytes: byte unit xb not recognized") },
  ]);
});
