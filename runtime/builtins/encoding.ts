// Builtins of OPA's "encoding" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const encodingBuiltins: BuiltinTable = {};
