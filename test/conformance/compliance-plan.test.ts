// The compliance ratchet, from OPA's plans: every case of ../shared/compliance is compiled by our
// code generator and evaluated. A failing case must be listed in test/conformance/known-failures/compliance-plan.json
// with its reason; a listed case that passes fails the test too, so the list only shrinks.
// Skipped (saying so) when ../shared is absent.
import { expect } from "chai";
import { join } from "node:path";
import { loadCases, type ComplianceCase } from "../../compiler/compliance/cases.js";
import { planFrontend } from "../../compiler/compliance/frontends.js";
import { readKnownFailures } from "../../compiler/compliance/knownFailures.js";
import { runCase } from "../../compiler/compliance/run.js";
import { describeWithShared, haveShared, repoRoot, sharedDir } from "../support/shared.js";

const knownPath = join(repoRoot, "test", "conformance", "known-failures", "compliance-plan.json");
const known = readKnownFailures(knownPath);
const cases: ComplianceCase[] = haveShared ? loadCases(join(sharedDir, "compliance")) : [];

describeWithShared("compliance from OPA's plans (ratchet)", () => {
  it("known-failures lists only notes that exist", () => {
    const notes = new Set(cases.map((c) => c.note));
    expect([...known.keys()].filter((n) => !notes.has(n))).to.deep.equal([]);
  });
  for (const c of cases) {
    it(c.note, async () => {
      const outcome = await runCase(planFrontend, c);
      const reason = known.get(c.note);
      if (outcome.status === "pass") {
        expect(reason, `passes now: remove it from ${knownPath}`).to.equal(undefined);
      } else if (reason === undefined) {
        expect.fail(`${outcome.kind}: ${outcome.reason}`);
      }
    });
  }
});
