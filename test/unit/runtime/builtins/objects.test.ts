import { RegoObject, RegoSet, type Value } from "regoc";
import { runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const s = (...xs: Value[]) => new RegoSet(xs);

describe("builtins: object", () => {
  describe("object.get, object.keys", () => {
    const nested = new RegoObject([[1, { b: new RegoObject([[[1, 2, 3], 1]]) }]]);
    const cases: BuiltinCase[] = [
      { note: "found", args: [{ a: "b" }, "a", "c"], want: "b" },
      { note: "not found", args: [{ a: "b" }, "c", "c"], want: "c" },
      { note: "integer key", args: [new RegoObject([[1, 2]]), 1, 3], want: 2 },
      { note: "null value is found", args: [{ a: null }, "a", 1], want: null },
      { note: "inherited member is not a key", args: [{}, "toString", "d"], want: "d" },
      { note: "__proto__ is an ordinary key", args: [JSON.parse('{"__proto__": 1}') as Value, "__proto__", 0], want: 1 },
      { note: "empty path returns the object", args: [{ a: 1 }, [], 2], want: { a: 1 } },
      { note: "path", args: [{ a: { b: { c: 1 } } }, ["a", "b", "c"], 2], want: 1 },
      { note: "path to a null value", args: [{ a: { b: null } }, ["a", "b"], 2], want: null },
      { note: "path not found", args: [{ a: { b: 1 } }, ["b", "a"], 2], want: 2 },
      { note: "path with non-string keys", args: [nested, [1, "b", [1, 2, 3]], 2], want: 1 },
      { note: "path through an array", args: [{ a: { b: [{ c: 1 }] } }, ["a", "b", 0, "c"], 2], want: 1 },
      { note: "path with a string index into an array", args: [{ a: [1] }, ["a", "0"], 2], want: 2 },
      { note: "path index out of range", args: [{ a: [1] }, ["a", 1], 2], want: 2 },
      { note: "path through a set", args: [{ a: s("x") }, ["a", "x"], 2], want: "x" },
      { note: "path past a scalar", args: [{ a: 1 }, ["a", "b"], 2], want: 2 },
      { note: "not an object", args: ["x", ["a"], 2], error: typeErr("operand 1 must be object but got string") },
      { note: "keys", name: "object.keys", args: [{ a: 1, b: 2 }], want: s("a", "b") },
      { note: "keys of non-string keys", name: "object.keys", args: [new RegoObject([[{ a: 1 }, 1], [s("b"), 2]])], want: s({ a: 1 }, s("b")) },
      { note: "keys empty", name: "object.keys", args: [{}], want: s() },
      { note: "keys of a string", name: "object.keys", args: ["x"], error: typeErr("operand 1 must be object but got string") },
    ];
    runCases("object.get", cases);
  });

  describe("object.union, object.union_n", () => {
    const cases: BuiltinCase[] = [
      { note: "both empty", args: [{}, {}], want: {} },
      { note: "base", args: [{ a: 1 }, { b: 2 }], want: { a: 1, b: 2 } },
      { note: "nested", args: [{ a: { b: { c: 1 } } }, { b: 2 }], want: { a: { b: { c: 1 } }, b: 2 } },
      { note: "conflict simple", args: [{ a: 1 }, { a: 2 }], want: { a: 2 } },
      { note: "conflict nested", args: [{ a: 1 }, { a: { b: { c: 1 } }, d: 7 }], want: { a: { b: { c: 1 } }, d: 7 } },
      {
        note: "conflict multiple",
        args: [{ a: { b: { c: 1 } }, e: 1 }, { a: { b: "foo", b1: "bar" }, d: 7, e: 17 }],
        want: { a: { b: "foo", b1: "bar" }, d: 7, e: 17 },
      },
      { note: "merges nested objects", args: [{ a: { x: 1 } }, { a: { y: 2 } }], want: { a: { x: 1, y: 2 } } },
      { note: "non-string keys", args: [new RegoObject([[1, "a"]]), { b: 2 }], want: new RegoObject([[1, "a"], ["b", 2]]) },
      { note: "lhs not an object", args: [[], { b: 2 }], error: typeErr("operand 1 must be object but got array") },
      { note: "rhs not an object", args: [{}, []], error: typeErr("operand 2 must be object but got array") },
      { note: "union_n empty object", name: "object.union_n", args: [[{}]], want: {} },
      { note: "union_n empty array", name: "object.union_n", args: [[]], want: {} },
      { note: "union_n conflict", name: "object.union_n", args: [[{ foo: "bar" }, { foo: "baz" }]], want: { foo: "baz" } },
      {
        note: "union_n extended",
        name: "object.union_n",
        args: [[{ a: 1, b: 2, c: 3 }, { foo: "baz", a: "a", b: 2, d: 4 }, { a: "final A!", e: 5 }]],
        want: { a: "final A!", b: 2, c: 3, d: 4, e: 5, foo: "baz" },
      },
      { note: "union_n a later scalar stops earlier merges", name: "object.union_n", args: [[{ a: { b: 2 } }, { a: 4 }, { a: { c: 3 } }]], want: { a: { c: 3 } } },
      { note: "union_n nested merge", name: "object.union_n", args: [[{ a: { b: 1 } }, { a: { c: 2 } }]], want: { a: { b: 1, c: 2 } } },
      { note: "union_n not an array", name: "object.union_n", args: [{}], error: typeErr("operand 1 must be array but got object") },
      { note: "union_n reports the last bad element", name: "object.union_n", args: [[1, {}, "x"]], error: typeErr("operand 1 must be array of objects but got array containing string") },
    ];
    runCases("object.union", cases);
  });

  describe("object.remove, object.filter", () => {
    const o = { a: 1, b: { c: 3 } };
    const cases: BuiltinCase[] = [
      { note: "remove", args: [o, ["a"]], want: { b: { c: 3 } } },
      { note: "remove keys set", args: [{ a: 1, b: 2, c: 3 }, s("b", "c")], want: { a: 1 } },
      { note: "remove keys object", args: [{ a: 1, b: 2, c: 3 }, { b: 1, c: true }], want: { a: 1 } },
      { note: "remove missing key", args: [o, ["x"]], want: o },
      { note: "remove non-string key", args: [new RegoObject([[1, "a"], ["b", 2]]), [1]], want: { b: 2 } },
      { note: "remove key by number value", args: [new RegoObject([[1, "a"]]), [1.0]], want: {} },
      { note: "remove object param array", args: [[], ["a"]], error: typeErr("operand 1 must be object but got array") },
      { note: "remove key param string", args: [o, "a"], error: typeErr("operand 2 must be one of {object, set, array} but got string") },
      { note: "remove key param null", args: [o, null], error: typeErr("operand 2 must be one of {object, set, array} but got null") },
      { note: "filter", name: "object.filter", args: [{ a: 1, b: 2, e: 9 }, ["a", "e"]], want: { a: 1, e: 9 } },
      { note: "filter keys object", name: "object.filter", args: [{ a: 1, b: 2, e: 9 }, { a: 0, e: 0 }], want: { a: 1, e: 9 } },
      { note: "filter empty roots", name: "object.filter", args: [{ a: 1 }, s()], want: {} },
      { note: "filter non-string key", name: "object.filter", args: [new RegoObject([[[1], "a"], ["b", 2]]), s([1])], want: new RegoObject([[[1], "a"]]) },
      { note: "filter object param null", name: "object.filter", args: [null, []], error: typeErr("operand 1 must be object but got null") },
      { note: "filter key param number", name: "object.filter", args: [{}, 1], error: typeErr("operand 2 must be one of {object, set, array} but got number") },
    ];
    runCases("object.remove", cases);
  });

  describe("object.subset", () => {
    const cases: BuiltinCase[] = [
      { note: "object subset", args: [{ a: 5, b: 7, c: 15 }, { a: 5 }], want: true },
      { note: "object value differs", args: [{ a: 5, b: 7 }, { a: 5, b: 10 }], want: false },
      { note: "nested object subset", args: [{ a: 5, n: { x: 10, y: 15, z: 20 } }, { n: { x: 10, y: 15 } }], want: true },
      { note: "nested set and array", args: [{ n: { s: s(1, 2, 3, 4), a: [6, 7, 8, 9] } }, { n: { s: s(4, 1), a: [7, 8] } }], want: true },
      { note: "sets", args: [s(1, 2, 3), s(3, 2)], want: true },
      { note: "nested sets are compared whole", args: [s(1, s("a", "b", "c")), s(s("a", "b"))], want: false },
      { note: "arrays: contiguous run", args: [[1, 2, 3, 4, 5, 6], [3, 4, 5]], want: true },
      { note: "arrays: not contiguous", args: [[1, 2, 3, 4], [1, 3]], want: false },
      { note: "arrays: longer sub", args: [[1, 2], [1, 2, 3]], want: false },
      { note: "arrays: restart after a partial match", args: [[1, 1, 2], [1, 2]], want: true },
      { note: "array and set", args: [[1, 2, 3, 4, 5, 6], s(4, 3, 2)], want: true },
      { note: "array and set missing", args: [[1, 2, 3], s(9)], want: false },
      { note: "array and empty set", args: [[1], s()], want: true },
      { note: "empty array and empty set (as OPA answers)", args: [[], s()], want: false },
      { note: "set and array are invalid", args: [s(1), [1]], error: typeErr("both arguments object.subset must be of the same type or array and set") },
    ];
    runCases("object.subset", cases);
  });

  describe("json.filter, json.remove", () => {
    const doc = { a: { b: { c: 7, d: 8 } }, e: 9 };
    const cases: BuiltinCase[] = [
      { note: "filter base", args: [doc, s("a/b/c")], want: { a: { b: { c: 7 } } } },
      { note: "filter multiple roots array", args: [doc, ["a/b/c", "e"]], want: { a: { b: { c: 7 } }, e: 9 } },
      { note: "filter conflict: the shorter path wins", args: [{ a: { b: 7 } }, s("a", "a/b")], want: { a: { b: 7 } } },
      { note: "filter arrays", args: [{ a: [{ b: 7, c: 8 }, { d: 9 }] }, s("a/0/b", "a/1")], want: { a: [{ b: 7 }, { d: 9 }] } },
      { note: "filter number keys", args: [{ a: [{ "1": ["b", "c", "d"] }, { x: "y" }] }, s("a/0/1/2")], want: { a: [{ "1": ["d"] }] } },
      { note: "filter arrays of roots", args: [doc, s(["a", "b", "c"], ["e"])], want: { a: { b: { c: 7 } }, e: 9 } },
      { note: "filter escapes ~1 and ~0", args: [{ "a/b": 1, "c~d": 2, x: 3 }, ["a~1b", "/c~0d"]], want: { "a/b": 1, "c~d": 2 } },
      { note: "filter empty path selects nothing", args: [doc, [""]], want: {} },
      { note: "filter sets", args: [{ a: s("x", "y") }, ["a/x"]], want: { a: s("x") } },
      { note: "filter paths not a collection", args: [doc, "a"], error: typeErr("operand 2 must be one of {set, array} but got string") },
      {
        note: "filter path of a wrong type",
        args: [doc, [1]],
        error: typeErr("operand 2 must be one of {set, array} containing string paths or array of path segments but got number"),
      },
      { note: "remove base", name: "json.remove", args: [doc, s("a/b/c")], want: { a: { b: { d: 8 } }, e: 9 } },
      { note: "remove multiple roots", name: "json.remove", args: [doc, s("a/b/c", "e")], want: { a: { b: { d: 8 } } } },
      { note: "remove delete last in object", name: "json.remove", args: [{ a: { b: 1 } }, ["a/b"]], want: { a: {} } },
      { note: "remove arrays shift left", name: "json.remove", args: [{ a: [{ b: 7, c: 8 }, { d: 9 }] }, s("a/0/b", "a/1")], want: { a: [{ c: 8 }] } },
      { note: "remove from a set", name: "json.remove", args: [{ a: s("x", "y") }, ["a/x"]], want: { a: s("y") } },
      { note: "remove target not an object", name: "json.remove", args: [[], ["a"]], error: typeErr("operand 1 must be object but got array") },
      {
        note: "remove path of a wrong type",
        name: "json.remove",
        args: [doc, s({})],
        error: typeErr("operand 2 must be one of {set, array} containing string paths or array of path segments but got object"),
      },
    ];
    runCases("json.filter", cases);
  });

  describe("json.patch", () => {
    const cases: BuiltinCase[] = [
      { note: "add member", args: [{ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }]], want: { baz: "qux", foo: "bar" } },
      { note: "add array element", args: [{ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }]], want: { foo: ["bar", "qux", "baz"] } },
      { note: "add to the end with -", args: [[1, 2], [{ op: "add", path: "/-", value: 3 }]], want: [1, 2, 3] },
      { note: "add past the end fails", args: [[1, 2], [{ op: "add", path: "/3", value: 3 }]], undefined: true },
      { note: "add with a leading-zero index fails", args: [["a", "b"], [{ op: "add", path: "/01", value: 3 }]], undefined: true },
      { note: "add with a bad number fails", args: [["a", "b"], [{ op: "add", path: "/1e0", value: 3 }]], undefined: true },
      { note: "add to a missing parent fails", args: [{ q: {} }, [{ op: "add", path: "/a/b", value: 1 }]], undefined: true },
      { note: "add replaces the root", args: [{ foo: "bar" }, [{ op: "add", path: "", value: [] }]], want: [] },
      { note: "add an empty key", args: [{}, [{ op: "add", path: "/", value: 1 }]], want: { "": 1 } },
      { note: "remove", args: [{ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }]], want: { foo: "bar" } },
      { note: "repeated removes", args: [[1, 2, 3, 4], [{ op: "remove", path: "/1" }, { op: "remove", path: "/2" }]], want: [1, 3] },
      { note: "remove missing fails", args: [{ foo: "bar" }, [{ op: "remove", path: "/baz" }]], undefined: true },
      { note: "replace", args: [{ foo: null }, [{ op: "replace", path: "/foo", value: "truthy" }]], want: { foo: "truthy" } },
      { note: "move", args: [{ foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } }, [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }]], want: { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } } },
      { note: "move a null value", args: [{ foo: null }, [{ op: "move", from: "/foo", path: "/bar" }]], want: { bar: null } },
      { note: "move an array element", args: [{ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }]], want: { foo: ["all", "cows", "eat", "grass"] } },
      { note: "copy", args: [{ baz: [{ qux: "hello" }] }, [{ op: "copy", from: "/baz/0", path: "/boo" }]], want: { baz: [{ qux: "hello" }], boo: { qux: "hello" } } },
      { note: "test passes", args: [{ foo: { a: 1, b: 2 } }, [{ op: "test", path: "/foo", value: { b: 2, a: 1 } }]], want: { foo: { a: 1, b: 2 } } },
      { note: "test fails", args: [{ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }]], undefined: true },
      { note: "test string vs number fails", args: [{ "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }]], undefined: true },
      { note: "unknown op fails", args: [{ foo: 1 }, [{ op: "spam", path: "/foo", value: 1 }]], undefined: true },
      { note: "missing value fails", args: [[1], [{ op: "add", path: "/-" }]], undefined: true },
      { note: "missing from fails", args: [[1], [{ op: "copy", path: "/-" }]], undefined: true },
      { note: "null path fails", args: [{}, [{ op: "add", path: null, value: 1 }]], undefined: true },
      { note: "a non-object operation fails", args: [{}, ["add"]], undefined: true },
      { note: "set remove", args: [{ foo: s("a", "b", "c") }, [{ op: "remove", path: "foo/b" }]], want: { foo: s("a", "c") } },
      { note: "set add", args: [{ foo: s("a") }, [{ op: "add", path: "foo/d", value: "d" }]], want: { foo: s("a", "d") } },
      { note: "set add with a mismatched value fails", args: [{ foo: s("a") }, [{ op: "add", path: "foo/d", value: "e" }]], undefined: true },
      { note: "add inside an array held by a set", args: [s([1]), [{ op: "add", path: [[1], 1], value: 2 }]], want: s([1, 2]) },
      { note: "patches not an array", args: [{}, {}], error: typeErr("operand 2 must be array but got object") },
    ];
    runCases("json.patch", cases);
  });
});
