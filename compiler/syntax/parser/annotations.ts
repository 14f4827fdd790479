// `# METADATA` blocks: consecutive comment lines (column 1) after a `# METADATA` line hold YAML
// (parsed with the `yaml` package) describing the package or rule that follows.
import { parseDocument } from "yaml";

import type { Annotations, AuthorAnnotation, Comment, NodeLocation, Package, Ref, RelatedResourceAnnotation, Rule, SchemaAnnotation, Term } from "../../ast/nodes.js";

export interface AnnotationError {
  message: string;
  location: NodeLocation;
}

/** Parses a string as a ref (for schema paths and compile unknowns); undefined if it is not one. */
export type RefParser = (text: string) => Term | undefined;

interface Block {
  first: Comment;
  lines: Comment[];
}

/** Finds the METADATA blocks among the comments and parses each. */
export function parseAnnotationBlocks(comments: Comment[], parseRef: RefParser): { annotations: Annotations[]; errors: AnnotationError[] } {
  const blocks: Block[] = [];
  let cur: Block | undefined;
  let prev: Comment | undefined;
  for (const c of comments) {
    if (cur && prev && c.location.row === prev.location.row + 1 && c.location.col === 1) {
      cur.lines.push(c);
      prev = c;
      continue;
    }
    cur = undefined;
    if (c.text.trim().startsWith("METADATA")) {
      cur = { first: c, lines: [] };
      blocks.push(cur);
    }
    prev = c;
  }
  const annotations: Annotations[] = [];
  const errors: AnnotationError[] = [];
  for (const b of blocks) {
    const r = parseBlock(b, parseRef);
    if ("error" in r) errors.push(r.error);
    else annotations.push(r.annotations);
  }
  return { annotations, errors };
}

function parseBlock(b: Block, parseRef: RefParser): { annotations: Annotations } | { error: AnnotationError } {
  const text = b.lines.map((c) => `${c.text.startsWith(" ") ? c.text.slice(1) : c.text}\n`).join("");
  const fail = (message: string, location: NodeLocation = b.first.location) => ({ error: { message, location } });
  if (text.trim() === "") return fail("expected METADATA block, found whitespace");
  const doc = parseDocument(text);
  const yamlErr = doc.errors[0];
  if (yamlErr) {
    const line = yamlErr.linePos?.[0]?.line;
    const at = line !== undefined ? (b.lines[Math.min(line, b.lines.length) - 1]?.location ?? b.first.location) : b.first.location;
    return fail(`yaml: line ${line ?? 1}: ${yamlErr.message.split("\n")[0]}`, at);
  }
  let raw: unknown;
  try {
    // (aliases are limited: a YAML bomb is an error, not a hang)
    raw = doc.toJS({ mapAsMap: true, maxAliasCount: 100 });
  } catch (e) {
    return fail(`yaml: ${(e as Error).message}`);
  }
  if (raw === null || raw === undefined) return fail("expected METADATA block, found whitespace");
  if (!(raw instanceof Map)) return fail("yaml: unmarshal errors: METADATA must be a mapping");
  const a: Annotations = { type: "annotations", scope: "", entrypoint: false, location: b.first.location };
  try {
    for (const [key, value] of raw) {
      // A key without a value (`# related_resources:`) is null: OPA's YAML decoding leaves the
      // field at its zero value, as if the key were absent.
      if (value === null) continue;
      switch (key) {
        case "scope":
          a.scope = str(value, "scope");
          break;
        case "title":
          a.title = str(value, "title");
          break;
        case "description":
          a.description = str(value, "description");
          break;
        case "entrypoint":
          if (typeof value !== "boolean") throw new Error(`yaml: unmarshal errors: cannot unmarshal ${show(value)} into entrypoint (bool)`);
          a.entrypoint = value;
          break;
        case "organizations":
          // a null item decodes to the zero string, as OPA's yaml.v3 decoding does
          a.organizations = list(value, "organizations").map((v) => (v === null ? "" : str(v, "organizations")));
          break;
        case "related_resources":
          a.relatedResources = list(value, "related_resources").map(relatedResource);
          break;
        case "authors":
          a.authors = list(value, "authors").map(author);
          break;
        case "schemas":
          a.schemas = list(value, "schemas").map((s) => schema(s, parseRef));
          break;
        case "custom":
          if (!(value instanceof Map)) throw new Error("yaml: unmarshal errors: custom must be a mapping");
          a.custom = plain(value) as Record<string, unknown>;
          break;
        case "compile":
          if (value instanceof Map) a.compile = compile(value, parseRef);
          break;
      }
    }
  } catch (e) {
    return fail((e as Error).message);
  }
  return { annotations: a };
}

function show(v: unknown): string {
  return v instanceof Map ? "!!map" : Array.isArray(v) ? "!!seq" : `\`${String(v)}\``;
}

function str(v: unknown, field: string): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new Error(`yaml: unmarshal errors: cannot unmarshal ${show(v)} into ${field} (string)`);
}

function list(v: unknown, field: string): unknown[] {
  if (Array.isArray(v)) return v;
  throw new Error(`yaml: unmarshal errors: cannot unmarshal ${show(v)} into ${field} (list)`);
}

function relatedResource(v: unknown): RelatedResourceAnnotation {
  const fail = (why: string) => new Error(`invalid related-resource definition ${describe(v)}: ${why}`);
  if (typeof v === "string") {
    if (v.length === 0) throw fail("ref URL may not be empty string");
    return { ref: v };
  }
  if (v instanceof Map) {
    const ref = typeof v.get("ref") === "string" ? (v.get("ref") as string).trim() : "";
    const description = typeof v.get("description") === "string" ? (v.get("description") as string).trim() : "";
    if (!ref) throw fail("'ref' value required in object");
    return description ? { ref, description } : { ref };
  }
  throw fail("invalid value type, must be string or map");
}

function author(v: unknown): AuthorAnnotation {
  const fail = (why: string) => new Error(`invalid author definition ${describe(v)}: ${why}`);
  if (typeof v === "string") {
    const parts = v.split(/\s+/).filter((p) => p !== "");
    if (parts.length === 0) throw fail("author is an empty string");
    const last = parts[parts.length - 1]!;
    if (last.length >= 2 && last.startsWith("<") && last.endsWith(">")) {
      return { name: parts.slice(0, -1).join(" "), email: last.slice(1, -1) };
    }
    return { name: parts.join(" ") };
  }
  if (v instanceof Map) {
    const name = typeof v.get("name") === "string" ? (v.get("name") as string).trim() : "";
    const email = typeof v.get("email") === "string" ? (v.get("email") as string).trim() : "";
    if (!name && !email) throw fail("'name' and/or 'email' values required in object");
    return email ? { name, email } : { name };
  }
  throw fail("invalid value type, must be string or map");
}

function schema(v: unknown, parseRef: RefParser): SchemaAnnotation {
  // a null or empty item is a map without a key: OPA parses the missing key ("") as the path
  if (v === null || (v instanceof Map && v.size === 0)) throw new Error("invalid document reference");
  if (!(v instanceof Map)) throw new Error("invalid schema declaration");
  const [k, value] = v.entries().next().value as [unknown, unknown];
  const pathTerm = parseRef(String(k));
  if (!pathTerm || pathTerm.type !== "ref") throw new Error("invalid document reference");
  const out: SchemaAnnotation = { path: pathTerm.value };
  if (typeof value === "string") {
    const s = parseRef(value);
    const ref = s && (s.type === "ref" ? s.value : s.type === "var" ? [s] : undefined);
    if (!ref || ref[0]!.type !== "var" || ref[0]!.value !== "schema") throw new Error("invalid schema reference");
    out.schema = ref;
  } else if (value instanceof Map) {
    out.definition = plain(value);
  } else {
    throw new Error(`invalid schema declaration for path ${JSON.stringify(String(k))}`);
  }
  return out;
}

function compile(v: Map<unknown, unknown>, parseRef: RefParser): Annotations["compile"] {
  const out: NonNullable<Annotations["compile"]> = {};
  const unknowns = v.get("unknowns");
  if (Array.isArray(unknowns)) {
    out.unknowns = unknowns.map((u) => {
      const t = typeof u === "string" ? parseRef(u) : undefined;
      if (!t || t.type !== "ref") throw new Error(`invalid unknowns element ${JSON.stringify(u)}`);
      return t.value;
    });
  }
  const mask = v.get("mask_rule");
  if (typeof mask === "string") {
    const t = parseRef(mask);
    if (!t) throw new Error(`invalid mask_rule annotation ${JSON.stringify(mask)}`);
    const ref: Ref | undefined = t.type === "ref" ? t.value : t.type === "var" || t.type === "string" ? [t] : undefined;
    if (!ref) throw new Error(`invalid mask_rule annotation type ${JSON.stringify(mask)}`);
    out.maskRule = ref;
  }
  return out;
}

function describe(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(plain(v));
}

/** YAML maps become objects with a null prototype (keys like __proto__ stay ordinary keys). */
function plain(v: unknown): unknown {
  if (v instanceof Map) {
    const o: Record<string, unknown> = Object.create(null);
    for (const [k, x] of v) {
      if (typeof k !== "string") throw new Error("invalid map key type(s)");
      o[k] = plain(x);
    }
    return o;
  }
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/** Attaches each annotation to the first statement after it; fills in the default scope and
 * checks the scope fits the statement. */
export function attachAnnotations(annotations: Annotations[], statements: (Package | Rule | { type: "import"; location: NodeLocation })[]): AnnotationError[] {
  const errors: AnnotationError[] = [];
  // statements are in source order: walk them alongside the annotations (also in order)
  let next = 0;
  for (const a of annotations) {
    while (next < statements.length && statements[next]!.location.row <= a.location.row) next++;
    const target = statements[next];
    if (target) a.target = target as Annotations["target"];
    if (a.scope === "") {
      if (target?.type === "rule") a.scope = a.entrypoint ? "document" : "rule";
      else if (target?.type === "package") a.scope = "package";
      else if (target?.type === "import") a.scope = "import";
    }
    const have = target ? ` (have ${target.type})` : "";
    switch (a.scope) {
      case "rule":
      case "document":
        if (target?.type !== "rule") errors.push({ message: `annotation scope '${a.scope}' must be applied to rule${have}`, location: a.location });
        break;
      case "package":
      case "subpackages":
        if (target?.type !== "package") errors.push({ message: `annotation scope '${a.scope}' must be applied to package${have}`, location: a.location });
        break;
      default:
        errors.push({
          message: `invalid annotation scope '${a.scope}'. Use one of 'rule', 'document', 'package', or 'subpackages'`,
          location: a.location,
        });
    }
    if (a.entrypoint && !(a.scope === "document" || a.scope === "package")) {
      errors.push({ message: `annotation entrypoint applied to non-document or package scope '${a.scope}'`, location: a.location });
    }
  }
  return errors;
}
