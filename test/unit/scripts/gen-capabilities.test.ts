import { expect } from "chai";
import { readFileSync } from "node:fs";
import { generateCapabilities } from "../../../scripts/gen-capabilities.js";
import { describeWithShared, sharedDir } from "../../support/shared.js";

describe("scripts: gen-capabilities", () => {
  const source = {
    builtins: [
      { name: "plus", decl: { type: "function", args: [{ type: "number" }, { type: "number" }], result: { type: "number" } }, infix: "+" },
      { name: "abs", decl: { type: "function", args: [{ type: "number" }], result: { type: "number" } }, extra: "dropped" },
      { name: "rand.intn", decl: { type: "function" }, nondeterministic: true },
    ],
    future_keywords: ["and"],
    features: ["rego_v1"],
  };

  it("writes sorted declarations with OPA's keys, the source note, keywords and features", () => {
    const out = JSON.parse(generateCapabilities(source, "1.2.3")) as Record<string, unknown>;
    expect(out["_source"]).to.match(/OPA v1\.2\.3 capabilities.*Apache-2\.0/);
    expect(out["opa_version"]).to.equal("1.2.3");
    expect((out["builtins"] as { name: string }[]).map((b) => b.name)).to.deep.equal(["abs", "plus", "rand.intn"]);
    expect((out["builtins"] as Record<string, unknown>[])[0]).to.not.have.property("extra");
    expect((out["builtins"] as Record<string, unknown>[])[1]).to.have.property("infix", "+");
    expect((out["builtins"] as Record<string, unknown>[])[2]).to.have.property("nondeterministic", true);
    expect(out["future_keywords"]).to.deep.equal(["and"]);
    expect(out["features"]).to.deep.equal(["rego_v1"]);
  });

  it("puts one builtin on each line", () => {
    const lines = generateCapabilities(source, "1.2.3").split("\n").filter((l) => l.includes('"name"'));
    expect(lines).to.have.length(3);
  });

  it("refuses a file that is not OPA's capabilities", () => {
    expect(() => generateCapabilities({} as never, "1")).to.throw(/no builtins list/);
  });
});

describeWithShared("scripts: gen-capabilities (committed output)", () => {
  it("compiler/builtins/capabilities.json is what the script makes from OPA v1.20.2's file", () => {
    const opa = JSON.parse(readFileSync(`${sharedDir}/opa/capabilities-v1.20.2.json`, "utf8"));
    const committed = readFileSync(new URL("../../../compiler/builtins/capabilities.json", import.meta.url), "utf8");
    expect(committed).to.equal(generateCapabilities(opa, "1.20.2"));
  });
});
