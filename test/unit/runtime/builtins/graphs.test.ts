import { RegoObject, RegoSet, type Value } from "regoc";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const s = (...xs: Value[]) => new RegoSet(xs);

describe("builtins: graph", () => {
  describe("walk", () => {
    const cases: BuiltinCase[] = [
      { note: "scalar", args: [1], want: [[[], 1]] },
      { note: "array", args: [[1, 2]], want: [[[], [1, 2]], [[0], 1], [[1], 2]] },
      { note: "object in key order", args: [{ v2: "b", v1: "a" }], want: [[[], { v1: "a", v2: "b" }], [["v1"], "a"], [["v2"], "b"]] },
      { note: "set: elements are their own keys", args: [s(s(1, 2))], want: [[[], s(s(1, 2))], [[s(1, 2)], s(1, 2)], [[s(1, 2), 1], 1], [[s(1, 2), 2], 2]] },
      { note: "non-string keys", args: [new RegoObject([[[1], "x"]])], want: [[[], new RegoObject([[[1], "x"]])], [[[1]], "x"]] },
      {
        note: "deep paths are not shared between pairs",
        args: [{ a: [{ b: 1 }, { c: 2 }] }],
        want: [
          [[], { a: [{ b: 1 }, { c: 2 }] }],
          [["a"], [{ b: 1 }, { c: 2 }]],
          [["a", 0], { b: 1 }],
          [["a", 0, "b"], 1],
          [["a", 1], { c: 2 }],
          [["a", 1, "c"], 2],
        ],
      },
    ];
    runCases("walk", cases);
  });

  describe("graph.reachable", () => {
    const cases: BuiltinCase[] = [
      { note: "empty", args: [{}, s("a")], want: s() },
      { note: "cycle", args: [{ a: s("b"), b: s("c"), c: s("a") }, s("a")], want: s("a", "b", "c") },
      {
        note: "components",
        args: [{ a: s("b", "c"), b: s("d"), c: s("d"), d: s(), e: s("f"), f: s("e"), x: s("x") }, s("b", "e")],
        want: s("b", "d", "e", "f"),
      },
      { note: "arrays", args: [{ a: ["b"], b: ["c"], c: ["a"] }, ["a"]], want: s("a", "b", "c") },
      { note: "null neighbours", args: [{ a: null }, ["a"]], want: s("a") },
      { note: "non-string nodes", args: [new RegoObject([[1, [2]], [2, []]]), [1]], want: s(1, 2) },
      { note: "graph not an object", args: [1, [1]], error: typeErr("operand 1 must be object but got number") },
      { note: "initial not a collection", args: [{ a: [] }, "a"], error: typeErr("operand 2 must be {array, set} but got string") },
    ];
    runCases("graph.reachable", cases);
  });

  describe("graph.reachable_paths", () => {
    const chain = { one: ["two", "five"], two: ["four"], three: [""], four: ["three"], five: ["seven", "six"], six: ["nine"], seven: ["eight"], eight: [""], nine: [""] };
    const cases: BuiltinCase[] = [
      { note: "empty", args: [{}, s("a")], want: s() },
      { note: "cycle", args: [{ a: s("b"), b: s("c"), c: s("a") }, s("a")], want: s(["a", "b", "c"]) },
      {
        note: "components",
        args: [{ a: s("b", "c"), b: s("d"), c: s("d"), d: s(), e: s("f"), f: s("e"), x: s("x") }, s("b", "e")],
        want: s(["b", "d"], ["e", "f"]),
      },
      { note: "multiple paths", args: [{ a: ["b", "c"], b: ["c"], c: [] }, s("a")], want: s(["a", "b", "c"], ["a", "c"]) },
      { note: "a missing end node is left out", args: [{ a: ["b"], b: ["nonexistent"] }, s("a", "b")], want: s(["a", "b"], ["b"]) },
      { note: "null neighbours", args: [{ a: null }, ["a"]], want: s(["a"]) },
      {
        note: "chains",
        args: [chain, s("one")],
        want: s(["one", "five", "seven", "eight"], ["one", "five", "six", "nine"], ["one", "two", "four", "three"]),
      },
      {
        // One `reached` set serves the whole search: "seven", reached through "five", ends the path at "six".
        note: "a node reached on another branch ends the path",
        args: [{ ...chain, six: ["nine", "seven"], eight: ["three"] }, s("one")],
        want: s(["one", "five", "seven", "eight", "three"], ["one", "five", "six"], ["one", "five", "six", "nine"], ["one", "two", "four", "three"]),
      },
      { note: "graph not an object", args: [1, [1]], error: typeErr("operand 1 must be object but got number") },
      { note: "initial not a collection", args: [{ a: [] }, "a"], error: typeErr("operand 2 must be {array, set} but got string") },
    ];
    runCases("graph.reachable_paths", cases);
  });
});
