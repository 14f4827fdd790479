// Builtins of OPA's "regex" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const regexBuiltins: BuiltinTable = {};
