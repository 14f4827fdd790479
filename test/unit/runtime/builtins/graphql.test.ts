import { expect } from "chai";
import { toJSON, type Value } from "regoc";
import { builtinErr, callBuiltin, runCases, type BuiltinCase } from "../../../support/builtins.js";

const json = (name: string, ...args: Value[]) => toJSON(callBuiltin(name, args)!);

const SCHEMA = `
  type Query {
    employee(id: ID!): Employee
    employees(first: Int = 10): [Employee!]!
  }
  type Employee {
    id: ID!
    name: String
    manager: Employee
    salary(currency: Currency = EUR): Float
  }
  enum Currency { EUR USD }
`;

describe("builtins: graphql.parse_query / graphql.parse_schema", () => {
  const cases: BuiltinCase[] = [
    { note: "unclosed brace", name: "graphql.parse_query", args: ["{"], error: builtinErr("Expected Name, found <EOF> in GraphQL string at location 1:2") },
    { note: "empty selection", name: "graphql.parse_query", args: ["{ a {} }"], error: builtinErr("expected at least one definition, found } in GraphQL string at location 1:6") },
    { note: "unknown keyword", name: "graphql.parse_query", args: ["type Query { a: Int }"], error: builtinErr('Unexpected Name "type" in GraphQL string at location 1:1') },
    { note: "variable in a constant", name: "graphql.parse_query", args: ["query ($a: Int = $b) { f }"], error: builtinErr("Unexpected $ in GraphQL string at location 1:18") },
    { note: "lexer error", name: "graphql.parse_query", args: ['{ f(a: "unterminated) }'], error: builtinErr("Unexpected <Invalid> in GraphQL string at location 1:24") },
    { note: "unicode before the error", name: "graphql.parse_query", args: ['{ f(a: "ਊ") g('], error: builtinErr("Expected Name, found <EOF> in GraphQL string at location 1:15") },
    { note: "not a string", name: "graphql.parse_query", args: [1], error: { code: "eval_type_error", message: "operand 1 must be string but got number" } },
    { note: "empty type", name: "graphql.parse_schema", args: ["type A {}"], error: builtinErr("expected at least one definition, found } in GraphQL string at location 1:9") },
    { note: "bad directive location", name: "graphql.parse_schema", args: ["directive @d on NOWHERE"], error: builtinErr('Unexpected Name "NOWHERE" in GraphQL string at location 1:17') },
    { note: "bare extension", name: "graphql.parse_schema", args: ["extend union U"], error: builtinErr("Unexpected <EOF> in GraphQL string at location 1:15") },
    { note: "description on an extension", name: "graphql.parse_schema", args: ['"d" extend type A { a: Int }'], error: builtinErr('Unexpected String "d" in GraphQL string at location 1:2') },
  ];
  runCases("graphql.parse_query", cases);

  it("returns gqlparser's AST shape (empty strings and false kept, empty lists dropped)", () => {
    expect(json("graphql.parse_query", 'query Q($n: [Int!] = [1]) @live { a: f(x: {k: "v"}) { ...F } } fragment F on T { g }')).to.deep.equal({
      Operations: [
        {
          Name: "Q",
          Operation: "query",
          Directives: [{ Name: "live", Location: "" }],
          VariableDefinitions: [
            {
              Variable: "n",
              Used: false,
              Type: { NamedType: "", NonNull: false, Elem: { NamedType: "Int", NonNull: true } },
              DefaultValue: { Kind: 8, Raw: "", ExpectedTypeHasDefault: false, Children: [{ Name: "", Value: { Kind: 1, Raw: "1", ExpectedTypeHasDefault: false } }] },
            },
          ],
          SelectionSet: [
            {
              Alias: "a",
              Name: "f",
              Arguments: [
                {
                  Name: "x",
                  Value: { Kind: 9, Raw: "", ExpectedTypeHasDefault: false, Children: [{ Name: "k", Value: { Kind: 3, Raw: "v", ExpectedTypeHasDefault: false } }] },
                },
              ],
              SelectionSet: [{ Name: "F" }],
            },
          ],
        },
      ],
      Fragments: [{ Name: "F", TypeCondition: "T", SelectionSet: [{ Alias: "g", Name: "g" }] }],
    });
  });

  it("keeps block strings dedented and escapes decoded", () => {
    const ast = json("graphql.parse_query", '{ f(a: """\n    two\n      lines\n  """, b: "\\u00e9\\n") }') as { Operations: { SelectionSet: { Arguments: { Value: { Raw: string; Kind: number } }[] }[] }[] };
    const args = ast.Operations[0]!.SelectionSet[0]!.Arguments;
    expect(args[0]!.Value).to.include({ Kind: 4, Raw: "two\n  lines" });
    expect(args[1]!.Value).to.include({ Kind: 3, Raw: "é\n" });
  });

  it("parses schemas, extensions and directive definitions", () => {
    expect(json("graphql.parse_schema", 'extend type A implements B @d\n"doc" directive @d(x: Int = 1) repeatable on OBJECT | FIELD')).to.deep.equal({
      Extensions: [{ Kind: "OBJECT", Name: "A", Description: "", BuiltIn: false, Interfaces: ["B"], Directives: [{ Name: "d", Location: "" }] }],
      Directives: [
        {
          Name: "d",
          Description: "doc",
          IsRepeatable: true,
          Locations: ["OBJECT", "FIELD"],
          Arguments: [{ Name: "x", Description: "", Type: { NamedType: "Int", NonNull: false }, DefaultValue: { Kind: 1, Raw: "1", ExpectedTypeHasDefault: false } }],
        },
      ],
    });
  });
});

describe("builtins: graphql.is_valid / graphql.schema_is_valid", () => {
  const cases: BuiltinCase[] = [
    { note: "valid query", name: "graphql.is_valid", args: ["{ employee(id: 1) { name manager { id } } }", SCHEMA], want: true },
    { note: "unknown field", name: "graphql.is_valid", args: ["{ employee(id: 1) { age } }", SCHEMA], want: false },
    { note: "missing required argument", name: "graphql.is_valid", args: ["{ employee { name } }", SCHEMA], want: false },
    { note: "wrong enum value", name: "graphql.is_valid", args: ["{ employees { salary(currency: GBP) } }", SCHEMA], want: false },
    { note: "leaf without selection", name: "graphql.is_valid", args: ["{ employees }", SCHEMA], want: false },
    { note: "undefined variable", name: "graphql.is_valid", args: ["{ employee(id: $x) { id } }", SCHEMA], want: false },
    { note: "unused variable", name: "graphql.is_valid", args: ["query ($x: ID) { employees { id } }", SCHEMA], want: false },
    { note: "unsupported operation", name: "graphql.is_valid", args: ["mutation { employees { id } }", SCHEMA], want: false },
    { note: "invalid query text", name: "graphql.is_valid", args: ["{", SCHEMA], want: false },
    { note: "invalid schema", name: "graphql.is_valid", args: ["{ a }", "type Query { a: Nope }"], want: false },
    { note: "wrong operand type", name: "graphql.is_valid", args: [1, SCHEMA], want: false },
    { note: "empty query is valid", name: "graphql.is_valid", args: ["", SCHEMA], want: true },
    { note: "schema", name: "graphql.schema_is_valid", args: [SCHEMA], want: true },
    { note: "schema without Query is valid", name: "graphql.schema_is_valid", args: ["type A { a: Int }"], want: true },
    { note: "undefined field type", name: "graphql.schema_is_valid", args: ["type A { a: Nope }"], want: false },
    { note: "type redeclared", name: "graphql.schema_is_valid", args: ["type A { a: Int } type A { b: Int }"], want: false },
    { note: "input field of object type", name: "graphql.schema_is_valid", args: ["type O { a: Int } input I { o: O }"], want: false },
    { note: "reserved name", name: "graphql.schema_is_valid", args: ["type __A { a: Int }"], want: false },
    { note: "interface not implemented", name: "graphql.schema_is_valid", args: ["interface I { id: ID! } type A implements I { name: String }"], want: false },
    { note: "covariant field", name: "graphql.schema_is_valid", args: ["interface I { id: ID } type A implements I { id: ID! }"], want: true },
    { note: "extension of a scalar as a type", name: "graphql.schema_is_valid", args: ["scalar S extend type S @deprecated"], want: false },
    { note: "unknown directive", name: "graphql.schema_is_valid", args: ["type A @nope { a: Int }"], want: false },
    { note: "not a string or object", name: "graphql.schema_is_valid", args: [[]], want: false },
  ];
  runCases("graphql.is_valid", cases);
});

describe("builtins: graphql.parse / graphql.parse_and_verify", () => {
  const cases: BuiltinCase[] = [
    {
      note: "validation error with gqlparser's message and location",
      name: "graphql.parse",
      args: ["\n  { employee { name } }", SCHEMA],
      error: builtinErr('Field "employee" argument "id" of type "ID!" is required, but it was not provided in GraphQL string at location 2:5'),
    },
    {
      note: "unknown argument",
      name: "graphql.parse",
      args: ["{ employee(id: 1, x: 2) { name } }", SCHEMA],
      error: builtinErr('Unknown argument "x" on field "employee" of type "Query" in GraphQL string at location 1:19'),
    },
    {
      note: "schema error",
      name: "graphql.parse",
      args: ["{ a }", "type Query {\n  a: Nope\n}"],
      error: builtinErr("Error in gqlparser SchemaDocument to Schema conversion: input:2:6: Undefined type Nope."),
    },
    { note: "syntax error in the schema", name: "graphql.parse", args: ["{ a }", "type"], error: builtinErr("Expected Name, found <EOF> in GraphQL string at location 1:5") },
    { note: "query of the wrong type (OPA says operand 0)", name: "graphql.parse", args: [1, SCHEMA], error: { code: "eval_type_error", message: "operand 0 must be one of {string, object} but got number" } },
    { note: "unverified", name: "graphql.parse_and_verify", args: ["{ nope }", SCHEMA], want: [false, {}, {}] },
  ];
  runCases("graphql.parse", cases);

  it("returns both ASTs, which are accepted back as input", () => {
    const [query, schema] = json("graphql.parse", "{ employees { id } }", SCHEMA) as [Value, Value];
    expect(query).to.deep.equal({ Operations: [{ Name: "", Operation: "query", SelectionSet: [{ Alias: "employees", Name: "employees", SelectionSet: [{ Alias: "id", Name: "id" }] }] }] });
    expect((schema as { Definitions: unknown[] }).Definitions).to.have.length(3);
    expect(json("graphql.is_valid", query, schema)).to.equal(true);
    expect(json("graphql.parse_and_verify", query, schema)).to.deep.equal([true, query, schema]);
    expect(json("graphql.is_valid", { Operations: [{ Operation: "query", SelectionSet: [{ Alias: "nope", Name: "nope" }] }] }, schema)).to.equal(false);
  });

  it("refuses AST objects of the wrong shape", () => {
    expect(json("graphql.is_valid", { Operations: "x" }, SCHEMA)).to.equal(false);
    expect(json("graphql.schema_is_valid", { Definitions: [{ Kind: "OBJECT", Name: 5 }] })).to.equal(false);
  });
});
