// regoc's public compiler API (`regoc/compiler`).
//   compilePlan(plan, {entrypoint?})    IR plan (OPA's plan.json, parsed or text) → PreparedQuery
//   generateTypeScript(plan, options?)  IR plan → {code, entrypoints, builtins}: one module (TypeScript,
//                                       or `language` "javascript" / "function")
//   loadModule(code, generated?)       generated module → live module (its `entrypoints` table, ...)
//   writeModule(file, code)             saves generated TS for ahead-of-time use
//   translateFilter(residuals, options) residual queries → OPA's compile-API answer (SQL / UCAST)
import { isBuiltin, missingBuiltinsError } from "../runtime/builtins/catalog.js";
import { PreparedQuery } from "../runtime/eval/prepared.js";
import { generateModule, preparePolicy, selectPlans, type GeneratedModule, type GenerateOptions } from "./codegen/generate.js";
import { loadModule } from "./codegen/loader.js";

export { loadModule, writeModule, toJavaScript, type LoadedModule, type RuntimeModule, type LoadOptions, type ToJavaScriptOptions } from "./codegen/loader.js";
export type { GeneratedModule, GeneratedEntrypoint, GenerateOptions } from "./codegen/generate.js";
export type { LocalNames } from "./codegen/emit/context.js";
export type { TypeDescription, EntrypointSchemaTypes, SchemaTypes } from "./codegen/schemaTypes.js";
export { translate as translateFilter, type Residuals, type TranslateOptions, type CompileFilterResponse, type FilterResult, type UcastNode } from "./filter/index.js";
export { PreparedQuery, type EvaluateOptions, type ResultSet, type Bindings, type EntrypointTable, type EntrypointInfo } from "../runtime/eval/prepared.js";

export interface CompilePlanOptions {
  /** The entrypoint `evaluate` runs by default (default: the only, or first, plan). Every plan is
   * compiled; `evaluate({entrypoint})` selects another. */
  entrypoint?: string;
}

/** Generates the TypeScript module of a plan (every entrypoint, or the one selected). */
export function generateTypeScript(plan: unknown, options: GenerateOptions = {}): GeneratedModule {
  return generateModule(preparePolicy(plan), options);
}

/** Compiles a plan to a prepared query: validate, check builtins, generate (as a JavaScript
 * function body: a live module needs no types, nor Node's module loader), load. */
export async function compilePlan(plan: unknown, options: CompilePlanOptions = {}): Promise<PreparedQuery> {
  const policy = preparePolicy(plan);
  const entrypoint = selectPlans(policy, options.entrypoint)[0]!.name;
  const generated = generateModule(policy, { language: "function" });
  const missing = generated.builtins.filter((b) => !isBuiltin(b));
  if (missing.length > 0) {
    throw missingBuiltinsError(missing);
  }
  const mod = await loadModule(generated.code, generated);
  return new PreparedQuery(mod.entrypoints, entrypoint, generated.code);
}
export * from "./compile.js";
export { partialEval, printResidual, printQuery, partialToOpaJson, type PartialOptions, type PartialResult } from "./partial/index.js";
