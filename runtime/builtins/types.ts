// Builtins of OPA's "types" category: is_<type> (true or false for any value) and type_name.
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { isArrayType, isBooleanType, isNullType, isNumberType, isObjectType, isSetType, isStringType } from "../eval/ops.js";
import { typeName, type Value } from "../value/value.js";

/** The builtin of a type test operator (defined for any value: `!`). */
function isType(test: (v: Value) => boolean | undefined) {
  return (_ctx: EvalContext, v: Value): Value => test(v)!;
}

function typeNameOf(_ctx: EvalContext, v: Value): Value {
  return typeName(v);
}

export const typesBuiltins: BuiltinTable = {
  is_array: { fn: isType(isArrayType) },
  is_boolean: { fn: isType(isBooleanType) },
  is_null: { fn: isType(isNullType) },
  is_number: { fn: isType(isNumberType) },
  is_object: { fn: isType(isObjectType) },
  is_set: { fn: isType(isSetType) },
  is_string: { fn: isType(isStringType) },
  type_name: { fn: typeNameOf },
};
