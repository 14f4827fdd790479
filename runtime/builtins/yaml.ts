// Builtins of OPA's "yaml" category. OPA goes through sigs.k8s.io/yaml (go-yaml v2, YAML 1.1):
// yaml.unmarshal is YAML → Go values → JSON → Rego value, yaml.marshal the reverse. The `yaml`
// package parses (with the failsafe schema, so every scalar arrives as text); go-yaml's scalar
// resolution, the JSON conversion rules (non-string keys become text, NaN/Inf are errors, later
// duplicate keys and `<<` merges override) and go-yaml's error texts are applied here.
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node } from "yaml";
import { fromBigInt, numberFromText } from "../value/number.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../value/value.js";
import { builtinError, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { formatFloat, jsonFloat } from "./goFloat.js";
import { keyText, resolvePlain, type Resolved } from "./goYaml.js";
import { yamlMarshal } from "./goYamlEmit.js";
import type { BuiltinTable } from "./registry.js";

class YamlError extends Error {}

/** Alias expansion budget: a "billion laughs" document fails instead of exhausting memory. */
const MAX_NODES = 1_000_000;

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
  constructor(private readonly doc: Document) {}

  private resolveAlias(n: Node): Node {
    if (!isAlias(n)) return n;
    const target = n.resolve(this.doc);
    if (target === undefined) throw new YamlError(`yaml: unknown anchor '${n.source}' referenced`);
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
    if (isMap(n)) {
      const out = newPlainObject();
      this.mapping(n.items, out);
      return out;
    }
    if (isSeq(n)) return n.items.map((item) => this.value(item as Node | null));
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

/** yaml.unmarshal's value for a document (the first one; none is null). */
export function yamlUnmarshal(text: string): Value {
  const docs = parseAllDocuments(text, { schema: "failsafe", version: "1.1", uniqueKeys: false, prettyErrors: true });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return null;
  const err = doc.errors[0];
  if (err) throw new YamlError(goMessage(err.code, err.message, err.linePos?.[0].line));
  return new Converter(doc).value(doc.contents as Node | null);
}

function unmarshal(_ctx: EvalContext, x: Value): Value {
  try {
    return yamlUnmarshal(str(x, 1));
  } catch (e) {
    if (e instanceof YamlError) throw builtinError(e.message);
    throw e;
  }
}

function isValid(_ctx: EvalContext, x: Value): Value {
  if (typeof x !== "string") return false;
  try {
    yamlUnmarshal(x);
    return true;
  } catch (e) {
    if (e instanceof YamlError) return false;
    throw e;
  }
}

export const yamlBuiltins: BuiltinTable = {
  "yaml.marshal": { fn: (_ctx: EvalContext, x: Value) => yamlMarshal(x) },
  "yaml.unmarshal": { fn: unmarshal },
  "yaml.is_valid": { fn: isValid },
};
