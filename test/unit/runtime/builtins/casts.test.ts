import { RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;
const syntax = (s: string) => ({ code: "eval_builtin_error", message: `strconv.ParseFloat: parsing ${s}: invalid syntax` });

describe("builtins: casts", () => {
  describe("to_number", () => {
    const cases: BuiltinCase[] = [
      { note: "negative decimal string", args: ["-42.0"], want: -42 },
      { note: "false", args: [false], want: 0 },
      { note: "true", args: [true], want: 1 },
      { note: "null", args: [null], want: 0 },
      { note: "number", args: [100.1], want: 100.1 },
      { note: "big number", args: [n("123456789012345678901234567890")], wantText: "123456789012345678901234567890" },
      { note: "integer string beyond 2^64 stays exact", args: ["123456789012345678901234567890"], wantText: "123456789012345678901234567890" },
      { note: "long decimal string stays exact", args: ["0.1000000000000000000001"], want: n("0.1000000000000000000001") },
      { note: "exponent", args: ["1e3"], want: 1000 },
      { note: "leading plus", args: ["+5"], want: 5 },
      { note: "leading zeros", args: ["007"], want: 7 },
      { note: "leading dot", args: [".5"], want: 0.5 },
      { note: "trailing dot", args: ["5."], want: 5 },
      { note: "hex float", args: ["0x1p-2"], want: 0.25 },
      { note: "hex float with fraction", args: ["0x1.8p1"], want: 3 },
      { note: "tiny value underflows quietly", args: ["1e-400"], want: n("1e-400") },
      { note: "bad input", args: ["broken"], error: syntax('"broken"') },
      { note: "empty string", args: [""], error: syntax('""') },
      { note: "space", args: [" 1"], error: syntax('" 1"') },
      { note: "hex without exponent", args: ["0x10"], error: syntax('"0x10"') },
      { note: "underscores in decimals", args: ["1_000"], error: syntax('"1_000"') },
      { note: "double sign", args: ["--1"], error: syntax('"--1"') },
      { note: "unicode is quoted Go-style", args: ["é\u0001"], error: syntax('"é\\x01"') },
      { note: "out of range", args: ["1e400"], error: { code: "eval_builtin_error", message: 'strconv.ParseFloat: parsing "1e400": value out of range' } },
      { note: "nan", args: ["nan"], error: typeErr("operand 1 must be valid number string but got string") },
      { note: "-NaN", args: ["-NaN"], error: typeErr("operand 1 must be valid number string but got string") },
      { note: "inf", args: ["inf"], error: typeErr("operand 1 must be valid number string but got string") },
      { note: "-Infinity", args: ["-Infinity"], error: typeErr("operand 1 must be valid number string but got string") },
      { note: "iNf", args: ["iNf"], error: typeErr("operand 1 must be valid number string but got string") },
      { note: "array", args: [[1]], error: typeErr("operand 1 must be one of {null, boolean, number, string} but got array") },
    ];
    runCases("to_number", cases);
  });

  describe("cast_*", () => {
    const cases: BuiltinCase[] = [
      { note: "cast_array of an array", name: "cast_array", args: [[2, 1]], want: [2, 1] },
      { note: "cast_array of a set is sorted", name: "cast_array", args: [new RegoSet([3, 1, 2])], want: [1, 2, 3] },
      { note: "cast_array of a string", name: "cast_array", args: ["a"], error: typeErr("operand 1 must be one of {array, set} but got string") },
      { note: "cast_set of an array deduplicates", name: "cast_set", args: [[1, 1, n("1.0"), 2]], want: new RegoSet([1, 2]) },
      { note: "cast_set of a set", name: "cast_set", args: [new RegoSet([1])], want: new RegoSet([1]) },
      { note: "cast_set of an object", name: "cast_set", args: [{}], error: typeErr("operand 1 must be one of {array, set} but got object") },
      { note: "cast_string", name: "cast_string", args: ["x"], want: "x" },
      { note: "cast_string of a number", name: "cast_string", args: [1], error: typeErr("operand 1 must be string but got number") },
      { note: "cast_boolean", name: "cast_boolean", args: [false], want: false },
      { note: "cast_boolean of a string", name: "cast_boolean", args: ["true"], error: typeErr("operand 1 must be boolean but got string") },
      { note: "cast_null", name: "cast_null", args: [null], want: null },
      { note: "cast_null of false", name: "cast_null", args: [false], error: typeErr("operand 1 must be null but got boolean") },
      { note: "cast_object", name: "cast_object", args: [{ a: 1 }], want: { a: 1 } },
      { note: "cast_object of an array", name: "cast_object", args: [[]], error: typeErr("operand 1 must be object but got array") },
    ];
    runCases("cast_array", cases);
  });
});
