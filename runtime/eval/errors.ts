// Evaluation's errors, by situation (OPA's topdown/errors.go): each message is written here once.
// The partial evaluator (compiler/partial) reports conflicts with the same messages.
import { RegoError, type Location } from "../errors.js";

/** OPA's messages for a rule, function or object key with more than one value. */
export const CONFLICT_MESSAGES = {
  rule: "complete rules must not produce multiple outputs",
  function: "functions must not produce multiple outputs for same inputs",
  object: "object keys must be unique",
} as const;

export type ConflictKind = keyof typeof CONFLICT_MESSAGES;

export function conflictError(kind: ConflictKind, location: Location | undefined): RegoError {
  return new RegoError("eval_conflict_error", CONFLICT_MESSAGES[kind], location);
}

export function noEntrypointError(name: string): RegoError {
  return new RegoError("eval_internal_error", `no entrypoint ${JSON.stringify(name)} in the module`);
}

/** evaluateSync asked for an entrypoint that calls async builtins. */
export function asyncEntrypointError(name: string): RegoError {
  return new RegoError("eval_internal_error", `entrypoint ${JSON.stringify(name)} calls async builtins: use evaluate`);
}

/** An async builtin reached by a synchronous evaluation. */
export function asyncBuiltinError(name: string, location: Location): RegoError {
  return new RegoError("eval_internal_error", `${name} is async: this plan must be evaluated asynchronously (evaluate, not evaluateSync)`, location);
}

/** A plan calls a builtin that no registry entry implements. */
export function builtinNotImplementedError(name: string, location: Location): RegoError {
  return new RegoError("rego_compile_error", `builtin ${name} is not implemented`, location, { details: { missingBuiltins: [name] } });
}
