// The printer: canonical v1 Rego from ASTs, with the parentheses precedence needs.
import { expect } from "chai";

import { printBody, printModule } from "../../../../compiler/ast/print.js";
import { parseModule, parseQuery } from "../../../../compiler/syntax/index.js";

describe("printer", () => {
  const terms: [string, string][] = [
    ['{"a": 1, "b": [1, 2]}', '{"a": 1, "b": [1, 2]}'],
    ["set()", "set()"],
    ["a.b[c][\"d e\"]", 'a.b[c]["d e"]'],
    ["[(a | b), c]", "[(a | b), c]"],
    ["(1 + 2) * (3 - 4)", "(1 + 2) * (3 - 4)"],
    ["1 - (2 + 3)", "1 - (2 + 3)"],
    ["(1 - 2) + 3", "1 - 2 + 3"],
    ["f((k, v in xs))", "f((k, v in xs))"],
    ['"\\u2028"', '"\u2028"'],
    ["`a\\b`", '"a\\\\b"'],
    ["x[_]", "x[_]"],
    ["[1,2][0]", "[1, 2][0]"],
  ];
  // (as queries: a call at the top of an expression is the expression itself)
  for (const [src, want] of terms) it(`term ${src}`, () => expect(printBody(parseQuery(src))).to.equal(want));

  it("exprs", () => {
    expect(printBody(parseQuery("x = 1; y := 2; not z; some a, b; some c in d"))).to.equal("x = 1; y := 2; not z; some a, b; some c in d");
  });

  it("a negated term that starts with `{` is parenthesized", () => {
    expect(printBody(parseQuery("not ({1} == x)"))).to.equal("not ({1} == x)");
    expect(printBody(parseQuery("not ({1}) = x"))).to.equal("not ({1}) = x");
  });

  it("a module", () => {
    const m = parseModule("package a.b\nimport data.c\np[x] := 1 if x := 2\ndefault q := false\nf(a) := a\n");
    expect(printModule(m)).to.equal("package a.b\n\nimport data.c\n\np[x] := 1 if {\n\tx := 2\n}\n\ndefault q := false\n\nf(a) := a\n");
  });
});
