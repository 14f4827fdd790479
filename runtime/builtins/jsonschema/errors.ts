// json.match_schema's errors as OPA's JSON-schema library (gojsonschema, vendored in OPA's
// internal/gojsonschema) reports them: {error: "<field>: <desc>", type, field, desc}. ajv finds a
// mismatch quickly; this walk then repeats gojsonschema's validation to list the errors in its
// order and with its texts (and has the last word: no error is a match):
// - per value: anyOf/oneOf/allOf/not/dependencies/if, then array or object keywords, then a
//   number's keywords, then const/enum/format, then a string's keywords, then the object's
//   properties;
// - a failed anyOf/oneOf (no branch valid) adds the errors of its best-scoring branch (the first
//   of the best): a branch's score grows by one for each check group passed and each required
//   property present, and falls by two for each error;
// - uniqueItems: one error per element equal to an earlier one, naming the previous equal index
//   first (`array items[0,1]`, then `[1,2]`);
// - the field is the path below the root joined with dots, `(Root)` for the document itself.
// Go iterates maps in random order: where gojsonschema walks an object's keys, this walk takes the
// document's order (the schema's for `properties`).
import { RE2JS } from "re2js";
import { decimalOf } from "../../value/number.js";
import type { Value } from "../../value/value.js";
import { formatFloat } from "../go/float.js";
import { marshal as goMarshal } from "../go/json.js";

export interface SchemaResultError {
  error: string;
  type: string;
  field: string;
  desc: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** gojsonschema's name for the document itself in `field`. */
export const ROOT_FIELD = "(Root)";

/** Go's json.Marshal text (sorted keys, <, > and & escaped), as gojsonschema prints values. */
const marshal = (v: Json): string => goMarshal(v as Value);

/** Go's big.Float String() (%.10g): "5", "0.25", "1e+21". */
function formatG10(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return n === 0 ? "0" : formatFloat(n, "g", 10);
}

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** What the walk needs besides the schema: its draft-4-ness, `$ref` targets, format checks. */
export interface WalkOptions {
  /** Draft 4: no boolean schemas, const, contains, propertyNames or if/then/else. */
  draft4: boolean;
  /** Draft 6: no if/then/else (draft 7 and the hybrid mode read them). */
  draft6: boolean;
  /** The schema a node's `$ref` names, or undefined when the walk cannot follow it. */
  resolve: (node: JsonObject) => Json | undefined;
  /** True when the string is of the named format (unknown formats pass). */
  isFormat: (format: string, value: string) => boolean;
}

/** Thrown when the walk cannot follow the schema (a `$ref` it cannot resolve). */
export class WalkUnsupported extends Error {}

interface Result {
  errors: SchemaResultError[];
  score: number;
}

/** The errors of `doc` against the (normalised) schema, in gojsonschema's order. */
export function schemaErrors(schema: Json, doc: Json, options: WalkOptions): SchemaResultError[] {
  const result: Result = { errors: [], score: 0 };
  new Walk(options).recurse(schema, doc, result, []);
  return result.errors;
}

function fieldOf(path: readonly string[]): string {
  return path.length === 0 ? ROOT_FIELD : path.join(".");
}

/** The type name gojsonschema gives a value ("integer" for integral numbers). */
function givenType(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(types: string[], v: Json): boolean {
  const given = givenType(v);
  return types.includes(given) || (given === "integer" && types.includes("number"));
}

/** Whether value is a multiple of m, exactly (as gojsonschema's big.Rat division). */
function isMultiple(value: number, m: number): boolean {
  const [a, ea] = decimalOf(value);
  const [b, eb] = decimalOf(m);
  if (b === 0n) return true;
  const e = Math.min(ea, eb);
  return (a * 10n ** BigInt(ea - e)) % (b * 10n ** BigInt(eb - e)) === 0n;
}

class Walk {
  private readonly patterns = new Map<string, RE2JS>();

  constructor(private readonly o: WalkOptions) {}

  /** Go's regexp search of a `pattern` or `patternProperties` key, compiled once per walk. */
  private matches(pattern: string, s: string): boolean {
    let re = this.patterns.get(pattern);
    if (!re) this.patterns.set(pattern, (re = RE2JS.compile(pattern)));
    return re.matcher(s).find();
  }

  private add(result: Result, type: string, path: readonly string[], desc: string): void {
    const field = fieldOf(path);
    result.errors.push({ error: `${field}: ${desc}`, type, field, desc });
    result.score -= 2;
  }

  private merge(into: Result, from: Result): void {
    into.errors.push(...from.errors);
    into.score += from.score;
  }

  private sub(schema: Json, doc: Json, path: readonly string[]): Result {
    const r: Result = { errors: [], score: 0 };
    this.recurse(schema, doc, r, path);
    return r;
  }

  recurse(schema: Json, doc: Json, result: Result, path: readonly string[]): void {
    if (typeof schema === "boolean" && !this.o.draft4) {
      if (!schema) this.add(result, "false", path, "False always fails validation");
      return;
    }
    if (!isObj(schema)) return;
    if (typeof schema["$ref"] === "string") {
      const target = this.o.resolve(schema);
      if (target === undefined) throw new WalkUnsupported(schema["$ref"]);
      this.recurse(target, doc, result, path);
      return;
    }
    const t = schema["type"];
    const types = typeof t === "string" ? [t] : Array.isArray(t) ? (t as string[]) : [];
    if (types.length > 0 && !typeMatches(types, doc)) {
      const expected = types.length === 1 ? types[0]! : `[${types.join(",")}]`;
      this.add(result, "invalid_type", path, `Invalid type. Expected: ${expected}, given: ${givenType(doc)}`);
      return;
    }
    this.combinators(schema, doc, result, path);
    if (Array.isArray(doc)) this.array(schema, doc, result, path);
    else if (isObj(doc)) this.object(schema, doc, result, path);
    if (typeof doc === "number") this.number(schema, doc, result, path);
    this.common(schema, doc, result, path);
    if (typeof doc === "string") this.string(schema, doc, result, path);
    if (isObj(doc) && isObj(schema["properties"])) {
      for (const [key, child] of Object.entries(schema["properties"])) {
        if (Object.hasOwn(doc, key)) this.recurse(child, doc[key]!, result, [...path, key]);
      }
    }
    result.score++;
  }

  /** The best-scoring failed branch (the first of equals), as gojsonschema picks it. */
  private best(branches: Result[]): Result | undefined {
    let best: Result | undefined;
    for (const r of branches) if (best === undefined || r.score > best.score) best = r;
    return best;
  }

  private combinators(s: JsonObject, doc: Json, result: Result, path: readonly string[]): void {
    const anyOf = s["anyOf"];
    if (Array.isArray(anyOf) && anyOf.length > 0) {
      const failed: Result[] = [];
      let ok = false;
      for (const branch of anyOf) {
        const r = this.sub(branch, doc, path);
        if (r.errors.length === 0) {
          ok = true;
          break;
        }
        failed.push(r);
      }
      if (!ok) {
        this.add(result, "number_any_of", path, "Must validate at least one schema (anyOf)");
        const b = this.best(failed);
        if (b) this.merge(result, b);
      }
    }
    const oneOf = s["oneOf"];
    if (Array.isArray(oneOf) && oneOf.length > 0) {
      const failed: Result[] = [];
      let valid = 0;
      for (const branch of oneOf) {
        const r = this.sub(branch, doc, path);
        if (r.errors.length === 0) valid++;
        else if (valid === 0) failed.push(r);
      }
      if (valid !== 1) {
        this.add(result, "number_one_of", path, "Must validate one and only one schema (oneOf)");
        const b = valid === 0 ? this.best(failed) : undefined;
        if (b) this.merge(result, b);
      }
    }
    const allOf = s["allOf"];
    if (Array.isArray(allOf) && allOf.length > 0) {
      let valid = 0;
      for (const branch of allOf) {
        const r = this.sub(branch, doc, path);
        if (r.errors.length === 0) valid++;
        this.merge(result, r);
      }
      if (valid !== allOf.length) this.add(result, "number_all_of", path, "Must validate all the schemas (allOf)");
    }
    if (Object.hasOwn(s, "not") && (isObj(s["not"]) || (!this.o.draft4 && typeof s["not"] === "boolean"))) {
      if (this.sub(s["not"]!, doc, path).errors.length === 0) this.add(result, "number_not", path, "Must not validate the schema (not)");
    }
    const deps = s["dependencies"];
    if (isObj(deps) && isObj(doc)) {
      for (const key of Object.keys(doc)) {
        if (!Object.hasOwn(deps, key)) continue;
        const dep = deps[key]!;
        if (Array.isArray(dep)) {
          for (const k of dep) {
            if (typeof k === "string" && !Object.hasOwn(doc, k)) this.add(result, "missing_dependency", path, `Has a dependency on ${k}`);
          }
        } else this.recurse(dep, doc, result, path);
      }
    }
    if (!this.o.draft4 && !this.o.draft6 && Object.hasOwn(s, "if")) {
      const ifValid = this.sub(s["if"]!, doc, path).errors.length === 0;
      const branch = ifValid ? "then" : "else";
      if (Object.hasOwn(s, branch)) {
        const r = this.sub(s[branch]!, doc, path);
        if (r.errors.length > 0) {
          if (ifValid) this.add(result, "condition_then", path, 'Must validate "then" as "if" was valid');
          else this.add(result, "condition_else", path, 'Must validate "else" as "if" was not valid');
          this.merge(result, r);
        }
      }
    }
    result.score++;
  }

  private array(s: JsonObject, doc: Json[], result: Result, path: readonly string[]): void {
    const items = s["items"];
    if (Array.isArray(items)) {
      for (let i = 0; i < items.length && i < doc.length; i++) this.merge(result, this.sub(items[i]!, doc[i]!, [...path, String(i)]));
      if (items.length < doc.length) {
        const extra = s["additionalItems"];
        if (extra === false) this.add(result, "array_no_additional_items", path, "No additional items allowed on array");
        else if (isObj(extra)) {
          for (let i = items.length; i < doc.length; i++) this.merge(result, this.sub(extra, doc[i]!, [...path, String(i)]));
        }
      }
    } else if (isObj(items) || (!this.o.draft4 && typeof items === "boolean")) {
      for (let i = 0; i < doc.length; i++) this.merge(result, this.sub(items, doc[i]!, [...path, String(i)]));
    }
    if (typeof s["minItems"] === "number" && doc.length < s["minItems"]) this.add(result, "array_min_items", path, `Array must have at least ${s["minItems"]} items`);
    if (typeof s["maxItems"] === "number" && doc.length > s["maxItems"]) this.add(result, "array_max_items", path, `Array must have at most ${s["maxItems"]} items`);
    if (s["uniqueItems"] === true) {
      const seen = new Map<string, number>();
      doc.forEach((v, j) => {
        const key = marshal(v);
        const i = seen.get(key);
        if (i !== undefined) this.add(result, "unique", path, `array items[${i},${j}] must be unique`);
        seen.set(key, j);
      });
    }
    const contains = s["contains"];
    if (!this.o.draft4 && (isObj(contains) || typeof contains === "boolean")) {
      let best: Result | undefined;
      let ok = false;
      for (let i = 0; i < doc.length; i++) {
        const r = this.sub(contains, doc[i]!, [...path, String(i)]);
        if (r.errors.length === 0) {
          ok = true;
          break;
        }
        if (best === undefined || r.score > best.score) best = r;
      }
      if (!ok) {
        this.add(result, "contains", path, "At least one of the items must match");
        if (best) this.merge(result, best);
      }
    }
    result.score++;
  }

  private object(s: JsonObject, doc: JsonObject, result: Result, path: readonly string[]): void {
    const keys = Object.keys(doc);
    if (typeof s["minProperties"] === "number" && keys.length < s["minProperties"]) this.add(result, "array_min_properties", path, `Must have at least ${s["minProperties"]} properties`);
    if (typeof s["maxProperties"] === "number" && keys.length > s["maxProperties"]) this.add(result, "array_max_properties", path, `Must have at most ${s["maxProperties"]} properties`);
    if (Array.isArray(s["required"])) {
      for (const r of s["required"]) {
        if (typeof r !== "string") continue;
        if (Object.hasOwn(doc, r)) result.score++;
        else this.add(result, "required", path, `${r} is required`);
      }
    }
    const props = isObj(s["properties"]) ? s["properties"] : {};
    const patterns = isObj(s["patternProperties"]) ? s["patternProperties"] : {};
    const extra = s["additionalProperties"];
    for (const key of keys) {
      let matched = false;
      for (const [pattern, child] of Object.entries(patterns)) {
        if (!this.matches(pattern, key)) continue;
        matched = true;
        this.merge(result, this.sub(child, doc[key]!, [...path, key]));
      }
      if (matched) result.score++;
      if (Object.hasOwn(props, key) || matched) continue;
      if (extra === false) this.add(result, "additional_property_not_allowed", path, `Additional property ${key} is not allowed`);
      else if (isObj(extra)) this.merge(result, this.sub(extra, doc[key]!, [...path, key]));
    }
    const names = s["propertyNames"];
    if (!this.o.draft4 && (isObj(names) || typeof names === "boolean")) {
      for (const key of keys) {
        const r = this.sub(names, key, path);
        if (r.errors.length > 0) {
          this.add(result, "invalid_property_name", path, `Property name of "${key}" does not match`);
          this.merge(result, r);
        }
      }
    }
    result.score++;
  }

  private common(s: JsonObject, doc: Json, result: Result, path: readonly string[]): void {
    const field = fieldOf(path);
    if (!this.o.draft4 && Object.hasOwn(s, "const")) {
      const allowed = marshal(s["const"]!);
      if (marshal(doc) !== allowed) this.add(result, "const", path, `${field} does not match: ${allowed}`);
    }
    if (Array.isArray(s["enum"])) {
      const allowed = s["enum"].map(marshal);
      if (!allowed.includes(marshal(doc))) {
        this.add(result, "enum", path, `${field} must be one of the following: ${allowed.length === 0 ? "(none)" : allowed.join(", ")}`);
      }
    }
    if (typeof s["format"] === "string" && typeof doc === "string" && !this.o.isFormat(s["format"], doc)) {
      this.add(result, "format", path, `Does not match format '${s["format"]}'`);
    }
    result.score++;
  }

  private string(s: JsonObject, doc: string, result: Result, path: readonly string[]): void {
    const length = [...doc].length;
    if (typeof s["minLength"] === "number" && length < s["minLength"]) this.add(result, "string_gte", path, `String length must be greater than or equal to ${s["minLength"]}`);
    if (typeof s["maxLength"] === "number" && length > s["maxLength"]) this.add(result, "string_lte", path, `String length must be less than or equal to ${s["maxLength"]}`);
    if (typeof s["pattern"] === "string" && !this.matches(s["pattern"], doc)) this.add(result, "pattern", path, `Does not match pattern '${s["pattern"]}'`);
    result.score++;
  }

  private number(s: JsonObject, doc: number, result: Result, path: readonly string[]): void {
    const n = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
    const multiple = n("multipleOf");
    if (multiple !== undefined && !isMultiple(doc, multiple)) this.add(result, "multiple_of", path, `Must be a multiple of ${formatG10(multiple)}`);
    // draft 4 marks a bound exclusive with a boolean beside it
    const exMax = s["exclusiveMaximum"] === true ? n("maximum") : n("exclusiveMaximum");
    const max = s["exclusiveMaximum"] === true ? undefined : n("maximum");
    const exMin = s["exclusiveMinimum"] === true ? n("minimum") : n("exclusiveMinimum");
    const min = s["exclusiveMinimum"] === true ? undefined : n("minimum");
    if (max !== undefined && doc > max) this.add(result, "number_lte", path, `Must be less than or equal to ${formatG10(max)}`);
    if (exMax !== undefined && doc >= exMax) this.add(result, "number_lt", path, `Must be less than ${formatG10(exMax)}`);
    if (min !== undefined && doc < min) this.add(result, "number_gte", path, `Must be greater than or equal to ${formatG10(min)}`);
    if (exMin !== undefined && doc <= exMin) this.add(result, "number_gt", path, `Must be greater than ${formatG10(exMin)}`);
    result.score++;
  }
}
