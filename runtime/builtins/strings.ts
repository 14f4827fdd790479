// Builtins of OPA's "strings" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const stringsBuiltins: BuiltinTable = {};
