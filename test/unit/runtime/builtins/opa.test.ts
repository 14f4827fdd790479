import { expect } from "chai";
import { EvalContext, getBuiltin, invokeBuiltin, toJSON } from "regoc";

describe("builtins: opa.runtime", () => {
  it("returns OPA's runtime shape without config: env, version, commit", () => {
    process.env["REGOC_OPA_RUNTIME_TEST"] = "yes";
    const ctx = new EvalContext();
    const got = toJSON(invokeBuiltin(ctx, getBuiltin("opa.runtime")!, { name: "opa.runtime" }, [])!) as Record<string, unknown>;
    expect(Object.keys(got).sort()).to.deep.equal(["commit", "env", "version"]);
    expect((got["env"] as Record<string, string>)["REGOC_OPA_RUNTIME_TEST"]).to.equal("yes");
    expect(got["version"]).to.equal("1.20.2");
    expect(got["commit"]).to.equal("");
  });

  it("is one value per evaluation", () => {
    const ctx = new EvalContext();
    const def = getBuiltin("opa.runtime")!;
    const a = invokeBuiltin(ctx, def, { name: "opa.runtime" }, []);
    process.env["REGOC_OPA_RUNTIME_TEST"] = "changed";
    expect(invokeBuiltin(ctx, def, { name: "opa.runtime" }, [])).to.equal(a);
    const fresh = toJSON(invokeBuiltin(new EvalContext(), def, { name: "opa.runtime" }, [])!) as { env: Record<string, string> };
    expect(fresh.env["REGOC_OPA_RUNTIME_TEST"]).to.equal("changed");
    delete process.env["REGOC_OPA_RUNTIME_TEST"];
  });
});
