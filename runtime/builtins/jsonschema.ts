// Builtins of OPA's JSON-schema group: json.verify_schema and json.match_schema.
//
// OPA uses gojsonschema: drafts 4, 6 and 7 chosen by `$schema`, and a hybrid mode (draft-7
// keywords, draft-4 boolean exclusiveMinimum/Maximum and `id` accepted) when `$schema` names none
// of them. Here jsonschema/check.ts makes gojsonschema's load-time checks with its messages, ajv
// (ajv-draft-04 for draft 4, ajv-formats for formats) compiles and validates, with RE2 (re2js)
// for `pattern` as Go does, and jsonschema/errors.ts lists a mismatch's errors as gojsonschema does.
// Remote `$ref`s are not fetched: such a schema fails to compile.
import { Ajv, type Options, type ValidateFunction } from "ajv";
import AjvDraft04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import { RE2JS } from "re2js";
import { isObject } from "../value/object.js";
import { toJSON, type JSONValue } from "../value/json.js";
import { newPlainObject, setOwn, type Value } from "../value/value.js";
import { goErrors } from "./args.js";
import { DRAFT4, DRAFT6, HYBRID, SchemaLoadError, checkSchema, detectDraft } from "./jsonschema/check.js";
import { ROOT_FIELD, WalkUnsupported, schemaErrors, type JsonObject, type SchemaResultError } from "./jsonschema/errors.js";
import { LruCache } from "./lruCache.js";
import type { BuiltinTable } from "./registry.js";

type AjvInstance = InstanceType<typeof Ajv>;
type Plugin = (ajv: AjvInstance) => AjvInstance;
const addFormats = ((addFormatsModule as unknown as { default?: Plugin }).default ?? addFormatsModule) as unknown as Plugin;
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: typeof Ajv }).default ?? AjvDraft04Module) as unknown as typeof Ajv;

/** Go's regexp semantics for `pattern` and `patternProperties`. */
const re2Engine = Object.assign(
  (pattern: string) => {
    const re = RE2JS.compile(pattern);
    return { test: (s: string) => re.matcher(s).find() };
  },
  { code: "re2" },
);

const options: Options = {
  strict: false,
  allErrors: true,
  verbose: true,
  validateSchema: false,
  logger: false,
  code: { regExp: re2Engine },
};

let instances: { draft4: AjvInstance; draft7: AjvInstance } | undefined;

function ajvFor(draft: number): AjvInstance {
  if (!instances) {
    const draft7 = addFormats(new Ajv(options));
    draft7.addMetaSchema(draft06MetaSchema);
    instances = { draft4: addFormats(new AjvDraft04(options)), draft7 };
  }
  return draft === DRAFT4 ? instances.draft4 : instances.draft7;
}

/** A compiled schema: ajv's validator, and what the error walk needs. */
interface Compiled {
  validate: ValidateFunction;
  /** The schema as normalised for ajv (the walk reads the same). */
  schema: Json;
  draft: number;
  /** The absolute URI each `$ref` names, by its schema node. */
  refs: Map<JsonObject, string>;
  /** Schema nodes by absolute URI (their `$id`s, and the root's). */
  ids: Map<string, Json>;
  /** Whether some node has `multipleOf`, which ajv checks in floating point: the walk decides. */
  multipleOf: boolean;
}

/** Compiled schemas by the schema's JSON text. */
const compiled = new LruCache<Compiled>(64);

type Json = JSONValue;

/** OPA's loader: a string must hold JSON; objects and arrays are taken as they are. */
function load(v: Value): Json {
  if (typeof v === "string") {
    try {
      return JSON.parse(v) as Json;
    } catch {
      throw new SchemaLoadError("invalid JSON string");
    }
  }
  if (isObject(v) || Array.isArray(v)) return toJSON(v);
  throw new SchemaLoadError("wrong type, expected string or object");
}

const REF_KEEPS = new Set(["$ref", "definitions", "$id", "id", "$schema", "title", "description"]);
const NOT_SCHEMAS = new Set(["enum", "const", "default", "examples"]);

/**
 * The schema as gojsonschema reads it, for ajv: keywords beside `$ref` are dropped (gojsonschema
 * does not read them) and, in hybrid mode, draft-4 boolean exclusive bounds and `id` become
 * their draft-6/7 forms.
 */
function normalize(node: Json, hybrid: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => normalize(n, hybrid));
  if (node === null || typeof node !== "object") return node;
  const out: { [k: string]: Json } = {};
  const hasRef = typeof node["$ref"] === "string";
  for (const [k, v] of Object.entries(node)) {
    if (hasRef && !REF_KEEPS.has(k)) continue;
    out[k] = NOT_SCHEMAS.has(k) ? v : normalize(v, hybrid);
  }
  if (!hybrid) return out;
  for (const [ex, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof out[ex] === "boolean") {
      if (out[ex] === true) {
        out[ex] = out[bound]!;
        delete out[bound];
      } else delete out[ex];
    }
  }
  if (typeof out["id"] === "string" && !("$id" in out)) {
    out["$id"] = out["id"];
    delete out["id"];
  }
  return out;
}

function compile(schema: Json): Compiled {
  return compiled.get(JSON.stringify(schema), () => compileUncached(schema));
}

const ROOT_URI = "regoc:/root.json";

/** The `$id`s of the schema and the absolute URI of every `$ref`, resolved against its base. */
function indexRefs(schema: Json): Pick<Compiled, "refs" | "ids" | "multipleOf"> {
  let multipleOf = false;
  const refs = new Map<JsonObject, string>();
  const ids = new Map<string, Json>([[ROOT_URI, schema]]);
  const resolveUri = (ref: string, base: string): string | undefined => {
    try {
      return new URL(ref, base).href;
    } catch {
      return undefined;
    }
  };
  const visit = (node: Json, base: string, key: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, base, undefined));
    if (node === null || typeof node !== "object" || (key !== undefined && NOT_SCHEMAS.has(key))) return;
    let here = base;
    if (typeof node["$id"] === "string") {
      here = resolveUri(node["$id"], base) ?? base;
      ids.set(here.replace(/#$/, ""), node);
    }
    if (node["multipleOf"] !== undefined) multipleOf = true;
    if (typeof node["$ref"] === "string") {
      const uri = resolveUri(node["$ref"], here);
      if (uri !== undefined) refs.set(node, uri);
    }
    for (const [k, v] of Object.entries(node)) visit(v, here, k);
  };
  visit(schema, ROOT_URI, undefined);
  return { refs, ids, multipleOf };
}

/** The schema a `$ref` names: a document by URI, then the JSON pointer of its fragment. */
function resolveRef(c: Compiled, node: JsonObject): Json | undefined {
  const uri = c.refs.get(node);
  if (uri === undefined) return undefined;
  const hash = uri.indexOf("#");
  let target = c.ids.get(hash < 0 ? uri : uri.slice(0, hash));
  if (hash < 0) return target;
  const fragment = decodeURIComponent(uri.slice(hash + 1));
  if (fragment === "" || fragment === "/") return target;
  for (const seg of fragment.slice(1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (Array.isArray(target)) target = target[Number(seg)];
    else if (target !== null && typeof target === "object" && Object.hasOwn(target, seg)) target = target[seg];
    else return undefined;
  }
  return target;
}

/** gojsonschema checks the formats it knows on strings; ajv-formats' checks stand for them. */
function formatChecker(ajv: AjvInstance): (format: string, value: string) => boolean {
  return (format, value) => {
    const f = ajv.formats[format];
    if (f === undefined || f === true) return true;
    if (f instanceof RegExp) return f.test(value);
    if (typeof f === "function") return f(value);
    if (f.async || f.type === "number") return true;
    const v = f.validate as ((s: string) => boolean) | string | RegExp;
    return typeof v === "function" ? v(value) : typeof v === "string" ? new RegExp(v, "u").test(value) : v.test(value);
  };
}

function compileUncached(schema: Json): Compiled {
  const draft = detectDraft(schema);
  checkSchema(schema, draft);
  const forAjv = normalize(schema, draft === HYBRID);
  // an unknown $schema means hybrid mode here; ajv would look the meta-schema up
  if (draft === HYBRID && forAjv !== null && typeof forAjv === "object" && !Array.isArray(forAjv)) delete forAjv["$schema"];
  const ajv = ajvFor(draft);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(forAjv as object | boolean);
  } catch (e) {
    throw new SchemaLoadError((e as Error).message);
  } finally {
    // ajv keeps every compiled schema (and its $id) until removed; our own cache is the bounded one
    if (typeof forAjv === "object" && forAjv !== null) ajv.removeSchema(forAjv as object);
  }
  return { validate, schema: forAjv, draft, ...indexRefs(forAjv) };
}

function resultArray(valid: boolean, detail: Value): Value[] {
  return [valid, detail];
}

function verifySchema(schema: Value): Value[] {
  try {
    compile(load(schema));
    return resultArray(true, null);
  } catch (e) {
    if (e instanceof SchemaLoadError) return resultArray(false, `jsonschema: ${e.message}`);
    throw e;
  }
}

function matchSchema(document: Value, schema: Value): Value[] {
  const [doc, c] = goErrors(SchemaLoadError, (): [Json, Compiled] => [load(document), compile(load(schema))]);
  // ajv decides quickly; a mismatch is listed by the walk, which has the last word. The walk does
  // gojsonschema's exact arithmetic (0.3 is a multiple of 0.1, 1e20 is not one of 3), so it also
  // decides wherever the schema has a multipleOf.
  const errors = c.validate(doc) && !c.multipleOf ? [] : mismatchErrors(c, doc);
  const valid = errors.length === 0;
  return resultArray(
    valid,
    errors.map((r) => {
      const o = newPlainObject();
      setOwn(o, "desc", r.desc);
      setOwn(o, "error", r.error);
      setOwn(o, "field", r.field);
      setOwn(o, "type", r.type);
      return o;
    }),
  );
}

function mismatchErrors(c: Compiled, doc: Json): SchemaResultError[] {
  const ajv = ajvFor(c.draft);
  try {
    return schemaErrors(c.schema, doc, { draft4: c.draft === DRAFT4, draft6: c.draft === DRAFT6, resolve: (node) => resolveRef(c, node), isFormat: formatChecker(ajv) });
  } catch (e) {
    if (!(e instanceof WalkUnsupported)) throw e;
  }
  // the walk cannot follow the schema (a `$ref` it does not resolve): ajv's own messages
  return (c.validate.errors ?? []).map((e) => {
    const field = e.instancePath === "" ? ROOT_FIELD : e.instancePath.slice(1).split("/").join(".");
    const desc = e.message ?? e.keyword;
    return { error: `${field}: ${desc}`, type: e.keyword, field, desc };
  });
}

export const jsonschemaBuiltins: BuiltinTable = {
  "json.match_schema": { fn: (_ctx, document, schema) => matchSchema(document, schema) },
  "json.verify_schema": { fn: (_ctx, schema) => verifySchema(schema) },
};
