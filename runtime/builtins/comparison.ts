// Builtins of OPA's "comparison" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const comparisonBuiltins: BuiltinTable = {};
