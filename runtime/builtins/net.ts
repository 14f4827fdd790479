// Builtins of OPA's "net" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const netBuiltins: BuiltinTable = {};
