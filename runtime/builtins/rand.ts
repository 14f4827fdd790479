// Builtins of OPA's "rand" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const randBuiltins: BuiltinTable = {};
