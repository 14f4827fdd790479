// Builtins of OPA's "sets" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const setsBuiltins: BuiltinTable = {};
