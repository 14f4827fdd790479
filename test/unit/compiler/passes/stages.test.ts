// The compiler's stage list and its runner: the order is pinned (a reordering shows up here in
// review), compileUpTo stops where asked, the run stops after the first stage reporting errors,
// and errors are capped at 10 plus "error limit reached", as in OPA.
import { expect } from "chai";
import { compileModules, compileQuery, compileUpTo } from "../../../../compiler/passes/runner.js";
import { queryStages, stageNames } from "../../../../compiler/passes/stages.js";
import { parseModule, parseQuery } from "../../../../compiler/syntax/index.js";

const mod = (text: string, file = "m.rego") => parseModule(text, { file });

describe("passes: stages", () => {
  it("runs OPA's stages in OPA's order", () => {
    expect(stageNames).to.deep.equal([
      "ResolveRefs",
      "InitLocalVarGen",
      "RewriteRuleHeadRefs",
      "CheckKeywordOverrides",
      "CheckDuplicateImports",
      "RemoveImports",
      "SetModuleTree",
      "SetRuleTree",
      "RewriteLocalVars",
      "CheckVoidCalls",
      "RewritePrintCalls",
      "RewriteTemplateStrings",
      "RewriteExprTerms",
      "RewriteRegoMetadataCalls",
      "SetGraph",
      "RewriteComprehensionTerms",
      "RewriteRefsInHead",
      "RewriteWithValues",
      "CheckRuleConflicts",
      "CheckUndefinedFuncs",
      "CheckSafetyRuleHeads",
      "CheckSafetyRuleBodies",
      "RewriteEquals",
      "RewriteDynamicTerms",
      "CheckRecursion",
      "CheckTypes",
      "CheckDeprecatedBuiltins",
    ]);
    expect(queryStages.map((s) => s.name)).to.deep.equal([
      "CheckKeywordOverrides",
      "ResolveRefs",
      "RewriteLocalVars",
      "CheckVoidCalls",
      "RewritePrintCalls",
      "RewriteTemplateStrings",
      "RewriteExprTerms",
      "RewriteComprehensionTerms",
      "RewriteWithValues",
      "CheckUndefinedFuncs",
      "CheckSafety",
      "RewriteDynamicTerms",
      "CheckTypes",
      "CheckDeprecatedBuiltins",
    ]);
  });

  it("compileUpTo stops after the named stage and times the stages it ran", () => {
    const ctx = compileUpTo("RewriteLocalVars", [mod("package t\np if { x := 1; x > 0 }\n")]);
    expect(ctx.timings.map((t) => t.stage)).to.deep.equal(stageNames.slice(0, stageNames.indexOf("RewriteLocalVars") + 1));
    expect(ctx.errors).to.deep.equal([]);
  });

  it("keeps the query stages' times by name, one entry per stage over the queries, apart from the module stages", () => {
    const ctx = compileModules([mod("package t\np := 1\nq := 2\n")]);
    const moduleEntries = ctx.timings.length;
    compileQuery(ctx, parseQuery("result = data.t.p"));
    compileQuery(ctx, parseQuery("result = data.t.q"));
    expect(ctx.errors).to.deep.equal([]);
    expect(ctx.timings).to.have.length(moduleEntries);
    expect([...ctx.queryTimings.keys()]).to.deep.equal(queryStages.map((s) => s.name));
  });

  it("compileUpTo rejects an unknown stage", () => {
    expect(() => compileUpTo("NoSuchStage", [])).to.throw(Error, "unknown compiler stage NoSuchStage");
  });

  it("stops after the first stage that reports errors", () => {
    // an undefined function (CheckUndefinedFuncs) and an unsafe var (a later stage)
    const ctx = compileModules([mod("package t\np if { nope(1) }\nq if { x > 1 }\n")]);
    expect(ctx.errors.map((e) => [e.code, e.location?.file, e.location?.row, e.message])).to.deep.equal([["rego_type_error", "m.rego", 2, "undefined function nope"]]);
    expect(ctx.timings.at(-1)!.stage).to.equal("CheckUndefinedFuncs");
  });

  it("caps errors at 10 and says so", () => {
    const body = Array.from({ length: 15 }, (_, i) => `v${i} > 0`).join("; ");
    const ctx = compileModules([mod(`package t\np if { ${body} }\n`)]);
    expect(ctx.errors).to.have.length(11);
    expect(ctx.errors.at(-1)!.message).to.equal("error limit reached");
    const all = compileModules([mod(`package t\np if { ${body} }\n`)], { maxErrors: 0 });
    expect(all.errors).to.have.length(15);
  });

  it("sorts modules by file name and merges packages across files", () => {
    const ctx = compileModules([mod("package t\nq := p\n", "b.rego"), mod("package t\np := 1\n", "a.rego")]);
    expect(ctx.errors).to.deep.equal([]);
    expect(ctx.modules.map((m) => m.package.location.file)).to.deep.equal(["a.rego", "b.rego"]);
    expect(ctx.ruleTree!.findRules([{ type: "var", value: "data" }, { type: "string", value: "t" }, { type: "string", value: "p" }] as never)).to.have.length(1);
  });
});
