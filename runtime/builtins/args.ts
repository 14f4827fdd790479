// Operand checks shared by every builtin, with OPA's exact messages
// ("operand 2 must be number but got set", "operand 1 must be one of {array, set} but got string",
// "operand 1 must be array of strings but got array containing number").
// A builtin throws these; the registry's invoke wrapper prefixes the builtin's name, adds the
// location, and decides between raising (strict mode) and undefined.
import { RegoError } from "../errors.js";
import { BigNum, isInteger, toBigInt, type Num } from "../value/number.js";
import { RegoObject, isObject, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { typeName, type Value } from "../value/value.js";

export function operandError(pos: number, message: string): RegoError {
  return new RegoError("eval_type_error", `operand ${pos} ${message}`);
}

/** `operand N must be T but got U` / `must be one of {A, B} but got U`. */
export function operandTypeError(pos: number, got: Value, ...expected: string[]): RegoError {
  if (expected.length === 1) return operandError(pos, `must be ${expected[0]} but got ${typeName(got)}`);
  return operandError(pos, `must be one of {${expected.join(", ")}} but got ${typeName(got)}`);
}

/** `operand N must be array of strings but got array containing number`. */
export function operandElementError(pos: number, composite: Value, got: Value, ...expected: string[]): RegoError {
  const t = typeName(composite);
  if (expected.length === 1) return operandError(pos, `must be ${t} of ${expected[0]}s but got ${t} containing ${typeName(got)}`);
  return operandError(pos, `must be ${t} of (any of) {${expected.join(", ")}} but got ${t} containing ${typeName(got)}`);
}

/** `operand N must be one of {a, b}` (a value outside an enumeration). */
export function operandEnumError(pos: number, ...expected: string[]): RegoError {
  if (expected.length === 1) return operandError(pos, `must be ${expected[0]}`);
  return operandError(pos, `must be one of {${expected.join(", ")}}`);
}

/** A builtin's own failure (`eval_builtin_error`); the wrapper adds the `name: ` prefix. */
export function builtinError(message: string): RegoError {
  return new RegoError("eval_builtin_error", message);
}


/** An error class a helper module throws with Go's text (DerError, UrlError, LayoutError, ...). */
export type ErrorClass = abstract new (...args: never[]) => Error;

const isOneOf = (e: unknown, kinds: ErrorClass | readonly ErrorClass[]): e is Error =>
  Array.isArray(kinds) ? kinds.some((k) => e instanceof k) : e instanceof (kinds as ErrorClass);

/**
 * Runs a helper (a parser or decoder ported from Go) and turns its failures of the given classes
 * into builtin errors carrying their text, after `prefix` (OPA's `fmt.Errorf("...: %v", err)`).
 * Anything else propagates unchanged.
 */
export function goErrors<T>(kinds: ErrorClass | readonly ErrorClass[], f: () => T, prefix = ""): T {
  try {
    return f();
  } catch (e) {
    if (isOneOf(e, kinds)) throw builtinError(`${prefix}${e.message}`);
    throw e;
  }
}

/** The *.is_valid shape: whether f runs without a failure of the given classes (others propagate). */
export function succeeds(kinds: ErrorClass | readonly ErrorClass[], f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (isOneOf(e, kinds)) return false;
    throw e;
  }
}

/** Go's int64 range, for the operands and results OPA holds in an int64. */
export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;

export function num(v: Value, pos: number): Num {
  if (typeof v === "number" || v instanceof BigNum) return v;
  throw operandTypeError(pos, v, "number");
}

export function str(v: Value, pos: number): string {
  if (typeof v === "string") return v;
  throw operandTypeError(pos, v, "string");
}

export function bool(v: Value, pos: number): boolean {
  if (typeof v === "boolean") return v;
  throw operandTypeError(pos, v, "boolean");
}

export function arr(v: Value, pos: number): Value[] {
  if (Array.isArray(v)) return v;
  throw operandTypeError(pos, v, "array");
}

export function obj(v: Value, pos: number): ObjectValue {
  if (isObject(v)) return v;
  throw operandTypeError(pos, v, "object");
}

export function set(v: Value, pos: number): RegoSet {
  if (v instanceof RegoSet) return v;
  throw operandTypeError(pos, v, "set");
}

/** An integer operand as a JS number (OPA: "operand N must be integer number but got floating-point number"). */
export function int(v: Value, pos: number): number {
  const n = num(v, pos);
  if (!isInteger(n)) throw operandError(pos, "must be integer number but got floating-point number");
  return typeof n === "number" ? n : Number(toBigInt(n));
}

/** An integer operand as a bigint, for exact integer arithmetic. */
export function bigint(v: Value, pos: number): bigint {
  const n = num(v, pos);
  if (!isInteger(n)) throw operandError(pos, "must be integer number but got floating-point number");
  return toBigInt(n);
}

/** The elements of an array or set operand (sets in OPA's order). */
export function arrayOrSet(v: Value, pos: number): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw operandTypeError(pos, v, "array", "set");
}

export { RegoObject, RegoSet };

/** A type error whose whole message is given (OPA's bare ErrOperand texts, without `operand N`). */
export function typeError(message: string): RegoError {
  return new RegoError("eval_type_error", message);
}

/**
 * An integer operand as a bigint, with OPA's BigIntOperand messages: a non-number is
 * "operand N must be integer but got T", a non-integer number
 * "operand N must be integer number but got floating-point number".
 */
export function bigIntOperand(v: Value, pos: number): bigint {
  if (typeof v !== "number" && !(v instanceof BigNum)) throw operandTypeError(pos, v, "integer");
  if (!isInteger(v)) throw operandError(pos, "must be integer number but got floating-point number");
  return toBigInt(v);
}

/**
 * OPA's IntOperand: an integer that fits Go's int (64 bits), as a JS number. Integers beyond
 * int64 are refused with the same message as fractions ("must be integer number but got
 * floating-point number"), as OPA's Number.Int() fails for both.
 */
export function intOperand(v: Value, pos: number): number {
  const n = num(v, pos);
  const fail = () => operandError(pos, "must be integer number but got floating-point number");
  if (!isInteger(n)) throw fail();
  if (typeof n === "number") {
    if (Math.abs(n) >= 2 ** 63) throw fail();
    return n;
  }
  const i = toBigInt(n);
  if (i < INT64_MIN || i > INT64_MAX) throw fail();
  return Number(i);
}
