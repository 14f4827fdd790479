// Input/Data types without a JSON Schema: leaf types come from how the policy uses each value
// (comparisons, arithmetic, builtin argument types, scans, `every` domains, function arguments),
// objects read only at constant keys are closed to object literals (a misspelt key is a type
// error), and the entrypoint returns the rule's value type.
import assert from "node:assert/strict";
import { generateTypeScript, loadModule, planRego } from "regoc/compiler";
import { RegoSet } from "regoc";
import { typecheckFiles } from "./support.js";

/** The module generated for one Rego module (package p) and its entrypoints. */
function generate(rego: string, entrypoints = ["p/allow"]): string {
  return generateTypeScript(planRego({ modules: { "p.rego": `package p\n\n${rego}\n` }, entrypoints })).code;
}

/** The text of an exported type alias (its doc comment first), e.g. `PInput`. */
function alias(code: string, name: string): string {
  const m = new RegExp(`(/\\*[^\\n]*\\*/)\\nexport type ${name} = ([^\\n]*;|\\{\\n[\\s\\S]*?\\n\\};)\\n`).exec(code);
  assert.ok(m, `no type ${name} in\n${code}`);
  return `${m[1]}\n${m[2]}`;
}

/** The type alias without its doc comment. */
function type(code: string, name = "PInput"): string {
  return alias(code, name).split("\n").slice(1).join("\n");
}

describe("codegen: types inferred from use", function () {
  this.timeout(60_000);

  it("a string, number or boolean comparison types the leaf; objects read at constant keys are closed", () => {
    const code = generate('allow if { input.user.role == "admin"; input.count > 100; input.user.active == true }');
    assert.equal(type(code), ['{', '  "count"?: number;', '  "user"?: { "active"?: boolean; "role"?: string };', "};"].join("\n"));
  });

  it("arithmetic and builtins with typed arguments type their operands", () => {
    const code = generate('allow if { input.n + 1 == 3; startswith(input.path, "/api") }');
    assert.equal(type(code), ['{', '  "n"?: number;', '  "path"?: string;', "};"].join("\n"));
  });

  it("uses that disagree give a union", () => {
    const code = generate('allow if input.x == "a"\nallow if input.x == 1\nallow if input.x.y == 2');
    assert.equal(type(code), ['{', '  "x"?: number | string | { "y"?: number };', "};"].join("\n"));
  });

  it("a constant index reads an array; `some x in` and `every` read a collection of the element shape", () => {
    const code = generate(
      ['allow if input.path[0] == "api"', "allow if { some u in input.users; u.age >= 18 }", "allow if every item in input.items { item.price > 0 }"].join("\n"),
    );
    assert.equal(
      type(code),
      ['{', '  "items"?: Collection<{ "price"?: number }>;', '  "path"?: string[];', '  "users"?: Collection<{ "age"?: number }>;', "};"].join("\n"),
    );
    assert.match(code, /export type Collection<T> = T\[\] \| \{ \[key: string\]: T \};/);
  });

  it("`in` and `some x in` a built collection type a value by its elements; `x in` a document collection types its elements", () => {
    const code = generate(['allow if input.method in {"GET", "HEAD"}', 'allow if "admin" in input.user.roles', "allow if input.n in [1, 2]"].join("\n"));
    assert.equal(type(code), ['{', '  "method"?: string;', '  "n"?: number;', '  "user"?: { "roles"?: Collection<string> };', "};"].join("\n"));
    assert.equal(type(generate('allow if { some m in ["GET", "HEAD"]; input.verb == m }')), ['{', '  "verb"?: string;', "};"].join("\n"));
  });

  it("a function's reads of its argument belong to the ref it is called with", () => {
    const code = generate('allow if is_admin(input.user)\n\nis_admin(u) if u.role == "admin"');
    assert.equal(type(code), ['{', '  "user"?: { "role"?: string };', "};"].join("\n"));
  });

  it("a function called with a constant types what its parameter is compared with", () => {
    const code = generate('allow if check_role("admin")\n\ncheck_role(r) if input.user.role == r');
    assert.equal(type(code), ['{', '  "user"?: { "role"?: string };', "};"].join("\n"));
  });

  it("data is typed as input is, a dynamic key reading a collection", () => {
    const code = generate("allow if data.limits[input.user].max > 3");
    assert.equal(type(code, "PData"), ['{', '  "limits"?: Collection<{ "max"?: number }>;', "};"].join("\n"));
    // The key is an object's key or an array's index, unless another use says more.
    assert.equal(type(code), ['{', '  "user"?: number | string;', "};"].join("\n"));
    assert.equal(type(generate('allow if { input.role != "guest"; data.roles[input.role] }')), ['{', '  "role"?: string;', "};"].join("\n"));
  });

  it("an object used as a whole value keeps an index signature", () => {
    const code = generate('allow if { input.user.id == "a"; input.user == data.admin }');
    assert.equal(type(code), ['{', '  "user"?: { "id"?: string; [key: string]: unknown };', "};"].join("\n"));
  });

  it("the doc comment names what a schema would type", () => {
    const code = generate('allow if { input.a == input.b.c; input.d == "x" }');
    assert.equal(alias(code, "PInput").split("\n")[0], "/* input read by p, typed from how the policy uses it; a JSON schema would type what it leaves unknown: a, b.c */");
    assert.equal(alias(generate("allow if input.x == 1"), "PData").split("\n")[0], "/* data of p: the policy's uses do not type it */");
  });

  it("the entrypoint returns the rule's value type, and a set rule a RegoSet", async () => {
    const rego = [
      "names contains u.name if { some u in input.users; u.age > 18 }",
      "by_name[u.name] := u.age if some u in input.users",
      'msg := sprintf("hi %s", [input.name])',
      "n := count(input.users)",
      "allow if input.x == 1",
      'violation contains msg if { some c in input.containers; msg := sprintf("container %s", [c.name]) }',
    ].join("\n");
    const code = generate(rego, ["p/names", "p/by_name", "p/msg", "p/n", "p/allow", "p/violation"]);
    const sig = (name: string) => new RegExp(`export function ${name}\\(_?input: PInput \\| undefined, _?data: PData, _?options\\?: EvalOptions\\): ([^{]*) \\{`).exec(code)?.[1];
    assert.deepEqual(
      ["pNames", "pByName", "pMsg", "pN", "pAllow", "pViolation"].map(sig),
      // (The names come from the input: their type is not the rule's to tell.)
      ["RegoSet", "ObjectValue", "string | undefined", "Num | undefined", "boolean | undefined", "RegoSet<string>"],
    );
    const mod = await loadModule(code);
    const input = { users: [{ name: "a", age: 30 }, { name: "b", age: 3 }] };
    const names = (mod.pNames as (i: unknown, d: unknown) => unknown)(input, {});
    assert.ok(names instanceof RegoSet);
    assert.deepEqual([...names], ["a"]);
    assert.deepEqual({ ...((mod.pByName as (i: unknown, d: unknown) => object)(input, {})) }, { a: 30, b: 3 });
    const violations = (mod.pViolation as (i: unknown, d: unknown) => unknown)({ containers: [{ name: "x" }] }, {});
    assert.ok(violations instanceof RegoSet);
    assert.deepEqual([...violations], ["container x"]);
  });

  it("tsc rejects a misspelt or mistyped input literal and accepts a correct one or a wider variable", () => {
    const module = generate(
      ['allow if { input.user.role == "admin"; input.count > 100 }', 'allow if { some g in data.grants[input.user.id]; g == input.action }'].join("\n"),
    );
    const uses = `import { pAllow, type PData, type PInput } from "./p.js";

const data: PData = { grants: { alice: ["read"] } };
pAllow({ user: { id: "alice", role: "admin" }, count: 101 }, data);
pAllow(undefined, {});
const request = { user: { id: "bob", role: "user", name: "Bob" }, count: 1, headers: {} };
pAllow(request, data);
const loose: Record<string, unknown> = {};
pAllow(loose, data);
const typed: PInput = { action: "read" };
void typed;

// @ts-expect-error a misspelt key
pAllow({ usr: { role: "admin" } }, data);
// @ts-expect-error a misspelt nested key
pAllow({ user: { rol: "admin" } }, data);
// @ts-expect-error role is compared with a string
pAllow({ user: { role: 1 } }, data);
// @ts-expect-error count is compared with a number
pAllow({ count: "101" }, data);
// @ts-expect-error grants hold collections
pAllow({}, { grants: { alice: 1 } });
`;
    const wrong = `import { pAllow } from "./p.js";

pAllow({ user: { id: "alice", rol: "admin" } }, {});
`;
    const errors = typecheckFiles({ "p.ts": module, "uses.ts": uses, "wrong.ts": wrong }, "regoc-inferred");
    // Only wrong.ts's typo fails: every `@ts-expect-error` in uses.ts met its error.
    assert.equal(errors.length, 1, errors.join("\n"));
    assert.match(errors[0]!, /^wrong\.ts\(3,\d+\): error TS2561: Object literal may only specify known properties, but 'rol' does not exist .*Did you mean to write 'role'\?/);
  });
});
