// Builtins of OPA's "semver" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const semverBuiltins: BuiltinTable = {};
