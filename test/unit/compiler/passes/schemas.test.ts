// Schema-aware type checking (compiler/passes/types/schema.ts, schemaScopes.ts): programs with a
// schema set and/or METADATA `schemas:` annotations, each with the diagnostics OPA's checker
// gives them (code, message, row, col). Undefined refs are reported at the ref's first term,
// operand mismatches at the expression, schema errors at the rule the annotation covers.
import { expect } from "chai";
import { compileModules } from "../../../../compiler/passes/runner.js";
import { parseModule } from "../../../../compiler/syntax/index.js";

interface Want {
  code: string;
  message: string;
  row: number;
  col: number;
}

interface Case {
  note: string;
  rego: string;
  schemas?: Record<string, unknown>;
  want: Want[];
}

const user = {
  type: "object",
  properties: {
    user: { type: "object", properties: { name: { type: "string" }, roles: { type: "array", items: { type: "string" } } }, additionalProperties: false },
    pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
  },
  additionalProperties: false,
};

const typeErr = (message: string, row: number, col: number): Want => ({ code: "rego_type_error", message, row, col });

const cases: Case[] = [
  {
    note: "undefined ref under a closed object (global input schema)",
    rego: "package t\n\np if {\n\tinput.user.age == 1\n}\n",
    schemas: { schema: user },
    want: [typeErr("undefined ref: input.user.age", 4, 2)],
  },
  {
    note: "wrong operand type",
    rego: "package t\n\np if {\n\tinput.user.name == 1\n}\n",
    schemas: { schema: user },
    want: [typeErr("match error", 4, 2)],
  },
  {
    note: "wrong built-in argument type",
    rego: "package t\n\np if {\n\tabs(input.user.name) > 0\n}\n",
    schemas: { schema: user },
    want: [typeErr("abs: invalid argument(s)", 4, 2)],
  },
  {
    note: "tuple items: an index past the tuple, a member of the wrong type",
    rego: "package t\n\np if {\n\tinput.pair[2]\n}\n\nq if {\n\tinput.pair[0] == 1\n}\n",
    schemas: { schema: user },
    want: [typeErr("undefined ref: input.pair[2]", 4, 2), typeErr("match error", 8, 2)],
  },
  {
    note: "annotation naming a schema of the set; $ref to #/definitions",
    rego: "# METADATA\n# schemas:\n#   - input: schema.input\npackage t\n\np if {\n\tinput.n == 1\n}\n",
    schemas: { "schema.input": { type: "object", definitions: { name: { type: "string" } }, properties: { n: { $ref: "#/definitions/name" } } } },
    want: [typeErr("match error", 7, 2)],
  },
  {
    note: "data path typed by a rule-scope annotation; $ref to #/$defs",
    rego: "package t\n\n# METADATA\n# schemas:\n#   - data.roles: schema.roles\np if {\n\tdata.roles.admin.x\n}\n",
    schemas: { "schema.roles": { $defs: { flag: { type: "boolean" } }, type: "object", properties: { admin: { $ref: "#/$defs/flag" } } } },
    want: [typeErr("undefined ref: data.roles.admin.x", 7, 2)],
  },
  {
    note: "anyOf: the union of the alternatives",
    rego: '# METADATA\n# schemas:\n#   - input.v: schema.v\npackage t\n\np if {\n\tinput.v == true\n}\n\nq if {\n\tinput.v == "a"\n}\n',
    schemas: { "schema.v": { anyOf: [{ type: "string" }, { type: "number" }] } },
    want: [typeErr("match error", 7, 2)],
  },
  {
    note: "allOf: members merged (properties united, closed)",
    rego: '# METADATA\n# schemas:\n#   - input: schema.m\npackage t\n\np if {\n\tinput.b == "x"\n}\n\nq if {\n\tinput.c\n}\n',
    schemas: { "schema.m": { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "number" } } }] } },
    want: [typeErr("match error", 7, 2), typeErr("undefined ref: input.c", 11, 2)],
  },
  {
    note: "recursive schema: reading terminates; the recursive reference is any",
    rego: '# METADATA\n# schemas:\n#   - input: schema.tree\npackage t\n\np if {\n\tinput.children[0].anything == "x"\n}\n\nq if {\n\tinput.value == "x"\n}\n',
    schemas: {
      "schema.tree": {
        $ref: "#/$defs/node",
        $defs: { node: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
      },
    },
    want: [typeErr("match error", 11, 2)],
  },
  {
    note: "scopes: a rule's own annotation overrides its package's",
    rego: "# METADATA\n# scope: package\n# schemas:\n#   - input: schema.a\npackage t\n\np if {\n\tinput.b\n}\n\n# METADATA\n# schemas:\n#   - input: schema.b\nq if {\n\tinput.b\n}\n\nr if {\n\tinput.a.x\n}\n",
    schemas: { "schema.a": { type: "object", properties: { a: { type: "string" } } }, "schema.b": { type: "object", properties: { b: { type: "string" } } } },
    want: [typeErr("undefined ref: input.b", 8, 2), typeErr("undefined ref: input.a.x", 19, 2)],
  },
  {
    note: "inline schema in an annotation (applies without a schema set)",
    rego: "package t\n\n# METADATA\n# schemas:\n#   - input.x: {type: string}\np if {\n\tinput.x == 1\n}\n",
    want: [typeErr("match error", 7, 2)],
  },
  {
    note: "an annotation naming a schema is ignored without a schema set",
    rego: "# METADATA\n# schemas:\n#   - input: schema.input\npackage t\n\np if {\n\tinput.x == 1\n}\n",
    want: [],
  },
  {
    note: "undefined schema: at the rule",
    rego: "# METADATA\n# schemas:\n#   - input: schema.missing\npackage t\n\np if {\n\tinput.x == 1\n}\n",
    schemas: {},
    want: [typeErr("undefined schema: schema.missing", 6, 1)],
  },
  {
    note: "a schema that is not a schema: at the rule, naming the schema and the annotation",
    rego: "# METADATA\n# schemas:\n#   - input: schema.bad\npackage t\n\np if {\n\tinput.x == 1\n}\n",
    schemas: { "schema.bad": { type: "strng" } },
    want: [typeErr('schema schema.bad: #/type: "strng" is not a JSON Schema type (schemas annotation at m.rego:1:1)', 6, 1)],
  },
  {
    note: "a schema that is not JSON",
    rego: "# METADATA\n# schemas:\n#   - input: schema.bad\npackage t\n\np if {\n\tinput.x == 1\n}\n",
    schemas: { "schema.bad": "{not json" },
    want: [typeErr(`schema schema.bad is not valid JSON: ${jsonError("{not json")} (schemas annotation at m.rego:1:1)`, 6, 1)],
  },
  {
    note: "remote reference refused",
    rego: "# METADATA\n# schemas:\n#   - input: schema.remote\npackage t\n\np if {\n\tinput.x == 1\n}\n",
    schemas: { "schema.remote": { $ref: "https://example.com/s.json" } },
    want: [typeErr("schema schema.remote: #/$ref: remote reference https://example.com/s.json refused (schemas are never fetched) (schemas annotation at m.rego:1:1)", 6, 1)],
  },
  {
    note: "a global input schema that is not a schema: no location",
    rego: "package t\n\np if input.x\n",
    schemas: { schema: { type: 3 } },
    want: [{ code: "rego_type_error", message: "schema schema: #/type: 3 is not a JSON Schema type", row: 0, col: 0 }],
  },
];

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return "";
}

describe("passes: schema-aware type checking", () => {
  for (const c of cases) {
    it(c.note, () => {
      const options: Parameters<typeof compileModules>[1] = { maxErrors: 0 };
      if (c.schemas) options.schemas = c.schemas;
      const ctx = compileModules([parseModule(c.rego, { file: "m.rego" })], options);
      const got = ctx.errors.map((e) => ({ code: e.code, message: e.message, row: e.location?.row ?? 0, col: e.location?.col ?? 0 }));
      expect(got).to.deep.equal(c.want);
    });
  }
});
