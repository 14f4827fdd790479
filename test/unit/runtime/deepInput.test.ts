// An input nested deeper than the JS call stack can follow must never turn a deny rule off: walk
// and object.union(_n) iterate, and whatever still runs out of stack is an eval_internal_error in
// every mode.
import { expect } from "chai";
import { Engine, toJSON } from "regoc";
import { compileRego } from "regoc/compiler";
import { rejected, thrown } from "../../support/errors.js";

/** {a: {a: ... "bad" ...}} nested `depth` levels. */
function nested(depth: number): unknown {
  let v: unknown = "bad";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const DENY = `package p
deny contains "walk" if { walk(input, [_, v]); v == "bad" }
`;

describe("runtime: deep input", () => {
  const input = nested(5000);

  for (const strictBuiltinErrors of [false, true]) {
    it(`a deny rule over walk() fires on a 5000-level input (strict: ${strictBuiltinErrors})`, async () => {
      const q = await compileRego({ modules: { "p.rego": DENY }, entrypoints: ["p/deny"] });
      const rs = q.evaluate({ input, strictBuiltinErrors });
      expect(toJSON(rs[0]!.result)).to.deep.equal(["walk"]);
    });

    it(`a deny rule over object.union_n fires on a 5000-level input (strict: ${strictBuiltinErrors})`, async () => {
      const src = `package p\ndeny contains "union" if { u := object.union_n([input, input, {"x": 1}]); u.x == 1 }\n`;
      const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
      expect(toJSON(q.evaluate({ input, strictBuiltinErrors })[0]!.result)).to.deep.equal(["union"]);
    });

    it(`a builtin that runs out of stack is an error, never undefined (strict: ${strictBuiltinErrors})`, async () => {
      const src = `package p\ndeny contains "schema" if { [ok, _] := json.match_schema(input, {"type": "object"}); not ok }\n`;
      const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
      const err = thrown(() => q.evaluate({ input: nested(200_000), strictBuiltinErrors }));
      expect(err.code).to.equal("eval_internal_error");
      expect(err.message).to.equal("json.match_schema: value nested too deeply (the JavaScript call stack is exhausted)");
    });
  }

  it("evaluation that runs out of stack is an eval_internal_error (compiled query and Engine)", async () => {
    const src = `package p\ndeny contains "eq" if { input == json.unmarshal(json.marshal(input)) }\nx := input.a\n`;
    const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
    expect(thrown(() => q.evaluate({ input: nested(9000) })).code).to.equal("eval_internal_error");
    const engine = await Engine.create({ modules: { "p.rego": src } });
    const err = await rejected(engine.evaluate("data.p.x", nested(200_000)));
    expect(err.code).to.equal("eval_internal_error");
    expect(err.message).to.match(/nested too deeply/);
  });
});
