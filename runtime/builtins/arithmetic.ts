// Builtins of OPA's "numbers" category (arithmetic): plus, minus (also set difference), mul, div,
// rem, abs, round, ceil, floor, numbers.range, numbers.range_step.
//
// Integers are exact at any size. Anything else is computed as OPA does, in 64-bit-mantissa
// binary floating point (go/bigFloat.ts), so results match OPA digit for digit (0.1 + 0.2 is 0.3).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import { RegoError, cancelError } from "../errors.js";
import { tick } from "../eval/deadline.js";
import {
  BigNum,
  add as addNum,
  fromBigInt,
  isInteger,
  multiply as multiplyNum,
  negate,
  sign,
  subtract as subtractNum,
  toBigInt,
  type Num,
} from "../value/number.js";
import { bigIntOperand, builtinError, num, operandTypeError } from "./args.js";
import * as bf from "./go/bigFloat.js";

/** Integer operands whose digits are too many to expand are refused (OPA's floats would round them). */
function exactInt(n: Num): bigint {
  if (n instanceof BigNum && n.exp > bf.MAX_EXP10) throw builtinError("number too large");
  return toBigInt(n);
}

function bothInts(a: Num, b: Num): boolean {
  if (!isInteger(a) || !isInteger(b)) return false;
  // Integers written with a huge exponent (1e1000000) are not expanded into their digits.
  if ((a instanceof BigNum && a.exp > bf.MAX_EXP10) || (b instanceof BigNum && b.exp > bf.MAX_EXP10)) {
    throw builtinError("number too large");
  }
  return true;
}

function floatOp(a: Num, b: Num, op: (x: bf.BigFloat, y: bf.BigFloat, prec: number) => bf.BigFloat): Num {
  return bf.toNum(op(bf.fromNum(a), bf.fromNum(b), bf.PREC));
}

export function plusNums(a: Num, b: Num): Num {
  if (bothInts(a, b)) return addNum(a, b)!;
  return floatOp(a, b, bf.add);
}

export function minusNums(a: Num, b: Num): Num {
  if (bothInts(a, b)) return subtractNum(a, b)!;
  return floatOp(a, b, (x, y, p) => bf.add(x, bf.neg(y), p));
}

export function mulNums(a: Num, b: Num): Num {
  if (bothInts(a, b)) return multiplyNum(a, b)!;
  return floatOp(a, b, bf.mul);
}

function isZero(n: Num): boolean {
  return sign(n) === 0;
}

export function divNums(a: Num, b: Num): Num {
  if (isZero(b)) throw builtinError("divide by zero");
  // Exact when the divisor divides the dividend; otherwise a float quotient, as OPA computes it.
  if (bothInts(a, b)) {
    if (typeof a === "number" && typeof b === "number" && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
      if (a % b === 0) return a / b === 0 ? 0 : a / b;
    } else {
      const x = exactInt(a);
      const y = exactInt(b);
      if (x % y === 0n) return fromBigInt(x / y);
    }
  }
  return floatOp(a, b, bf.quo);
}

export function remNums(a: Num, b: Num): Num {
  if (!bothInts(a, b)) throw builtinError("modulo on floating-point number");
  if (isZero(b)) throw builtinError("modulo by zero");
  if (typeof a === "number" && typeof b === "number" && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const r = a % b;
    return r === 0 ? 0 : r;
  }
  return fromBigInt(exactInt(a) % exactInt(b));
}

function plus(_ctx: EvalContext, a: Value, b: Value): Value {
  return plusNums(num(a, 1), num(b, 2));
}

function minus(_ctx: EvalContext, a: Value, b: Value): Value {
  const aNum = typeof a === "number" || a instanceof BigNum;
  const bNum = typeof b === "number" || b instanceof BigNum;
  if (aNum && bNum) return minusNums(a, b);
  if (a instanceof RegoSet && b instanceof RegoSet) return setDifference(a, b);
  if (!aNum && !(a instanceof RegoSet)) throw operandTypeError(1, a, "number", "set");
  if (bNum) throw operandTypeError(2, b, "set");
  throw operandTypeError(2, b, "number");
}

export function setDifference(a: RegoSet, b: RegoSet): RegoSet {
  const out = new RegoSet();
  for (const v of a.unordered()) if (!b.has(v)) out.add(v);
  return out;
}

function mul(_ctx: EvalContext, a: Value, b: Value): Value {
  return mulNums(num(a, 1), num(b, 2));
}

function div(_ctx: EvalContext, a: Value, b: Value): Value {
  return divNums(num(a, 1), num(b, 2));
}

function rem(_ctx: EvalContext, a: Value, b: Value): Value {
  return remNums(num(a, 1), num(b, 2));
}

function abs(_ctx: EvalContext, a: Value): Value {
  const n = num(a, 1);
  if (isInteger(n)) return sign(n) < 0 ? negate(n) : n;
  const x = bf.fromNum(n);
  return bf.toNum(x.m < 0n ? bf.neg(x) : x);
}

// round, ceil and floor work on the float OPA parses the operand into.
function round(_ctx: EvalContext, a: Value): Value {
  const n = num(a, 1);
  if (isInteger(n)) return n;
  const x = bf.fromNum(n);
  // Half away from zero: truncate x ± 0.5 (the sum itself rounded to 64 bits).
  const half: bf.BigFloat = { m: x.m < 0n ? -1n : 1n, e: -1 };
  return fromBigInt(bf.trunc(bf.add(x, half, bf.PREC)));
}

// OPA's ceil and floor truncate toward zero and then adjust by one unless the truncated value is
// negative; zero is never negative, so ceil(-0.5) is 1 and floor(-0.5) is 0 in OPA. Kept as is.
function ceilOrFloor(a: Value, up: boolean): Value {
  const n = num(a, 1);
  if (isInteger(n)) return n;
  const x = bf.fromNum(n);
  const i = bf.trunc(x);
  if (bf.isInt(x)) return fromBigInt(i);
  if (up) return fromBigInt(i < 0n ? i : i + 1n);
  return fromBigInt(i >= 0n ? i : i - 1n);
}

const ceil = (_ctx: EvalContext, a: Value): Value => ceilOrFloor(a, true);
const floor = (_ctx: EvalContext, a: Value): Value => ceilOrFloor(a, false);

/** Numbers of a range built between two looks at the clock (a power of two). */
const RANGE_CHUNK = 1 << 14;
/** How many times the time left a range's projected building time may be before it is refused. */
const RANGE_SLACK = 4;

/** The range lo..hi by step (either way); its length is bounded by the evaluation's rangeLimit
 * (see EvalOptions.maxRangeLength). With a deadline it is built in chunks, with a look at the
 * clock after each: one that, at the pace measured so far, would take more than RANGE_SLACK times
 * the time left fails then with eval_cancel_error rather than at the deadline (the array's growth
 * and collection past that point are what a late cancellation costs). */
function range(ctx: EvalContext, name: string, lo: bigint, hi: bigint, step: bigint): Value[] {
  const count = (lo <= hi ? hi - lo : lo - hi) / step + 1n;
  const limit = ctx.rangeLimit;
  if (ctx.rangeUpfront && count > BigInt(limit)) throw rangeTooLong(name, count, limit);
  const out: Value[] = [];
  const d = ctx.deadline;
  const n = count > BigInt(limit) ? limit + 1 : Number(count);
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  const exact = lo <= safe && lo >= -safe && hi <= safe && hi >= -safe;
  // Within doubles' exact integers the numbers are counted as doubles; beyond, as bigints.
  const first = Number(lo);
  const by = Number(lo <= hi ? step : -step);
  const timed = d.at !== Infinity;
  const started = timed ? performance.now() : 0;
  let last = started;
  let slowest = 0;
  tick(d, 0);
  for (let i = 0; i < n; i++) {
    if ((i & (RANGE_CHUNK - 1)) === 0 && i !== 0) {
      d.check();
      if (timed) {
        // The pace leaves the slowest chunk out: one pause (a collection, another process) is no pace.
        const now = performance.now();
        slowest = Math.max(slowest, now - last);
        last = now;
        if (i > RANGE_CHUNK && ((now - started - slowest) / (i - RANGE_CHUNK)) * (n - i) > RANGE_SLACK * (d.at - now)) throw cancelError(`${name}: a range of ${count} numbers cannot be built before the deadline`);
      }
    }
    if (i === limit) throw rangeTooLong(name, count, limit);
    out.push(exact ? first + i * by : fromBigInt(lo + BigInt(i) * (lo <= hi ? step : -step)));
  }
  return out;
}

/** A range over the bound: an error in every mode, so that it never leaves a rule undefined. */
function rangeTooLong(name: string, count: bigint, limit: number): RegoError {
  return new RegoError("eval_internal_error", `${name}: a range of ${count} numbers is over the limit of ${limit} (the maxRangeLength evaluation option)`);
}

function numbersRange(ctx: EvalContext, a: Value, b: Value): Value {
  return range(ctx, "numbers.range", bigIntOperand(a, 1), bigIntOperand(b, 2), 1n);
}

function numbersRangeStep(ctx: EvalContext, a: Value, b: Value, step: Value): Value {
  const lo = bigIntOperand(a, 1);
  const hi = bigIntOperand(b, 2);
  const s = bigIntOperand(step, 3);
  // OPA's own message carries the name; the registry adds it once more, as OPA does.
  if (s <= 0n) throw builtinError("numbers.range_step: step must be a positive integer");
  return range(ctx, "numbers.range_step", lo, hi, s);
}

export const arithmeticBuiltins: BuiltinTable = {
  plus: { fn: plus },
  minus: { fn: minus },
  mul: { fn: mul },
  div: { fn: div },
  rem: { fn: rem },
  abs: { fn: abs },
  round: { fn: round },
  ceil: { fn: ceil },
  floor: { fn: floor },
  "numbers.range": { fn: numbersRange },
  "numbers.range_step": { fn: numbersRangeStep },
};
