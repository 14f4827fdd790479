// The compiler's stages, in the order they run (OPA's names, v1/ast/compile.go). Each is a
// function of the compile context: it rewrites the modules in place and reports errors through
// `ctx.err`; the runner (runner.ts) stops after the first stage that reported any.
import type { CompileContext } from "./context.js";
import { checkDeprecatedBuiltins, checkDeprecatedBuiltinsInQuery } from "./checkDeprecatedBuiltins.js";
import { checkDuplicateImports, removeImports } from "./checkDuplicateImports.js";
import { checkKeywordOverrides, checkKeywordOverridesInQuery } from "./checkKeywordOverrides.js";
import { checkRecursion, setGraph } from "./checkRecursion.js";
import { checkRuleConflicts } from "./checkRuleConflicts.js";
import { checkSafetyQuery, checkSafetyRuleBodies, checkSafetyRuleHeads } from "./safety/checkSafety.js";
import { checkTypes, checkTypesInQuery } from "./types/checkTypes.js";
import { checkUndefinedFuncs, checkUndefinedFuncsInQuery } from "./checkUndefinedFuncs.js";
import { checkVoidCalls, checkVoidCallsInQuery } from "./checkVoidCalls.js";
import { resolveRefs, resolveRefsInQuery } from "./resolveRefs.js";
import { rewriteComprehensionTerms, rewriteComprehensionTermsInQuery, rewriteRefsInHead } from "./rewriteComprehensionTerms.js";
import { rewriteDynamicTerms, rewriteDynamicTermsInQuery } from "./rewriteDynamicTerms.js";
import { rewriteEquals } from "./rewriteEquals.js";
import { rewriteExprTerms, rewriteExprTermsInQuery } from "./rewriteExprTerms.js";
import { rewriteLocalVars, rewriteLocalVarsInQuery } from "./rewriteLocalVars.js";
import { rewritePrintCalls, rewritePrintCallsInQuery } from "./rewritePrintCalls.js";
import { rewriteRegoMetadataCalls } from "./rewriteRegoMetadataCalls.js";
import { rewriteRuleHeadRefs } from "./rewriteRuleHeadRefs.js";
import { rewriteTemplateStrings, rewriteTemplateStringsInQuery } from "./rewriteTemplateStrings.js";
import { rewriteWithValues, rewriteWithValuesInQuery } from "./rewriteWithValues.js";
import { buildModuleTree, buildRuleTree } from "./analysis/ruleTree.js";

export interface Stage {
  readonly name: string;
  readonly run: (ctx: CompileContext) => void;
}

/** The module stages. */
export const stages: readonly Stage[] = [
  // first: every later stage sees fully qualified refs (it also collects each module's facts,
  // analysis/facts.ts, as it goes)
  { name: "ResolveRefs", run: resolveRefs },
  // after ResolveRefs (generated names must not clash with any var of the modules); takes the
  // modules' facts, by which the later stages skip the modules that cannot hold what they look for
  { name: "InitLocalVarGen", run: (ctx) => ctx.initLocalVarGen() },
  { name: "RewriteRuleHeadRefs", run: rewriteRuleHeadRefs },
  { name: "CheckKeywordOverrides", run: checkKeywordOverrides },
  { name: "CheckDuplicateImports", run: checkDuplicateImports },
  { name: "RemoveImports", run: removeImports },
  { name: "SetModuleTree", run: (ctx) => (ctx.moduleTree = buildModuleTree(ctx.modules)) },
  // depends on RewriteRuleHeadRefs (the tree is keyed by the rewritten head refs)
  { name: "SetRuleTree", run: (ctx) => (ctx.ruleTree = buildRuleTree(ctx)) },
  // needs the rule tree (arity of user functions for `some ... in` output vars)
  { name: "RewriteLocalVars", run: rewriteLocalVars },
  { name: "CheckVoidCalls", run: checkVoidCalls },
  // after RewriteLocalVars: operands must use the generated names
  { name: "RewritePrintCalls", run: rewritePrintCalls },
  // after RewriteLocalVars, before RewriteExprTerms (which flattens the calls it produces)
  { name: "RewriteTemplateStrings", run: rewriteTemplateStrings },
  // records the rule dependencies of the modules RewriteRegoMetadataCalls cannot change, for
  // SetGraph to replay (analysis/graph.ts)
  { name: "RewriteExprTerms", run: rewriteExprTerms },
  { name: "RewriteRegoMetadataCalls", run: rewriteRegoMetadataCalls },
  { name: "SetGraph", run: setGraph },
  { name: "RewriteComprehensionTerms", run: rewriteComprehensionTerms },
  { name: "RewriteRefsInHead", run: rewriteRefsInHead },
  { name: "RewriteWithValues", run: rewriteWithValues },
  { name: "CheckRuleConflicts", run: checkRuleConflicts },
  { name: "CheckUndefinedFuncs", run: checkUndefinedFuncs },
  // after RewriteRefsInHead: heads hold only vars and constants
  { name: "CheckSafetyRuleHeads", run: checkSafetyRuleHeads },
  { name: "CheckSafetyRuleBodies", run: checkSafetyRuleBodies },
  // after the safety check: `==` must not bind variables
  { name: "RewriteEquals", run: rewriteEquals },
  { name: "RewriteDynamicTerms", run: rewriteDynamicTerms },
  { name: "CheckRecursion", run: checkRecursion },
  // must run after CheckRecursion (rules are typed in dependency order)
  { name: "CheckTypes", run: checkTypes },
  { name: "CheckDeprecatedBuiltins", run: checkDeprecatedBuiltins },
];

/** The stages of a query compiled against the modules (OPA's query compiler). */
export const queryStages: readonly Stage[] = [
  { name: "CheckKeywordOverrides", run: checkKeywordOverridesInQuery },
  { name: "ResolveRefs", run: resolveRefsInQuery },
  { name: "RewriteLocalVars", run: rewriteLocalVarsInQuery },
  { name: "CheckVoidCalls", run: checkVoidCallsInQuery },
  { name: "RewritePrintCalls", run: rewritePrintCallsInQuery },
  { name: "RewriteTemplateStrings", run: rewriteTemplateStringsInQuery },
  { name: "RewriteExprTerms", run: rewriteExprTermsInQuery },
  { name: "RewriteComprehensionTerms", run: rewriteComprehensionTermsInQuery },
  { name: "RewriteWithValues", run: rewriteWithValuesInQuery },
  { name: "CheckUndefinedFuncs", run: checkUndefinedFuncsInQuery },
  { name: "CheckSafety", run: checkSafetyQuery },
  { name: "RewriteDynamicTerms", run: rewriteDynamicTermsInQuery },
  { name: "CheckTypes", run: checkTypesInQuery },
  { name: "CheckDeprecatedBuiltins", run: checkDeprecatedBuiltinsInQuery },
];

export const stageNames: readonly string[] = stages.map((s) => s.name);
