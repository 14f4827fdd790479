// regoc's public runtime API: what applications use (test/unit/runtime/exports.test.ts holds the
// list: a new export is a decision). Generated code imports `regoc/eval` and
// `regoc/builtins/<category>` instead; builtins load by need (builtins/catalog.ts).
export { RegoError, RegoErrors } from "./errors.js";
export { RegoSet } from "./value/set.js";
export { RegoObject } from "./value/object.js";
export { BigNum } from "./value/number.js";
export { toJSON, toJSONText, type JSONValue } from "./value/json.js";
export type { Value } from "./value/value.js";
export type { EvalContext, EvalOptions } from "./builtins/context.js";
export { registerBuiltins } from "./builtins/catalog.js";
export type { BuiltinDef, BuiltinTable } from "./builtins/registry.js";
// The application runtime: data store, prepared decisions, the query engine, hot reload, bundles.
export { Store, type Transaction } from "./store/index.js";
export { Authorizer, type AuthorizerOptions } from "./authorizer.js";
export { Engine, type EngineOptions, type QueryResult } from "./engine.js";
export type { CompileFilterOptions } from "../compiler/filter/compile.js";
export type { CompileFilterResponse } from "../compiler/filter/index.js";
export { HotReloader, type HotReloaderOptions, type ReloadEvent } from "./reload.js";
export { BundleClient, type BundleOptions, type BundleStatus, type DecisionResult } from "./bundle/client.js";
