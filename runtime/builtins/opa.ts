// Builtins of OPA's "opa" category.
//
// opa.runtime() returns OPA's runtime shape without the `config` key (regoc has no OPA
// configuration file):
//   { "env": {NAME: value, ...},   the process environment (empty where there is none, e.g. browsers)
//     "version": "1.20.2",         the OPA version whose builtins and semantics regoc follows
//     "commit": "" }               no OPA build commit
// Like OPA, the value is fixed for one evaluation (the builtin is nondeterministic and cached).
import { newPlainObject, setOwn, type PlainObject } from "../value/value.js";
import type { BuiltinTable } from "./registry.js";

/** The OPA version regoc's builtins follow (see compiler/builtins/capabilities.json). */
export const OPA_COMPAT_VERSION = "1.20.2";

function environment(): PlainObject {
  const env = newPlainObject();
  const source = typeof process === "object" && process !== null ? process.env : undefined;
  if (source) {
    for (const [k, v] of Object.entries(source)) if (typeof v === "string") setOwn(env, k, v);
  }
  return env;
}

function runtime(): PlainObject {
  const out = newPlainObject();
  setOwn(out, "env", environment());
  setOwn(out, "version", OPA_COMPAT_VERSION);
  setOwn(out, "commit", "");
  return out;
}

export const opaBuiltins: BuiltinTable = {
  "opa.runtime": { fn: () => runtime(), nondeterministic: true },
};
