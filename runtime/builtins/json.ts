// Builtins of OPA's "json" category that read and write JSON text (json.marshal,
// json.marshal_with_options, json.unmarshal, json.is_valid). The JSON codec is Go's, in go/json.ts:
// exact numbers, keys sorted by bytes, and Go's escaping of <, >, & as \u003c, \u003e, \u0026.
import { objectEntries } from "../value/object.js";
import type { Value } from "../value/value.js";
import { goErrors, obj, operandError, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { JsonSyntaxError, isValidJson, marshal, unmarshal } from "./go/json.js";
import { quote } from "./go/strconv.js";
import type { BuiltinTable } from "./registry.js";
import { termString } from "./termString.js";
import { typeName } from "../value/value.js";

function marshalWithOptions(_ctx: EvalContext, x: Value, options: Value): Value {
  const opts = obj(options, 2);
  let indent = "\t";
  let prefix = "";
  let implicitPretty = false;
  let explicitPretty: boolean | undefined;
  objectEntries(opts).forEach(([k, v], idx) => {
    if (typeof k !== "string") {
      const inner = `operand ${idx} must be string but got ${typeName(k)}`;
      throw operandError(2, `failed to stringify key ${termString(k)} at index ${idx}: ${inner}`);
    }
    switch (k) {
      case "prefix":
      case "indent": {
        if (typeof v !== "string") {
          const inner = `operand ${idx} must be string but got ${typeName(v)}`;
          throw operandError(2, `key ${quote(k)} failed cast to string: ${inner}`);
        }
        if (k === "prefix") prefix = v;
        else indent = v;
        implicitPretty = true;
        break;
      }
      case "pretty":
        if (typeof v !== "boolean") throw operandError(2, `key ${quote(k)} failed cast to bool`);
        explicitPretty = v;
        break;
      default:
        throw operandError(2, `object contained unknown key ${quote(k)}`);
    }
  });
  const pretty = explicitPretty ?? implicitPretty;
  // MarshalIndent does not prefix the first line; OPA adds the prefix in front.
  return pretty ? prefix + marshal(x, { prefix, indent }) : marshal(x);
}

function jsonUnmarshal(_ctx: EvalContext, text: Value): Value {
  return goErrors(JsonSyntaxError, () => unmarshal(str(text, 1)));
}

export const jsonBuiltins: BuiltinTable = {
  "json.marshal": { fn: (_ctx: EvalContext, x: Value) => marshal(x) },
  "json.marshal_with_options": { fn: marshalWithOptions },
  "json.unmarshal": { fn: jsonUnmarshal },
  "json.is_valid": { fn: (_ctx: EvalContext, x: Value) => typeof x === "string" && isValidJson(x) },
};
