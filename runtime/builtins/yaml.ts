// Builtins of OPA's "yaml" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const yamlBuiltins: BuiltinTable = {};
