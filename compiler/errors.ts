// The compiler's errors outside a stage (a stage reports through `ctx.err`, passes/context.ts), by
// situation, as OPA's v1/ast/errors.go names them: each message is written here once.
import { RegoError, type Location } from "../runtime/errors.js";

/** The prefix of the message of a RegoError that stands for a bug of the compiler (an exception
 * other than a RegoError): bad input gets a RegoError of its own, never this. */
export const INTERNAL_COMPILER_ERROR = "internal error in the compiler";

/** An exception of the compiler that is not a RegoError: a bug. */
export function internalCompilerError(what: string, e: unknown): RegoError {
  const message = e instanceof Error ? e.message : String(e);
  return new RegoError("rego_compile_error", `${INTERNAL_COMPILER_ERROR}: ${what}: ${message}`, undefined, { cause: e });
}

/** The JS stack ran out in `what`; `deepest` is the most deeply nested part, when known. */
export function tooComplexError(what: string, deepest?: { depth: number; location: Location | undefined }, cause?: unknown): RegoError {
  return new RegoError(
    "rego_compile_error",
    `policy too complex to compile: ${what} ran out of stack${deepest ? ` (the most deeply nested part is here, ${deepest.depth} levels)` : ""}`,
    deepest?.location,
    cause === undefined ? undefined : { cause },
  );
}

/** The error that ends a compilation past its error limit (OPA's errLimitReached). */
export function errorLimitError(): RegoError {
  return new RegoError("rego_compile_error", "error limit reached");
}

export function invalidEntrypointError(entrypoint: string): RegoError {
  return new RegoError("rego_compile_error", `invalid entrypoint "${entrypoint}"`);
}

export function entrypointNotRuleError(name: string): RegoError {
  return new RegoError("rego_compile_error", `entrypoint "${name}" does not refer to a rule or policy decision`);
}

/** `path`: the function's keys below data. */
export function functionEntrypointError(path: readonly string[]): RegoError {
  return new RegoError("rego_type_error", `function data.${path.join(".")} used as entrypoint (functions are not documents)`);
}

/** An entrypoint of `regoc build` outside every package of the modules. */
export function entrypointWithoutPackageError(entrypoint: string): RegoError {
  return new RegoError("rego_compile_error", `entrypoint "${entrypoint}" is in no package of the given modules`);
}

export function emptyQueryError(): RegoError {
  return new RegoError("rego_compile_error", "empty query cannot be compiled");
}

export function nothingToPlanError(): RegoError {
  return new RegoError("rego_compile_error", "nothing to plan: give entrypoints or a query");
}

export function invalidNumberError(text: string, location?: Location): RegoError {
  return new RegoError("rego_parse_error", `invalid number ${text}`, location);
}

/** A term that was to be a constant; `type` is its term type. */
export function notConstantError(type: string, location?: Location): RegoError {
  return new RegoError("rego_compile_error", `not a constant: ${type}`, location);
}

/** A package path `regoc build` cannot turn into an output file name; `segment` the bad one. */
export function unnamablePackageError(path: readonly string[], segment: string): RegoError {
  return new RegoError("rego_compile_error", `package ${JSON.stringify(path)}: the segment ${JSON.stringify(segment)} cannot name an output file`);
}

/** A rebuild of `regoc build --watch` that failed. */
export function buildFailedError(): RegoError {
  return new RegoError("rego_compile_error", "build failed: the last good output stays");
}

/** `opa build` (the optional bridge to an opa binary) failed; `detail` is its message. */
export function opaBuildError(detail: string, cause: unknown): RegoError {
  return new RegoError("rego_compile_error", `opa build failed: ${detail}`, undefined, { cause });
}

export function opaNoPlanError(): RegoError {
  return new RegoError("rego_compile_error", "opa build produced no plan.json");
}
