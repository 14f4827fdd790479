// Builtins of OPA's "aggregates" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const aggregatesBuiltins: BuiltinTable = {};
