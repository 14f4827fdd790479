// What the rewriting stages produce, printed as Rego after the stage that does the rewrite (like
// OPA's want_stages). Generated names follow OPA's scheme (__localN__).
import { expect } from "chai";
import { printBody, printRule } from "../../../../compiler/ast/print.js";
import { compileModules, compileUpTo } from "../../../../compiler/passes/runner.js";
import { parseModule } from "../../../../compiler/syntax/index.js";

function after(stage: string, text: string, options: { enablePrint?: boolean } = {}): string[] {
  const ctx = compileUpTo(stage, [parseModule(text, { file: "m.rego" })], options);
  expect(ctx.errors.map(String)).to.deep.equal([]);
  return ctx.modules[0]!.rules.map(oneLine);
}

/** A printed rule on one line: body expressions separated by `; `. */
function oneLine(r: Parameters<typeof printRule>[0]): string {
  return printRule(r)
    .replace(/\{\n\t/g, "{ ")
    .replace(/\n\t/g, "; ")
    .replace(/\n\}/g, " }")
    .replace(/\s+/g, " ")
    .trim();
}

describe("passes: rewrites", () => {
  it("ResolveRefs qualifies package rules and imports, not locals", () => {
    const [, r] = after("ResolveRefs", "package t\nimport data.lib.x as y\np := 1\nq if { p; y[_] }\n");
    expect(r).to.equal("q if { data.t.p; data.lib.x[_] }");
    // a name declared anywhere in the body is local in the whole body (as in OPA)
    const [, s] = after("ResolveRefs", "package t\np := 1\nq if { p; p := 2 }\n");
    expect(s).to.equal("q if { p; p := 2 }");
  });

  it("RewriteLocalVars renames declarations and rewrites some ... in", () => {
    const [r] = after("RewriteLocalVars", "package t\np := y if { some x in input.xs; y := x + 1 }\n");
    // the key var generated for `some x in` is itself declared (renamed) like the value
    expect(r).to.equal("p := __local3__ if { __local2__ = input.xs[__local1__]; __local3__ = __local2__ + 1 }");
  });

  it("RewriteExprTerms flattens nested calls", () => {
    const [r] = after("RewriteExprTerms", "package t\np if { count(input.xs) + 1 > 2 }\n");
    expect(r).to.equal("p if { count(input.xs, __local0__); plus(__local0__, 1, __local1__); __local1__ > 2 }");
  });

  it("RewritePrintCalls erases print by default and rewrites it when enabled", () => {
    expect(after("RewritePrintCalls", "package t\np if { print(input.x) }\n")[0]).to.equal("p if { true }");
    expect(after("RewritePrintCalls", "package t\np if { print(input.x) }\n", { enablePrint: true })[0]).to.equal(
      "p if { internal.print([{__local0__ | __local0__ = input.x}]) }",
    );
  });

  it("RewriteTemplateStrings turns template strings into internal.template_string calls", () => {
    const [r] = after("RewriteTemplateStrings", 'package t\np := $"a {input.x} b {y}" if y := 1\n');
    expect(r).to.equal('p := internal.template_string(["a ", {__local1__ | __local1__ = input.x}, " b ", {__local0__}]) if { __local0__ = 1 }');
  });

  it("RewriteWithValues binds values that need evaluation", () => {
    const [, r] = after("RewriteWithValues", "package t\nf(x) := x\np if { f(1) with input as {\"a\": [y | y := 1]} }\n");
    expect(r).to.match(/^p if \{ __local\d+__ = \{"a": \[__local\d+__ \| __local\d+__ = 1\]\}; data\.t\.f\(1\) with input as __local\d+__ \}$/);
  });

  it("CheckSafetyRuleBodies reorders a body so that variables are bound first", () => {
    const [r] = after("CheckSafetyRuleBodies", "package t\np if { x > 1; x = input.y }\n");
    expect(r).to.equal("p if { x = input.y; x > 1 }");
  });

  it("RewriteDynamicTerms binds refs used as call operands", () => {
    const [r] = after("RewriteDynamicTerms", "package t\np if { startswith(input.a, input.b) }\n");
    expect(r).to.equal("p if { __local0__ = input.a; __local1__ = input.b; startswith(__local0__, __local1__) }");
  });

  it("RewriteDynamicTerms binds refs inside objects and sets, and leaves constant ones as they are", () => {
    const text = 'package t\np if { x := {"a": input.a, "b": 1}; y := {input.b, 2}; z := {"c": {3}}; x == y; y == z }\n';
    const [r] = after("RewriteDynamicTerms", text);
    expect(r).to.equal(
      'p if { __local3__ = input.a; __local0__ = {"a": __local3__, "b": 1}; __local4__ = input.b; __local1__ = {__local4__, 2}; ' +
        '__local2__ = {"c": {3}}; __local0__ = __local1__; __local1__ = __local2__ }',
    );
  });

  it("RewriteRegoMetadataCalls answers rego.metadata.rule() at compile time", () => {
    const ctx = compileModules([parseModule("package t\n# METADATA\n# title: T\np := rego.metadata.rule()\n", { file: "m.rego" })]);
    expect(ctx.errors).to.deep.equal([]);
    expect(printBody(ctx.modules[0]!.rules[0]!.body).replace(/\s+/g, " ")).to.contain('= {"scope": "rule", "title": "T"}');
  });
});
