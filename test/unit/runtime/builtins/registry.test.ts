// The registry's invoke policy: one answer per evaluation for nondeterministic builtins (values
// and errors alike, kept in the EvalContext), strict vs undefined, and a clean builtin error when
// a builtin runs out of JS call stack.
import { expect } from "chai";
import { type Value } from "regoc";
import { EvalContext } from "../../../../runtime/builtins/context.js";
import { thrown } from "../../../support/errors.js";
import { builtinError } from "../../../../runtime/builtins/args.js";
import { loadAllBuiltins, registerBuiltins } from "../../../../runtime/builtins/catalog.js";
import { getBuiltin, invokeBuiltin, invokeBuiltinAsync, type BuiltinDef } from "../../../../runtime/builtins/registry.js";

const site = { name: "test.flaky" };

/** A nondeterministic builtin that counts its calls and fails on the first one. */
function flaky(): { def: BuiltinDef; calls: () => number } {
  let n = 0;
  const def: BuiltinDef = {
    fn: () => {
      n++;
      if (n === 1) throw builtinError("first call fails");
      return n;
    },
    nondeterministic: true,
  };
  return { def, calls: () => n };
}

before(loadAllBuiltins);

describe("builtins: registry invoke policy", () => {
  it("remembers a nondeterministic builtin's error for the evaluation (strict: raised each time)", () => {
    const { def, calls } = flaky();
    const ctx = new EvalContext({ strictBuiltinErrors: true });
    const first = thrown(() => invokeBuiltin(ctx, def, site, [1]));
    const second = thrown(() => invokeBuiltin(ctx, def, site, [1]));
    expect(first.code).to.equal("eval_builtin_error");
    expect(first.message).to.equal("test.flaky: first call fails");
    expect(second.message).to.equal(first.message);
    expect(calls()).to.equal(1);
    // Other arguments are another call; a new evaluation starts afresh.
    expect(invokeBuiltin(ctx, def, site, [2])).to.equal(2);
    expect(invokeBuiltin(new EvalContext(), def, site, [1])).to.equal(3);
  });

  it("remembers a nondeterministic builtin's error for the evaluation (non-strict: undefined each time)", () => {
    const { def, calls } = flaky();
    const ctx = new EvalContext();
    expect(invokeBuiltin(ctx, def, site, [1])).to.equal(undefined);
    expect(invokeBuiltin(ctx, def, site, [1])).to.equal(undefined);
    expect(calls()).to.equal(1);
  });

  it("remembers async nondeterministic results and errors too", async () => {
    let n = 0;
    const def: BuiltinDef = {
      fn: async (_ctx, x) => {
        n++;
        if (x === "bad") throw builtinError("no");
        return n;
      },
      async: true,
      nondeterministic: true,
    };
    const ctx = new EvalContext();
    expect(await invokeBuiltinAsync(ctx, def, site, ["ok"])).to.equal(1);
    expect(await invokeBuiltinAsync(ctx, def, site, ["ok"])).to.equal(1);
    expect(await invokeBuiltinAsync(ctx, def, site, ["bad"])).to.equal(undefined);
    expect(await invokeBuiltinAsync(ctx, def, site, ["bad"])).to.equal(undefined);
    expect(n).to.equal(2);
  });

  it("turns an exhausted JS call stack into an internal error that says so, raised in every mode", () => {
    const deep = (v: Value): number => (Array.isArray(v) ? 1 + deep(v[0]!) : 0);
    const def: BuiltinDef = { fn: (_ctx, v) => deep(v!) };
    let v: Value = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    const err = thrown(() => invokeBuiltin(new EvalContext({ strictBuiltinErrors: true }), def, { name: "test.deep" }, [v]));
    expect(err.code).to.equal("eval_internal_error");
    expect(err.message).to.equal("test.deep: value nested too deeply (the JavaScript call stack is exhausted)");
    // Outside strict mode too: an undefined call would switch a deny rule off.
    expect(thrown(() => invokeBuiltin(new EvalContext(), def, { name: "test.deep" }, [v])).code).to.equal("eval_internal_error");
  });

  it("turns an exhausted memory (an impossible string or array) into an internal error in every mode", () => {
    const def: BuiltinDef = { fn: () => "x".repeat(2 ** 31) };
    const err = thrown(() => invokeBuiltin(new EvalContext(), def, { name: "test.big" }, []));
    expect(err.code).to.equal("eval_internal_error");
    expect(err.message).to.match(/^test\.big: out of memory/);
  });
});

describe("builtins: custom builtins", () => {
  it("registers application builtins, refuses a clash with an existing name, and unregisters", () => {
    const table = { "app.double": { fn: (_ctx: EvalContext, x: Value) => (x as number) * 2 } };
    const unregister = registerBuiltins(table);
    try {
      expect(invokeBuiltin(new EvalContext(), getBuiltin("app.double")!, { name: "app.double" }, [21])).to.equal(42);
      expect(thrown(() => registerBuiltins({ "app.other": { fn: () => 0 }, count: { fn: () => 0 } })).message).to.equal(
        "custom builtin count conflicts with an existing builtin",
      );
      expect(getBuiltin("app.other"), "a refused table registers nothing").to.equal(undefined);
      expect(thrown(() => registerBuiltins(table)).code).to.equal("rego_compile_error");
    } finally {
      unregister();
    }
    expect(getBuiltin("app.double")).to.equal(undefined);
    expect(getBuiltin("count")).to.not.equal(undefined);
  });
});
