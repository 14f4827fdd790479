// regoc's public runtime API — and the only module generated code imports.
export * from "./errors.js";
export * from "./value/index.js";
export { EvalContext, type EvalOptions } from "./builtins/context.js";
export {
  getBuiltin,
  builtinNames,
  registerBuiltins,
  invokeBuiltin,
  invokeBuiltinAsync,
  builtinFailed,
  type BuiltinDef,
  type BuiltinFn,
  type BuiltinTable,
  type CallSite,
} from "./builtins/registry.js";
