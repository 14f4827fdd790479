// Entrypoints: names, the direct-value vs result-set shapes, the inferred return and input/data
// types, plans with several entrypoints, the module's entrypoint table.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { compilePlan, generateTypeScript, loadModule } from "regoc/compiler";
import { F, L, PolicyBuilder, T, block, ruleFunc, st } from "../../../support/plans.js";
import { run } from "./support.js";

/** authz/allow: default false; true when input.user.role == "admin". */
function authz(): PolicyBuilder {
  const b = new PolicyBuilder();
  ruleFunc(b, "g0.data.authz.allow", [b.dot(L(0), b.s("user"), 4), b.dot(L(4), b.s("role"), 5), st("EqualStmt", { a: L(5), b: b.s("admin") }), b.once(T, 3)], F);
  b.entry("authz/allow", "g0.data.authz.allow");
  return b;
}

describe("codegen: entrypoints", () => {
  it("a defaulted boolean rule becomes `(input, data, options?) => boolean` returning the value itself", async () => {
    const g = generateTypeScript(authz().json());
    // (no evaluation state needed: the options are named so that noUnusedParameters lets them be)
    assert.match(g.code, /export function authzAllow\(input: AuthzInput \| undefined, data: AuthzData, _options\?: EvalOptions\): boolean \{/);
    assert.match(g.code, /export type AuthzInput = \{\n\s+"user"\?: \{ "role"\?: string \};\n\};/);
    assert.deepEqual(g.entrypoints, [{ name: "authz/allow", exportName: "authzAllow", kind: "value", binding: "result", async: false }]);
    const mod = await loadModule(g.code);
    const allow = mod.authzAllow as (input: unknown, data: unknown) => unknown;
    assert.equal(allow({ user: { role: "admin" } }, {}), true);
    assert.equal(allow({ user: { role: "guest" } }, {}), false);
    assert.equal(allow(undefined, undefined), false);
    assert.deepEqual(Object.keys(mod.entrypoints), ["authz/allow"]);
    // The rule's value, checked once and returned as it is (no copy, no labelled block).
    const body = g.code.slice(g.code.indexOf("export function authzAllow"), g.code.indexOf("\n}\n", g.code.indexOf("export function authzAllow")));
    assert.match(body, /\n {2}const (\w+) = g0DataAuthzAllow\(NO_STATE, inputValue, dataValue\);\n {2}if \(\1 === undefined\) throw internalError\("entrypoint authz\/allow produced no value"\);\n {2}return \1 as boolean;$/);
  });

  it("PreparedQuery wraps a direct value as OPA's result set", async () => {
    const pq = await compilePlan(authz().json());
    assert.deepEqual(pq.entrypoints, ["authz/allow"]);
    assert.equal(pq.entrypoint, "authz/allow");
    assert.deepEqual(
      pq.evaluateSync({ input: { user: { role: "admin" } } }).map((r) => ({ ...r })),
      [{ result: true }],
    );
    // (The source is the function body compilePlan loaded: its exports are returned, not exported.)
    assert.match(pq.source, /^function authzAllow\(/m);
    assert.match(pq.source, /^return \{ __proto__: null, authzAllow, entrypoints \};$/m);
  });

  it("a rule without a default returns `T | undefined`, and an empty result set when undefined", async () => {
    const b = new PolicyBuilder();
    ruleFunc(b, "g0.data.test.name", [b.dot(L(0), b.s("name"), 4), b.once(L(4), 3)]);
    b.entry("test/name", "g0.data.test.name");
    const code = generateTypeScript(b.json()).code;
    assert.match(code, /\): Value \| undefined \{/);
    assert.match(code, /\n {2}return g0DataTestName\(NO_STATE, inputValue, dataValue\) as Value \| undefined;\n\}/);
    assert.deepEqual(await run(b, { input: {} }), []);
    assert.deepEqual(await run(b, { input: { name: "n" } }), [{ result: "n" }]);
  });

  it("a query with several bindings, or bindings added in a loop, returns a result set", async () => {
    const b = new PolicyBuilder();
    b.plan(
      "q",
      block(
        b.dot(L(0), b.s("xs"), 2),
        b.scan(
          2,
          3,
          4,
          st("MakeObjectStmt", { target: 5 }),
          st("ObjectInsertStmt", { object: 5, key: b.s("i"), value: L(3) }),
          st("ObjectInsertStmt", { object: 5, key: b.s("x"), value: L(4) }),
          st("ResultSetAddStmt", { value: 5 }),
        ),
      ),
    );
    const g = generateTypeScript(b.json());
    // (data unused: named so that noUnusedParameters lets it be; the options give the loop its deadline)
    assert.match(g.code, /export function q\(input: QInput \| undefined, _data: QData, options\?: EvalOptions\): ResultSet \{/);
    assert.match(g.code, /export type QInput = \{\n\s+"xs"\?: Collection<unknown>;/);
    assert.equal(g.entrypoints[0]!.kind, "resultset");
    assert.deepEqual(await run(b, { input: { xs: ["a", "b"] } }), [
      { i: 0, x: "a" },
      { i: 1, x: "b" },
    ]);
  });

  it("entrypoint names become valid, unique identifiers (eval, digits, punctuation, clashes)", () => {
    const b = new PolicyBuilder();
    for (const name of ["eval", "a/b", "a.b", "1st/rule", "x-y/z", "scanView", "l3", "", "entrypoints", "a/b_"]) {
      b.plan(name, block(...b.result("result", T, 2)));
    }
    const g = generateTypeScript(b.json());
    assert.deepEqual(
      g.entrypoints.map((e) => e.exportName),
      ["eval_", "aB", "aB_2", "_1stRule", "xYZ", "scanView_", "l3_", "policy", "entrypoints_", "aB_3"],
    );
  });

  it("a plan with several entrypoints: generateTypeScript keeps all, compilePlan selects one", async () => {
    const b = authz();
    ruleFunc(b, "g0.data.authz.deny", [b.dot(L(0), b.s("banned"), 4), b.once(T, 3)], F);
    b.entry("authz/deny", "g0.data.authz.deny");
    const g = generateTypeScript(b.json());
    assert.deepEqual(
      g.entrypoints.map((e) => e.exportName),
      ["authzAllow", "authzDeny"],
    );
    assert.match(g.code, /export type AuthzInput = \{\n\s+"banned"\?: unknown;\n\s+"user"\?:/);
    const deny = await compilePlan(b.json(), { entrypoint: "authz/deny" });
    assert.equal(deny.evaluateSync({ input: { banned: 1 } })[0]!.result, true);
    assert.equal(deny.evaluateSync({ input: { user: { role: "admin" } }, entrypoint: "authz/allow" })[0]!.result, true);
    const first = await compilePlan(b.json());
    assert.equal(first.entrypoint, "authz/allow");
    assert.doesNotMatch(generateTypeScript(b.json(), { entrypoint: "authz/deny" }).code, /authzAllow|g0DataAuthzAllow/);
    await assert.rejects(
      () => compilePlan(b.json(), { entrypoint: "authz/nope" }),
      (e: unknown) => e instanceof RegoError && e.code === "plan_invalid_error" && /no entrypoint "authz\/nope"/.test(e.message),
    );
  });

  it("partial sets and objects always have a value; their types are RegoSet and ObjectValue", () => {
    const b = new PolicyBuilder();
    b.func("g0.data.test.s", [0, 1], 2, [
      block(st("MakeSetStmt", { target: 2 })),
      block(b.dot(L(0), b.s("x"), 3), st("SetAddStmt", { set: 2, value: L(3) })),
      block(st("ReturnLocalStmt", { source: 2 })),
    ]);
    b.entry("test/s", "g0.data.test.s");
    b.func("g0.data.test.o", [0, 1], 2, [
      block(st("MakeObjectStmt", { target: 2 })),
      block(b.dot(L(0), b.s("x"), 3), st("ObjectInsertOnceStmt", { object: 2, key: L(3), value: T })),
      block(st("ReturnLocalStmt", { source: 2 })),
    ]);
    b.entry("test/o", "g0.data.test.o");
    const code = generateTypeScript(b.json()).code;
    assert.match(code, /export function testS\([^)]*\): RegoSet \{/);
    assert.match(code, /export function testO\([^)]*\): ObjectValue \{/);
  });
});
