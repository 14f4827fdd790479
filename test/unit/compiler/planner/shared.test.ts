// The planner shares objects between statements (the args of calls of rules, equal BreakStmts
// one after another, operands) and hands its lists over sealed: safe only while nothing after it
// writes to a plan. This test freezes a plan the planner made, every object and array of it, and
// runs the plan's consumers over it (decoding/validation, the code generator in both languages,
// the plan's JSON): a write anywhere throws (modules run in strict mode), and the frozen plan
// must give exactly what the plan did before.
import assert from "node:assert/strict";
import { planRego } from "../../../../compiler/compile.js";
import { generateModule, preparePolicy } from "../../../../compiler/codegen/generate.js";
import type { Block, Policy, Stmt } from "../../../../compiler/ir/types.js";

const POLICY = `package shared

import rego.v1

default allow := false

allow if {
  admin
  not blocked
  every r in input.roles { r != "banned" }
  count(names) > 0
  f(1) == 2
}

admin if input.user == "admin"
admin if data.shared.roles[input.user] == "admin"

blocked if input.user in data.blocked

names contains n if some n in ["a", "b"]

kind := "a" if input.x == 1
else := "b" if input.x == 2
else := "c"

f(x) := x + 1

mocked if admin with input.user as "admin"
`;

const READER = `package reader

import rego.v1

whole := data.shared

pick := data.shared[input.key]
`;

function deepFreeze(x: unknown, seen = new Set<object>()): void {
  if (typeof x !== "object" || x === null || seen.has(x)) return;
  seen.add(x);
  for (const v of Object.values(x)) deepFreeze(v, seen);
  Object.freeze(x);
}

function stmtsOf(blocks: readonly Block[], out: Stmt[] = []): Stmt[] {
  for (const b of blocks) {
    for (const s of b.stmts) {
      out.push(s);
      if (s.type === "BlockStmt") stmtsOf(s.stmt.blocks, out);
      else if (s.type === "NotStmt" || s.type === "WithStmt" || s.type === "ScanStmt") stmtsOf([s.stmt.block], out);
    }
  }
  return out;
}

function outputs(policy: Policy): string[] {
  const prepared = preparePolicy(policy);
  // the plan itself, not a decoded copy (with `with` too: its undo statements' paths are [], not
  // OPA's null, which the check for a decoded plan refuses)
  assert.equal(prepared, policy, "the code generator is given the plan itself");
  return [JSON.stringify(policy), generateModule(prepared).code, generateModule(prepared, { language: "javascript" }).code];
}

describe("planner: a plan's shared objects", () => {
  const plan = (): Policy =>
    planRego({ modules: { "shared.rego": POLICY, "reader.rego": READER }, entrypoints: ["shared/allow", "shared/kind", "shared/mocked", "reader/whole", "reader/pick"] });

  it("are shared in this plan (else the test below proves nothing)", () => {
    const policy = plan();
    const stmts = [...policy.plans.plans.flatMap((p) => stmtsOf(p.blocks)), ...policy.funcs.funcs.flatMap((f) => stmtsOf(f.blocks))];
    const args = stmts.flatMap((s) => (s.type === "CallStmt" ? [s.stmt.args] : []));
    assert.ok(new Set(args).size < args.length, "some CallStmts share their args");
    const breaks = stmts.filter((s) => s.type === "BreakStmt");
    assert.ok(new Set(breaks).size < breaks.length, "some BreakStmts are one object");
  });

  it("are never written to by the plan's consumers", () => {
    const expected = outputs(plan());
    const frozen = plan();
    deepFreeze(frozen);
    assert.deepEqual(outputs(frozen), expected);
  });
});
