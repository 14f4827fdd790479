// Engine.partial: partial evaluation over the engine's modules and store, answered in OPA's JSON
// AST form (the body of OPA's Compile API), and printResidual's text.
import { expect } from "chai";
import { Engine } from "regoc";
import { formatOpaJson } from "../../../../compiler/ast/opaJson.js";
import { partialEval, printResidual } from "../../../../compiler/partial/index.js";

const policy = `package filters

import rego.v1

include if input.fruits.colour == input.colour

include if {
	input.fruits.price < data.limits[input.user]
	not input.fruits.hidden
}

default tidy := false

tidy if input.fruits.name == "apple"
`;

describe("partial evaluation: Engine.partial", () => {
  it("answers OPA's Compile API body over the engine's data", async () => {
    const engine = await Engine.create({ modules: { "filters.rego": policy } });
    engine.loadData("/limits", { bob: 10 });
    const r = await engine.partial("data.filters.include", { input: { colour: "red", user: "bob" }, unknowns: ["input.fruits"] });
    expect(r.support).to.equal(undefined);
    const ref = (...path: string[]): string => JSON.stringify({ type: "ref", value: [{ type: "var", value: "input" }, ...path.map((p) => ({ type: "string", value: p }))] });
    const op = (name: string): string => JSON.stringify({ type: "ref", value: [{ type: "var", value: name }] });
    expect(formatOpaJson(r.queries as never)).to.equal(
      `[[{"index":0,"terms":[${op("eq")},${ref("fruits", "colour")},{"type":"string","value":"red"}]}],` +
        `[{"index":0,"terms":[${op("lt")},${ref("fruits", "price")},{"type":"number","value":10}]},` +
        `{"index":1,"negated":true,"terms":${ref("fruits", "hidden")}}]]`,
    );
    // the store is read at each call
    engine.loadData("/limits", { bob: 3 });
    const again = await engine.partial("data.filters.include", { input: { colour: "red", user: "bob" }, unknowns: ["input.fruits"] });
    expect(formatOpaJson(again.queries as never)).to.contain(`{"type":"number","value":3}`);
  });

  it("returns support modules and honours disableInlining", async () => {
    const engine = await Engine.create({ modules: { "filters.rego": policy } });
    const r = await engine.partial("data.filters.tidy", { unknowns: ["input.fruits"] });
    expect(r.support).to.have.length(1);
    expect(formatOpaJson(r.support![0]!)).to.contain(`"path":[{"type":"var","value":"data"},{"type":"string","value":"partial"},{"type":"string","value":"filters"}]`);
    const inlined = await engine.partial("data.filters.include", { input: { colour: "red", user: "bob" }, unknowns: ["input.fruits"], disableInlining: ["data.filters.include"] });
    expect(inlined.support).to.have.length(1);
  });

  it("reads v0 modules when the engine does", async () => {
    const engine = await Engine.create({ modules: { "v0.rego": "package v0\n\nallow { input.fruits.x == 1 }\n" }, v0Compatible: true });
    const r = await engine.partial("data.v0.allow", { unknowns: ["input.fruits"] });
    expect(formatOpaJson(r.queries as never)).to.contain(`{"type":"string","value":"x"}`);
  });

  it("bad unknowns are a RegoError from the engine too", async () => {
    const engine = await Engine.create({ modules: { "filters.rego": policy } });
    const e = await engine.partial("data.filters.include", { unknowns: ["input.fruits + 1"] }).catch((x: unknown) => x);
    expect(e).to.have.property("code", "pe_invalid_unknown");
  });

  it("printResidual prints the queries one per line, then the support modules", async () => {
    const r = await partialEval({ modules: { "filters.rego": policy }, query: "data.filters.tidy", unknowns: ["input.fruits"] });
    expect(printResidual(r)).to.equal("data.partial.filters.tidy\n\npackage partial.filters\n\ndefault tidy = false\n\ntidy if {\n\tinput.fruits.name = \"apple\"\n}\n");
    const never = await partialEval({ modules: { "filters.rego": policy }, query: "data.filters.include", input: { colour: "red" }, unknowns: ["input.other"] });
    expect(printResidual(never)).to.equal("");
    const both = await partialEval({ modules: {}, query: "input.a = 1", unknowns: ["input.b"], input: { a: 1 } });
    expect(printResidual(both)).to.equal("true");
  });
});
