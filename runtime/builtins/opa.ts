// Builtins of OPA's "opa" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const opaBuiltins: BuiltinTable = {};
