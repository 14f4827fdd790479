// Builtins of OPA's "arrays" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const arraysBuiltins: BuiltinTable = {};
