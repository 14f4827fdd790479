// Builtins of OPA's "http" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const httpBuiltins: BuiltinTable = {};
