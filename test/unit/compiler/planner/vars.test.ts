// The planner's variable scopes (vars.ts): one map and undo log for every scope of every func
// body planned. A func body sees only its params; scopes put back what they shadowed; a body
// planned inside another (a rule called from a rule) leaves the outer body's bindings as they were.
import assert from "node:assert/strict";
import { VarStack } from "../../../../compiler/planner/vars.js";

function base(): VarStack {
  return new VarStack(new Map([["input", 0], ["data", 1]]));
}

describe("planner: variable scopes", () => {
  it("binds in the outermost scope for good, and undoes a scope's bindings at pop", () => {
    const vars = base();
    vars.put("q", 2);
    vars.push();
    vars.put("x", 3);
    vars.put("q", 4);
    assert.equal(vars.get("x"), 3);
    assert.equal(vars.get("q"), 4);
    vars.pop();
    assert.equal(vars.get("x"), undefined);
    assert.equal(vars.getOrEmpty("x"), 0);
    assert.equal(vars.get("q"), 2);
    assert.equal(vars.get("input"), 0);
    assert.throws(() => vars.pop(), /no scope to close/);
  });

  it("shows a func body its params only, and the enclosing body's bindings again after it", () => {
    const vars = base();
    vars.push();
    vars.put("x", 5);
    vars.put("y", 6);
    vars.enterFunc([10, 11, 12], ["__capture0__"]);
    assert.equal(vars.get("input"), 10);
    assert.equal(vars.get("data"), 11);
    assert.equal(vars.get("__capture0__"), 12);
    assert.equal(vars.get("x"), undefined, "a var of the enclosing body is not visible");
    assert.equal(vars.getOrEmpty("y"), 0);
    vars.put("x", 13); // the body's own x
    vars.push();
    vars.put("z", 14);
    assert.equal(vars.get("z"), 14);
    // a body planned inside this one: its own frame again
    vars.enterFunc([20, 21], []);
    assert.equal(vars.get("x"), undefined);
    assert.equal(vars.get("input"), 20);
    vars.put("x", 22);
    assert.equal(vars.get("x"), 22);
    vars.leaveFunc();
    assert.equal(vars.get("x"), 13);
    assert.equal(vars.get("input"), 10);
    vars.pop();
    assert.equal(vars.get("z"), undefined);
    vars.leaveFunc();
    assert.equal(vars.get("x"), 5);
    assert.equal(vars.get("y"), 6);
    assert.equal(vars.get("input"), 0);
    assert.equal(vars.get("__capture0__"), undefined);
    vars.pop();
    assert.equal(vars.get("x"), undefined);
    assert.equal(vars.get("data"), 1);
  });

  it("reuses its log across scopes: many scopes opened and closed leave no binding behind", () => {
    const vars = base();
    for (let round = 0; round < 3; round++) {
      vars.enterFunc([2, 3], []);
      for (let i = 0; i < 40; i++) vars.put(`v${i}`, 4 + i);
      vars.push();
      for (let i = 0; i < 40; i++) vars.put(`v${i}`, 100 + i);
      assert.equal(vars.get("v7"), 107);
      vars.pop();
      assert.equal(vars.get("v7"), 11);
      vars.leaveFunc();
      assert.equal(vars.get("v7"), undefined);
      assert.equal(vars.get("input"), 0);
    }
  });
});
