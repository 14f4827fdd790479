// Builtins of OPA's "arithmetic" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const arithmeticBuiltins: BuiltinTable = {};
