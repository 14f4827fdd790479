// Builtins of OPA's "array" category: array.concat, array.slice, array.reverse, array.flatten.
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import type { Value } from "../value/value.js";
import { arr, intOperand } from "./args.js";

function concat(_ctx: EvalContext, a: Value, b: Value): Value {
  const x = arr(a, 1);
  const y = arr(b, 2);
  return x.concat(y);
}

/** arr[start:stop], both clamped into range (a start past the stop gives []). */
function slice(_ctx: EvalContext, a: Value, start: Value, stop: Value): Value {
  const x = arr(a, 1);
  let lo = intOperand(start, 2);
  let hi = intOperand(stop, 3);
  hi = hi < 0 ? 0 : Math.min(hi, x.length);
  lo = lo < 0 ? 0 : Math.min(lo, hi);
  return x.slice(lo, hi);
}

function reverse(_ctx: EvalContext, a: Value): Value {
  return arr(a, 1).slice().reverse();
}

/** One level: array elements are spliced in, everything else kept as it is. */
function flatten(_ctx: EvalContext, a: Value): Value {
  const out: Value[] = [];
  for (const v of arr(a, 1)) {
    if (Array.isArray(v)) for (const w of v) out.push(w);
    else out.push(v);
  }
  return out;
}

export const arraysBuiltins: BuiltinTable = {
  "array.concat": { fn: concat },
  "array.slice": { fn: slice },
  "array.reverse": { fn: reverse },
  "array.flatten": { fn: flatten },
};
