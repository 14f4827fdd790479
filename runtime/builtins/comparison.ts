// Builtins of OPA's "comparison" category: ==, !=, <, <=, >, >= over any two values, in OPA's
// total order (null < boolean < number < string < array < object < set; see value/compare.ts).
import { eq, gt, gte, lt, lte, neq } from "../eval/ops.js";
import type { BuiltinTable } from "./registry.js";

// (the generated code calls the same functions as operators: compiler/codegen/analysis/calls.ts)
export const comparisonBuiltins: BuiltinTable = {
  equal: { fn: (_ctx, a, b) => eq(a, b)! },
  neq: { fn: (_ctx, a, b) => neq(a, b)! },
  lt: { fn: (_ctx, a, b) => lt(a, b)! },
  lte: { fn: (_ctx, a, b) => lte(a, b)! },
  gt: { fn: (_ctx, a, b) => gt(a, b)! },
  gte: { fn: (_ctx, a, b) => gte(a, b)! },
};
