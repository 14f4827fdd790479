import { RegoObject, RegoSet } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { runCases, type BuiltinCase } from "../../../support/builtins.js";

describe("builtins: types", () => {
  const big = numberFromText("123456789012345678901234567890")!;
  const cases: BuiltinCase[] = [
    { note: "is_number", name: "is_number", args: [-42.0], want: true },
    { note: "is_number big", name: "is_number", args: [big], want: true },
    { note: "is_number null", name: "is_number", args: [null], want: false },
    { note: "is_number numeric string", name: "is_number", args: ["1"], want: false },
    { note: "is_string", name: "is_string", args: ["Hello"], want: true },
    { note: "is_string false", name: "is_string", args: [false], want: false },
    { note: "is_boolean", name: "is_boolean", args: [false], want: true },
    { note: "is_boolean string", name: "is_boolean", args: ["true"], want: false },
    { note: "is_array", name: "is_array", args: [[1]], want: true },
    { note: "is_array set", name: "is_array", args: [new RegoSet([1])], want: false },
    { note: "is_set", name: "is_set", args: [new RegoSet()], want: true },
    { note: "is_set array", name: "is_set", args: [[]], want: false },
    { note: "is_object", name: "is_object", args: [{ foo: 1 }], want: true },
    { note: "is_object with non-string keys", name: "is_object", args: [new RegoObject([[1, 2]])], want: true },
    { note: "is_object null-prototype object", name: "is_object", args: [Object.create(null)], want: true },
    { note: "is_object string", name: "is_object", args: ["foo"], want: false },
    { note: "is_null", name: "is_null", args: [null], want: true },
    { note: "is_null true", name: "is_null", args: [true], want: false },
    { note: "type_name null", name: "type_name", args: [null], want: "null" },
    { note: "type_name boolean", name: "type_name", args: [true], want: "boolean" },
    { note: "type_name number", name: "type_name", args: [100], want: "number" },
    { note: "type_name big number", name: "type_name", args: [big], want: "number" },
    { note: "type_name string", name: "type_name", args: ["Hello"], want: "string" },
    { note: "type_name array", name: "type_name", args: [[1, 2, 3]], want: "array" },
    { note: "type_name set", name: "type_name", args: [new RegoSet([1, 2, 3])], want: "set" },
    { note: "type_name object", name: "type_name", args: [{ foo: 1 }], want: "object" },
    { note: "type_name object with non-string keys", name: "type_name", args: [new RegoObject([[[1], 2]])], want: "object" },
  ];
  runCases("is_number", cases);
});
