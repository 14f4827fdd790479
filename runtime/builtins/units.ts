// Builtins of OPA's "units" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const unitsBuiltins: BuiltinTable = {};
