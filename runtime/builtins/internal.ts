// Builtins of OPA's "internal" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const internalBuiltins: BuiltinTable = {};
