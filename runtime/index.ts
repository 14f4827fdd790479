// regoc's public runtime API: what applications use. (Generated code imports `regoc/eval` and
// `regoc/builtins/<category>` instead.) Builtins load by need (builtins/catalog.ts).
export * from "./errors.js";
export * from "./value/index.js";
export { EvalContext, DEFAULT_MAX_RANGE_LENGTH, type EvalOptions } from "./builtins/context.js";
export { builtinNames, registerBuiltins } from "./builtins/catalog.js";
export {
  getBuiltin,
  invokeBuiltin,
  invokeBuiltinAsync,
  builtinFailed,
  type BuiltinDef,
  type BuiltinFn,
  type BuiltinTable,
  type CallSite,
} from "./builtins/registry.js";
// Evaluation support for generated code (compiler/codegen) and prepared queries.
export * from "./eval/ops.js";
export * from "./eval/state.js";
export * from "./eval/deadline.js";
export * from "./eval/sites.js";
export * from "./eval/results.js";
export * from "./eval/prepared.js";
export * from "./eval/coverage.js";
// The application runtime: data store, prepared decisions, the query engine.
export { Store, Transaction, parsePath, formatPath, copyJSON, type StoragePath } from "./store/index.js";
export { Authorizer, type AuthorizerOptions } from "./authorizer.js";
export { Engine, type EngineOptions, type QueryResult } from "./engine.js";
export type { CompileFilterOptions } from "../compiler/filter/compile.js";
export type { CompileFilterResponse, FilterResult, MultiTargetResult, UcastNode } from "../compiler/filter/index.js";
export { compileDecision, rulePath, type CompiledDecision, type CompileDecisionOptions, type QueryExpression } from "./decision.js";
export { HotReloader, type HotReloaderOptions, type ReloadEvent, type ReloadStatus } from "./reload.js";
// Remote bundles (OPA's bundle plugin): download, check limits, compile, swap.
export { startBundle, BundleClient, DEFAULT_LIMITS, type BundleOptions, type BundleStatus, type DecisionRequest, type DecisionResult, type Provenance } from "./bundle/client.js";
export type { DecisionEvent, DecisionLogMetrics } from "./bundle/decisionLogs.js";
export type { StatusReport, BundleStatusReport, PluginState } from "./bundle/status.js";
export { REGOC_VERSION } from "./version.js";
export { parseBundleConfig, type BundlesConfig, type BundleSourceConfig, type ServiceConfig, type PollingConfig, type BearerCredentials, type DecisionLogsConfig, type StatusConfig } from "./bundle/config.js";
export type { ArchiveLimits, ParsedBundle, Manifest } from "./bundle/archive.js";
