// The compiler's stage list and its runner: the order is pinned (a reordering shows up here in
// review), compileUpTo stops where asked, the run stops after the first stage reporting errors,
// and errors are capped at 10 plus "error limit reached", as in OPA.
import { expect } from "chai";
import { compileModules, compileQuery, compileUpTo } from "../../../../compiler/passes/runner.js";
import { queryStages, stageNames } from "../../../../compiler/passes/stages.js";
import { parseModule, parseQuery } from "../../../../compiler/syntax/index.js";

const mod = (text: string, file = "m.rego") => parseModule(text, { file });

describe("passes: stages", () => {
  it("runs OPA's stages in OPA's order, leaving out only the recorded ones", () => {
    // OPA's module stages, in order, as listed in NewCompiler (open-policy-agent/opa v1/ast/compile.go).
    const opaStages = [
      "ResolveRefs",
      "InitLocalVarGen",
      "RewriteRuleHeadRefs",
      "CheckKeywordOverrides",
      "CheckDuplicateImports",
      "RemoveImports",
      "SetModuleTree",
      "SetRuleTree",
      "RewriteLocalVars",
      "RewriteTemplateStrings",
      "CheckVoidCalls",
      "RewritePrintCalls",
      "RewriteExprTerms",
      "ParseMetadataBlocks",
      "SetAnnotationSet",
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
      "RewriteTestRulesForTracing",
      "CheckRecursion",
      "CheckTypes",
      "CheckUnsafeBuiltins",
      "CheckDeprecatedBuiltins",
      "BuildRuleIndices",
      "BuildComprehensionIndices",
      "BuildRequiredCapabilities",
    ];
    // The stages regoc leaves out, and why.
    const leftOut: Record<string, string> = {
      ParseMetadataBlocks: "the parser reads METADATA comments itself (syntax/parser/annotations.ts)",
      SetAnnotationSet: "annotations stay on their rules and packages; CheckTypes reads schemas from there",
      RewriteTestRulesForTracing: "regoc has no evaluation tracing",
      CheckUnsafeBuiltins: "there is no unsafe-builtins option: capabilities decide which builtins exist",
      BuildRuleIndices: "the topdown evaluator's index; regoc indexes rules in the optimiser (optimize/ruleIndex.ts)",
      BuildComprehensionIndices: "the topdown evaluator's index; the generated code evaluates comprehensions directly",
      BuildRequiredCapabilities: "regoc does not report the capabilities a policy needs",
    };
    // Stages regoc runs at another place than OPA, and why.
    const moved: Record<string, string> = {
      RewriteTemplateStrings:
        "runs after RewritePrintCalls instead of right after RewriteLocalVars: it needs only the generated names and must precede RewriteExprTerms",
    };
    for (const name of [...Object.keys(leftOut), ...Object.keys(moved)]) expect(opaStages, name).to.include(name);
    const kept = opaStages.filter((n) => !(n in leftOut));
    expect([...stageNames].filter((n) => !(n in moved)), "regoc's order is OPA's").to.deep.equal(
      kept.filter((n) => !(n in moved)),
    );
    expect([...stageNames].sort(), "regoc runs every stage it does not leave out").to.deep.equal([...kept].sort());
    // OPA's query compiler stages, in order (queryCompiler.Compile, same file).
    const opaQueryStages = [
      "CheckKeywordOverrides",
      "ResolveRefs",
      "RewriteLocalVars",
      "RewriteTemplateStrings",
      "CheckVoidCalls",
      "RewritePrintCalls",
      "RewriteExprTerms",
      "RewriteComprehensionTerms",
      "RewriteWithValues",
      "CheckUndefinedFuncs",
      "CheckSafety",
      "RewriteDynamicTerms",
      "CheckTypes",
      "CheckUnsafeBuiltins",
      "CheckDeprecatedBuiltins",
    ];
    const queryKept = opaQueryStages.filter((n) => !(n in leftOut));
    const ours = queryStages.map((s) => s.name);
    expect(ours.filter((n) => !(n in moved)), "regoc's query order is OPA's").to.deep.equal(queryKept.filter((n) => !(n in moved)));
    expect([...ours].sort(), "regoc runs every query stage it does not leave out").to.deep.equal([...queryKept].sort());
    // a moved stage sits where stages.ts's comment says, in both lists: after RewritePrintCalls
    for (const list of [stageNames, ours]) expect(list[list.indexOf("RewriteTemplateStrings") - 1]).to.equal("RewritePrintCalls");
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
