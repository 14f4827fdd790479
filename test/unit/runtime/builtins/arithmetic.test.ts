import { RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinErr, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;

describe("builtins: arithmetic", () => {
  describe("plus", () => {
    const cases: BuiltinCase[] = [
      { note: "small integers", args: [1, 2], want: 3 },
      { note: "int32 edge crosses into wider integers", args: [2147483647, 1], want: 2147483648 },
      { note: "beyond 2^53 stays exact", args: [9007199254740991, 2], wantText: "9007199254740993" },
      { note: "beyond 2^64 stays exact", args: [n("18446744073709551617"), 1], wantText: "18446744073709551618" },
      { note: "30 digits", args: [n("123456789012345678901234567890"), 1], wantText: "123456789012345678901234567891" },
      { note: "1e30 + 1 is an exact integer", args: [n("1e30"), 1], wantText: "1000000000000000000000000000001" },
      { note: "0.1 + 0.2 is 0.3, as OPA's 64-bit floats give", args: [n("0.1"), n("0.2")], want: 0.3, wantText: "0.3" },
      { note: "mixed int and float", args: [1, 2.5], want: 3.5 },
      { note: "floats summing to an integer give an integer", args: [1.5, 2.5], wantText: "4" },
      { note: "bug 2469 precision", args: [49649733057, 1], want: 49649733058 },
      { note: "negative result", args: [-5, 3], want: -2 },
      // Not OPA's behaviour (it rounds such numbers to a float): we refuse to expand a million digits.
      { note: "an integer with a huge exponent is refused", args: [n("1e1000000"), 1], error: builtinErr("number too large") },
      { note: "operand 1 not a number", args: ["1", 2], error: typeErr("operand 1 must be number but got string") },
      { note: "operand 2 not a number", args: [1, null], error: typeErr("operand 2 must be number but got null") },
      { note: "set operand", args: [new RegoSet([1]), 1], error: typeErr("operand 1 must be number but got set") },
    ];
    runCases("plus", cases);
  });

  describe("minus", () => {
    const cases: BuiltinCase[] = [
      { note: "numbers", args: [1, 2], want: -1 },
      { note: "big integers", args: [n("-18446744073709551617"), 1], wantText: "-18446744073709551618" },
      // 0.3 and 0.1 at 64 bits differ by 0.2 + 1.2 ulp: OPA prints the 64-bit result's digits.
      { note: "floats keep OPA's 64-bit rounding", args: [n("0.3"), n("0.1")], wantText: "0.20000000000000000002" },
      { note: "floats", args: [n("2.5"), n("0.25")], wantText: "2.25" },
      { note: "set difference", args: [new RegoSet([1, 2, 3]), new RegoSet([2, 4])], want: new RegoSet([1, 3]) },
      { note: "set difference with structural elements", args: [new RegoSet([[1], { a: 1 }]), new RegoSet([{ a: 1 }])], want: new RegoSet([[1]]) },
      { note: "set minus number", args: [new RegoSet([1]), 1], error: typeErr("operand 2 must be set but got number") },
      { note: "number minus set", args: [1, new RegoSet([1])], error: typeErr("operand 2 must be number but got set") },
      { note: "string minus number", args: ["a", 1], error: typeErr("operand 1 must be one of {number, set} but got string") },
      { note: "array minus array", args: [[1], [1]], error: typeErr("operand 1 must be one of {number, set} but got array") },
    ];
    runCases("minus", cases);
  });

  describe("mul", () => {
    const cases: BuiltinCase[] = [
      { note: "int32 max squared", args: [2147483647, 2147483647], wantText: "4611686014132420609" },
      { note: "int32 min squared", args: [-2147483648, -2147483648], wantText: "4611686018427387904" },
      { note: "int64 max times 2", args: [n("9223372036854775807"), 2], wantText: "18446744073709551614" },
      { note: "float times int giving an int", args: [2.5, 2], wantText: "5" },
      { note: "1.1 * 1.1", args: [1.1, 1.1], wantText: "1.21" },
      { note: "zero", args: [0, -5], wantText: "0" },
      { note: "boolean operand", args: [true, 1], error: typeErr("operand 1 must be number but got boolean") },
    ];
    runCases("mul", cases);
  });

  describe("div", () => {
    const cases: BuiltinCase[] = [
      { note: "exact", args: [6, 3], want: 2 },
      { note: "exact negative", args: [-6, 3], want: -2 },
      { note: "fraction", args: [1, 4], want: 0.25 },
      { note: "zero dividend", args: [0, 5], wantText: "0" },
      { note: "7 / 2", args: [7, 2], want: 3.5 },
      { note: "1 / 3 has OPA's 64-bit float digits", args: [1, 3], wantText: "0.33333333333333333334" },
      { note: "2 / 3", args: [2, 3], wantText: "0.6666666666666666667" },
      { note: "big integers dividing exactly", args: [n("36893488147419103234"), 2], wantText: "18446744073709551617" },
      { note: "divide by zero", args: [1, 0], error: builtinErr("divide by zero") },
      { note: "divide by a float zero", args: [1, n("0.0")], error: builtinErr("divide by zero") },
      { note: "divide a float by zero", args: [1.5, 0], error: builtinErr("divide by zero") },
      { note: "string divisor", args: [1, "2"], error: typeErr("operand 2 must be number but got string") },
    ];
    runCases("div", cases);
  });

  describe("rem", () => {
    const cases: BuiltinCase[] = [
      { note: "7 % 4", args: [7, 4], want: 3 },
      { note: "takes the sign of the dividend", args: [-17, 5], want: -2 },
      { note: "negative divisor", args: [17, -5], want: 2 },
      { note: "integral float", args: [4.0, 3], want: 1 },
      { note: "divisor 2^64", args: [10, n("18446744073709551616")], want: 10 },
      { note: "divisor a multiple of 2^64", args: [5, n("55340232221128654848")], want: 5 },
      { note: "big dividend", args: [n("18446744073709551617"), n("18446744073709551616")], want: 1 },
      { note: "modulo by zero", args: [7, 0], error: builtinErr("modulo by zero") },
      { note: "floating-point dividend", args: [1.1, 1], error: builtinErr("modulo on floating-point number") },
      { note: "floating-point divisor", args: [1, 0.5], error: builtinErr("modulo on floating-point number") },
      { note: "floating-point dividend and zero divisor", args: [1.5, 0], error: builtinErr("modulo on floating-point number") },
    ];
    runCases("rem", cases);
  });

  describe("abs, round, ceil, floor", () => {
    const cases: BuiltinCase[] = [
      { note: "abs negative", name: "abs", args: [-10], want: 10 },
      { note: "abs int64 min", name: "abs", args: [n("-9223372036854775808")], wantText: "9223372036854775808" },
      { note: "abs float", name: "abs", args: [-2.5], want: 2.5 },
      { note: "abs of a non-number", name: "abs", args: ["x"], error: typeErr("operand 1 must be number but got string") },
      { note: "round half up", name: "round", args: [2.5], want: 3 },
      { note: "round half away from zero when negative", name: "round", args: [-2.5], want: -3 },
      { note: "round down", name: "round", args: [2.4], want: 2 },
      { note: "round an integer", name: "round", args: [-5], want: -5 },
      { note: "round a big integer", name: "round", args: [n("123456789012345678901234567890")], wantText: "123456789012345678901234567890" },
      { note: "round trailing zeros", name: "round", args: [n("10.00")], wantText: "10" },
      { note: "ceil 1.01", name: "ceil", args: [1.01], want: 2 },
      { note: "ceil 2222.2222222222", name: "ceil", args: [2222.2222222222], want: 2223 },
      { note: "ceil negative", name: "ceil", args: [-1.99999], want: -1 },
      // OPA truncates, then adds one unless the truncated value is negative; -0.5 truncates to 0.
      { note: "ceil(-0.5) is 1, as in OPA", name: "ceil", args: [-0.5], want: 1 },
      { note: "floor 99.99999", name: "floor", args: [99.99999], want: 99 },
      { note: "floor negative", name: "floor", args: [-1.001], want: -2 },
      { note: "floor(-0.5) is 0, as in OPA", name: "floor", args: [-0.5], want: 0 },
      { note: "floor of a tiny decimal", name: "floor", args: [n("1e-300")], want: 0 },
      { note: "ceil of a null", name: "ceil", args: [null], error: typeErr("operand 1 must be number but got null") },
    ];
    runCases("abs", cases);
  });

  describe("numbers.range and numbers.range_step", () => {
    const cases: BuiltinCase[] = [
      { note: "one", args: [0, 0], want: [0] },
      { note: "ascending", args: [-2, 3], want: [-2, -1, 0, 1, 2, 3] },
      { note: "descending", args: [2, -3], want: [2, 1, 0, -1, -2, -3] },
      { note: "precision", args: [49649733057, 49649733060], want: [49649733057, 49649733058, 49649733059, 49649733060] },
      { note: "beyond 2^64", args: [n("18446744073709551615"), n("18446744073709551617")], wantText: "[18446744073709551615,18446744073709551616,18446744073709551617]" },
      { note: "float pos 1", args: [3.14, 4], error: typeErr("operand 1 must be integer number but got floating-point number") },
      { note: "float pos 2", args: [3, 3.14], error: typeErr("operand 2 must be integer number but got floating-point number") },
      { note: "string pos 1", args: ["1", 4], error: typeErr("operand 1 must be integer but got string") },
      { note: "step ascending", name: "numbers.range_step", args: [0, 10, 2], want: [0, 2, 4, 6, 8, 10] },
      { note: "step descending", name: "numbers.range_step", args: [0, -10, 2], want: [0, -2, -4, -6, -8, -10] },
      { note: "step not reaching the end", name: "numbers.range_step", args: [2, 5, 2], want: [2, 4] },
      { note: "big step", name: "numbers.range_step", args: [0, 10, n("99999999999999999999")], want: [0] },
      {
        note: "negative step (OPA's message names the builtin twice)",
        name: "numbers.range_step",
        args: [0, 10, -2],
        error: builtinErr("numbers.range_step: step must be a positive integer"),
      },
      { note: "zero step", name: "numbers.range_step", args: [0, 10, 0], error: builtinErr("numbers.range_step: step must be a positive integer") },
      { note: "float step", name: "numbers.range_step", args: [0, 10, 0.5], error: typeErr("operand 3 must be integer number but got floating-point number") },
    ];
    runCases("numbers.range", cases);
  });
});
