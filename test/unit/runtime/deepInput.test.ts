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
      const rs = q.evaluateSync({ input, strictBuiltinErrors });
      expect(toJSON(rs[0]!.result)).to.deep.equal(["walk"]);
    });

    it(`a deny rule over object.union_n fires on a 5000-level input (strict: ${strictBuiltinErrors})`, async () => {
      const src = `package p\ndeny contains "union" if { u := object.union_n([input, input, {"x": 1}]); u.x == 1 }\n`;
      const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
      expect(toJSON(q.evaluateSync({ input, strictBuiltinErrors })[0]!.result)).to.deep.equal(["union"]);
    });

    it(`a builtin that runs out of stack is an error, never undefined (strict: ${strictBuiltinErrors})`, async () => {
      const src = `package p\ndeny contains "sort" if { s := sort([input, json.unmarshal(json.marshal(input))]); count(s) == 2 }\n`;
      const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
      const err = thrown(() => q.evaluateSync({ input: nested(9000), strictBuiltinErrors }));
      expect(err.code).to.equal("eval_internal_error");
      expect(err.message).to.equal("sort: value nested too deeply (the JavaScript call stack is exhausted)");
    });
  }

  it("evaluation that runs out of stack is an eval_internal_error (compiled query and Engine)", async () => {
    const src = `package p\ndeny contains "eq" if { input == json.unmarshal(json.marshal(input)) }\nx := input.a\n`;
    const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
    expect(thrown(() => q.evaluateSync({ input: nested(9000) })).code).to.equal("eval_internal_error");
    const engine = await Engine.create({ modules: { "p.rego": src } });
    const err = await rejected(engine.evaluate("data.p.deny", nested(9000)));
    expect(err.code).to.equal("eval_internal_error");
    expect(err.message).to.match(/nested too deeply/);
  });

  it("json.match_schema and Engine.evaluate's JSON results follow a 100 000-level value", async () => {
    const src = `package p\nok if { r := json.match_schema(input, {"type": "object"}); r[0] }\nx := input.a\n`;
    const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/ok"] });
    expect(q.evaluateSync({ input: nested(100_000) })[0]!.result).to.equal(true);
    const engine = await Engine.create({ modules: { "p.rego": src } });
    let v = (await engine.evaluate("data.p.x", nested(100_000)))[0]!.expressions[0]!.value;
    let depth = 0;
    while (typeof v === "object" && v !== null && "a" in v) (v = (v as { a: typeof v }).a), depth++;
    expect([depth, v]).to.deep.equal([99_999, "bad"]);
  });
});
