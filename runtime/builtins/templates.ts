// Builtins of OPA's "templates" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const templatesBuiltins: BuiltinTable = {};
