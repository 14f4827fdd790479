// Residual atoms → UCAST condition trees, as OPA's compile API writes them (keys in its
// order: field, operator, type, value). One tree serves every UCAST variant; the variants
// differ only in what the fragment check lets through.
import type { JSONValue } from "../../runtime/value/json.js";
import type { Atom, Disjunction } from "./fragment.js";
import { mapField, type Mappings } from "./mappings.js";

export type UcastNode =
  | { operator: "and" | "or" | "not"; type: "compound"; value: UcastNode[] }
  | { field: string; operator: string; type: "field"; value: JSONValue };

/** The UCAST of a residual that is not a deny (at least one query): `{}` is allow-all. */
export function toUcast(d: Disjunction, mapping: Mappings): UcastNode | Record<string, never> {
  // an empty query is true, and so is a disjunction holding one
  if (d.some((conj) => conj.length === 0)) return {};
  const bodies = d.map((conj) => compound("and", conj.map((a) => atomNode(a, mapping))));
  return compound("or", bodies);
}

function compound(operator: "and" | "or", nodes: UcastNode[]): UcastNode {
  return nodes.length === 1 ? nodes[0]! : { operator, type: "compound", value: nodes };
}

function atomNode(a: Atom, mapping: Mappings): UcastNode {
  const field = mapField(a.field, mapping).join(".");
  const o = a.operand;
  const value: JSONValue =
    o.kind === "constant" ? o.constant.value : o.kind === "list" ? o.items.map((c) => c.value) : { field: mapField(o.path, mapping).join(".") };
  const node: UcastNode = { field, operator: a.op, type: "field", value };
  return a.negated ? { operator: "not", type: "compound", value: [node] } : node;
}
