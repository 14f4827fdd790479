// Builtins of OPA's "providers" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const providersBuiltins: BuiltinTable = {};
