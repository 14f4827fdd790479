// Builtins of OPA's "crypto" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const cryptoBuiltins: BuiltinTable = {};
