// The shared-lookups pass: a lookup a later body repeats from the chain of lookups an earlier body
// starts with reads that body's result (before/after IR), the lookups it leaves alone, and the same
// answers with and without it: values, undefined paths, number keys of data, `with`.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { loadModule, planRego } from "regoc/compiler";
import { generateModule, preparePolicy } from "../../../../compiler/codegen/generate.js";
import type { Policy } from "../../../../compiler/ir/types.js";
import { optimize } from "../../../../compiler/optimize/index.js";
import { sharedLookups } from "../../../../compiler/optimize/sharedLookups.js";
import { bodyText } from "./support.js";

const ROLES = `package t
allow if "admin" in data.user_roles[input.user]
allow if {
  some role in data.user_roles[input.user]
  role == input.role
}
`;

/** The plan optimised by every pass but this one. */
function before(source: string): Policy {
  const p = preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: ["t/allow"] }));
  return optimize(p, { skip: ["shared-lookups"] }).policy;
}

type Fn = (input: unknown, data: unknown) => unknown;

async function load(source: string, shared: boolean): Promise<Fn> {
  const p = preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: ["t/allow"] }));
  const g = generateModule(optimize(p, shared ? {} : { skip: ["shared-lookups"] }).policy, { language: "function", optimize: false });
  const mod = await loadModule(g.code, g);
  return mod.entrypoints["t/allow"]!.fn as unknown as Fn;
}

function answer(f: Fn, input: unknown, data: unknown): unknown {
  try {
    return { value: f(input, data) };
  } catch (e) {
    if (e instanceof RegoError) return { error: e.code };
    throw e;
  }
}

async function sameAnswers(source: string, cases: Array<[input: unknown, data: unknown]>): Promise<unknown[]> {
  const [plain, shared] = [await load(source, false), await load(source, true)];
  return cases.map(([input, data]) => {
    const got = answer(shared, input, data);
    assert.deepEqual(got, answer(plain, input, data), JSON.stringify({ input, data }));
    return got;
  });
}

const lookups = (text: string, key: string) => text.split("\n").filter((l) => l.includes(`["${key}"]`)).length;

describe("optimize: shared-lookups", () => {
  it("a later body reads the chain of lookups the first body starts with", () => {
    const p = before(ROLES);
    const text = bodyText(p, "g0.data.t.allow");
    assert.equal(lookups(text, "user"), 2, text);
    assert.equal(lookups(text, "user_roles"), 2, text);
    const out = bodyText(sharedLookups.run(p), "g0.data.t.allow");
    assert.equal(lookups(out, "user"), 1, out);
    assert.equal(lookups(out, "user_roles"), 1, out);
    // the three lookups: a check of the last one's target (which implies the others')
    assert.equal(
      out.split("{\n").slice(2).join("{\n"),
      ["  undefined l2", "  defined l7", '  l14 = l0["role"]', "  scan l7 (l8, l9)", "  {", "    l9 == l14", "    l2 = true", "    break 2", "  }", "}", "{", "  return l2", "}"].join("\n"),
    );
  });

  it("copies the earlier target where the later body has locals of its own", () => {
    const source = `package t
allow if admin
allow if {
  some role in data.user_roles[input.user]
  role == input.role
}
admin if "admin" in data.user_roles[input.user]
`;
    const text = bodyText(sharedLookups.run(before(source)), "g0.data.t.allow");
    assert.equal(lookups(text, "user"), 1, text);
    assert.match(text, /\n {2}defined (l\d+)\n {2}l\d+ = \1\n/, text);
    // the passes after it fold the copy: the later body scans the earlier target itself
    const all = bodyText(optimize(preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: ["t/allow"] }))).policy, "g0.data.t.allow");
    assert.match(all, /\n {2}defined (l\d+)\n(?: {2}.*\n)*? {2}scan \1 /, all);
    assert.doesNotMatch(all, /\n {2}l\d+ = l\d+\n/, all);
  });

  it("answers as without the pass", async () => {
    const data = { user_roles: { alice: ["admin"], bob: ["reader", "writer"], "7": ["writer"], odd: "writer", obj: { a: "writer" } } };
    const inputs = [{ user: "alice" }, { user: "bob", role: "writer" }, { user: "bob", role: "admin" }, { user: 7, role: "writer" }, { user: "odd", role: "writer" }, { user: "obj", role: "writer" }, { role: "writer" }, {}, undefined];
    const got = await sameAnswers(ROLES, [...inputs.map((i): [unknown, unknown] => [i, data]), [{ user: "bob", role: "writer" }, {}], [{ user: "bob" }, { user_roles: 3 }]]);
    assert.deepEqual(
      got.map((g) => (g as { value: unknown }).value),
      [true, true, undefined, true, undefined, true, undefined, undefined, undefined, undefined, undefined],
    );
  });

  it("leaves alone a lookup whose earlier chain lookups were not matched, and lookups under a with", () => {
    const cases = [
      // the first body's chain is input.a alone: data.d.e is no chain of it
      `package t\nallow if { input.a == 1; data.d.e == 2 }\nallow if data.d.e == 3\n`,
      // input is rewritten by a with
      `package t\nallow if input.a == 1\nallow if { x with input.a as 2; input.a == 2 }\nx if input.a == 2\n`,
    ];
    for (const source of cases) {
      const p = before(source);
      assert.equal(bodyText(sharedLookups.run(p), "g0.data.t.allow"), bodyText(p, "g0.data.t.allow"), source);
    }
  });

  it("answers as without the pass where later bodies repeat part of a chain", async () => {
    const source = `package t
allow if { input.a.b == 1; input.c == 2 }
allow if input.a.b == 3
allow if { input.c == 4; input.a.b == 5 }
allow if { not input.a.b; input.a.c == 6 }
`;
    const inputs = [{ a: { b: 1 }, c: 2 }, { a: { b: 3 } }, { a: { b: 5 }, c: 4 }, { a: { c: 6 } }, { a: { b: false, c: 6 } }, { a: 1 }, {}, undefined, { a: { b: 2 }, c: 4 }];
    const got = await sameAnswers(source, inputs.map((i): [unknown, unknown] => [i, {}]));
    assert.deepEqual(
      got.map((g) => (g as { value: unknown }).value),
      [true, true, true, true, true, undefined, undefined, undefined, undefined],
    );
    const p = before(source);
    assert.ok(lookups(bodyText(sharedLookups.run(p), "g0.data.t.allow"), "a") < lookups(bodyText(p, "g0.data.t.allow"), "a"));
  });
});
