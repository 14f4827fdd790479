// Builtins of OPA's "json" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const jsonBuiltins: BuiltinTable = {};
