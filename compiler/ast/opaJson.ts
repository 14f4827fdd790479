// Our AST → OPA's AST JSON: what `opa parse --format json` prints and what `rego.parse_module`
// returns. Terms are `{type, value}`; sets and objects are sorted (and deduplicated) as OPA's
// values are; numbers keep their source text, so the result is built from JsonValue (with
// RawNumber for numbers) and written by `formatOpaJson`. Object members come out in sorted
// order, as Go writes maps.
import { sortedPairs, sortedUnique } from "./compare.js";
import type { Annotations, Body, Comment, Expr, ExprTerms, Head, Import, Module, NodeLocation, Package, Rule, Term, With } from "./nodes.js";
import { assertNever } from "../../runtime/errors.js";

/** A number written exactly as its text. */
export class RawNumber {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | string | RawNumber | JsonValue[] | { [key: string]: JsonValue };

export interface OpaJsonOptions {
  /** Add `location: {file, row, col}` to every node that has one. */
  locations?: boolean;
  /** With locations: add the node's source text (base64, as OPA's `text`). */
  locationText?: boolean;
  /** Include the module's comments (as OPA: `{Text: base64, Location}`); default true. */
  comments?: boolean;
}

export function moduleToOpaJson(m: Module, opts: OpaJsonOptions = {}): JsonValue {
  const w = new Writer(opts);
  const out: { [key: string]: JsonValue } = { package: w.package(m.package) };
  if (m.imports.length > 0) out["imports"] = m.imports.map((i) => w.import(i));
  if (m.annotations.length > 0) out["annotations"] = m.annotations.map((a) => w.annotations(a));
  if (m.rules.length > 0) out["rules"] = m.rules.map((r) => w.rule(r));
  if (opts.comments !== false && m.comments.length > 0) out["comments"] = m.comments.map((c) => w.comment(c));
  return out;
}

export function bodyToOpaJson(body: Body, opts: OpaJsonOptions = {}): JsonValue {
  return new Writer(opts).body(body);
}

export function termToOpaJson(term: Term, opts: OpaJsonOptions = {}): JsonValue {
  return new Writer(opts).term(term);
}

/** JSON text with keys sorted; `indent` as JSON.stringify's. */
export function formatOpaJson(value: JsonValue, indent: number | string = 0): string {
  const pad = typeof indent === "number" ? " ".repeat(indent) : indent;
  const write = (v: JsonValue, depth: string): string => {
    if (v === null || typeof v === "boolean") return String(v);
    if (typeof v === "string") return JSON.stringify(v);
    if (v instanceof RawNumber) return jsonNumber(v.text);
    const inner = depth + pad;
    const nl = pad ? "\n" : "";
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      return `[${nl}${v.map((x) => inner + write(x, inner)).join(`,${nl}`)}${nl}${depth}]`;
    }
    const keys = Object.keys(v).sort();
    if (keys.length === 0) return "{}";
    const sep = pad ? ": " : ":";
    return `{${nl}${keys.map((k) => `${inner}${JSON.stringify(k)}${sep}${write(v[k]!, inner)}`).join(`,${nl}`)}${nl}${depth}}`;
  };
  return write(value, "");
}

/** Number text as valid JSON (`.5` → `0.5`); the digits are kept. */
function jsonNumber(text: string): string {
  let t = text;
  if (t.startsWith("-.")) t = `-0${t.slice(1)}`;
  else if (t.startsWith(".")) t = `0${t}`;
  return t;
}

class Writer {
  constructor(private readonly opts: OpaJsonOptions) {}

  private located(out: { [key: string]: JsonValue }, loc: NodeLocation | undefined): { [key: string]: JsonValue } {
    if (this.opts.locations && loc) out["location"] = this.location(loc);
    return out;
  }

  location(loc: NodeLocation): JsonValue {
    const out: { [key: string]: JsonValue } = { file: loc.file, row: new RawNumber(String(loc.row)), col: new RawNumber(String(loc.col)) };
    if (this.opts.locationText && loc.text) out["text"] = Buffer.from(loc.text, "utf8").toString("base64");
    return out;
  }

  package(p: Package): JsonValue {
    return this.located({ path: p.path.map((t) => this.term(t)) }, p.location);
  }

  import(i: Import): JsonValue {
    const out: { [key: string]: JsonValue } = { path: this.term(i.path) };
    if (i.alias) out["alias"] = i.alias;
    return this.located(out, i.location);
  }

  comment(c: Comment): JsonValue {
    return { Text: Buffer.from(c.text, "utf8").toString("base64"), Location: this.location(c.location) };
  }

  rule(r: Rule): JsonValue {
    const out: { [key: string]: JsonValue } = { head: this.head(r.head), body: this.body(r.body) };
    if (r.default) out["default"] = true;
    if (r.else) out["else"] = this.rule(r.else);
    if (r.annotations.length > 0) out["annotations"] = r.annotations.map((a) => this.annotations(a));
    return this.located(out, r.location);
  }

  head(h: Head): JsonValue {
    const out: { [key: string]: JsonValue } = { ref: h.reference.map((t) => this.term(t)) };
    if (h.name) out["name"] = h.name;
    if (h.args && h.args.length > 0) out["args"] = h.args.map((t) => this.term(t));
    if (h.key) out["key"] = this.term(h.key);
    if (h.value) out["value"] = this.term(h.value);
    if (h.assign) out["assign"] = true;
    return this.located(out, h.location);
  }

  body(b: Body): JsonValue {
    return b.map((e) => this.expr(e));
  }

  expr(e: Expr): JsonValue {
    const out: { [key: string]: JsonValue } = { index: new RawNumber(String(e.index)), terms: this.exprTerms(e.terms) };
    if (e.with.length > 0) out["with"] = e.with.map((w) => this.with(w));
    if (e.generated) out["generated"] = true;
    if (e.negated) out["negated"] = true;
    return this.located(out, e.location);
  }

  private exprTerms(t: ExprTerms): JsonValue {
    if (Array.isArray(t)) return t.map((x) => this.term(x));
    switch (t.type) {
      case "some":
        return this.located({ symbols: t.symbols.map((x) => this.term(x)) }, t.location);
      case "every":
        return this.located(
          { key: t.key ? this.term(t.key) : null, value: this.term(t.value), domain: this.term(t.domain), body: this.body(t.body) },
          t.location,
        );
      case "and":
      case "or": {
        const out: { [key: string]: JsonValue } = { type: t.type, lhs: this.body(t.lhs), rhs: this.body(t.rhs) };
        if (t.explicitLhs) out["explicit_lhs"] = true;
        if (t.explicitRhs) out["explicit_rhs"] = true;
        return this.located(out, t.location);
      }
      case "not":
        return this.located({ type: "not", body: this.body(t.body), explicit_body: t.explicitBody }, t.location);
      case "string":
      case "number":
      case "boolean":
      case "object":
      case "null":
      case "var":
      case "ref":
      case "array":
      case "set":
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
      case "call":
      case "templatestring":
        return this.term(t);
      default:
        assertNever(t);
    }
  }

  with(w: With): JsonValue {
    return this.located({ target: this.term(w.target), value: this.term(w.value) }, w.location);
  }

  term(t: Term): JsonValue {
    return this.located({ type: t.type, value: this.value(t) }, t.location);
  }

  private value(t: Term): JsonValue {
    switch (t.type) {
      case "null":
        return null;
      case "boolean":
      case "string":
      case "var":
        return t.value;
      case "number":
        return new RawNumber(t.value);
      case "ref":
      case "array":
      case "call":
        return t.value.map((x) => this.term(x));
      case "set":
        return sortedUnique(t.value).map((x) => this.term(x));
      case "object":
        return sortedPairs(t.value).map(([k, v]) => [this.term(k), this.term(v)]);
      case "arraycomprehension":
      case "setcomprehension":
        return { term: this.term(t.value.term), body: this.body(t.value.body) };
      case "objectcomprehension":
        return { key: this.term(t.value.key), value: this.term(t.value.value), body: this.body(t.value.body) };
      case "templatestring":
        return {
          multi_line: t.value.multiLine,
          parts: t.value.parts.map((p) => (p.type === "expr" ? this.expr(p) : this.term(p))),
        };
      default:
        assertNever(t);
    }
  }

  annotations(a: Annotations): JsonValue {
    const out: { [key: string]: JsonValue } = { scope: a.scope };
    if (a.title) out["title"] = a.title;
    if (a.description) out["description"] = a.description;
    if (a.entrypoint) out["entrypoint"] = true;
    if (a.organizations && a.organizations.length > 0) out["organizations"] = a.organizations;
    if (a.relatedResources && a.relatedResources.length > 0) {
      out["related_resources"] = a.relatedResources.map((r): JsonValue => (r.description ? { ref: r.ref, description: r.description } : { ref: r.ref }));
    }
    if (a.authors && a.authors.length > 0) out["authors"] = a.authors.map((x): JsonValue => (x.email ? { name: x.name, email: x.email } : { name: x.name }));
    if (a.schemas && a.schemas.length > 0) {
      out["schemas"] = a.schemas.map((s) => {
        const o: { [key: string]: JsonValue } = { path: s.path.map((x) => this.term(x)) };
        if (s.schema) o["schema"] = s.schema.map((x) => this.term(x));
        if (s.definition !== undefined) o["definition"] = toJsonValue(s.definition);
        return o;
      });
    }
    if (a.custom && Object.keys(a.custom).length > 0) out["custom"] = toJsonValue(a.custom);
    return this.located(out, a.location);
  }
}

/** A plain JS value (from YAML) as a JsonValue. */
export function toJsonValue(x: unknown): JsonValue {
  if (x === null || x === undefined) return null;
  if (typeof x === "boolean" || typeof x === "string") return x;
  if (typeof x === "number" || typeof x === "bigint") return new RawNumber(String(x));
  if (Array.isArray(x)) return x.map(toJsonValue);
  if (x instanceof Map) {
    const out: { [key: string]: JsonValue } = Object.create(null);
    for (const [k, v] of x) out[String(k)] = toJsonValue(v);
    return out;
  }
  if (typeof x === "object") {
    // a null prototype: keys such as __proto__ are ordinary keys
    const out: { [key: string]: JsonValue } = Object.create(null);
    for (const [k, v] of Object.entries(x)) out[k] = toJsonValue(v);
    return out;
  }
  return String(x);
}
