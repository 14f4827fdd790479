import { RegoSet, type Value } from "regoc";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";


describe("builtins: array", () => {
  const abc: Value = ["a", "b", "c", "d"];
  const cases: BuiltinCase[] = [
    { note: "concat", name: "array.concat", args: [[1, 2], [3, 4]], want: [1, 2, 3, 4] },
    { note: "concat empty", name: "array.concat", args: [[], []], want: [] },
    { note: "concat lhs not array", name: "array.concat", args: [{}, [3]], error: typeErr("operand 1 must be array but got object") },
    { note: "concat rhs not array", name: "array.concat", args: [[1], new RegoSet([3])], error: typeErr("operand 2 must be array but got set") },
    { note: "slice", name: "array.slice", args: [abc, 1, 3], want: ["b", "c"] },
    { note: "slice negative start clamps to 0", name: "array.slice", args: [abc, -5, 2], want: ["a", "b"] },
    { note: "slice stop past the end clamps", name: "array.slice", args: [abc, 2, 100], want: ["c", "d"] },
    { note: "slice start past stop is empty", name: "array.slice", args: [abc, 3, 1], want: [] },
    { note: "slice negative stop is empty", name: "array.slice", args: [abc, 0, -1], want: [] },
    { note: "slice float index", name: "array.slice", args: [abc, 0.5, 2], error: typeErr("operand 2 must be integer number but got floating-point number") },
    { note: "slice string index", name: "array.slice", args: [abc, 0, "2"], error: typeErr("operand 3 must be number but got string") },
    { note: "reverse", name: "array.reverse", args: [[1, 2, 3]], want: [3, 2, 1] },
    { note: "reverse empty", name: "array.reverse", args: [[]], want: [] },
    { note: "reverse object", name: "array.reverse", args: [{}], error: typeErr("operand 1 must be array but got object") },
    { note: "flatten", name: "array.flatten", args: [[[1, 2], [3, 4], [5]]], want: [1, 2, 3, 4, 5] },
    { note: "flatten one level only", name: "array.flatten", args: [[[[1], [2, 3, []]], [[4, 5]]]], want: [[1], [2, 3, []], [4, 5]] },
    { note: "flatten mixed", name: "array.flatten", args: [[[1, 2], "s", [3, { a: "b" }], 4.5, [6, [7, 8]]]], want: [1, 2, "s", 3, { a: "b" }, 4.5, 6, [7, 8]] },
    { note: "flatten keeps sets", name: "array.flatten", args: [[new RegoSet([1])]], want: [new RegoSet([1])] },
    { note: "flatten number", name: "array.flatten", args: [42], error: typeErr("operand 1 must be array but got number") },
  ];
  runCases("array.concat", cases);
});
