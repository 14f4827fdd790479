// Builtins of OPA's "graphs" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const graphsBuiltins: BuiltinTable = {};
