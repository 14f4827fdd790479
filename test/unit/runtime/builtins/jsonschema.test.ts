import { expect } from "chai";
import { toJSON, type Value } from "regoc";
import { builtinErr, callBuiltin, runCases, type BuiltinCase } from "../../../support/builtins.js";

const err = (field: string, type: string, desc: string) => ({ desc, error: `${field}: ${desc}`, field, type });
const match = (doc: Value, schema: Value) => toJSON(callBuiltin("json.match_schema", [doc, schema])!);

describe("builtins: json.verify_schema", () => {
  const notValid = (given: string) =>
    `jsonschema: has a primitive type that is NOT VALID -- given: /${given}/ Expected valid values are:[array boolean integer number null object string]`;
  const cases: BuiltinCase[] = [
    { note: "object schema", args: [{ type: "boolean" }], want: [true, null] },
    { note: "string schema", args: ['{"type": "boolean"}'], want: [true, null] },
    { note: "boolean schema", args: ["true"], want: [true, null] },
    { note: "unknown type", args: [{ type: "unknown_type" }], want: [false, notValid("unknown_type")] },
    { note: "unknown type in a list", args: [{ type: ["string", "int"] }], want: [false, notValid("int")] },
    { note: "duplicated type", args: [{ type: ["string", "string"] }], want: [false, "jsonschema: string type is duplicated"] },
    { note: "nested unknown type", args: [{ properties: { a: { items: { type: "x" } } } }], want: [false, notValid("x")] },
    { note: "negative minLength", args: [{ minLength: -1 }], want: [false, "jsonschema: minLength must be greater than or equal to 0"] },
    { note: "fractional maxItems", args: [{ maxItems: 1.5 }], want: [false, "jsonschema: maxItems must be of an integer"] },
    { note: "min above max", args: [{ minimum: 5, maximum: 1 }], want: [false, "jsonschema: minimum cannot be greater than maximum"] },
    { note: "zero multipleOf", args: [{ multipleOf: 0 }], want: [false, "jsonschema: multipleOf must be strictly greater than 0"] },
    { note: "required not strings", args: [{ required: [1] }], want: [false, "jsonschema: Invalid type. Expected: string, given: required"] },
    { note: "required twice", args: [{ required: ["a", "a"] }], want: [false, "jsonschema: required items must be unique"] },
    { note: "enum not an array", args: [{ enum: "a" }], want: [false, "jsonschema: enum must be of an array"] },
    { note: "RE2 pattern (lookahead is not RE2)", args: [{ pattern: "(?=a)" }], want: [false, "jsonschema: pattern must be a valid regex"] },
    { note: "draft-4 exclusiveMinimum without minimum", args: [{ exclusiveMinimum: true }], want: [false, "jsonschema: exclusiveMinimum cannot be used without minimum"] },
    { note: "$schema not a string", args: [{ $schema: 4 }], want: [false, "jsonschema: $schema must be of type string"] },
    { note: "draft-7 exclusiveMinimum must be a number", args: [{ $schema: "http://json-schema.org/draft-07/schema#", exclusiveMinimum: true }], want: [false, "jsonschema: Invalid type. Expected: number, given: exclusiveMinimum"] },
    { note: "siblings of $ref are not read", args: [{ definitions: { a: { type: "string" } }, $ref: "#/definitions/a", type: "nope" }], want: [true, null] },
    { note: "invalid JSON text", args: ["{"], want: [false, "jsonschema: invalid JSON string"] },
    { note: "wrong operand type", args: [1], want: [false, "jsonschema: wrong type, expected string or object"] },
  ];
  runCases("json.verify_schema", cases);

  it("does not fetch remote references", () => {
    const got = toJSON(callBuiltin("json.verify_schema", [{ $ref: "http://127.0.0.1:9/schema.json" }])!) as [boolean, string];
    expect(got[0]).to.equal(false);
    expect(got[1]).to.match(/^jsonschema: /);
  });
});

describe("builtins: json.match_schema", () => {
  const schema = { properties: { id: { type: "integer" } }, required: ["id"] };
  const cases: BuiltinCase[] = [
    { note: "match", args: [{ id: 5 }, schema], want: [true, []] },
    { note: "string document", args: ['{"id": 5}', schema], want: [true, []] },
    { note: "1.0 is an integer", args: ['{"id": 1.0}', schema], want: [true, []] },
    { note: "wrong type", args: [{ id: "foo" }, schema], want: [false, [err("id", "invalid_type", "Invalid type. Expected: integer, given: string")]] },
    { note: "number given", args: [{ id: 1.5 }, schema], want: [false, [err("id", "invalid_type", "Invalid type. Expected: integer, given: number")]] },
    { note: "missing property", args: [{}, schema], want: [false, [err("(Root)", "required", "id is required")]] },
    { note: "several types", args: [{ id: null }, { properties: { id: { type: ["string", "integer"] } } }], want: [false, [err("id", "invalid_type", "Invalid type. Expected: [string,integer], given: null")]] },
    { note: "nested path", args: [{ a: { b: [1, "x"] } }, { properties: { a: { properties: { b: { items: { type: "integer" } } } } } }], want: [false, [err("a.b.1", "invalid_type", "Invalid type. Expected: integer, given: string")]] },
    { note: "enum", args: ['"c"', { enum: ["a", "<b>"] }], want: [false, [err("(Root)", "enum", '(Root) must be one of the following: "a", "\\u003cb\\u003e"')]] },
    { note: "const", args: ["2", { const: 1 }], want: [false, [err("(Root)", "const", "(Root) does not match: 1")]] },
    { note: "bounds", args: ["7", { minimum: 10, exclusiveMaximum: 5 }], want: [false, [err("(Root)", "number_lt", "Must be less than 5"), err("(Root)", "number_gte", "Must be greater than or equal to 10")]] },
    { note: "draft-4 exclusive minimum", args: ["7", { $schema: "http://json-schema.org/draft-04/schema#", minimum: 7, exclusiveMinimum: true }], want: [false, [err("(Root)", "number_gt", "Must be greater than 7")]] },
    { note: "hybrid exclusive minimum (boolean)", args: ["7", { minimum: 7, exclusiveMinimum: true }], want: [false, [err("(Root)", "number_gt", "Must be greater than 7")]] },
    { note: "string length counts characters", args: ['"ਊਊ"', { maxLength: 1 }], want: [false, [err("(Root)", "string_lte", "String length must be less than or equal to 1")]] },
    { note: "pattern (RE2)", args: ['"abc"', { pattern: "^\\d+$" }], want: [false, [err("(Root)", "pattern", "Does not match pattern '^\\d+$'")]] },
    { note: "format", args: ['"no"', { format: "ipv4" }], want: [false, [err("(Root)", "format", "Does not match format 'ipv4'")]] },
    { note: "unknown formats pass", args: ['"x"', { format: "my-format" }], want: [true, []] },
    { note: "additional property", args: [{ a: 1, b: 2 }, { properties: { a: {} }, additionalProperties: false }], want: [false, [err("(Root)", "additional_property_not_allowed", "Additional property b is not allowed")]] },
    { note: "unique items", args: ["[1, 2, 1]", { uniqueItems: true }], want: [false, [err("(Root)", "unique", "array items[0,2] must be unique")]] },
    // gojsonschema (OPA's internal/gojsonschema, validation.go): a failed anyOf adds the errors of
    // the branch with the best score, the first of equals (both branches fail on their type here).
    {
      note: "anyOf",
      args: ["true", { anyOf: [{ type: "string" }, { type: "number" }] }],
      want: [false, [err("(Root)", "number_any_of", "Must validate at least one schema (anyOf)"), err("(Root)", "invalid_type", "Invalid type. Expected: string, given: boolean")]],
    },
    // The score: +1 per check group passed and per required property present, -2 per error; the
    // object branch (one required missing) beats the string branch (a type error).
    {
      note: "anyOf: the best-scoring branch's errors",
      args: [{ a: 1 }, { anyOf: [{ type: "string" }, { type: "object", required: ["a", "b"] }] }],
      want: [false, [err("(Root)", "number_any_of", "Must validate at least one schema (anyOf)"), err("(Root)", "required", "b is required")]],
    },
    {
      note: "oneOf with no branch valid: the best-scoring branch's errors",
      args: [{ n: "x" }, { oneOf: [{ type: "array" }, { properties: { n: { type: "integer" } } }] }],
      want: [false, [err("(Root)", "number_one_of", "Must validate one and only one schema (oneOf)"), err("n", "invalid_type", "Invalid type. Expected: integer, given: string")]],
    },
    {
      note: "oneOf with two branches valid: no branch's errors",
      args: ["1", { oneOf: [{ type: "number" }, { minimum: 0 }] }],
      want: [false, [err("(Root)", "number_one_of", "Must validate one and only one schema (oneOf)")]],
    },
    // uniqueItems: one error per element equal to an earlier one, the previous equal index first.
    {
      note: "unique items, three equal",
      args: ['["a","a","a"]', { uniqueItems: true }],
      want: [false, [err("(Root)", "unique", "array items[0,1] must be unique"), err("(Root)", "unique", "array items[1,2] must be unique")]],
    },
    // gojsonschema divides exact rationals (big.Rat): 0.3 is a multiple of 0.1 (ajv's doubles say not)
    { note: "multipleOf is exact", args: ["0.3", { multipleOf: 0.1 }], want: [true, []] },
    { note: "multipleOf is exact where ajv's doubles accept", args: ["100000000000000000000", { multipleOf: 3 }], want: [false, [err("(Root)", "multiple_of", "Must be a multiple of 3")]] },
    { note: "allOf adds its own error after the branches'", args: ['"x"', { allOf: [{ type: "string" }, { minLength: 2 }] }], want: [false, [err("(Root)", "string_gte", "String length must be greater than or equal to 2"), err("(Root)", "number_all_of", "Must validate all the schemas (allOf)")]] },
    // The document itself is `(Root)` in field and error: what `opa test` gives in the suites of issue
    // 16 (the file of gojsonschema's root-name constant is not in the searchable copy of OPA's source).
    { note: "root field", args: [{ a: 1, b: 2 }, { properties: { a: {} }, additionalProperties: false }], want: [false, [err("(Root)", "additional_property_not_allowed", "Additional property b is not allowed")]] },
    { note: "not", args: ["1", { not: { type: "number" } }], want: [false, [err("(Root)", "number_not", "Must not validate the schema (not)")]] },
    { note: "false schema", args: ["1", "false"], want: [false, [err("(Root)", "false", "False always fails validation")]] },
    { note: "invalid schema", args: [{}, { type: "unknown" }], error: builtinErr("has a primitive type that is NOT VALID -- given: /unknown/ Expected valid values are:[array boolean integer number null object string]") },
    { note: "invalid document text", args: ["{", schema], error: builtinErr("invalid JSON string") },
    { note: "document of the wrong type", args: [7, schema], error: builtinErr("wrong type, expected string or object") },
  ];
  runCases("json.match_schema", cases);

  it("accepts schemas that reuse an $id with other content", () => {
    expect(match('"a"', { $id: "http://example.com/s", type: "string" })).to.deep.equal([true, []]);
    expect(match('"a"', { $id: "http://example.com/s", type: "number" })).to.deep.equal([false, [err("(Root)", "invalid_type", "Invalid type. Expected: number, given: string")]]);
  });

  it("resolves local references", () => {
    const schema = { definitions: { pos: { type: "integer", minimum: 0 } }, properties: { n: { $ref: "#/definitions/pos" } } };
    expect(match({ n: -1 }, schema)).to.deep.equal([false, [err("n", "number_gte", "Must be greater than or equal to 0")]]);
    const recursive = { type: "object", properties: { a: { $ref: "#" } } };
    expect(match({ a: { a: 1 } }, recursive)).to.deep.equal([false, [err("a.a", "invalid_type", "Invalid type. Expected: object, given: integer")]]);
    const byId = { $id: "http://e.com/root.json", definitions: { s: { $id: "str.json", type: "string" } }, properties: { x: { $ref: "str.json" } } };
    expect(match({ x: 1 }, byId)).to.deep.equal([false, [err("x", "invalid_type", "Invalid type. Expected: string, given: integer")]]);
  });

  it("reuses compiled schemas and keeps them apart", () => {
    for (let i = 0; i < 100; i++) expect(match(`${i}`, { maximum: i })).to.deep.equal([true, []]);
    expect(match("101", { maximum: 100 })).to.deep.equal([false, [err("(Root)", "number_lte", "Must be less than or equal to 100")]]);
  });
});
