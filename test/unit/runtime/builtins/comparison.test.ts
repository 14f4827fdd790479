import { RegoObject, RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { runCases, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;

describe("builtins: comparison", () => {
  const cases: BuiltinCase[] = [
    { note: "equal numbers by value", name: "equal", args: [1, n("1.0")], want: true },
    { note: "equal big integers differ in the last digit", name: "equal", args: [n("28857836529306024611913"), n("28857836529306024611912")], want: false },
    { note: "equal objects regardless of key order", name: "equal", args: [{ a: 1, b: [2] }, { b: [2], a: 1 }], want: true },
    { note: "equal set and array differ", name: "equal", args: [new RegoSet([1]), [1]], want: false },
    { note: "equal objects with non-string keys", name: "equal", args: [new RegoObject([[1, "a"]]), new RegoObject([[n("1.0"), "a"]])], want: true },
    { note: "equal is never an error", name: "equal", args: [null, "null"], want: false },
    { note: "neq", name: "neq", args: [n("28857836529306024611913"), n("28857836529306024611912")], want: true },
    { note: "neq of equal sets", name: "neq", args: [new RegoSet([1, 2]), new RegoSet([2, 1])], want: false },
    { note: "lt across types: null < boolean", name: "lt", args: [null, false], want: true },
    { note: "lt across types: number < string", name: "lt", args: [100, "1"], want: true },
    { note: "lt across types: object < set", name: "lt", args: [{}, new RegoSet()], want: true },
    { note: "lt int and float", name: "lt", args: [1, 1.5], want: true },
    { note: "lt big integers", name: "lt", args: [n("18446744073709551616"), n("18446744073709551617")], want: true },
    { note: "lt strings by code point (astral after BMP)", name: "lt", args: ["\uffff", "\u{1F600}"], want: true },
    { note: "lt arrays element-wise", name: "lt", args: [[1, 2], [1, 3]], want: true },
    { note: "lt shorter array first", name: "lt", args: [[1], [1, 0]], want: true },
    { note: "lte equal", name: "lte", args: [2, 2], want: true },
    { note: "gt", name: "gt", args: ["b", "a"], want: true },
    { note: "gt false", name: "gt", args: [1, 2], want: false },
    { note: "gte", name: "gte", args: [[1, 2], [1, 2]], want: true },
    { note: "gte false", name: "gte", args: [false, true], want: false },
  ];
  runCases("equal", cases);
});
