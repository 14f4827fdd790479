// Decoding and validating a plan in one go (what the code generator needs before it starts). A
// plan our planner made is already in the decoded shape and valid: one walk over its statements
// checks both (validate.ts's isValidDecoded) and it is used as it is. Anything else — a plan to
// copy, an invalid plan — goes through the decoder and then validatePolicy, which report the
// first problem exactly as decodePolicy and validatePolicy do on their own.
import { decodeParsed, parsePlanText } from "./decode.js";
import type { Policy } from "./types.js";
import { isValidDecoded, validatePolicy } from "./validate.js";

/** validatePolicy(decodePolicy(plan)): the same plan, or the same first error. */
export function decodeValidPolicy(plan: unknown): Policy {
  const v = parsePlanText(plan);
  if (isValidDecoded(v)) return v;
  const policy = decodeParsed(v);
  validatePolicy(policy);
  return policy;
}
