// Builtins of OPA's "jsonschema" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const jsonschemaBuiltins: BuiltinTable = {};
