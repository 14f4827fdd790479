// Entrypoint types from JSON Schemas: planRegoDetailed gives the schema types of each entrypoint
// (where the rules of its name agree), the code generator renders them as the Input/Data types,
// `tsc` accepts inputs that fit the schema and rejects ones that do not, and hostile property
// names come out as exact keys (only through lit()).
import assert from "node:assert/strict";
import { compileRego, generateTypeScript, planRegoDetailed } from "regoc/compiler";
import { ts } from "ts-morph";
import { planSchemaPolicy } from "../../../support/schemaPolicy.js";
import { typecheckFiles } from "./support.js";

const HOSTILE_KEYS = ['q"uote', "back\\slash", "*/ end", "${x}", "line\u2028sep\u2029", "__proto__", "`tick`", "a'b", "</script>"];

/** A policy reading `input[k]` for the first hostile key, its input typed by a schema of them all
 * (JSON text: `__proto__` is a key like the others). */
function hostilePolicy(): { modules: Record<string, string>; schemas: Record<string, string> } {
  const properties = Object.fromEntries(HOSTILE_KEYS.map((k) => [k, { type: "string" }]));
  return {
    modules: { "h.rego": `# METADATA\n# schemas:\n#   - input: schema.h\npackage h\n\nallow if input[${JSON.stringify(HOSTILE_KEYS[0])}] == "x"\n` },
    schemas: { "schema.h": JSON.stringify({ type: "object", properties, additionalProperties: false }) },
  };
}

function hostileModule(): string {
  const { plan, schemaTypes } = planRegoDetailed({ ...hostilePolicy(), entrypoints: ["h/allow"] });
  return generateTypeScript(plan, { schemaTypes }).code;
}

/** The property names of an exported type alias's object type, as TypeScript reads them. */
function propertyNames(code: string, alias: string): string[] {
  const sf = ts.createSourceFile("m.ts", code, ts.ScriptTarget.ES2022, true);
  const decl = sf.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === alias);
  assert.ok(decl && ts.isTypeLiteralNode(decl.type), `no object type ${alias}`);
  return decl.type.members.map((m) => {
    assert.ok(m.name && ts.isStringLiteral(m.name), "a property name that is not a string literal");
    return m.name.text;
  });
}

describe("codegen: entrypoint types from JSON Schemas", function () {
  this.timeout(120_000);

  it("no schemas: no schema types, Input from the refs", () => {
    const r = planRegoDetailed({ modules: { "a.rego": "package a\n\nallow if input.user == 1\n" }, entrypoints: ["a/allow"] });
    assert.equal(r.schemaTypes.size, 0);
    assert.match(generateTypeScript(r.plan, { schemaTypes: r.schemaTypes }).code, /\/\* input read by a, typed from how the policy uses it \(a JSON schema would make it exact\) \*\/\nexport type AInput = \{\n {2}"user"\?: number;\n\};/);
  });

  it("the compilation's input schema (`schema`) types Input", () => {
    const schemas = { schema: { type: "object", properties: { user: { type: "string" } }, required: ["user"] } };
    const r = planRegoDetailed({ modules: { "a.rego": "package a\n\nallow if input.user == \"x\"\n" }, entrypoints: ["a/allow"], schemas });
    assert.match(generateTypeScript(r.plan, { schemaTypes: r.schemaTypes }).code, /export type AInput = \{\n {2}"user": string;\n\};/);
  });

  it("rules of one name that see different schemas: Input from the refs", () => {
    const rego = [
      "package a",
      "",
      "# METADATA",
      "# schemas:",
      "#   - input: {type: object, properties: {x: {type: string}}}",
      'allow if input.x == "a"',
      "",
      "# METADATA",
      "# schemas:",
      "#   - input: {type: object, properties: {x: {type: number}}}",
      "allow if input.x == 1",
      "",
    ].join("\n");
    const r = planRegoDetailed({ modules: { "a.rego": rego }, entrypoints: ["a/allow"] });
    assert.equal(r.schemaTypes.get("a/allow")?.input, undefined);
    assert.match(generateTypeScript(r.plan, { schemaTypes: r.schemaTypes }).code, /\/\* input read by a, typed from how the policy uses it \(a JSON schema would make it exact\) \*\/\nexport type AInput = \{\n {2}"x"\?: number \| string;\n\};/);
  });

  it("hostile property names are exact keys of Input", () => {
    assert.deepEqual(propertyNames(hostileModule(), "HInput").sort(), [...HOSTILE_KEYS].sort());
  });

  it("the module compileRego builds with schemas runs, hostile keys and all", async () => {
    const pq = await compileRego({ ...hostilePolicy(), entrypoints: ["h/allow"] });
    assert.equal(pq.evaluateSync({ input: { [HOSTILE_KEYS[0]!]: "x" } })[0]!.result, true);
  });

  it("tsc accepts inputs that fit the schemas and rejects the others", () => {
    const { plan, schemaTypes } = planSchemaPolicy();
    const errors = typecheckFiles({ "shop.ts": generateTypeScript(plan, { schemaTypes }).code, "hostile.ts": hostileModule(), "uses.ts": USES, "wrong.ts": WRONG }, "regoc-schematypes");
    // Only wrong.ts's one call fails: every `@ts-expect-error` in uses.ts met its error.
    assert.equal(errors.length, 1, errors.join("\n"));
    assert.match(errors[0]!, /^wrong\.ts\(3,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
  });
});

/** Calls of the generated entrypoint: good inputs, and wrong ones each marked as a type error. */
const USES = `import { shopAllow, type ShopData, type ShopInput } from "./shop.js";
import type { HInput } from "./hostile.js";

const loaded = { roles: { alice: "owner" }, other: [1, 2] };
const data: ShopData = loaded;
const full: ShopInput = {
  user: { name: "alice", groups: ["admin"], address: { city: "Paris" } },
  limit: 3,
  pair: ["a", true],
  labels: { team: "x" },
  tree: { value: 1, children: [{ value: 2, children: [] }] },
};
shopAllow(full, data);
shopAllow({ user: { name: "bob" }, limit: "high" }, {});
const h: HInput = { 'q"uote': "x", "back\\\\slash": "y", "*/ end": "z", "\${x}": "w", "line\\u2028sep\\u2029": "v", "\`tick\`": "t" };
void h;

// @ts-expect-error user is required
shopAllow({}, data);
// @ts-expect-error name is required
shopAllow({ user: {} }, data);
// @ts-expect-error name is a string
shopAllow({ user: { name: 1 } }, data);
// @ts-expect-error user is a closed object
shopAllow({ user: { name: "a", age: 3 } }, data);
// @ts-expect-error the input is a closed object
shopAllow({ user: { name: "a" }, extra: 1 }, data);
// @ts-expect-error groups are strings
shopAllow({ user: { name: "a", groups: [1] } }, data);
// @ts-expect-error limit is a number or a string
shopAllow({ user: { name: "a" }, limit: true }, data);
// @ts-expect-error pair is a [string, boolean]
shopAllow({ user: { name: "a" }, pair: ["a", "b"] }, data);
// @ts-expect-error labels' values are strings
shopAllow({ user: { name: "a" }, labels: { a: 1 } }, data);
// @ts-expect-error tree.value is a number
shopAllow({ user: { name: "a" }, tree: { value: "1" } }, data);
// @ts-expect-error the rest of Data comes from the refs: the policy reads no \`other\`
shopAllow({ user: { name: "a" } }, { other: 1 });
// @ts-expect-error roles' values are strings
shopAllow({ user: { name: "a" } }, { roles: { alice: 1 } });
`;

/** One wrong input, unmarked: tsc must report it. */
const WRONG = `import { shopAllow } from "./shop.js";

shopAllow({ user: { name: 42 } }, {});
`;
