// Builtins the compiler emits on its own: `in` (internal.member_2/3), print (internal.print, and
// print itself), template strings $"...{x}..." (internal.template_string), internal.test_case,
// and trace (the "tracing" category).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { RegoError } from "../errors.js";
import { equal } from "../value/compare.js";
import { isInteger, isNumber, toDouble } from "../value/number.js";
import { RegoObject, isObject, objectGet } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { isPlainObject, typeName, type Value } from "../value/value.js";
import { internalError, member } from "../eval/ops.js";
import { arr, str } from "./args.js";
import { printString } from "./termString.js";

/** `x in xs`: an element of a set or array, or a value of an object; false for anything else. */
function member2(_ctx: EvalContext, x: Value, coll: Value): Value {
  return member(x, coll)!;
}

/** `k, v in xs`: xs[k] is v (for a set: k is an element and equals v). */
function member3(_ctx: EvalContext, k: Value, v: Value, coll: Value): Value {
  if (coll instanceof RegoSet) return coll.has(k) && equal(k, v);
  if (Array.isArray(coll)) {
    if (!isNumber(k) || !isInteger(k)) return false;
    const i = toDouble(k);
    return i >= 0 && i < coll.length && equal(coll[i], v);
  }
  if (isObject(coll)) return equal(objectGet(coll, k), v);
  return false;
}

/**
 * The text of each combination of the operands' values. A string, number, boolean or null operand
 * is one value; any other operand must be a set holding the values of one expression (empty: it
 * was undefined, shown as `<undefined>`).
 */
function crossProduct(operands: readonly Value[], out: string[][], buf: string[] = [], i = 0): void {
  if (i >= operands.length) {
    out.push(buf.slice());
    return;
  }
  const x = operands[i]!;
  if (x === null || typeof x !== "object" || isNumber(x)) {
    buf[i] = printString(x);
    crossProduct(operands, out, buf, i + 1);
    return;
  }
  if (!(x instanceof RegoSet)) {
    throw internalError(`illegal argument type: ${typeName(x)}`);
  }
  if (x.size === 0) {
    buf[i] = "<undefined>";
    crossProduct(operands, out, buf, i + 1);
    return;
  }
  for (const v of x.sorted()) {
    buf[i] = printString(v);
    crossProduct(operands, out, buf, i + 1);
  }
}

/** internal.print([{values of arg 1}, {values of arg 2}, ...]): one line per combination. */
function internalPrint(ctx: EvalContext, operands: Value): undefined {
  if (ctx.print === undefined) return undefined;
  const lines: string[][] = [];
  crossProduct(arr(operands, 1), lines);
  for (const parts of lines) ctx.print(parts.join(" "));
  return undefined;
}

/** print(x, y, ...) called directly: each argument is one value. */
function print(ctx: EvalContext, ...args: Value[]): undefined {
  if (ctx.print !== undefined) ctx.print(args.map(printString).join(" "));
  return undefined;
}

/** $"a {x} b" → internal.template_string(["a ", {x's value}, " b"]). */
function templateString(_ctx: EvalContext, parts: Value): Value {
  const outputs: string[][] = [];
  crossProduct(arr(parts, 1), outputs);
  if (outputs.length > 1) throw multipleTemplateOutputsError();
  return (outputs[0] ?? []).join("");
}

/** Emits a test-case event for tracers (none here); always true. */
function testCase(_ctx: EvalContext, _note: Value): Value {
  return true;
}

/** trace(note): a note for tracers (none here); true. */
function trace(_ctx: EvalContext, note: Value): Value {
  str(note, 1);
  return true;
}

export const internalBuiltins: BuiltinTable = {
  "internal.member_2": { fn: member2 },
  "internal.member_3": { fn: member3 },
  "internal.print": { fn: internalPrint },
  print: { fn: print },
  "internal.template_string": { fn: templateString },
  "internal.test_case": { fn: testCase },
  trace: { fn: trace },
};

/** OPA's conflict for a template string whose parts have more than one value. */
function multipleTemplateOutputsError(): RegoError {
  return new RegoError("eval_conflict_error", "template-strings must not produce multiple outputs");
}
