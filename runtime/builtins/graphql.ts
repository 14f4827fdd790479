// Builtins of OPA's "graphql" category. Each entry: OPA's exact name → { fn(ctx, ...args) }.
import type { BuiltinTable } from "./registry.js";

export const graphqlBuiltins: BuiltinTable = {};
