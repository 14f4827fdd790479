// Builtins of OPA's "comparison" category: ==, !=, <, <=, >, >= over any two values, in OPA's
// total order (null < boolean < number < string < array < object < set; see value/compare.ts).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { compare, equal as equalValues } from "../value/compare.js";
import type { Value } from "../value/value.js";

function equal(_ctx: EvalContext, a: Value, b: Value): Value {
  return equalValues(a, b);
}

function neq(_ctx: EvalContext, a: Value, b: Value): Value {
  return !equalValues(a, b);
}

function lt(_ctx: EvalContext, a: Value, b: Value): Value {
  return compare(a, b) < 0;
}

function lte(_ctx: EvalContext, a: Value, b: Value): Value {
  return compare(a, b) <= 0;
}

function gt(_ctx: EvalContext, a: Value, b: Value): Value {
  return compare(a, b) > 0;
}

function gte(_ctx: EvalContext, a: Value, b: Value): Value {
  return compare(a, b) >= 0;
}

export const comparisonBuiltins: BuiltinTable = {
  equal: { fn: equal },
  neq: { fn: neq },
  lt: { fn: lt },
  lte: { fn: lte },
  gt: { fn: gt },
  gte: { fn: gte },
};
