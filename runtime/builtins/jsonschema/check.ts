// The structural checks OPA's JSON-schema library (gojsonschema) makes while loading a schema,
// with its messages: ajv compiles and validates, but a schema that gojsonschema refuses must be
// refused here with the same text ("has a primitive type that is NOT VALID -- given: /x/ ...",
// "minLength must be of an integer", ...). Only loading is checked here; there is no
// meta-schema validation, as in OPA.
import { RE2JS } from "re2js";

/** gojsonschema's drafts; HYBRID (no known $schema) accepts draft-4 and draft-6/7 forms alike. */
export const DRAFT4 = 4;
export const DRAFT6 = 6;
export const DRAFT7 = 7;
export const HYBRID = Number.MAX_SAFE_INTEGER;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const JSON_TYPES = ["array", "boolean", "integer", "number", "null", "object", "string"];

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (m: JsonObject, k: string) => Object.hasOwn(m, k);

export class SchemaLoadError extends Error {}

const fail = (message: string): never => {
  throw new SchemaLoadError(message);
};
const invalidType = (expected: string, given: string) => fail(`Invalid type. Expected: ${expected}, given: ${given}`);
const mustBeOfA = (x: string, y: string) => fail(`${x} must be of a ${y}`);
const mustBeOfAn = (x: string, y: string) => fail(`${x} must be of an ${y}`);

const KNOWN_DRAFTS: Record<string, number> = {
  "http://json-schema.org/draft-04/schema": DRAFT4,
  "http://json-schema.org/draft-06/schema": DRAFT6,
  "http://json-schema.org/draft-07/schema": DRAFT7,
};

/** The draft a root schema declares through `$schema` (HYBRID when none or unknown). */
export function detectDraft(root: Json): number {
  if (!isObj(root) || !has(root, "$schema")) return HYBRID;
  const s = root["$schema"];
  if (typeof s !== "string") return fail("$schema must be of type string");
  return KNOWN_DRAFTS[s.replace(/#$/, "")] ?? HYBRID;
}

/** Throws SchemaLoadError with gojsonschema's message when it would refuse to load `schema`. */
export function checkSchema(schema: Json, draft: number): void {
  if (!isObj(schema) && typeof schema !== "boolean") fail("Expected: valid schema, given: Invalid JSON");
  checkNode(schema, draft);
}

function isInteger(v: Json | undefined): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

function checkString(m: JsonObject, key: string): void {
  if (has(m, key) && typeof m[key] !== "string") invalidType("string", key);
}

function checkSlice(m: JsonObject, key: string): Json[] {
  if (!has(m, key)) return [];
  const v = m[key];
  if (!Array.isArray(v)) return mustBeOfAn(key, "array");
  return v;
}

function checkSub(v: Json, draft: number, ifNotSchema: () => void): void {
  if (isObj(v) || typeof v === "boolean") checkNode(v, draft);
  else ifNotSchema();
}

function checkNonNegativeInt(m: JsonObject, key: string): number | undefined {
  if (!has(m, key)) return undefined;
  const v = m[key];
  if (!isInteger(v)) return mustBeOfAn(key, "integer");
  if (v < 0) fail(`${key} must be greater than or equal to 0`);
  return v;
}

function checkNode(node: Json, draft: number): void {
  if (draft >= DRAFT6 && typeof node === "boolean") return;
  if (!isObj(node)) return fail("Expected: valid schema, given: Invalid JSON");
  const m = node;
  const idKey = draft === DRAFT4 || (draft === HYBRID && has(m, "id")) ? "id" : "$id";
  checkString(m, idKey);

  if (has(m, "definitions")) {
    const defs = m["definitions"];
    if (!isObj(defs)) invalidType("array of schemas", "definitions");
    for (const d of Object.values(defs as JsonObject)) checkSub(d, draft, () => invalidType("array of schemas", "definitions"));
  }
  checkString(m, "title");
  checkString(m, "description");
  if (has(m, "$ref")) {
    checkString(m, "$ref");
    return; // like gojsonschema, the keywords beside $ref are not read
  }

  if (has(m, "type")) {
    const t = m["type"];
    const seen: string[] = [];
    const add = (s: string) => {
      if (!JSON_TYPES.includes(s)) fail(`has a primitive type that is NOT VALID -- given: /${s}/ Expected valid values are:[${JSON_TYPES.join(" ")}]`);
      if (seen.includes(s)) fail(`${s} type is duplicated`);
      seen.push(s);
    };
    if (typeof t === "string") add(t);
    else if (Array.isArray(t)) {
      for (const e of t) {
        if (typeof e !== "string") invalidType("type", "string/array of strings");
        add(e as string);
      }
    } else invalidType("type", "string/array of strings");
  }

  if (has(m, "properties")) {
    const props = m["properties"];
    if (!isObj(props)) fail("properties must be of type object");
    for (const p of Object.values(props as JsonObject)) checkNode(p, draft);
  }
  if (has(m, "additionalProperties")) {
    const ap = m["additionalProperties"];
    if (isObj(ap)) checkNode(ap, draft);
    else if (typeof ap !== "boolean") invalidType("boolean/valid schema", "additionalProperties");
  }
  if (has(m, "patternProperties")) {
    const pp = m["patternProperties"];
    if (!isObj(pp)) invalidType("valid schema", "patternProperties");
    for (const [k, v] of Object.entries(pp as JsonObject)) {
      if (!isRE2(k)) fail(`Invalid regex pattern '${k}'`);
      checkNode(v, draft);
    }
  }
  if (has(m, "propertyNames") && draft >= DRAFT6) {
    checkSub(m["propertyNames"]!, draft, () => invalidType("valid schema", "patternProperties"));
  }
  if (has(m, "dependencies")) checkDependencies(m["dependencies"]!, draft);
  if (has(m, "items")) {
    const items = m["items"]!;
    const bad = () => invalidType("valid schema/array of schemas", "items");
    if (Array.isArray(items)) for (const e of items) checkSub(e, draft, bad);
    else checkSub(items, draft, bad);
  }
  if (has(m, "additionalItems")) {
    const ai = m["additionalItems"];
    if (isObj(ai)) checkNode(ai, draft);
    else if (typeof ai !== "boolean") invalidType("boolean/valid schema", "additionalItems");
  }
  checkNumbers(m, draft);
  checkStrings(m);
  checkObjects(m);
  checkArrays(m, draft);
  checkCombinators(m, draft);
}

function checkNumbers(m: JsonObject, draft: number): void {
  if (has(m, "multipleOf")) {
    const v = m["multipleOf"];
    if (typeof v !== "number") invalidType("number", "multipleOf");
    if ((v as number) <= 0) fail("multipleOf must be strictly greater than 0");
  }
  let minimum = has(m, "minimum") ? m["minimum"] : undefined;
  if (minimum !== undefined && typeof minimum !== "number") mustBeOfA("minimum", "number");
  checkExclusive(m, "exclusiveMinimum", "minimum", minimum, draft);
  let maximum = has(m, "maximum") ? m["maximum"] : undefined;
  if (maximum !== undefined && typeof maximum !== "number") mustBeOfA("maximum", "number");
  checkExclusive(m, "exclusiveMaximum", "maximum", maximum, draft);
  // A boolean exclusiveMinimum moves the bound; gojsonschema compares only the plain bounds here.
  if (m["exclusiveMinimum"] === true) minimum = undefined;
  if (m["exclusiveMaximum"] === true) maximum = undefined;
  if (typeof minimum === "number" && typeof maximum === "number" && minimum > maximum) fail("minimum cannot be greater than maximum");
}

function checkExclusive(m: JsonObject, key: string, bound: string, boundValue: Json | undefined, draft: number): void {
  if (!has(m, key)) return;
  const v = m[key];
  if (draft === DRAFT4) {
    if (typeof v !== "boolean") invalidType("boolean", key);
    if (boundValue === undefined) fail(`${key} cannot be used without ${bound}`);
  } else if (draft === HYBRID) {
    if (typeof v === "boolean") {
      if (boundValue === undefined) fail(`${key} cannot be used without ${bound}`);
    } else if (typeof v !== "number") invalidType("boolean/number", key);
  } else if (typeof v !== "number") invalidType("number", key);
}

function checkStrings(m: JsonObject): void {
  const minLength = checkNonNegativeInt(m, "minLength");
  const maxLength = checkNonNegativeInt(m, "maxLength");
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) fail("minLength cannot be greater than maxLength");
  checkString(m, "pattern");
  if (typeof m["pattern"] === "string" && !isRE2(m["pattern"])) fail("pattern must be a valid regex");
  checkString(m, "format");
}

function checkObjects(m: JsonObject): void {
  const minProperties = checkNonNegativeInt(m, "minProperties");
  const maxProperties = checkNonNegativeInt(m, "maxProperties");
  if (minProperties !== undefined && maxProperties !== undefined && minProperties > maxProperties) {
    fail("minProperties cannot be greater than maxProperties");
  }
  const seen = new Set<string>();
  for (const r of checkSlice(m, "required")) {
    if (typeof r !== "string") invalidType("string", "required");
    if (seen.has(r as string)) fail("required items must be unique");
    seen.add(r as string);
  }
}

function checkArrays(m: JsonObject, draft: number): void {
  checkNonNegativeInt(m, "minItems");
  checkNonNegativeInt(m, "maxItems");
  if (has(m, "uniqueItems") && typeof m["uniqueItems"] !== "boolean") mustBeOfA("uniqueItems", "boolean");
  if (has(m, "contains") && draft >= DRAFT6) checkNode(m["contains"]!, draft);
  const seen = new Set<string>();
  for (const e of checkSlice(m, "enum")) {
    const text = JSON.stringify(e);
    if (seen.has(text)) fail("enum items must be unique");
    seen.add(text);
  }
}

function checkCombinators(m: JsonObject, draft: number): void {
  for (const key of ["oneOf", "anyOf", "allOf"]) for (const s of checkSlice(m, key)) checkNode(s, draft);
  if (has(m, "not")) checkSub(m["not"]!, draft, () => mustBeOfAn("not", "object"));
  if (draft >= DRAFT7) {
    for (const key of ["if", "then", "else"]) if (has(m, key)) checkSub(m[key]!, draft, () => mustBeOfAn(key, "object"));
  }
}

function checkDependencies(deps: Json, draft: number): void {
  if (!isObj(deps)) return fail("dependencies must be of type object");
  for (const v of Object.values(deps)) {
    if (Array.isArray(v)) {
      for (const e of v) if (typeof e !== "string") fail("dependency must be of type schema or array of strings");
    } else checkSub(v, draft, () => fail("dependency must be of type schema or array of strings"));
  }
}

/** Whether Go's regexp (RE2) accepts the pattern. */
export function isRE2(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}
