// Generated code a reader can follow with the Rego beside it: locals named after the policy's
// variables (planRegoDetailed's localNames), input and data by name, a `// file:row` comment before
// each rule body, builtins named at their call sites, one header (the caller's), functions after
// their first caller, and no write to a local nothing reads nor function nothing calls.
import assert from "node:assert/strict";
import { generateTypeScript, planRegoDetailed } from "regoc/compiler";
import { L, PolicyBuilder, T, ruleFunc, st } from "../../../support/plans.js";

const POLICY = `package shop

default allow := false

allow if {
	some item in input.items
	item.price >= data.limits.max
	startswith(item.name, "x")
}

allow if is_owner(input.user)

is_owner(user_id) if user_id == data.owner

is_owner(user_id) if user_id == data.deputy
`;

function generate(names = true, header?: string[]): string {
  const { plan, localNames } = planRegoDetailed({ modules: { "policies/shop.rego": POLICY }, entrypoints: ["shop/allow"] });
  return generateTypeScript(plan, { ...(names ? { localNames } : {}), ...(header ? { header } : {}) }).code;
}

/** The text of the generated function `name`. */
function fn(code: string, name: string): string {
  const at = code.indexOf(`function ${name}(`);
  assert.ok(at >= 0, `no function ${name}`);
  return code.slice(at, code.indexOf("\n}\n", at));
}

describe("codegen: readable output", () => {
  it("names locals after the policy's variables, params after the function's args, values after their rule", () => {
    const code = generate();
    const allow = fn(code, "g0DataShopAllow");
    assert.match(allow, /^function g0DataShopAllow\(\$: EvalState, input: V, data: V\): V \{/);
    assert.match(allow, /\bitem = /);
    assert.match(allow, /dotPrice\(item\)/);
    assert.match(code, /\bdotPrice = \(o: V\): V => \(o !== undefined && o !== null && \(o as PlainObject\)\["price"\] !== undefined && \(getPrototypeOf\(o\) === OBJECT_PROTOTYPE \? !\("price" in OBJECT_PROTOTYPE\) : getPrototypeOf\(o\) === null\) \? \(o as PlainObject\)\["price"\] : dotKey\(o, "price"\)\)/);
    assert.match(allow, /\ballow = true;/);
    assert.match(fn(code, "g0DataShopIsOwner"), /^function g0DataShopIsOwner\(_\$: EvalState, _input: V, data: V, user_id: V\): V \{/);
  });

  it("keeps l<n> for a plan without names (as `opa build` writes them)", () => {
    const allow = fn(generate(false), "g0DataShopAllow");
    assert.doesNotMatch(allow, /\bitem\b|\ballow\b/);
    assert.match(allow, /\bl2 = true;/);
  });

  it("puts the source line of each rule body before it", () => {
    const allow = fn(generate(), "g0DataShopAllow");
    const lines = [...allow.matchAll(/\/\/ policies\/shop\.rego:(\d+)$/gm)].map((m) => Number(m[1]));
    assert.deepEqual(lines, [5, 11, 3]);
  });

  it("names each builtin at its call site", () => {
    const code = generate();
    assert.match(code, /if \(!gte\(/);
    assert.match(code, /call2\(\$, startswith, /);
    assert.doesNotMatch(code, /\bc\d+\b/);
  });

  it("writes the caller's header, once", () => {
    const code = generate(true, ["GENERATED FILE: do not edit.", "Source: policies/shop.rego */"]);
    assert.ok(code.startsWith("// GENERATED FILE: do not edit.\n// Source: policies/shop.rego *\\/\nimport "), code.slice(0, 200));
    assert.equal(code.match(/do not edit/g)?.length, 1);
    assert.equal(generate().match(/do not edit/g)?.length, 1);
  });

  it("leaves out writes nobody reads (a scan's key, a copy of it): every local declared is read", () => {
    const code = generate();
    const declared = [...code.matchAll(/^ {2}let ([^;]*);$/gm)].flatMap((m) => m[1]!.split(", ").map((d) => d.split(":")[0]!));
    assert.ok(declared.length > 10);
    for (const name of declared) {
      // a read: the name anywhere but as the target of a plain assignment
      const reads = code.split("\n").filter((line) => !line.startsWith("  let ") && new RegExp(`\\b${name}\\b`).test(line.replace(new RegExp(`^\\s*${name} = `), "")));
      assert.ok(reads.length > 0, `${name} is written, never read`);
    }
  });

  it("gives a Rego name only to a local of that one role, and builds no message array it does not read", () => {
    // The planner numbers both bodies' locals alike: the first body's concat array and the
    // second's `kind` share a local.
    const source = `package pod

violation contains {"msg": msg} if {
	some c in input.containers
	not image_allowed(c)
	msg := concat("", ["container ", c.name, " uses image ", c.image])
}

violation contains {"msg": msg} if {
	some c in input.containers
	some kind in ["cpu", "memory"]
	not has_limit(c, kind)
	msg := concat("", ["container ", c.name, " has no ", kind, " limit"])
}

image_allowed(c) if startswith(c.image, "registry.example.com/")

has_limit(c, kind) if c.limits[kind]
`;
    const { plan, localNames } = planRegoDetailed({ modules: { "pod.rego": source }, entrypoints: ["pod/violation"] });
    const code = fn(generateTypeScript(plan, { localNames }).code, "g0DataPodViolation");
    assert.match(code, /`container \$\{\w+\} uses image \$\{\w+\}`/);
    assert.doesNotMatch(code, /^\s*\w+ = \["container "/m, "no array is built beside the template literal");
    assert.doesNotMatch(code, /\bkind = \[/);
  });

  it("decides a comparison with a local just set to a constant (an inlined rule's `true`) when it writes it", () => {
    const source = `package rbac

default allow := false

allow if user_is_admin

allow if {
	some grant in user_is_granted
	input.action == grant.action
}

user_is_admin if "admin" in data.user_roles[input.user]

user_is_granted contains grant if {
	some role in data.user_roles[input.user]
	some grant in data.role_grants[role]
}
`;
    const { plan, localNames } = planRegoDetailed({ modules: { "rbac.rego": source }, entrypoints: ["rbac/allow"] });
    const code = fn(generateTypeScript(plan, { localNames }).code, "g0DataRbacAllow");
    assert.match(code, /if \(!member\("admin", l\d+\)\) break b0;\n\s*allow = true;/);
    assert.doesNotMatch(code, /=== false\)/);
  });

  it("puts each function after its first caller, and none that no code calls", () => {
    const b = new PolicyBuilder();
    // p calls q (twice: a rule called once would be inlined); r is called only after a
    // comparison of two different constants (never)
    ruleFunc(b, "g0.data.x.r", [b.once(T, 3)]);
    ruleFunc(b, "g0.data.x.q", [b.once(T, 3)]);
    ruleFunc(b, "g0.data.x.p", [b.call("g0.data.x.q", [L(0), L(1)], 4), b.call("g0.data.x.q", [L(0), L(1)], 6), st("EqualStmt", { a: b.s("a"), b: b.s("b") }), b.call("g0.data.x.r", [L(0), L(1)], 5), b.once(T, 3)]);
    b.entry("x/p", "g0.data.x.p");
    const code = generateTypeScript(b.json()).code;
    const order = [...code.matchAll(/^(?:export )?function (\w+)/gm)].map((m) => m[1]);
    assert.deepEqual(order, ["xP", "g0DataXP", "g0DataXQ"]);
  });
});
