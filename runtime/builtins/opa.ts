// Builtins of OPA's "opa" category.
//
// opa.runtime() returns what the application passed as the `runtime` evaluation option, and `{}`
// otherwise — what OPA returns when it is embedded as a library without runtime information. The
// process environment is deliberately not exposed: a policy (or a bundle fetched from a server)
// must not read the host's secrets unless the application hands them over.
import { newPlainObject } from "../value/value.js";
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";

/** The OPA version regoc's builtins follow (see compiler/builtins/capabilities.json). */
export const OPA_COMPAT_VERSION = "1.20.2";

export const opaBuiltins: BuiltinTable = {
  "opa.runtime": { fn: (ctx: EvalContext) => ctx.runtime ?? newPlainObject() },
};
