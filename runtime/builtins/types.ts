// Builtins of OPA's "types" category: is_<type> (true or false for any value) and type_name.
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { typeName, type TypeName, type Value } from "../value/value.js";

function isType(name: TypeName) {
  return (_ctx: EvalContext, v: Value): Value => typeName(v) === name;
}

function typeNameOf(_ctx: EvalContext, v: Value): Value {
  return typeName(v);
}

export const typesBuiltins: BuiltinTable = {
  is_array: { fn: isType("array") },
  is_boolean: { fn: isType("boolean") },
  is_null: { fn: isType("null") },
  is_number: { fn: isType("number") },
  is_object: { fn: isType("object") },
  is_set: { fn: isType("set") },
  is_string: { fn: isType("string") },
  type_name: { fn: typeNameOf },
};
