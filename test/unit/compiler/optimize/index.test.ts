// The optimiser's driver (compiler/optimize/index.ts): consecutive passes that rewrite each body on
// its own run body by body, which must give exactly what running them pass by pass gives — the
// same plans and funcs, and the same Rego names handed on.
import assert from "node:assert/strict";
import { planRegoDetailed } from "regoc/compiler";
import { preparePolicy } from "../../../../compiler/codegen/generate.js";
import { optimize, PASSES } from "../../../../compiler/optimize/index.js";
import { NameTable } from "../../../../compiler/optimize/names.js";

// Copies, constants split from several bodies, counted comprehensions, merged scans and lookups
// hoisted out of them: every pass of the body-by-body run has work here.
const SOURCE = `package t

import rego.v1

default allow := false

limits := {"max": 3, "tiers": ["free", "pro"]}

tiers contains t if {
	some t in limits.tiers
	t != "free"
}

allow if {
	x := input.tier
	x in tiers
	count([u | some u in input.users; u.dept == input.dept]) <= limits.max
}

allow if input.user == "admin"

ids contains r.id if {
	some r in data.records
	r.owner == input.user
}

ids contains r.id if {
	some r in data.records
	r.public == true
}

score(x, y) := s if {
	s := (x * 2) + y
} else := 0

report := {"allow": allow, "ids": ids, "score": score(count(ids), 1)}
`;

describe("optimize: the driver", () => {
  it("runs the body passes body by body with the result of running them pass by pass", () => {
    const { plan, localNames } = planRegoDetailed({ modules: { "t.rego": SOURCE }, entrypoints: ["t/report", "t/allow"] });
    const policy = preparePolicy(plan);
    const names = new NameTable(localNames);
    let byPass = policy;
    for (const pass of PASSES) byPass = pass.run(byPass, names);
    const byBody = optimize(policy, { localNames });
    assert.ok(PASSES.filter((p) => p.body).length > 1);
    assert.notDeepEqual(byBody.policy, policy);
    assert.deepEqual(byBody.policy, byPass);
    assert.deepEqual(byBody.localNames, names.result());
  });
});
