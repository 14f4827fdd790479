// ajv's validation errors in the shape OPA's json.match_schema returns, which is gojsonschema's:
// {error: "<field>: <desc>", type: "invalid_type", field: "a.b" | "(root)", desc: "..."}.
//
// Known differences from gojsonschema: ajv reports errors in its own order; the errors of the
// branches of a failed anyOf/oneOf are not repeated (gojsonschema repeats those of the closest
// branch), and a failed allOf reports its branches' errors without an extra "allOf" entry.
import { formatFloat } from "./goFloat.js";
import type { ErrorObject } from "ajv";
import type { Value } from "../value/value.js";
import { marshal as goMarshal } from "./goJson.js";

export interface SchemaResultError {
  error: string;
  type: string;
  field: string;
  desc: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Go's json.Marshal text (sorted keys, <, > and & escaped), as gojsonschema prints values. */
const marshal = (v: Json): string => goMarshal(v as Value);

/** gojsonschema's field: the instance path joined with dots, "(root)" at the top. */
function fieldOf(instancePath: string): string {
  if (instancePath === "") return "(root)";
  return instancePath
    .slice(1)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/** The type name gojsonschema gives a value ("integer" for integral numbers). */
function givenType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Go's big.Float String() (%.10g): "5", "0.25", "1e+21". */
export function formatG10(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return n === 0 ? "0" : formatFloat(n, "g", 10);
}

function describe(e: ErrorObject, field: string): [type: string, desc: string] | undefined {
  const p = e.params as Record<string, unknown>;
  const schema = e.schema as Json;
  switch (e.keyword) {
    case "type": {
      const types = Array.isArray(schema) ? `[${schema.join(",")}]` : String(schema);
      return ["invalid_type", `Invalid type. Expected: ${types}, given: ${givenType(e.data)}`];
    }
    case "required":
      return ["required", `${String(p["missingProperty"])} is required`];
    case "additionalProperties":
      return ["additional_property_not_allowed", `Additional property ${String(p["additionalProperty"])} is not allowed`];
    case "enum": {
      const values = Array.isArray(schema) ? schema : [];
      return ["enum", `${field} must be one of the following: ${values.length === 0 ? "(none)" : values.map(marshal).join(", ")}`];
    }
    case "const":
      return ["const", `${field} does not match: ${marshal(schema)}`];
    case "minLength":
      return ["string_gte", `String length must be greater than or equal to ${String(p["limit"])}`];
    case "maxLength":
      return ["string_lte", `String length must be less than or equal to ${String(p["limit"])}`];
    case "pattern":
      return ["pattern", `Does not match pattern '${String(p["pattern"])}'`];
    case "format":
      return ["format", `Does not match format '${String(p["format"])}'`];
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return limit(String(p["comparison"]), Number(p["limit"]));
    case "multipleOf":
      return ["multiple_of", `Must be a multiple of ${formatG10(Number(p["multipleOf"]))}`];
    case "minItems":
      return ["array_min_items", `Array must have at least ${String(p["limit"])} items`];
    case "maxItems":
      return ["array_max_items", `Array must have at most ${String(p["limit"])} items`];
    case "uniqueItems":
      return ["unique", `array items[${String(p["j"])},${String(p["i"])}] must be unique`];
    case "minProperties":
      return ["array_min_properties", `Must have at least ${String(p["limit"])} properties`];
    case "maxProperties":
      return ["array_max_properties", `Must have at most ${String(p["limit"])} properties`];
    case "anyOf":
      return ["number_any_of", "Must validate at least one schema (anyOf)"];
    case "oneOf":
      return ["number_one_of", "Must validate one and only one schema (oneOf)"];
    case "not":
      return ["number_not", "Must not validate the schema (not)"];
    case "dependencies":
      return ["missing_dependency", `Has a dependency on ${String(p["missingProperty"])}`];
    case "contains":
      return ["contains", "At least one of the items must match"];
    case "propertyNames":
      return ["invalid_property_name", `Property name of "${String(p["propertyName"])}" does not match`];
    case "if":
      return p["failingKeyword"] === "else"
        ? ["condition_else", 'Must validate "else" as "if" was not valid']
        : ["condition_then", 'Must validate "then" as "if" was valid'];
    case "false schema":
      return ["false", "False always fails validation"];
    case "additionalItems":
      return ["array_no_additional_items", "No additional items allowed on array"];
    default:
      return undefined;
  }
}

function limit(comparison: string, value: number): [string, string] {
  const n = formatG10(value);
  switch (comparison) {
    case ">":
      return ["number_gt", `Must be greater than ${n}`];
    case ">=":
      return ["number_gte", `Must be greater than or equal to ${n}`];
    case "<":
      return ["number_lt", `Must be less than ${n}`];
    default:
      return ["number_lte", `Must be less than or equal to ${n}`];
  }
}

/** gojsonschema's order of checks within one value: combinators, arrays, objects, numbers,
 * then const/enum/format, then strings. */
const ORDER = [
  "false", "invalid_type", "number_any_of", "number_one_of", "number_all_of", "number_not", "missing_dependency",
  "condition_then", "condition_else", "array_no_additional_items", "array_min_items", "array_max_items", "unique",
  "contains", "array_min_properties", "array_max_properties", "required", "additional_property_not_allowed",
  "invalid_property_name", "multiple_of", "number_lte", "number_lt", "number_gte", "number_gt", "const", "enum",
  "format", "string_gte", "string_lte", "pattern",
];

/** Errors grouped by value (first appearance first), each group in gojsonschema's order. */
function ordered(errors: SchemaResultError[]): SchemaResultError[] {
  const groups = new Map<string, SchemaResultError[]>();
  for (const e of errors) {
    const g = groups.get(e.field);
    if (g) g.push(e);
    else groups.set(e.field, [e]);
  }
  const rank = (t: string) => {
    const i = ORDER.indexOf(t);
    return i < 0 ? ORDER.length : i;
  };
  return [...groups.values()].flatMap((g) => g.map((e, i) => [e, i] as const).sort((a, b) => rank(a[0].type) - rank(b[0].type) || a[1] - b[1]).map(([e]) => e));
}

/** Drops what gojsonschema would not report, then converts each error. */
export function toResultErrors(errors: readonly ErrorObject[]): SchemaResultError[] {
  // A wrong type stops gojsonschema from checking anything else of that schema at that value.
  const typeFailures = new Set(errors.filter((e) => e.keyword === "type").map((e) => `${e.instancePath}\u0000${e.schemaPath.replace(/\/type$/, "")}`));
  const out: SchemaResultError[] = [];
  for (const e of errors) {
    // The branches of anyOf/oneOf and the items tried by contains: only the keyword's own error.
    if (/\/(anyOf|oneOf)\/\d+\/|\/contains\//.test(e.schemaPath)) continue;
    if (e.keyword !== "type" && typeFailures.has(`${e.instancePath}\u0000${e.schemaPath.replace(/\/[^/]+$/, "")}`)) continue;
    const field = fieldOf(e.instancePath);
    const d = describe(e, field);
    const [type, desc] = d ?? ["internal", `Internal Error ${e.message ?? e.keyword}`];
    out.push({ error: `${field}: ${desc}`, type, field, desc });
  }
  return ordered(out);
}
