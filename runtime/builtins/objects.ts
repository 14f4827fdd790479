// Builtins of OPA's "objects" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const objectsBuiltins: BuiltinTable = {};
