// Builtins of OPA's "jwt" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const jwtBuiltins: BuiltinTable = {};
