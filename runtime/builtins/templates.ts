// Builtins of OPA's "templates" category: strings.render_template, which renders a Go text/template
// (templates/parse.ts, templates/exec.ts) with an object's values. As OPA does, the variables go
// through JSON (numbers stay their text, as json.Number), missing keys render as "<undefined>",
// and template errors are builtin errors with Go's text.
import { builtinError, goErrors, obj, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { executeTemplate } from "./templates/exec.js";
import { JsonNumber, type GoVal } from "./templates/fmt.js";
import { parseTemplate, TemplateError } from "./templates/parse.js";
import type { BuiltinTable } from "./registry.js";
import { BigNum, numberText } from "../value/number.js";
import { objectEntries, RegoObject } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { compareStrings } from "../value/compare.js";
import type { Value } from "../value/value.js";

/**
 * OPA converts the variables by printing them as Rego text and decoding that as JSON, so sets and
 * non-string keys fail there with Go's JSON decoder message; this finds the first such spot, in
 * the order the text would be read, and gives the same message.
 */
function jsonDecodeError(v: Value): string | undefined {
  if (v instanceof RegoSet) {
    const elems = v.sorted();
    if (elems.length === 0) return "invalid character 's' looking for beginning of value";
    const first = elems[0]!;
    if (typeof first === "string") return `invalid character '${elems.length > 1 ? "," : "}"}' after object key`;
    return `invalid character '${firstChar(first)}' looking for beginning of object key string`;
  }
  if (Array.isArray(v)) {
    for (const e of v) {
      const err = jsonDecodeError(e);
      if (err !== undefined) return err;
    }
    return undefined;
  }
  if (v instanceof RegoObject || (typeof v === "object" && v !== null && !(v instanceof BigNum))) {
    for (const [k, val] of objectEntries(v as RegoObject)) {
      if (typeof k !== "string") return `invalid character '${firstChar(k)}' looking for beginning of object key string`;
      const err = jsonDecodeError(val);
      if (err !== undefined) return err;
    }
  }
  return undefined;
}

/** The first character of a value's Rego text. */
function firstChar(v: Value): string {
  if (v === null) return "n";
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number" || v instanceof BigNum) return numberText(v)[0]!;
  if (typeof v === "string") return '"';
  if (Array.isArray(v)) return "[";
  if (v instanceof RegoSet) return v.size === 0 ? "s" : "{";
  return "{";
}

/** A Rego value as Go's JSON decoder (with UseNumber) would produce it. */
function toGo(v: Value): GoVal {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number" || v instanceof BigNum) return new JsonNumber(numberText(v));
  if (Array.isArray(v)) return v.map(toGo);
  const entries = objectEntries(v as RegoObject).map(([k, val]) => [k as string, toGo(val)] as const);
  entries.sort((a, b) => compareStrings(a[0], b[0]));
  return new Map(entries);
}

function renderTemplate(_ctx: EvalContext, template: Value, vars: Value): Value {
  const text = str(template, 1);
  const variables = obj(vars, 2);
  const decodeError = jsonDecodeError(variables);
  if (decodeError !== undefined) throw builtinError(decodeError);
  // OPA renders Go's "<no value>" (a missing key) as "<undefined>".
  return goErrors(TemplateError, () => executeTemplate(parseTemplate(text), toGo(variables)).replaceAll("<no value>", "<undefined>"));
}

export const templatesBuiltins: BuiltinTable = {
  "strings.render_template": { fn: renderTemplate },
};
