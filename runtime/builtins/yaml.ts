// Builtins of OPA's "yaml" category. OPA goes through sigs.k8s.io/yaml (go-yaml v2, YAML 1.1):
// yaml.unmarshal is YAML → Go values → JSON → Rego value, yaml.marshal the reverse. The `yaml`
// package parses (with the failsafe schema, so every scalar arrives as text); go-yaml's scalar
// resolution, the JSON conversion rules (non-string keys become text, NaN/Inf are errors, later
// duplicate keys and `<<` merges override) and go-yaml's error texts are applied here.
import { Composer, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type CST, type Document, type Node } from "yaml";
import { fromBigInt, numberFromText } from "../value/number.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../value/value.js";
import { goErrors, str, succeeds } from "./args.js";
import type { EvalContext } from "./context.js";
import { formatFloat, jsonFloat } from "./go/float.js";
import { keyText, resolvePlain, type Resolved } from "./go/yaml.js";
import { yamlMarshal } from "./go/yamlEmit.js";
import type { BuiltinTable } from "./registry.js";

class YamlError extends Error {}

/** Alias expansion budget: a "billion laughs" document fails instead of exhausting memory. */
const MAX_NODES = 1_000_000;

/**
 * Nesting limit. go-yaml allows 10000 levels; the yaml package composes documents recursively
 * and exhausts the JS call stack (in Node 20, sometimes fatally) long before that, so deeper
 * documents are refused before they are composed, with go-yaml's wording.
 */
export const MAX_YAML_DEPTH = 500;

const YAML_TAG = "tag:yaml.org,2002:";

/** go-yaml's wording for the yaml package's parse errors, with the line go-yaml would name. */
function goMessage(code: string, message: string, line: number | undefined): string {
  const at = line !== undefined ? `line ${line}: ` : "";
  const first = message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  let text: string;
  if (/Flow sequence/.test(first)) text = "did not find expected ',' or ']'";
  else if (/Flow map/.test(first)) text = "did not find expected ',' or '}'";
  else if (/Missing closing/.test(first)) text = "found unexpected end of stream";
  else if (code === "TAB_AS_INDENT") text = "found character that cannot start any token";
  else if (code === "BLOCK_AS_IMPLICIT_KEY") text = "mapping values are not allowed in this context";
  else if (code === "MULTILINE_IMPLICIT_KEY") text = "could not find expected ':'";
  else if (code === "BAD_INDENT" || code === "MISSING_CHAR") text = "did not find expected key";
  else text = first.charAt(0).toLowerCase() + first.slice(1);
  return `yaml: ${at}${text}`;
}

const TYPE_NAMES: Record<Resolved["t"], string> = { null: "null", bool: "bool", int: "int", float: "float", str: "str" };

class Converter {
  private budget = MAX_NODES;
  /** The alias targets being expanded on the current path: an anchor inside itself is an error. */
  private readonly expanding = new Set<Node>();
  private depth = 0;
  constructor(private readonly doc: Document) {}

  /** Alias targets, found once each (the yaml package searches the whole document per call). */
  private readonly targets = new Map<Node, Node | undefined>();

  private resolveAlias(n: Node): Node {
    if (!isAlias(n)) return n;
    let target = this.targets.get(n);
    if (target === undefined && !this.targets.has(n)) this.targets.set(n, (target = n.resolve(this.doc)));
    if (target === undefined) throw new YamlError(`yaml: unknown anchor '${n.source}' referenced`);
    if (this.expanding.has(target)) throw new YamlError(`yaml: anchor '${n.source}' value contains itself`);
    return target;
  }

  /** A scalar node as go-yaml resolves it: plain ones by YAML 1.1 rules, quoted ones as text. */
  private scalar(n: Node): Resolved {
    if (!isScalar(n)) throw new YamlError("yaml: invalid map key: a collection");
    const text = String(n.value ?? "");
    const tag = n.tag;
    if (tag === undefined) return n.type === "PLAIN" ? resolvePlain(text) : { t: "str", v: text };
    if (!tag.startsWith(YAML_TAG)) return { t: "str", v: text }; // local tags are not resolved
    const want = tag.slice(YAML_TAG.length);
    if (want === "str" || want === "timestamp") return { t: "str", v: text };
    if (want === "binary") return { t: "str", v: Buffer.from(text.replace(/\s+/g, ""), "base64").toString("utf8") };
    const r = resolvePlain(text);
    if (TYPE_NAMES[r.t] === want) return r;
    if (want === "float" && r.t === "int") return { t: "float", v: Number(r.v) };
    throw new YamlError(`yaml: cannot decode !!${TYPE_NAMES[r.t]} \`${text}\` as a !!${want}`);
  }

  value(node: Node | null | undefined): Value {
    if (--this.budget < 0) throw new YamlError("yaml: document contains excessive aliasing");
    if (node === null || node === undefined) return null;
    const n = this.resolveAlias(node);
    if (isMap(n) || isSeq(n)) {
      // Aliases can nest expansions deeper than the document itself is.
      if (++this.depth > MAX_YAML_DEPTH) throw new YamlError(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
      const aliased = n !== node;
      if (aliased) this.expanding.add(n);
      try {
        if (isSeq(n)) return n.items.map((item) => this.value(item as Node | null));
        const out = newPlainObject();
        this.mapping(n.items, out);
        return out;
      } finally {
        if (aliased) this.expanding.delete(n);
        this.depth--;
      }
    }
    const r = this.scalar(n);
    switch (r.t) {
      case "null":
        return null;
      case "bool":
      case "str":
        return r.v;
      case "int":
        return fromBigInt(r.v);
      default:
        if (!Number.isFinite(r.v)) throw new YamlError(`json: unsupported value: ${formatFloat(r.v, "g", -1)}`);
        return numberFromText(jsonFloat(r.v)) ?? r.v;
    }
  }

  /** Pairs in order into out: a later key overrides, a `<<` merge writes its maps' keys. */
  private mapping(items: readonly unknown[], out: PlainObject): void {
    for (const item of items) {
      if (!isPair(item)) continue;
      const keyNode = item.key as Node | null;
      const valueNode = item.value as Node | null;
      if (keyNode && isScalar(keyNode) && keyNode.type === "PLAIN" && keyNode.tag === undefined && keyNode.value === "<<") {
        this.merge(valueNode, out);
        continue;
      }
      setOwn(out, this.key(keyNode), this.value(valueNode));
    }
  }

  private merge(node: Node | null, out: PlainObject): void {
    const fail = () => new YamlError("yaml: map merge requires map or sequence of maps as the value");
    if (node === null) throw fail();
    const n = this.resolveAlias(node);
    if (isMap(n)) return this.mapping(n.items, out);
    if (!isSeq(n)) throw fail();
    // Earlier maps take precedence: they are applied last.
    for (const item of [...n.items].reverse()) {
      const m = this.resolveAlias(item as Node);
      if (!isMap(m)) throw fail();
      this.mapping(m.items, out);
    }
  }

  private key(node: Node | null): string {
    const text = node === null ? undefined : keyText(this.scalar(this.resolveAlias(node)));
    if (text === undefined) throw new YamlError("unsupported map key of type: %!s(<nil>), key: <nil>");
    return text;
  }
}

/** The deepest nesting of collections in the parsed tokens (the parser keeps its own stack). */
function cstDepth(tokens: readonly CST.Token[]): number {
  const work: Array<[CST.Token | undefined, number]> = tokens.map((t) => [t, 0]);
  let max = 0;
  while (work.length > 0) {
    const [t, depth] = work.pop()!;
    if (t === undefined) continue;
    if (t.type === "document") work.push([t.value, depth]);
    else if (t.type === "block-map" || t.type === "block-seq" || t.type === "flow-collection") {
      if (depth + 1 > max) max = depth + 1;
      for (const item of t.items) {
        if ("key" in item && item.key) work.push([item.key, depth + 1]);
        work.push([item.value, depth + 1]);
      }
    }
  }
  return max;
}

/** yaml.unmarshal's value for a document (the first one; none is null). */
export function yamlUnmarshal(text: string): Value {
  const lines = new LineCounter();
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text));
  if (cstDepth(tokens) > MAX_YAML_DEPTH) throw new YamlError(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
  const doc = Array.from(new Composer({ schema: "failsafe", version: "1.1", uniqueKeys: false }).compose(tokens))[0];
  if (doc === undefined) return null;
  const err = doc.errors[0];
  if (err) throw new YamlError(goMessage(err.code, err.message, err.pos[0] === -1 ? undefined : lines.linePos(err.pos[0]).line));
  return new Converter(doc).value(doc.contents as Node | null);
}

const unmarshal = (_ctx: EvalContext, x: Value): Value => goErrors(YamlError, () => yamlUnmarshal(str(x, 1)));

const isValid = (_ctx: EvalContext, x: Value): Value => typeof x === "string" && succeeds(YamlError, () => yamlUnmarshal(x));

export const yamlBuiltins: BuiltinTable = {
  "yaml.marshal": { fn: (_ctx: EvalContext, x: Value) => yamlMarshal(x) },
  "yaml.unmarshal": { fn: unmarshal },
  "yaml.is_valid": { fn: isValid },
};
