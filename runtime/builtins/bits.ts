// Builtins of OPA's "bits" category: bitwise operations on integers of any size, with two's
// complement semantics for negative numbers (as Go's big.Int and JS's bigint both have).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { fromBigInt } from "../value/number.js";
import type { Value } from "../value/value.js";
import { bigIntOperand, intOperand, operandError } from "./args.js";

function binary(op: (x: bigint, y: bigint) => bigint) {
  return (_ctx: EvalContext, a: Value, b: Value): Value => fromBigInt(op(bigIntOperand(a, 1), bigIntOperand(b, 2)));
}

/** The shift count: an integer operand that must not be negative. */
function shiftCount(v: Value): bigint {
  const n = intOperand(v, 2);
  if (n < 0) throw operandError(2, "must be an unsigned integer number but got a negative integer");
  return BigInt(n);
}

function negate(_ctx: EvalContext, a: Value): Value {
  return fromBigInt(~bigIntOperand(a, 1));
}

function lsh(_ctx: EvalContext, a: Value, b: Value): Value {
  const x = bigIntOperand(a, 1);
  return fromBigInt(x << shiftCount(b));
}

function rsh(_ctx: EvalContext, a: Value, b: Value): Value {
  const x = bigIntOperand(a, 1);
  return fromBigInt(x >> shiftCount(b));
}

export const bitsBuiltins: BuiltinTable = {
  "bits.and": { fn: binary((x, y) => x & y) },
  "bits.or": { fn: binary((x, y) => x | y) },
  "bits.xor": { fn: binary((x, y) => x ^ y) },
  "bits.negate": { fn: negate },
  "bits.lsh": { fn: lsh },
  "bits.rsh": { fn: rsh },
};
