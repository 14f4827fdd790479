// The comprehension-index pass (compiler/optimize/comprehensionIndex.ts): a comprehension in a loop
// filtered by equality with the loop's value is built once, grouped, and looked up; before/after
// IR, the comprehensions it must leave, and the same answers with and without the pass (a table
// and a fast-check property).
import assert from "node:assert/strict";
import fc from "fast-check";
import { planRego } from "regoc/compiler";
import { toJSON, type Value } from "regoc";
import { generateModule } from "../../../../compiler/codegen/generate.js";
import { loadModule } from "../../../../compiler/codegen/loader.js";
import { decodeValidPolicy } from "../../../../compiler/ir/prepare.js";
import type { Policy } from "../../../../compiler/ir/types.js";
import { comprehensionIndex } from "../../../../compiler/optimize/comprehensionIndex.js";
import { PASSES, optimize } from "../../../../compiler/optimize/index.js";
import { PreparedQuery } from "../../../../runtime/eval/prepared.js";
import { bodyText } from "./support.js";

const NAME = "comprehension-index";
/** The passes after this one, skipped to show its output alone. */
const LATER = PASSES.slice(PASSES.findIndex((p) => p.name === NAME)).map((p) => p.name);

function policyOf(rego: string, entry = "t/p"): Policy {
  return decodeValidPolicy(planRego({ modules: { "t.rego": `package t\n${rego}\n` }, entrypoints: [entry] }));
}

/** The func of rule `t.p` as the passes before this one leave it, and after it. */
function beforeAfter(rego: string): [string, string] {
  const before = optimize(policyOf(rego), { skip: LATER }).policy;
  return [bodyText(before, "g0.data.t.p"), bodyText(comprehensionIndex.run(before), "g0.data.t.p")];
}

/** Whether the pass changes any func of the policy. */
function indexed(rego: string): boolean {
  const before = optimize(policyOf(rego), { skip: LATER }).policy;
  const after = comprehensionIndex.run(before);
  return before.funcs.funcs.some((f) => bodyText(before, f.name) !== bodyText(after, f.name));
}

/** Rule t.p's value (JSON) or error code, with the optimiser's passes, without this one or not. */
async function outcome(rego: string, input: unknown, withPass: boolean): Promise<unknown> {
  const policy = policyOf(rego);
  const generated = generateModule(optimize(policy, { skip: withPass ? [] : [NAME] }).policy, { language: "function", optimize: false });
  const mod = await loadModule(generated.code, generated);
  const pq = new PreparedQuery(mod.entrypoints, policy.plans.plans[0]!.name, generated.code);
  try {
    return pq.evaluateSync({ input: input as Value }).map((r) => JSON.parse(JSON.stringify(toJSON(r as Value))) as unknown);
  } catch (e) {
    return { error: (e as { code?: string }).code };
  }
}

const COUNT = "p := {d: count([u | some u in input.users; u.dept == d]) | some d in input.depts}";
const ARRAY = "p := {d: [u.name | some u in input.users; u.dept == d] | some d in input.depts}";
const SET = "p := {d: {u.name | some u in input.users; d == u.dept} | some d in input.depts}";
const FN = "p := {d: n | some d in input.depts; n := count_for(d)}\ncount_for(d) := count([u | some u in input.users; u.dept == d])";
const FN_WITH =
  "p := [{d: n | some d in input.depts; n := count_for(d)}, {d: n | some d in input.depts; n := count_for(d) with input.users as input.others}]\ncount_for(d) := count([u | some u in input.users; u.dept == d])";
const TWO = "p := {[d, r]: count([u | some u in input.users; u.dept == d; u.role == r]) | some d in input.depts; some r in input.roles}";

describe("optimize: comprehension-index", () => {
  it("groups a counted comprehension once and looks each key up", () => {
    const [before, after] = beforeAfter(COUNT);
    assert.match(before, /Increment target=(\d+)/);
    assert.doesNotMatch(before, /GroupAdd/);
    // The build: guarded by its groups local, the equality gone, the count added to the group of
    // u.dept; the lookup: the group of d, else the count stays 0.
    assert.match(after, /undefined l(\d+)\n\s+MakeObject target=\1\n\s+block/);
    assert.match(after, /GroupAdd groups=\d+ key=\d+ kind="count"/);
    assert.doesNotMatch(after, /Increment/);
    assert.doesNotMatch(after, /l\d+ == l\d+/);
    assert.match(after, /AssignInt value=0 target=(\d+)[\s\S]*l(\d+) = l\d+\[l\d+\]\n\s+l\1 = l\2/);
  });

  it("groups array and set comprehensions by either side of the equality", () => {
    assert.match(beforeAfter(ARRAY)[1], /GroupAdd groups=\d+ key=\d+ kind="array" value=l\d+/);
    assert.match(beforeAfter(SET)[1], /GroupAdd groups=\d+ key=\d+ kind="set" value=l\d+/);
  });

  it("keys the groups by the array of several outer values", () => {
    const after = beforeAfter(TWO)[1];
    assert.match(after, /MakeArray capacity=2 target=(\d+)\n\s+ArrayAppend array=\1 value=l\d+\n\s+ArrayAppend array=\1 value=l\d+\n\s+GroupAdd groups=\d+ key=\1 kind="count"/);
    assert.match(after, /defined l\d+\n\s+defined l\d+\n\s+MakeArray capacity=2/);
  });

  it("in a function, keys the evaluation's groups by its arguments", () => {
    const policy = optimize(policyOf(FN), { skip: LATER }).policy;
    const fn = bodyText(comprehensionIndex.run(policy), "g0.data.t.count_for");
    assert.notEqual(fn, bodyText(policy, "g0.data.t.count_for"));
    // The groups of the evaluation (slot 0), built when empty, looked up by the argument (l2).
    const arg = policy.funcs.funcs.find((f) => f.name === "g0.data.t.count_for")!.params[2]!;
    assert.match(fn, /Groups slot=0 target=(\d+)\n\s+block\n\s+\{\n\s+Len source=l\1 target=(\d+)\n\s+l(\d+) = 0\n\s+l\2 == l\3\n/);
    assert.match(fn, /GroupAdd groups=\d+ key=\d+ kind="count"/);
    assert.match(fn, new RegExp(`l\\d+ = l\\d+\\[l${arg}\\]`));
  });

  it("leaves comprehensions it cannot index as OPA's topdown would, or whose meaning would change", () => {
    const leaves: Array<[string, string]> = [
      ["not in a loop", "p := count([u | some u in input.users; u.dept == input.d])"],
      ["the key read again", "p := {d: count([u | some u in input.users; u.dept == d; u.boss != d]) | some d in input.depts}"],
      ["more outer values than MAX_KEYS", "p := {[a, b, c, d, e]: count([u | some u in input.users; u.a == a; u.b == b; u.c == c; u.d == d; u.e == e]) | some a in input.xs; some b in input.xs; some c in input.xs; some d in input.xs; some e in input.xs}"],
      ["an addition between two keys' equalities", "p := {[d, r]: [u | some u in input.users; u.dept == d; some v in u.vs; u.role == r] | some d in input.depts; some r in input.roles}"],
      ["the key in a ref (OPA: output vars of a ref)", "p := {d: [x | x := input.m[d]] | some d in input.depts}"],
      ["the key in a nested comprehension", "p := {d: [u | some u in input.users; u.dept == d; count([1 | u.x == d]) == 0] | some d in input.depts}"],
      ["an object comprehension (its conflicts)", "p := {d: {u.name: u.age | some u in input.users; u.dept == d} | some d in input.depts}"],
      ["a builtin that can fail after the equality", "p := {d: [to_number(u.n) | some u in input.users; u.dept == d] | some d in input.depts}"],
      ["a with inside", "p := {d: [u | some u in input.users; u.dept == d; q with input.x as 1] | some d in input.depts}\nq if input.x == 1"],
      ["the equality negated", "p := {d: [u | some u in input.users; not u.dept == d] | some d in input.depts}"],
    ];
    for (const [why, rego] of leaves) assert.equal(indexed(rego), false, why);
    for (const rego of [COUNT, ARRAY, SET, TWO]) assert.equal(indexed(rego), true, rego);
    // A function's comprehension that reads none of its arguments.
    const noArg = optimize(policyOf("p := {d: f(d) | some d in input.depts}\nf(d) := [u | some u in input.users; u.dept == input.d]"), { skip: LATER }).policy;
    assert.equal(bodyText(comprehensionIndex.run(noArg), "g0.data.t.f"), bodyText(noArg, "g0.data.t.f"));
  });

  const users = [
    { name: "a", dept: "x" },
    { name: "b", dept: "y" },
    { name: "c", dept: "x" },
    { name: "c", dept: "x" },
    { name: "d" },
    { name: "e", dept: 1 },
    { name: "f", dept: ["x", 1] },
    { name: "g", dept: { k: "x" } },
    "not an object",
    { name: "h", dept: null },
  ];
  const table: Array<[string, string, unknown, unknown]> = [
    ["counts, an empty group as 0", COUNT, { users, depts: ["x", "y", "z"] }, [{ result: { x: 3, y: 1, z: 0 } }]],
    ["arrays in element order, duplicates kept", ARRAY, { users, depts: ["x", "z"] }, [{ result: { x: ["a", "c", "c"], z: [] } }]],
    ["sets", SET, { users, depts: ["x"] }, [{ result: { x: ["a", "c"] } }]],
    ["keys of every type", COUNT, { users, depts: [1, ["x", 1], { k: "x" }, null, "1"] }, undefined],
    ["no users", COUNT, { depts: ["x"] }, undefined],
    ["users not a collection", ARRAY, { users: 7, depts: ["x"] }, undefined],
    ["users an object", COUNT, { users: { u1: { dept: "x" }, u2: { dept: "x" } }, depts: ["x"] }, [{ result: { x: 2 } }]],
    ["no departments", COUNT, { users }, [{ result: {} }]],
    [
      "in a loop of a function, reading another argument",
      "p := [f(1), f(2)]\nf(x) := {d: count([u | some u in input.users; u.dept == d; u.level > x]) | some d in input.depts}",
      { users: [{ dept: "x", level: 1 }, { dept: "x", level: 2 }, { dept: "x", level: 3 }, { dept: "y", level: "high" }], depts: ["x", "y"] },
      [{ result: [{ x: 2, y: 1 }, { x: 1, y: 1 }] }],
    ],
    ["in a function", FN, { users, depts: ["x", "y", "z"] }, [{ result: { x: 3, y: 1, z: 0 } }]],
    [
      "in a function, with input replaced",
      FN_WITH,
      { users, others: [{ dept: "z" }], depts: ["x", "z"] },
      [{ result: [{ x: 3, z: 0 }, { x: 0, z: 1 }] }],
    ],
    [
      "two keys",
      TWO,
      { users: [{ dept: "x", role: "a" }, { dept: "x", role: "b" }, { dept: "x", role: "a" }, { dept: "y" }], depts: ["x", "y"], roles: ["a", "b", "c"] },
      [{ result: { '["x","a"]': 2, '["x","b"]': 1, '["x","c"]': 0, '["y","a"]': 0, '["y","b"]': 0, '["y","c"]': 0 } }],
    ],
    ["1 and 1.0 are one key", "p := {d: count([u | some u in input.users; u.dept == d]) | some d in [1.0, 2]}", { users: [{ dept: 1 }, { dept: 1 }, { dept: 2.0 }] }, [{ result: { "1": 2, "2": 1 } }]],
    [
      "an error before the equality is raised as without the index",
      "p := {d: count([u | some u in input.users; c; u.dept == d]) | some d in input.depts}\nc := input.c1\nc := input.c2",
      { users, depts: ["x"], c1: true, c2: false },
      { error: "eval_conflict_error" },
    ],
    ["no error without an outer value", "p := {d: count([u | some u in input.users; c; u.dept == d]) | some d in input.depts}\nc := input.c1\nc := input.c2", { users, depts: [], c1: true, c2: false }, [{ result: {} }]],
  ];

  it("answers as without the pass (table)", async () => {
    for (const [why, rego, input, expected] of table) {
      assert.equal(indexed(rego), true, why);
      const [plain, withPass] = [await outcome(rego, input, false), await outcome(rego, input, true)];
      assert.deepEqual(withPass, plain, why);
      if (expected !== undefined) assert.deepEqual(withPass, expected, why);
    }
  });

  it("answers as without the pass (property)", async () => {
    const policies = [COUNT, ARRAY, SET, TWO, FN];
    const compiled = await Promise.all(
      policies.flatMap((rego) => [false, true].map(async (withPass) => {
        const policy = policyOf(rego);
        const generated = generateModule(optimize(policy, { skip: withPass ? [] : [NAME] }).policy, { language: "function", optimize: false });
        const mod = await loadModule(generated.code, generated);
        return new PreparedQuery(mod.entrypoints, policy.plans.plans[0]!.name, generated.code);
      })),
    );
    const key = fc.oneof(fc.constantFrom("x", "y", 1, 1.5, null, true), fc.jsonValue({ maxDepth: 1 }));
    const user = fc.oneof({ arbitrary: fc.record({ name: fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), dept: key, role: key }, { requiredKeys: [] }), weight: 5 }, { arbitrary: fc.jsonValue({ maxDepth: 1 }), weight: 1 });
    const run = (pq: PreparedQuery, input: unknown) => {
      try {
        return JSON.stringify(pq.evaluateSync({ input: input as Value }).map((r) => toJSON(r as Value)));
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    fc.assert(
      fc.property(fc.record({ users: fc.array(user, { maxLength: 8 }), depts: fc.array(key, { maxLength: 4 }), roles: fc.array(key, { maxLength: 3 }) }, { requiredKeys: [] }), (input) => {
        for (let i = 0; i < compiled.length; i += 2) assert.equal(run(compiled[i + 1]!, input), run(compiled[i]!, input), policies[i / 2]);
      }),
      { numRuns: 300 },
    );
  });
});
