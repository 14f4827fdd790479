import { expect } from "chai";
import { RegoError, RegoObject, RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { callBuiltin, runCases, type BuiltinCase } from "../../../support/builtins.js";

const s = (...xs: Value[]) => new RegoSet(xs);

describe("builtins: internal", () => {
  describe("internal.member_2 and internal.member_3 (`in`)", () => {
    const cases: BuiltinCase[] = [
      { note: "set", args: [1, s(1)], want: true },
      { note: "set by value", args: [numberFromText("1.0")!, s(1)], want: true },
      { note: "array", args: [1, [1]], want: true },
      { note: "object value", args: [1, { foo: 1 }], want: true },
      { note: "object key is not a member", args: ["foo", { foo: 1 }], want: false },
      { note: "object with non-string keys", args: ["v", new RegoObject([[[1], "v"]])], want: true },
      { note: "composite containee", args: [{ foo: { baz: 2000 } }, [{ foo: { baz: 2000 } }]], want: true },
      { note: "false", args: [1, [2]], want: false },
      { note: "string is not a collection", args: ["o", "foo"], want: false },
      { note: "number is not a collection", args: ["foo", 1], want: false },
      { note: "key and value in object", name: "internal.member_3", args: ["foo", 1, { foo: 1 }], want: true },
      { note: "key and value in object, wrong value", name: "internal.member_3", args: ["foo", 2, { foo: 1 }], want: false },
      { note: "null value in object", name: "internal.member_3", args: ["foo", null, { foo: null }], want: true },
      { note: "missing key is not a null value", name: "internal.member_3", args: ["bar", null, { foo: null }], want: false },
      { note: "index and value in array", name: "internal.member_3", args: [1, "two", ["one", "two", "three"]], want: true },
      { note: "index out of range", name: "internal.member_3", args: [3, "two", ["one", "two"]], want: false },
      { note: "non-integer index", name: "internal.member_3", args: [0.5, "one", ["one"]], want: false },
      { note: "string index into array", name: "internal.member_3", args: ["0", "one", ["one"]], want: false },
      { note: "set: key equals value", name: "internal.member_3", args: [1, 1, s(1)], want: true },
      { note: "set: key differs from value", name: "internal.member_3", args: [1, 2, s(1, 2)], want: false },
      { note: "non-collection", name: "internal.member_3", args: [1, "foo", 1], want: false },
    ];
    runCases("internal.member_2", cases);
  });

  describe("internal.template_string", () => {
    const cases: BuiltinCase[] = [
      { note: "empty", args: [[]], want: "" },
      { note: "text only", args: [["foo bar"]], want: "foo bar" },
      { note: "primitive values", args: [[42, ", ", 13.37, ", ", true, ", ", "foo", ", ", null]], want: "42, 13.37, true, foo, null" },
      {
        note: "collection values",
        args: [[s([]), ", ", s([42, 13.37, true, "foo", null]), ", ", s(s()), ", ", s(s(42)), ", ", s({}), ", ", s({ a: "b" })]],
        want: '[], [42, 13.37, true, "foo", null], set(), {42}, {}, {"a": "b"}',
      },
      { note: "undefined expression", args: [[s(), ", ", s()]], want: "<undefined>, <undefined>" },
      { note: "a string value is raw, nested strings are quoted", args: [[s("a\"b"), " ", s(["a\"b"])]], want: 'a"b ["a\\"b"]' },
      { note: "unicode stays readable, control characters are escaped", args: [[s(["é\n\u00a0"])]], want: '["é\\n\\u00a0"]' },
      { note: "big numbers keep their digits", args: [[s(numberFromText("123456789012345678901234567890")!)]], want: "123456789012345678901234567890" },
      { note: "objects with non-string keys", args: [[s(new RegoObject([[[1], s()], [2, "x"]]))]], want: '{2: "x", [1]: set()}' },
      { note: "sets print in OPA order", args: [[s(s("b", 1, "a"))]], want: '{1, "a", "b"}' },
    ];
    runCases("internal.template_string", cases);

    it("several values for one expression is a conflict, even when not strict", () => {
      for (const options of [{ strictBuiltinErrors: true }, {}]) {
        expect(() => callBuiltin("internal.template_string", [[s(1, 2)]], options))
          .to.throw(RegoError)
          .with.property("code", "eval_conflict_error");
      }
    });

    it("a bare array operand is an internal error", () => {
      expect(() => callBuiltin("internal.template_string", [[[1]]], {})).to.throw(RegoError).with.property("code", "eval_internal_error");
    });
  });

  describe("print", () => {
    function printed(name: string, args: Value[]): string[] {
      const lines: string[] = [];
      const result = callBuiltin(name, args, { print: (m) => lines.push(m) });
      expect(result).to.equal(undefined);
      return lines;
    }

    it("internal.print joins one value per operand with spaces", () => {
      expect(printed("internal.print", [[s("hello"), s(1), s({ a: ["x"] })]])).to.deep.equal(['hello 1 {"a": ["x"]}']);
    });

    it("internal.print shows an undefined operand as <undefined>", () => {
      expect(printed("internal.print", [[s("x ="), s()]])).to.deep.equal(["x = <undefined>"]);
    });

    it("internal.print prints every combination of multi-valued operands", () => {
      expect(printed("internal.print", [[s(1, 2), s("a", "b")]])).to.deep.equal(["1 a", "1 b", "2 a", "2 b"]);
    });

    it("internal.print with no operands prints an empty line", () => {
      expect(printed("internal.print", [[]])).to.deep.equal([""]);
    });

    it("print with plain arguments", () => {
      expect(printed("print", ["a", 1, ["x"], s()])).to.deep.equal(['a 1 ["x"] set()']);
    });

    it("prints nothing without a print hook, and never fails", () => {
      expect(callBuiltin("internal.print", [[s(1)]], {})).to.equal(undefined);
      expect(callBuiltin("print", [1], {})).to.equal(undefined);
    });
  });

  describe("trace and internal.test_case", () => {
    const cases: BuiltinCase[] = [
      { note: "trace a note", name: "trace", args: ["hello"], want: true },
      { note: "trace a number", name: "trace", args: [1], error: { code: "eval_type_error", message: "operand 1 must be string but got number" } },
      { note: "test_case", name: "internal.test_case", args: [["note", 1]], want: true },
    ];
    runCases("trace", cases);
  });
});
