// Builtins of OPA's "types" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const typesBuiltins: BuiltinTable = {};
