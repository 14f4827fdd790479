import { type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;
const floatErr = (pos: number) => typeErr(`operand ${pos} must be integer number but got floating-point number`);

describe("builtins: bits", () => {
  const cases: BuiltinCase[] = [
    { note: "and", name: "bits.and", args: [7, 9], want: 1 },
    { note: "and with zero", name: "bits.and", args: [50, 0], want: 0 },
    { note: "and negative (two's complement)", name: "bits.and", args: [-1, 255], want: 255 },
    { note: "and big", name: "bits.and", args: [n("18446744073709551615"), n("18446744073709551616")], want: 0 },
    { note: "and float lhs", name: "bits.and", args: [7.2, 42], error: floatErr(1) },
    { note: "and float rhs", name: "bits.and", args: [7, 4.2], error: floatErr(2) },
    { note: "and string", name: "bits.and", args: ["7", 1], error: typeErr("operand 1 must be integer but got string") },
    { note: "or", name: "bits.or", args: [7, 9], want: 15 },
    { note: "or big", name: "bits.or", args: [n("18446744073709551616"), 1], wantText: "18446744073709551617" },
    { note: "xor", name: "bits.xor", args: [42, 3], want: 41 },
    { note: "xor same", name: "bits.xor", args: [42, 42], want: 0 },
    { note: "negate", name: "bits.negate", args: [42], want: -43 },
    { note: "negate negative", name: "bits.negate", args: [-1], want: 0 },
    { note: "negate big", name: "bits.negate", args: [n("18446744073709551616")], wantText: "-18446744073709551617" },
    { note: "negate float", name: "bits.negate", args: [7.2], error: floatErr(1) },
    { note: "lsh", name: "bits.lsh", args: [1, 3], want: 8 },
    { note: "lsh int32 max", name: "bits.lsh", args: [2147483647, 1], want: 4294967294 },
    { note: "lsh int64 max is not lossy", name: "bits.lsh", args: [n("9223372036854775807"), 1], wantText: "18446744073709551614" },
    { note: "lsh by 100", name: "bits.lsh", args: [1, 100], wantText: "1267650600228229401496703205376" },
    { note: "lsh negative count", name: "bits.lsh", args: [7, -1], error: typeErr("operand 2 must be an unsigned integer number but got a negative integer") },
    { note: "lsh float", name: "bits.lsh", args: [7.2, 42], error: floatErr(1) },
    { note: "lsh string count", name: "bits.lsh", args: [7, "1"], error: typeErr("operand 2 must be number but got string") },
    { note: "rsh", name: "bits.rsh", args: [8, 3], want: 1 },
    { note: "rsh negative rounds toward -infinity", name: "bits.rsh", args: [-9, 1], want: -5 },
    { note: "rsh big", name: "bits.rsh", args: [n("18446744073709551616"), 64], want: 1 },
    { note: "rsh negative count", name: "bits.rsh", args: [7, -1], error: typeErr("operand 2 must be an unsigned integer number but got a negative integer") },
  ];
  runCases("bits.and", cases);
});
