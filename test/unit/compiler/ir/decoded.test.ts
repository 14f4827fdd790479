// isDecoded reads objects with for-in (own enumerable keys only on plain objects while
// Object.prototype has no enumerable properties): anything else must be left to the copying
// decoder, which reads own fields only.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { planRego } from "../../../../compiler/compile.js";
import { decodePolicy, isDecoded } from "../../../../compiler/ir/decode.js";

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A small plan without number literals (the copying decoder drops MakeNumberRefStmt's `Index`, so
 * copies compare equal to the original). */
function plan(): J {
  return planRego({ modules: { "p.rego": "package p\n\nimport rego.v1\n\nallow if input.x == [input.y, \"z\"]\n" }, entrypoints: ["p/allow"] }) as J;
}

/** The first statement of the first func (a ResetLocalStmt). */
function firstStmt(p: J): J {
  return p.funcs.funcs[0].blocks[0].stmts[0];
}

describe("ir: plans in the decoded shape", () => {
  it("takes the planner's plan as it is", () => {
    const p = plan();
    assert.ok(isDecoded(p));
    assert.equal(decodePolicy(p), p);
  });

  it("does not take a field inherited from a prototype for an own one", () => {
    const p = plan();
    const s = firstStmt(p);
    const env = Object.create({ stmt: s.stmt }) as J;
    env.type = s.type;
    p.funcs.funcs[0].blocks[0].stmts[0] = env;
    assert.ok(!isDecoded(p));
    assert.throws(
      () => decodePolicy(p),
      (e: unknown) => e instanceof RegoError && e.code === "plan_invalid_error" && /stmts\[0\]\.stmt: expected object/.test(e.message),
    );
  });

  it("copies objects of other prototypes, and while Object.prototype has enumerable properties", () => {
    const p = plan();
    const s = firstStmt(p);
    s.stmt = Object.assign(Object.create({ extra: 1 }), s.stmt);
    assert.ok(!isDecoded(p));
    const copy = decodePolicy(p);
    assert.notEqual(copy, p);
    assert.deepEqual(JSON.parse(JSON.stringify(copy)), JSON.parse(JSON.stringify(plan())));

    const clean = plan();
    (Object.prototype as J).polluted = 1;
    try {
      assert.ok(!isDecoded(clean));
    } finally {
      delete (Object.prototype as J).polluted;
    }
    assert.ok(isDecoded(clean));
  });

  it("copies a plan with a non-enumerable or an extra field", () => {
    const p = plan();
    const s = firstStmt(p);
    const target = s.stmt.target;
    delete s.stmt.target;
    Object.defineProperty(s.stmt, "target", { value: target, enumerable: false });
    assert.ok(!isDecoded(p));
    assert.equal(decodePolicy(p).funcs.funcs[0]!.blocks[0]!.stmts[0]!.stmt.file, s.stmt.file);

    const q = plan();
    firstStmt(q).extra = 1;
    assert.ok(!isDecoded(q));
    assert.deepEqual(decodePolicy(q), plan());
  });
});
