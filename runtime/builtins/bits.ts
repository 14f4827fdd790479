// Builtins of OPA's "bits" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const bitsBuiltins: BuiltinTable = {};
