// OPA's order on terms.
import { expect } from "chai";

import { compareDecimal, compareTerms, termsEqual } from "../../../../compiler/ast/compare.js";
import { parseTerm } from "../../../../compiler/syntax/index.js";

describe("term order", () => {
  it("kinds in OPA's order", () => {
    const ts = ["[x | x := 1]", "{1}", "{}", "[]", "input.x", "x", '"s"', "1", "true", "null"].map((s) => parseTerm(s));
    const sorted = ts.slice().sort(compareTerms).map((t) => t.type);
    expect(sorted).to.deep.equal(["null", "boolean", "number", "string", "var", "ref", "array", "object", "set", "arraycomprehension"]);
  });
  it("numbers by exact value", () => {
    expect(compareDecimal("1e1", "10")).to.equal(0);
    expect(compareDecimal("12345678901234567890", "12345678901234567891")).to.equal(-1);
    expect(compareDecimal("-0.5", "-0.25")).to.equal(-1);
    expect(compareDecimal("0", "-0.0")).to.equal(0);
  });
  it("strings by code point", () => {
    expect(compareTerms(parseTerm('"\uffff"'), parseTerm('"😀"'))).to.equal(-1);
  });
  it("equality ignores locations", () => {
    expect(termsEqual(parseTerm("{1, [2, {3: 4}]}"), parseTerm("{ 1,[2,{3:4}] }"))).to.equal(true);
  });
});
