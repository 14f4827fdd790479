// Builtins of OPA's "sets" category: & (and), | (or), intersection, union, set_diff.
// Set difference through `-` lives in arithmetic.ts (minus).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import { set } from "./args.js";
import { setDifference } from "./arithmetic.js";

function intersect(a: RegoSet, b: RegoSet): RegoSet {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  const out = new RegoSet();
  for (const v of small.unordered()) if (big.has(v)) out.add(v);
  return out;
}

function and(_ctx: EvalContext, a: Value, b: Value): Value {
  return intersect(set(a, 1), set(b, 2));
}

function or(_ctx: EvalContext, a: Value, b: Value): Value {
  const x = set(a, 1);
  const y = set(b, 2);
  const out = new RegoSet(x.unordered());
  for (const v of y.unordered()) out.add(v);
  return out;
}

function setDiff(_ctx: EvalContext, a: Value, b: Value): Value {
  return setDifference(set(a, 1), set(b, 2));
}

/** intersection({s1, s2, ...}): every element must itself be a set (checked in OPA order). */
function intersection(_ctx: EvalContext, sets: Value): Value {
  let result: RegoSet | undefined;
  for (const s of set(sets, 1).sorted()) {
    const x = set(s, 1);
    result = result === undefined ? x : intersect(result, x);
  }
  return result ?? new RegoSet();
}

function union(_ctx: EvalContext, sets: Value): Value {
  const out = new RegoSet();
  for (const s of set(sets, 1).sorted()) for (const v of set(s, 1).unordered()) out.add(v);
  return out;
}

export const setsBuiltins: BuiltinTable = {
  and: { fn: and },
  or: { fn: or },
  intersection: { fn: intersection },
  union: { fn: union },
  set_diff: { fn: setDiff },
};
