// The errors of data-filter compilation, by situation, with OPA's compile-API codes.
import { RegoError, type Location } from "../../runtime/errors.js";

/** A request parameter (path, target, mappings) regoc cannot use. */
export function invalidParameterError(message: string): RegoError {
  return new RegoError("invalid_parameter", message);
}

/** The request's unknowns are not a list of refs; `problem` says what is wrong. */
export function unknownsParseError(problem: string): RegoError {
  return invalidParameterError(`error(s) occurred while parsing unknowns: ${problem}`);
}

/** An unknown that is not rooted at input or data, or no unknowns at all. */
export function invalidUnknownError(message: string, location?: Location): RegoError {
  return new RegoError("invalid_unknown", message, location);
}

export function invalidMaskRuleError(message: string): RegoError {
  return new RegoError("invalid_mask_rule", message);
}

/** A residual expression no filter target can express; `hint` says what a filter can. */
export function fragmentError(location: Location | undefined, message: string, hint: string, cause?: unknown): RegoError {
  return new RegoError("pe_fragment_error", message, location, cause === undefined ? { details: { hint } } : { details: { hint }, cause });
}
