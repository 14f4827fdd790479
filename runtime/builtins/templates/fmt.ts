// The values a Go template sees and Go's fmt printing of them, for strings.render_template.
// OPA hands the template its variables decoded from JSON with UseNumber, so values are Go's
// interface{} world: nil, bool, string, json.Number (a string type holding the number's text),
// []interface{}, map[string]interface{}; template constants add int and float64.
// Printing is Go's fmt: ../go/float.ts for floats, ../go/fmt.ts and ../go/sprintf.ts for printf.
import type { GoArg } from "../go/fmt.js";
import { formatFloat } from "../go/float.js";
import { goSprintf } from "../go/sprintf.js";

/** Go's json.Number: a string kind with String/Int64/Float64 methods. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A map[string]interface{}: keys kept sorted, as Go ranges and prints them. */
export type GoMap = ReadonlyMap<string, GoVal>;

/**
 * A template value. `undefined` is Go's invalid reflect.Value ("no value", e.g. a missing map key);
 * null is a nil interface; bigint is int; number is float64.
 */
export type GoVal = undefined | null | boolean | string | bigint | number | JsonNumber | readonly GoVal[] | GoMap;

export function isMap(v: GoVal): v is GoMap {
  return v instanceof Map;
}

/** Go's type name of a value, as error messages print it. */
export function goType(v: GoVal): string {
  if (v === undefined || v === null) return "<nil>";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "string";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "float64";
  if (v instanceof JsonNumber) return "json.Number";
  if (Array.isArray(v)) return "[]interface {}";
  return "map[string]interface {}";
}

/** fmt's %v of a value inside a composite (nil prints as <nil>). */
export function formatValue(v: GoVal): string {
  if (v === undefined) return "<no value>";
  if (v === null) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (typeof v === "number") return formatFloat(v, "g", -1);
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(" ")}]`;
  const parts: string[] = [];
  for (const [k, val] of v as GoMap) parts.push(`${k}:${formatValue(val)}`);
  return `map[${parts.join(" ")}]`;
}

const isStringKind = (v: GoVal): boolean => typeof v === "string" || v instanceof JsonNumber;

/** fmt.Sprint: spaces between operands when neither is a string. */
export function sprint(args: readonly GoVal[]): string {
  let out = "";
  args.forEach((a, i) => {
    if (i > 0 && !isStringKind(a) && !isStringKind(args[i - 1])) out += " ";
    out += formatValue(a);
  });
  return out;
}

/** fmt.Sprintln: spaces between all operands and a newline. */
export function sprintln(args: readonly GoVal[]): string {
  return `${args.map(formatValue).join(" ")}\n`;
}

/** The value as Go's fmt receives it. */
function goArg(v: GoVal): GoArg {
  if (v === undefined) return { t: "composite", name: "<nil>", text: "<no value>" };
  if (v === null) return { t: "nil" };
  if (typeof v === "boolean") return { t: "bool", v };
  if (typeof v === "string") return { t: "string", v };
  if (typeof v === "bigint") return { t: "int64", v, name: "int" };
  if (typeof v === "number") return { t: "float64", v };
  if (v instanceof JsonNumber) return { t: "string", v: v.text, name: "json.Number" };
  return { t: "composite", name: goType(v), text: formatValue(v) };
}

/** fmt.Sprintf (the template's printf). */
export function sprintf(format: string, args: readonly GoVal[]): string {
  return goSprintf(format, args.map(goArg));
}
