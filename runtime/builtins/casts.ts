// Builtins of OPA's "casts" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const castsBuiltins: BuiltinTable = {};
