// Builtins of OPA's "rego" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const regoBuiltins: BuiltinTable = {};
