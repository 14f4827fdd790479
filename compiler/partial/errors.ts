// Partial evaluation's errors, by situation: each message is written here once. Conflicts are
// evaluation's (runtime/eval/errors.ts), with OPA's messages.
import { RegoError, resourceError, type Location } from "../../runtime/errors.js";

/** A construct the partial evaluator cannot leave residual (`what` names it). */
export function unsupported(what: string, location: Location | undefined): RegoError {
  return new RegoError("pe_unsupported", `partial evaluation: ${what} cannot be partially evaluated`, location);
}

export function unknownsNotArrayError(): RegoError {
  return new RegoError("pe_invalid_unknown", "partial evaluation: unknowns must be an array of refs");
}

/** One unknown or disabled ref (`what` says which list) that is not a ground ref of input or data. */
export function badUnknownError(what: string, text: unknown, why: string): RegoError {
  return new RegoError("pe_invalid_unknown", `partial evaluation: ${what} ${JSON.stringify(text)} ${why}`);
}

export function emptyQueryError(): RegoError {
  return new RegoError("rego_compile_error", "partial evaluation: the query must be a non-empty string");
}

/** An exception that is not a RegoError: the stack or memory ran out, or a bug. */
export function partialInternalError(e: unknown): RegoError {
  return resourceError(e, "partial evaluation: ") ?? new RegoError("eval_internal_error", `partial evaluation: internal error: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
}
