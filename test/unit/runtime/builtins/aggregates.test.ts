import { RegoObject, RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;

describe("builtins: aggregates", () => {
  describe("count", () => {
    const cases: BuiltinCase[] = [
      { note: "array", args: [[1, 2, 3, 4]], want: 4 },
      { note: "object", args: [{ v1: "hello", v2: "goodbye" }], want: 2 },
      { note: "object with non-string keys", args: [new RegoObject([[1, 1], [[1], 2]])], want: 2 },
      { note: "set", args: [new RegoSet([1, 2, 2, n("1.0")])], want: 2 },
      { note: "string counts code points", args: ["åäö"], want: 3 },
      { note: "string with astral characters", args: ["a\u{1F600}b\u{10FFFF}"], want: 4 },
      { note: "string with a combining mark counts two", args: ["e\u0301"], want: 2 },
      { note: "lone surrogate counts one", args: ["\ud800x"], want: 2 },
      { note: "empty string", args: [""], want: 0 },
      { note: "null", args: [null], error: typeErr("operand 1 must be one of {array, object, set, string} but got null") },
      { note: "number", args: [5], error: typeErr("operand 1 must be one of {array, object, set, string} but got number") },
    ];
    runCases("count", cases);
  });

  describe("sum and product", () => {
    const cases: BuiltinCase[] = [
      { note: "sum array", name: "sum", args: [[1, 2, 3, 4]], want: 10 },
      { note: "sum set", name: "sum", args: [new RegoSet([1, 2, 3, 4])], want: 10 },
      { note: "sum empty", name: "sum", args: [[]], want: 0 },
      { note: "sum precision", name: "sum", args: [[49649733057, 1]], want: 49649733058 },
      { note: "sum past 2^53", name: "sum", args: [[9007199254740991, 9007199254740991]], wantText: "18014398509481982" },
      { note: "sum big", name: "sum", args: [[n("18446744073709551616"), n("18446744073709551616")]], wantText: "36893488147419103232" },
      { note: "sum floats at 64 bits", name: "sum", args: [[n("0.1"), n("0.2")]], wantText: "0.3" },
      { note: "sum mixed", name: "sum", args: [[1, 2.5]], want: 3.5 },
      { note: "sum non-number element", name: "sum", args: [[1, "a"]], error: typeErr("operand 1 must be array of numbers but got array containing string") },
      { note: "sum set with a non-number", name: "sum", args: [new RegoSet([1, null])], error: typeErr("operand 1 must be set of numbers but got set containing null") },
      { note: "sum of an object", name: "sum", args: [{}], error: typeErr("operand 1 must be one of {set, array} but got object") },
      { note: "product", name: "product", args: [[1, 2, 3, 4]], want: 24 },
      { note: "product set", name: "product", args: [new RegoSet([1, 2, 3, 4])], want: 24 },
      { note: "product empty", name: "product", args: [[]], want: 1 },
      { note: "product big", name: "product", args: [[n("4294967296"), n("4294967296"), n("4294967296")]], wantText: "79228162514264337593543950336" },
      // OPA's product accumulates in a float64-precision big.Float.
      { note: "product floats at 53 bits", name: "product", args: [[n("0.1"), 3]], wantText: "0.30000000000000004" },
      { note: "product of a string", name: "product", args: ["12"], error: typeErr("operand 1 must be one of {set, array} but got string") },
    ];
    runCases("sum", cases);
  });

  describe("max, min, sort", () => {
    const cases: BuiltinCase[] = [
      { note: "max", name: "max", args: [[1, 2, 3, 4]], want: 4 },
      { note: "max set", name: "max", args: [new RegoSet([1, 2, 3, 4])], want: 4 },
      { note: "max empty is undefined", name: "max", args: [[]], undefined: true },
      { note: "max across types (set is greatest)", name: "max", args: [[1, "a", new RegoSet(), {}, [1]]], want: new RegoSet() },
      { note: "max big", name: "max", args: [[n("18446744073709551617"), n("18446744073709551616")]], wantText: "18446744073709551617" },
      { note: "max of a number", name: "max", args: [1], error: typeErr("operand 1 must be one of {set, array} but got number") },
      { note: "min", name: "min", args: [[3, 2, 1, 4, 6, -7, 10]], want: -7 },
      { note: "min dups", name: "min", args: [[1, 2, 1, 3, 4]], want: 1 },
      { note: "min empty set", name: "min", args: [new RegoSet()], undefined: true },
      { note: "min across types (null is least)", name: "min", args: [[false, null, 0]], want: null },
      { note: "sort", name: "sort", args: [[4, 3, 2, 1]], want: [1, 2, 3, 4] },
      { note: "sort set", name: "sort", args: [new RegoSet([3, 1, 2])], want: [1, 2, 3] },
      { note: "sort mixed types in OPA order", name: "sort", args: [[{}, "a", 1, null, [0], true]], want: [null, true, 1, "a", [0], {}] },
      { note: "sort strings by code point", name: "sort", args: [["\u{1F600}", "\uffff", "a"]], want: ["a", "\uffff", "\u{1F600}"] },
      { note: "sort a set of strings by code point", name: "sort", args: [new RegoSet(["\u{1F600}", "\uffff", "b", "a"])], want: ["a", "b", "\uffff", "\u{1F600}"] },
      { note: "sort of a string", name: "sort", args: ["ba"], error: typeErr("operand 1 must be one of {set, array} but got string") },
    ];
    runCases("max", cases);
  });

  describe("all, any", () => {
    const cases: BuiltinCase[] = [
      { note: "all true", name: "all", args: [[true, true]], want: true },
      { note: "all with a truthy non-boolean", name: "all", args: [[true, 1]], want: false },
      { note: "all empty", name: "all", args: [[]], want: true },
      { note: "all set", name: "all", args: [new RegoSet([true, false])], want: false },
      { note: "all of an object", name: "all", args: [{}], error: typeErr("operand 1 must be one of {array, set} but got object") },
      { note: "any", name: "any", args: [[false, true]], want: true },
      { note: "any empty", name: "any", args: [new RegoSet()], want: false },
      { note: "any set", name: "any", args: [new RegoSet([false, true])], want: true },
      { note: "any of a string", name: "any", args: ["true"], error: typeErr("operand 1 must be one of {array, set} but got string") },
    ];
    runCases("all", cases);
  });
});
