// Builtins of OPA's "time" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const timeBuiltins: BuiltinTable = {};
