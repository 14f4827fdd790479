// Builtins of OPA's "aggregates" category: count, sum, product, max, min, sort, all, any.
// `in` (internal.member_2/3) lives in internal.ts.
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { compare, sortValues } from "../value/compare.js";
import { BigNum, fromBigInt, isInteger, toBigInt, type Num } from "../value/number.js";
import { isObject, objectSize } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import { operandElementError, operandTypeError } from "./args.js";
import * as bf from "./go/bigFloat.js";

/** Code points, as Go counts runes (a lone surrogate counts as one). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function count(_ctx: EvalContext, v: Value): Value {
  if (typeof v === "string") return codePointLength(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoSet) return v.size;
  if (isObject(v)) return objectSize(v);
  throw operandTypeError(1, v, "array", "object", "set", "string");
}

/** The elements of a sum/product operand; OPA names the types "set", "array" in this order. */
function numbersOf(v: Value): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw operandTypeError(1, v, "set", "array");
}

function isNum(v: Value): v is Num {
  return typeof v === "number" || v instanceof BigNum;
}

/**
 * Integers accumulate exactly; any other number sends the whole operand through OPA's float
 * accumulator at `prec` bits (sum: 64; product: 53, as OPA's accumulator starts as a float64).
 */
interface Accumulator {
  init: number;
  small: (a: number, b: number) => number;
  exact: (a: bigint, b: bigint) => bigint;
  float: typeof bf.add;
  prec: number;
}

function accumulate(v: Value, { init, small: smallOp, exact: op, float: floatOp, prec }: Accumulator): Value {
  const xs = numbersOf(v);
  // Fast path: safe integers whose running result stays safe.
  let small = init;
  let i = 0;
  for (; i < xs.length; i++) {
    const x = xs[i]!;
    if (typeof x !== "number" || !Number.isSafeInteger(x)) break;
    const r = smallOp(small, x);
    if (!Number.isSafeInteger(r)) break;
    small = r;
  }
  if (i === xs.length) return small === 0 ? 0 : small;
  let exact: bigint | undefined = BigInt(init);
  for (const x of xs) {
    if (!isNum(x) || !isInteger(x) || (x instanceof BigNum && x.exp > bf.MAX_EXP10)) {
      exact = undefined;
      break;
    }
    exact = op(exact, toBigInt(x));
  }
  if (exact !== undefined) return fromBigInt(exact);
  let acc: bf.BigFloat = { m: BigInt(init), e: 0 };
  for (const x of xs) {
    if (!isNum(x)) throw operandElementError(1, v, x, "number");
    acc = floatOp(acc, bf.fromNum(x), prec);
  }
  return bf.toNum(acc, prec);
}

const SUM: Accumulator = { init: 0, small: (a, b) => a + b, exact: (a, b) => a + b, float: bf.add, prec: bf.PREC };
const PRODUCT: Accumulator = { init: 1, small: (a, b) => a * b, exact: (a, b) => a * b, float: bf.mul, prec: 53 };

function sum(_ctx: EvalContext, v: Value): Value {
  return accumulate(v, SUM);
}

function product(_ctx: EvalContext, v: Value): Value {
  return accumulate(v, PRODUCT);
}

function collection(v: Value): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw operandTypeError(1, v, "set", "array");
}

function max(_ctx: EvalContext, v: Value): Value | undefined {
  if (v instanceof RegoSet) return v.size === 0 ? undefined : v.sorted()[v.size - 1];
  const xs = collection(v);
  if (xs.length === 0) return undefined;
  let m: Value = xs[0] as Value;
  for (const x of xs) if (compare(m, x) <= 0) m = x;
  return m;
}

function min(_ctx: EvalContext, v: Value): Value | undefined {
  if (v instanceof RegoSet) return v.size === 0 ? undefined : v.sorted()[0];
  const xs = collection(v);
  if (xs.length === 0) return undefined;
  let m: Value = xs[0] as Value;
  for (const x of xs) if (compare(m, x) >= 0) m = x;
  return m;
}

function sort(_ctx: EvalContext, v: Value): Value {
  if (v instanceof RegoSet) return v.sorted().slice();
  return sortValues(collection(v).slice());
}

function arrayOrSet(v: Value): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw operandTypeError(1, v, "array", "set");
}

function all(_ctx: EvalContext, v: Value): Value {
  for (const x of arrayOrSet(v)) if (x !== true) return false;
  return true;
}

function any(_ctx: EvalContext, v: Value): Value {
  if (v instanceof RegoSet) return v.has(true);
  for (const x of arrayOrSet(v)) if (x === true) return true;
  return false;
}

export const aggregatesBuiltins: BuiltinTable = {
  count: { fn: count },
  sum: { fn: sum },
  product: { fn: product },
  max: { fn: max },
  min: { fn: min },
  sort: { fn: sort },
  all: { fn: all },
  any: { fn: any },
};
