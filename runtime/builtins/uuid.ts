// Builtins of OPA's "uuid" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const uuidBuiltins: BuiltinTable = {};
