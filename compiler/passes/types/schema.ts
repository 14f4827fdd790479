// JSON Schema → the type checker's types, the way OPA's type checker reads schemas:
//   - `type` picks one type; of several (a `type` array) the first of boolean, string,
//     number/integer, object, array wins; `null` alone, `enum`, `const`, `oneOf`, `not` and
//     the validation keywords (minimum, pattern, ...) say nothing to the checker: any;
//   - an object with `properties` is closed unless `additionalProperties` is true (any other
//     key, any value) or a schema (string keys, values of that schema); an object without
//     properties is open;
//   - `items`: one schema → array of it; a list → a tuple of exactly those;
//   - `anyOf` → the union of the alternatives (and of the schema's own object type, when it
//     declares a closed object of its own); `allOf` → the members merged into one schema;
//   - a schema without `type` is an object when it has properties, an array when it has items;
//   - `$ref`: local pointers (`#/definitions/x`, `#/$defs/x`), and other schemas of the set by
//     their key (`schema.x#/...`) or `$id`. Remote references are refused (no network access). A
//     reference back into a schema still being read (a recursive schema) is typed any there, so
//     reading terminates.
// `required` says nothing to the checker either (a missing key is simply undefined); the property
// names an object schema requires are kept aside (requiredKeys) for the code generator's types.
// Errors are SchemaErrors saying where in the schema they are (a JSON pointer).
import { A, arr, B, N, obj, or, S, type MaybeType, type Type } from "./types.js";

export class SchemaError extends Error {}

/** A side table (module state on purpose; its entries go with their types), keyed by the type's
 * identity (types never change): the properties each object
 * type read from a schema requires. */
const required = new WeakMap<Type, ReadonlySet<string>>();

/** The property names the schema of an object type lists in `required` (none for a type not
 * read from a schema, or one rebuilt from it). */
export function requiredKeys(t: Type): ReadonlySet<string> {
  return required.get(t) ?? new Set();
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type SchemaObject = { [k: string]: Json };

/** A schema document: what local `#/...` pointers resolve against. */
interface Doc {
  name: string;
  root: Json;
}

const TYPE_NAMES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);

/** A set of schemas keyed as OPA keys them: `schema` (the input schema applied everywhere),
 * `schema.input`, `schema.foo.bar` (what annotations refer to). Values are parsed JSON or JSON
 * text; each is read when first used, and its type kept. */
export class SchemaSet {
  private readonly raw = new Map<string, unknown>();
  private readonly docs = new Map<string, Doc>();
  private readonly types = new Map<string, Type>();

  constructor(schemas: Readonly<Record<string, unknown>>) {
    for (const [k, v] of Object.entries(schemas)) this.raw.set(k, v);
  }

  has(key: string): boolean {
    return this.raw.has(key);
  }

  /** The type of the schema at `key` (undefined when the set has none); throws SchemaError. */
  typeOf(key: string): Type | undefined {
    const known = this.types.get(key);
    if (known) return known;
    const doc = this.doc(key);
    if (!doc) return undefined;
    const t = new Reader(this).read(doc);
    this.types.set(key, t);
    return t;
  }

  /** The type of a schema written in place (an annotation's inline definition). */
  typeOfDefinition(definition: unknown, name: string): Type {
    return new Reader(this).read({ name, root: asJson(definition, name) });
  }

  /** The parsed schema at `key`, or the one whose `$id` is `key`. */
  doc(key: string): Doc | undefined {
    const known = this.docs.get(key);
    if (known) return known;
    if (this.raw.has(key)) {
      const doc = { name: key, root: parse(this.raw.get(key), key) };
      this.docs.set(key, doc);
      return doc;
    }
    for (const k of this.raw.keys()) {
      const d = this.doc(k)!;
      if (isObject(d.root) && d.root["$id"] === key) return d;
    }
    return undefined;
  }
}

function parse(v: unknown, name: string): Json {
  if (typeof v !== "string") return asJson(v, name);
  try {
    return JSON.parse(v) as Json;
  } catch (e) {
    throw new SchemaError(`schema ${name} is not valid JSON: ${(e as Error).message}`);
  }
}

function asJson(v: unknown, name: string): Json {
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
  if (typeof v === "object") return v as Json;
  throw new SchemaError(`schema ${name} is not JSON`);
}

function isObject(v: Json | undefined): v is SchemaObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Reads one schema document (and what it refers to) into a type. */
class Reader {
  /** Reference targets being read: met again, the reference is recursive. */
  private readonly reading = new Set<SchemaObject>();
  /** Reference targets already read. */
  private readonly done = new Map<SchemaObject, Type>();

  constructor(private readonly set: SchemaSet) {}

  read(doc: Doc): Type {
    return this.schema(doc.root, doc, "#");
  }

  private schema(s: Json, doc: Doc, at: string): Type {
    if (typeof s === "boolean") return A;
    if (!isObject(s)) throw new SchemaError(`schema ${doc.name}: ${at} is not a schema (an object or a boolean)`);
    if (s["$ref"] !== undefined) return this.ref(s["$ref"], doc, at);
    if (s["anyOf"] !== undefined) return this.anyOf(s, doc, at);
    if (s["allOf"] !== undefined) return this.schema(this.merge(s, doc, at), doc, `${at}/allOf`);
    const types = typeNames(s, doc, at);
    if (types.has("boolean")) return B;
    if (types.has("string")) return S;
    if (types.has("number") || types.has("integer")) return N;
    if (types.has("object")) return this.object(s, doc, at);
    if (types.has("array")) return this.array(s, doc, at);
    if (types.size === 0 && isObject(s["properties"]) && Object.keys(s["properties"]).length > 0) return this.object(s, doc, at);
    if (types.size === 0 && hasItems(s)) return this.array(s, doc, at);
    return A;
  }

  private ref(ref: Json, doc: Doc, at: string): Type {
    const target = this.resolve(ref, doc, at);
    const known = this.done.get(target.node);
    if (known) return known;
    if (this.reading.has(target.node)) return A;
    this.reading.add(target.node);
    try {
      const t = this.schema(target.node, target.doc, target.at);
      this.done.set(target.node, t);
      return t;
    } finally {
      this.reading.delete(target.node);
    }
  }

  /** The schema a `$ref` points at, in its document. */
  private resolve(ref: Json, doc: Doc, at: string): { node: SchemaObject; doc: Doc; at: string } {
    if (typeof ref !== "string") throw new SchemaError(`schema ${doc.name}: ${at}/$ref is not a string`);
    const hash = ref.indexOf("#");
    const base = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? "" : ref.slice(hash + 1);
    let target = doc;
    if (base !== "") {
      const other = this.set.doc(base);
      if (!other) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(base)) throw new SchemaError(`schema ${doc.name}: ${at}/$ref: remote reference ${ref} refused (schemas are never fetched)`);
        throw new SchemaError(`schema ${doc.name}: ${at}/$ref: ${ref} is not a schema of the set`);
      }
      target = other;
    }
    let node: Json | undefined = target.root;
    for (const part of pointer === "" ? [] : pointer.replace(/^\//, "").split("/")) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
    }
    if (!isObject(node)) throw new SchemaError(`schema ${doc.name}: ${at}/$ref: ${ref} does not point at a schema`);
    return { node, doc: target, at: `#${pointer}` };
  }

  private anyOf(s: SchemaObject, doc: Doc, at: string): Type {
    const alts = s["anyOf"];
    if (!Array.isArray(alts)) throw new SchemaError(`schema ${doc.name}: ${at}/anyOf is not an array`);
    let out: MaybeType;
    if (s["type"] !== undefined) {
      // the schema's own type counts only as a closed object of known properties
      const { anyOf: _, ...core } = s;
      const t = this.schema(core, doc, at);
      if (t.kind === "object" && t.static.length > 0 && !t.dynamic) out = t;
    }
    alts.forEach((alt, i) => (out = or(out, this.schema(alt, doc, `${at}/anyOf/${i}`))));
    return out ?? A;
  }

  /** `allOf` (with the schema's own keywords) merged into one schema: types must agree;
   * properties are united (one named by several members: the allOf of theirs), items too. */
  private merge(s: SchemaObject, doc: Doc, at: string): SchemaObject {
    const parts = s["allOf"];
    if (!Array.isArray(parts)) throw new SchemaError(`schema ${doc.name}: ${at}/allOf is not an array`);
    const { allOf: _, ...own } = s;
    const members = [own, ...parts.map((p, i) => this.deref(p, doc, `${at}/allOf/${i}`))];
    const out: SchemaObject = {};
    const props: { [k: string]: Json[] } = {};
    const items: Json[] = [];
    const needed = new Set<string>();
    for (const m of members) {
      mergeType(out, m, doc, at);
      if (isObject(m["properties"])) for (const [k, v] of Object.entries(m["properties"])) (props[k] ??= []).push(v);
      if (m["items"] !== undefined) items.push(m["items"]);
      for (const k of requiredList(m)) needed.add(k);
      if (m["additionalProperties"] !== undefined && m["additionalProperties"] !== false) out["additionalProperties"] = m["additionalProperties"];
    }
    if (Object.keys(props).length > 0) out["properties"] = Object.fromEntries(Object.entries(props).map(([k, vs]) => [k, vs.length === 1 ? vs[0]! : { allOf: vs }]));
    if (needed.size > 0) out["required"] = [...needed];
    if (items.length > 0) out["items"] = items.length === 1 || items.some(Array.isArray) ? items[0]! : { allOf: items };
    return out;
  }

  /** A member of allOf with its references followed (merging needs its keywords). */
  private deref(s: Json, doc: Doc, at: string): SchemaObject {
    const seen = new Set<SchemaObject>();
    let cur = s;
    while (isObject(cur) && cur["$ref"] !== undefined) {
      if (seen.has(cur)) return {};
      seen.add(cur);
      cur = this.resolve(cur["$ref"], doc, at).node;
    }
    if (typeof cur === "boolean") return {};
    if (!isObject(cur)) throw new SchemaError(`schema ${doc.name}: ${at} is not a schema (an object or a boolean)`);
    return cur;
  }

  private object(s: SchemaObject, doc: Doc, at: string): Type {
    const props = s["properties"];
    if (props !== undefined && !isObject(props)) throw new SchemaError(`schema ${doc.name}: ${at}/properties is not an object`);
    const stat = Object.entries(props ?? {}).map(([k, v]) => ({ key: k as unknown, value: this.schema(v, doc, `${at}/properties/${k}`) as MaybeType }));
    const more = s["additionalProperties"];
    let t: Type;
    if (more === true || (stat.length === 0 && (more === undefined || more === false))) t = obj(stat, { key: A, value: A });
    else if (more === undefined || more === false) t = obj(stat);
    else t = obj(stat, { key: S, value: this.schema(more, doc, `${at}/additionalProperties`) });
    required.set(t, new Set(requiredList(s)));
    return t;
  }

  private array(s: SchemaObject, doc: Doc, at: string): Type {
    const items = s["items"];
    if (items === undefined || (Array.isArray(items) && items.length === 0)) return arr([], A);
    if (Array.isArray(items)) return arr(items.map((x, i) => this.schema(x, doc, `${at}/items/${i}`)));
    return arr([], this.schema(items, doc, `${at}/items`));
  }
}

function typeNames(s: SchemaObject, doc: Doc, at: string): Set<string> {
  const t = s["type"];
  if (t === undefined) return new Set();
  const names = Array.isArray(t) ? t : [t];
  for (const n of names) {
    if (typeof n !== "string" || !TYPE_NAMES.has(n)) throw new SchemaError(`schema ${doc.name}: ${at}/type: ${JSON.stringify(n)} is not a JSON Schema type`);
  }
  return new Set(names as string[]);
}

/** The string members of a schema's `required` (other values are ignored, as by the checker). */
function requiredList(s: SchemaObject): string[] {
  const r = s["required"];
  return Array.isArray(r) ? r.filter((k): k is string => typeof k === "string") : [];
}

function hasItems(s: SchemaObject): boolean {
  const items = s["items"];
  return items !== undefined && !(Array.isArray(items) && items.length === 0);
}

/** Adds a member's `type` to a merged schema; members of different types cannot be merged. */
function mergeType(out: SchemaObject, m: SchemaObject, doc: Doc, at: string): void {
  if (m["type"] === undefined) return;
  const t = [...typeNames(m, doc, at)].sort().join(",");
  if (out["type"] !== undefined && [...typeNames(out, doc, at)].sort().join(",") !== t) {
    throw new SchemaError(`schema ${doc.name}: ${at}/allOf: unable to merge these schemas (types ${JSON.stringify(out["type"])} and ${JSON.stringify(m["type"])})`);
  }
  out["type"] = m["type"];
}
