// Malformed plans are refused with plan_invalid_error naming the JSON path — never a crash in
// generated code. Each case mutates a valid plan.
import assert from "node:assert/strict";
import { RegoError, toJSON, type Value } from "regoc";
import { compilePlan, generateTypeScript } from "regoc/compiler";
import { decodePolicy, isDecoded } from "../../../../compiler/ir/decode.js";
import { validatePolicy } from "../../../../compiler/ir/validate.js";
import { cases, valid, withLowerIndex, type J } from "./invalidPlans.js";

describe("compiler/ir: decode and validate", () => {
  it("the base plan is valid and compiles to a query that answers as the plan says", async () => {
    const decoded = decodePolicy(valid());
    assert.ok(isDecoded(decoded));
    validatePolicy(decoded);
    assert.match(generateTypeScript(valid()).code, /export function eval_/);
    // data.test.p is 1.5 when the input has an element (the `equal` call's result is not tested),
    // else undefined.
    const pq = await compilePlan(valid());
    const rows = (input: unknown) => pq.evaluateSync({ input }).map((r) => JSON.parse(JSON.stringify(toJSON(r as Value))) as unknown);
    assert.deepEqual(rows(["a", "x"]), [{ result: 1.5 }]);
    assert.deepEqual(rows([]), []);
    assert.deepEqual(rows("x"), []);
  });

  for (const tc of cases) {
    it(`refuses: ${tc.note}`, () => {
      let plan: unknown = valid();
      const r = tc.mutate(plan as J);
      if (tc.note === "not an object") plan = r;
      assert.throws(
        () => generateTypeScript(plan),
        (e: unknown) => {
          assert.ok(e instanceof RegoError, String(e));
          assert.equal(e.code, "plan_invalid_error");
          assert.ok(e.message.startsWith(`${tc.path}: `), `message ${JSON.stringify(e.message)} should start with ${tc.path}`);
          assert.match(e.message, tc.message);
          return true;
        },
      );
    });
  }

  // The same refusals for a plan in the decoded shape (`index`, as our planner writes it), which
  // decodePolicy uses without copying: its shape check must refuse what the copying decoder does.
  for (const tc of cases) {
    it(`refuses in the decoded shape: ${tc.note}`, () => {
      let plan: unknown = valid();
      const r = tc.mutate(plan as J);
      if (tc.note === "not an object") plan = r;
      else withLowerIndex(plan as J);
      assert.throws(
        () => generateTypeScript(plan),
        (e: unknown) => e instanceof RegoError && e.code === "plan_invalid_error" && e.message.startsWith(`${tc.path}: `) && tc.message.test(e.message),
      );
    });
  }

  it("uses a plan in the decoded shape as it is, and copies one with anything to default or drop", () => {
    const p = withLowerIndex(valid());
    assert.ok(isDecoded(p));
    assert.equal(decodePolicy(p), p);
    // an extra top-level field (dropped by the decoder) makes it copy: the copy equals the plan
    const copy = decodePolicy({ ...p, unplanned_rules: null });
    assert.notEqual(copy, p);
    assert.deepEqual(copy, p);
    const extra = withLowerIndex(valid());
    extra.funcs.funcs[0].blocks[1].stmts[0].stmt.end_row = 1;
    assert.ok(!isDecoded(extra));
    assert.deepEqual(decodePolicy(extra), p);
  });

  it("tolerates Go's null-for-empty, omitted static, `index` or `Index`, extra location fields", () => {
    const p = valid();
    p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[1].stmt = { index: 2, Index: 0, target: 2, file: 0, row: 1, col: 1, end_row: 1, end_col: 9 };
    const d = decodePolicy(p);
    const s = d.funcs.funcs[0]!.blocks[0]!.stmts[0]!;
    assert.equal(s.type, "ScanStmt");
    assert.deepEqual((s.stmt as { block: { stmts: Array<{ stmt: unknown }> } }).block.stmts[1]!.stmt, { file: 0, row: 1, col: 1, index: 2, target: 2 });

    const empty = decodePolicy({ plans: { plans: [{ name: "p", blocks: null }] }, funcs: { funcs: null } });
    assert.deepEqual(empty.static, { strings: [], builtin_funcs: [], files: [] });
    assert.deepEqual(empty.plans.plans[0]!.blocks, []);

    const nulls = decodePolicy({
      static: { strings: [{ value: "g0" }] },
      plans: { plans: [{ name: "p", blocks: [{ stmts: [{ type: "BlockStmt", stmt: { blocks: null } }, { type: "WithStmt", stmt: { local: 0, path: null, value: { type: "bool", value: true }, block: { stmts: null } } }] }] }] },
    });
    const stmts = nulls.plans.plans[0]!.blocks[0]!.stmts;
    assert.deepEqual(stmts[0]!.stmt, { file: 0, row: 0, col: 0, blocks: [] });
    assert.deepEqual((stmts[1]!.stmt as { path: unknown }).path, []);
    validatePolicy(nulls);
  });

  it("accepts the plan as JSON text, and refuses text that is not JSON", () => {
    assert.match(generateTypeScript(JSON.stringify(valid())).code, /export function eval_/);
    assert.throws(() => generateTypeScript("{"), (e: unknown) => e instanceof RegoError && e.code === "plan_invalid_error" && /not valid JSON/.test(e.message));
  });
});
