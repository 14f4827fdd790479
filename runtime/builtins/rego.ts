// Builtins of OPA's "rego" category.
//
// rego.parse_module(filename, text) parses with regoc's own Rego parser (compiler/syntax, Rego v1)
// and returns OPA's AST JSON for the module (compiler/ast/opaJson.ts), as `opa parse` prints it,
// without locations. A parse error is the builtin's error, in OPA's text:
// "x.rego:1: rego_parse_error: unexpected eof token: expected ident".
//
// rego.metadata.chain() and rego.metadata.rule(): OPA's compiler replaces their calls by the
// annotations of the calling rule (its RewriteRegoMetadataCalls stage), so a compiled rule never
// calls them. What can still call them is a query, where OPA's implementation answers with an
// error; so does this one.
import { moduleToOpaJson, RawNumber, type JsonValue } from "../../compiler/ast/opaJson.js";
import { parseModuleResult } from "../../compiler/syntax/index.js";
import type { RegoError } from "../errors.js";
import { numberFromText } from "../value/number.js";
import { newPlainObject, setOwn, type Value } from "../value/value.js";
import { builtinError, str } from "./args.js";
import type { BuiltinTable } from "./registry.js";

function toValue(j: JsonValue): Value {
  if (j === null || typeof j === "boolean" || typeof j === "string") return j;
  if (j instanceof RawNumber) return numberFromText(j.text) ?? Number(j.text);
  if (Array.isArray(j)) return j.map(toValue);
  const out = newPlainObject();
  for (const k of Object.keys(j)) setOwn(out, k, toValue(j[k]!));
  return out;
}

/** OPA's ast.Error text: "file:row: code: message" (or "row:col: ..." without a file name). */
function errorText(e: RegoError): string {
  const loc = e.location;
  const prefix = loc ? (loc.file ? `${loc.file}:${loc.row}: ` : `${loc.row}:${loc.col}: `) : "";
  return `${prefix}${e.code}: ${e.message}`;
}

function parseModule(filename: Value, text: Value): Value {
  const file = str(filename, 1);
  const source = str(text, 1); // OPA reports both operands as operand 1
  const { module, errors } = parseModuleResult(source, { file });
  if (!module) {
    const message = errors.length === 1 ? errorText(errors[0]!) : `${errors.length} errors occurred:\n${errors.map(errorText).join("\n")}`;
    throw builtinError(message);
  }
  return toValue(moduleToOpaJson(module));
}

function outsideRule(name: string): never {
  throw builtinError(`the ${name} function must only be called within the scope of a rule`);
}

export const regoBuiltins: BuiltinTable = {
  "rego.metadata.chain": { fn: () => outsideRule("rego.metadata.chain") },
  "rego.metadata.rule": { fn: () => outsideRule("rego.metadata.rule") },
  "rego.parse_module": { fn: (_ctx, filename, text) => parseModule(filename, text) },
};
