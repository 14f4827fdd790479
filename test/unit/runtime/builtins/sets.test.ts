import { RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string): Value => numberFromText(text)!;
const s = (...xs: Value[]) => new RegoSet(xs);

describe("builtins: sets", () => {
  const cases: BuiltinCase[] = [
    { note: "and", name: "and", args: [s(1, 2, 3), s(2, 3, 4)], want: s(2, 3) },
    { note: "and structural", name: "and", args: [s([1], { a: 1 }), s({ a: 1 }, n("1.0"))], want: s({ a: 1 }) },
    { note: "and numbers by value", name: "and", args: [s(1), s(n("1.0"))], want: s(1) },
    { note: "and non-set", name: "and", args: [s(1), [1]], error: typeErr("operand 2 must be set but got array") },
    { note: "or", name: "or", args: [s(1, 2), s(2, 3)], want: s(1, 2, 3) },
    { note: "or non-set", name: "or", args: ["a", s()], error: typeErr("operand 1 must be set but got string") },
    { note: "set_diff", name: "set_diff", args: [s(1, 2, 3), s(2)], want: s(1, 3) },
    { note: "set_diff non-set", name: "set_diff", args: [s(1), 1], error: typeErr("operand 2 must be set but got number") },
    { note: "intersection", name: "intersection", args: [s(s(1, 2, 3), s(2, 3, 4), s(3, 2))], want: s(2, 3) },
    { note: "intersection of nothing", name: "intersection", args: [s()], want: s() },
    { note: "intersection with an empty set", name: "intersection", args: [s(s(1), s())], want: s() },
    { note: "intersection of a non-set element", name: "intersection", args: [s(s(1), 1)], error: typeErr("operand 1 must be set but got number") },
    { note: "intersection of an array", name: "intersection", args: [[s(1)]], error: typeErr("operand 1 must be set but got array") },
    { note: "union", name: "union", args: [s(s(1, 2), s(2, 3), s())], want: s(1, 2, 3) },
    { note: "union of nothing", name: "union", args: [s()], want: s() },
    { note: "union of a non-set element", name: "union", args: [s(s(1), "x")], error: typeErr("operand 1 must be set but got string") },
  ];
  runCases("and", cases);
});
