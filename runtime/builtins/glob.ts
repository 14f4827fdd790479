// Builtins of OPA's "glob" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const globBuiltins: BuiltinTable = {};
