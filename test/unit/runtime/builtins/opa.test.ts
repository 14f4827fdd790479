import { expect } from "chai";
import { toJSON } from "regoc";
import { EvalContext } from "../../../../runtime/builtins/context.js";
import { callBuiltin } from "../../../support/builtins.js";

describe("builtins: opa.runtime", () => {
  const call = (ctx: EvalContext) => toJSON(callBuiltin("opa.runtime", [], {}, ctx)!);

  it("returns {} by default: nothing of the host (environment, secrets) reaches a policy", () => {
    process.env.REGOC_TEST_SECRET = "s3cret";
    try {
      expect(call(new EvalContext())).to.deep.equal({});
    } finally {
      delete process.env.REGOC_TEST_SECRET;
    }
  });

  it("returns what the application passes as the runtime option", () => {
    const runtime = { env: { REGION: "eu" }, version: "app-1" };
    expect(call(new EvalContext({ runtime }))).to.deep.equal(runtime);
  });
});
