// decodeValidPolicy walks a plan once for both the decoded-shape check and the validation; what
// it answers must be exactly what decodePolicy followed by validatePolicy answer: the same plan
// (the planner's own, not copied), or the same first error, whatever mix of faults a plan has.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { planRego } from "../../../../compiler/compile.js";
import { decodePolicy, isDecoded } from "../../../../compiler/ir/decode.js";
import { decodeValidPolicy } from "../../../../compiler/ir/prepare.js";
import { isValidDecoded, validatePolicy } from "../../../../compiler/ir/validate.js";
import { cases, valid, withLowerIndex, type J } from "./invalidPlans.js";

/** The two separate steps: the plan, or the error they throw. */
function twoSteps(plan: unknown): unknown {
  try {
    const p = decodePolicy(plan);
    validatePolicy(p);
    return p;
  } catch (e) {
    return e;
  }
}

/** isValidDecoded, without narrowing the test's plan variable to Policy. */
function validDecoded(plan: unknown): boolean {
  return isValidDecoded(plan);
}

function combined(plan: unknown): unknown {
  try {
    return decodeValidPolicy(plan);
  } catch (e) {
    return e;
  }
}

/** Asserts the combined walk answers what the two steps answer (errors: code and message). */
function assertSame(plan: unknown): unknown {
  const want = twoSteps(plan);
  const got = combined(plan);
  if (want instanceof Error) {
    assert.ok(got instanceof RegoError, `expected ${String(want)}, got ${got instanceof Error ? String(got) : "a plan"}`);
    assert.ok(want instanceof RegoError, String(want));
    assert.equal(got.code, want.code);
    assert.equal(got.message, want.message);
  } else {
    assert.ok(!(got instanceof Error), `expected a plan, got ${String(got)}`);
    assert.deepEqual(got, want);
    // a plan in the decoded shape is used as it is, by both
    if (want === plan) assert.equal(got, plan);
  }
  return got;
}

/** A plan our planner made (several rules, a comprehension, a call of a builtin). */
function planned(): J {
  return planRego({
    modules: {
      "p.rego": 'package p\n\nimport rego.v1\n\nallow if input.x == [input.y, "z"]\n\nnames contains n if {\n\tsome u in input.users\n\tn := upper(u.name)\n}\n\ncount_admins := count([u | some u in input.users; u.admin])\n',
    },
    entrypoints: ["p/allow", "p/names", "p/count_admins"],
  }) as J;
}

describe("compiler/ir: decode and validate in one walk", () => {
  it("takes the planner's plan as it is, after one walk", () => {
    const p = planned();
    assert.ok(validDecoded(p));
    assert.equal(decodeValidPolicy(p), p);
    assertSame(p);
  });

  it("takes the plan as JSON text, and refuses text that is not JSON or not a plan", () => {
    const text = JSON.stringify(planned());
    assert.deepEqual(assertSame(text), JSON.parse(text));
    assertSame("{");
    assertSame(JSON.stringify("a string"));
    assertSame("null");
  });

  for (const tc of cases) {
    for (const shape of ["JSON", "decoded"] as const) {
      it(`refuses as the two steps do (${shape} shape): ${tc.note}`, () => {
        let plan: unknown = valid();
        const r = tc.mutate(plan as J);
        if (tc.note === "not an object") plan = r;
        else if (shape === "decoded") withLowerIndex(plan as J);
        const got = assertSame(plan);
        // (a plan without entrypoints is decoded and valid: the code generator refuses it)
        if (tc.note === "no plans at all") return;
        assert.ok(!validDecoded(plan));
        assert.ok(got instanceof RegoError && got.message.startsWith(`${tc.path}: `) && tc.message.test(got.message), String(got));
      });
    }
  }

  it("reports the first of several faults, as the two steps do", () => {
    // faults in a plan body, a func body and the func list: the duplicate name is found first,
    // then the plan's bodies are checked before the funcs'
    const mutations = [
      (p: J) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[2].stmt.index = 3), // break out of the func
      (p: J) => (p.plans.plans[0].blocks[0].stmts[2].stmt.object = 0), // plan mutating input
      (p: J) => p.funcs.funcs.push({ ...p.funcs.funcs[0], params: [0, 1] }), // duplicate func name
      (p: J) => (p.funcs.funcs[0].blocks[1].stmts[0].stmt.file = 1), // file index out of range
    ];
    const want = [/duplicate func name/, /mutates local 0/, /break index 3 leaves the func/, /file index 1 out of range/];
    for (const shape of ["JSON", "decoded"] as const) {
      // apply all faults, then remove them one at a time from the front of `want`'s order
      const order = [2, 1, 0, 3];
      for (let skip = 0; skip < order.length; skip++) {
        const plan = valid();
        for (const i of order.slice(skip)) mutations[i]!(plan);
        if (shape === "decoded") withLowerIndex(plan);
        const got = assertSame(plan);
        assert.ok(got instanceof RegoError && want[skip]!.test(got.message), `${shape}, from fault ${skip}: ${String(got)}`);
      }
    }
  });

  it("lets a malformed field reported by the decoder win over an earlier invalid reference, as before", () => {
    // the decoder runs first: its error wins even when the validator would fault an earlier statement
    const plan = withLowerIndex(valid());
    plan.plans.plans[0].blocks[0].stmts[2].stmt.object = 0; // invalid (plan mutating input)
    plan.funcs.funcs[0].blocks[1].stmts[0].stmt.source = "2"; // malformed (not a local), later
    const got = assertSame(plan);
    assert.ok(got instanceof RegoError && /funcs\.funcs\[0\]\.blocks\[1\]\.stmts\[0\]\.stmt\.source: expected local/.test(got.message), String(got));

    // a plan to copy (an extra field, late) is validated after the copy: the early fault is reported
    const copy = withLowerIndex(valid());
    copy.plans.plans[0].blocks[0].stmts[2].stmt.object = 0;
    copy.funcs.funcs[0].blocks[1].stmts[0].stmt.end_row = 1;
    assert.ok(!isDecoded(copy));
    const err = assertSame(copy);
    assert.ok(err instanceof RegoError && /mutates local 0/.test(err.message), String(err));
  });

  it("copies a plan not in the decoded shape, as decodePolicy does, and validates the copy", () => {
    const p = withLowerIndex(valid());
    p.funcs.funcs[0].blocks[1].stmts[0].stmt.end_row = 1;
    const got = assertSame(p);
    assert.notEqual(got, p);
    const q = valid(); // `Index` only: copied with `index`
    assert.notEqual(assertSame(q), q);
  });

  it("checks nested statements' shape, not only the top-level ones", () => {
    const p = withLowerIndex(valid());
    assert.ok(validDecoded(p));
    p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[0].stmt.extra = 1;
    assert.ok(!isDecoded(p));
    assert.ok(!validDecoded(p));
    assertSame(p);
    const q = withLowerIndex(valid());
    q.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[0].stmt.args[0] = Object.create({ type: "local", value: 4 });
    assert.ok(!validDecoded(q));
    assertSame(q);
  });
});
