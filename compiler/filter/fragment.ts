// The supported fragment of residual queries: each residual expression (what partial evaluation
// left over, refs rooted at the unknowns) is checked against the targets' constraints and read
// into an Atom, a comparison of one field with a constant, a list, another field, or "exists".
// Everything outside the fragment is a pe_fragment_error at the expression, with OPA's message
// and a hint; nothing is ever dropped (a dropped condition would widen the filter).
import type { Body, Expr, Module, Term } from "../ast/nodes.js";
import { compareTerms } from "../ast/compare.js";
import { printExpr, printTerm } from "../ast/print.js";
import { RegoError, type Location } from "../../runtime/errors.js";
import { fragmentError } from "./errors.js";
import type { Constraint, Feature } from "./targets.js";

export type AtomOp = "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "in" | "startswith" | "endswith" | "contains";
export type Scalar = null | boolean | number | string;

/** A constant as the policy wrote it: the JSON value and, for numbers, their exact text. */
export interface Constant {
  value: Scalar;
  text?: string;
}

export type Operand = { kind: "constant"; constant: Constant } | { kind: "list"; items: Constant[] } | { kind: "field"; path: string[] };

export interface Atom {
  op: AtomOp;
  /** The field, as the unknown ref names it: [table, column] or a mapped short name [name]. */
  field: string[];
  operand: Operand;
  negated: boolean;
}

/** A residual as a disjunction (one entry per query) of conjunctions of atoms. */
export type Disjunction = Atom[][];

const OPS: Record<string, AtomOp> = {
  eq: "eq",
  equal: "eq",
  neq: "ne",
  lt: "lt",
  lte: "lte",
  gt: "gt",
  gte: "gte",
  "internal.member_2": "in",
  startswith: "startswith",
  endswith: "endswith",
  contains: "contains",
};
const COMPARISON: ReadonlySet<string> = new Set(["eq", "equal", "neq", "lt", "lte", "gt", "gte"]);
/** The same comparison with its operands swapped: `10 <= x` is `x >= 10`. */
const SWAPPED: Partial<Record<AtomOp, AtomOp>> = { lt: "gt", lte: "gte", gt: "lt", gte: "lte" };
const NICE_NAMES: Record<string, string> = { "internal.member_2": "in" };

/**
 * Checks every expression of every query against every constraint and reads the queries into
 * atoms. `shorts` are the unknowns mapped to a table (`input.name` with `{name: {$table: ...}}`).
 * Every offending expression gives one error (all are reported, not only the first).
 */
export function readResiduals(
  queries: readonly Body[],
  support: readonly Module[],
  constraints: readonly Constraint[],
  shorts: ReadonlySet<string>,
): { disjunction: Disjunction; errors: RegoError[] } {
  const errors: RegoError[] = [];
  const disjunction: Disjunction = [];
  for (const body of queries) {
    const conj: Atom[] = [];
    for (const e of body) {
      const r = readExpr(e, support, constraints, shorts);
      if (r instanceof RegoError) errors.push(r);
      else conj.push(r);
    }
    disjunction.push(conj);
  }
  return { disjunction, errors };
}


function assertFeature(constraints: readonly Constraint[], f: Feature): string | undefined {
  const missing = constraints.filter((c) => !c.features.has(f));
  return missing.length === 0 ? undefined : missing.map((c) => `unsupported feature ${JSON.stringify(f)} for ${c.name}`).join("\n");
}

function opName(t: Term): string | undefined {
  if (t.type !== "ref") return undefined;
  const parts: string[] = [];
  for (const [i, p] of t.value.entries()) {
    if (i === 0 ? p.type !== "var" : p.type !== "string") return undefined;
    parts.push(p.value as string);
  }
  return parts.join(".");
}

function readExpr(e: Expr, support: readonly Module[], cs: readonly Constraint[], shorts: ReadonlySet<string>): Atom | RegoError {
  const text = () => printExpr({ ...e, negated: false });
  const isCall = Array.isArray(e.terms);
  if (e.negated) {
    if (!isCall) return fragmentError(e.location, `"not" not permitted`, `negate a comparison of a field instead (\`${text()} != ...\`), or inline the negated rule`);
    const missing = assertFeature(cs, "not");
    if (missing) return fragmentError(e.location, `"not" not permitted: ${missing}`, "write the condition without `not` (for example `!=` for `not ... ==`)");
  } else if (!isCall) {
    const t = e.terms as Term | { type: string };
    if (t.type === "every") return fragmentError(e.location, `"every" not permitted`, "a filter cannot quantify over the rows of another table: express the condition on one row's fields");
    if (e.with.length > 0) return fragmentError(e.location, `"with" not permitted`, "remove `with` from the filter policy");
    if (t.type === "ref") {
      const ref = (t as Term & { type: "ref" }).value;
      const root = ref[0]?.type === "var" ? ref[0].value : "";
      if (root === "data" && ref[1]?.type === "string" && ref[1].value === "partial") {
        return fragmentError((ref[ref.length - 1] ?? t).location as Location, supportDetails(ref, support) || `invalid data reference "${text()}"`, "a rule that partial evaluation could not inline (default, multi-value, else) cannot become a filter");
      }
      if (root === "data") {
        return fragmentError(e.location, `invalid data reference "${text()}"`, `has rule "${printTerm(t as Term)}" an \`else\`?`);
      }
    }
    return fragmentError(e.location, `invalid statement "${text()}"`, `try \`${text()} != false\``);
  }
  if (e.with.length > 0) return fragmentError(e.location, `"with" not permitted`, "remove `with` from the filter policy");
  const [opTerm, ...args] = e.terms as Term[];
  const name = opTerm ? opName(opTerm) : undefined;
  // OPA's partial evaluation writes `==` as a new `=` without a location: errors point at the
  // expression, or at a nested call's operator
  const isEq = name === "eq" || name === "equal";
  const loc = (isEq ? e.location : (opTerm?.location ?? e.location)) as Location;
  const op = name === undefined ? undefined : OPS[name];
  if (name === "internal.member_3") return fragmentError(loc, `invalid use of "... in ..."`, "use `x in collection` on a field, without a key");
  if (op === undefined || name === undefined) {
    if (name?.startsWith("data.")) {
      return fragmentError(e.location, `invalid data reference "${text()}"`, `has function "${name}(...)" an \`else\`?`);
    }
    return fragmentError(loc, `invalid builtin \`${name ?? (opTerm ? printTerm(opTerm) : "?")}\``, "only comparisons (== != < <= > >=), in, startswith, endswith and contains on fields translate to a filter");
  }
  const unsupported = cs.filter((c) => !c.builtins.has(name));
  if (unsupported.length > 0) {
    return fragmentError(
      loc,
      `invalid builtin \`${NICE_NAMES[name] ?? name}\`: ${unsupported.map((c) => `unsupported for ${c.name}`).join("\n")}`,
      "choose a target that supports it, or rewrite the condition with comparisons",
    );
  }
  const printedOp = name;
  for (let i = 0; i < 2; i++) {
    const a = args[i];
    if (a === undefined) return fragmentError(loc, `${printedOp}: missing operand`, "give the comparison two operands");
    if (a.type === "call") {
      const at = (isEq ? (a.value[0]?.location ?? loc) : loc) as Location;
      return fragmentError(at, `${printedOp}: nested call operand: ${printCall(a)}`, "compute the value before comparing, from known data only");
    }
    if (a.type === "ref" && fieldPath(a, shorts) === undefined) {
      return fragmentError(loc, `${printedOp}: invalid ref operand: ${printTerm(a)}`, "a field is written `input.<table>.<column>` with the table an unknown");
    }
  }
  const [l, r] = args as [Term, Term];
  const refs = (l.type === "ref" ? 1 : 0) + (r.type === "ref" ? 1 : 0);
  if (refs === 2) {
    const missing = assertFeature(cs, "field-ref");
    if (missing) return fragmentError(loc, `reference to field: ${missing}`, "compare the field with a constant, or choose a target that compares fields");
  }
  if (!COMPARISON.has(name)) {
    // startswith, endswith, contains, in: the field first, the pattern or collection known
    if (l.type !== "ref") return fragmentError(loc, `rhs of ${printedOp} must be known`, `the field must be the first operand of ${NICE_NAMES[name] ?? name}`);
    const field = fieldPath(l, shorts)!;
    if (op === "in") {
      if (r.type !== "array" && r.type !== "set") return fragmentError(loc, `${printedOp}: collection operand must be an array or a set of constants, not ${printTerm(r)}`, "list the allowed values");
      const items: Constant[] = [];
      for (const t of r.type === "set" ? [...r.value].sort(compareTerms) : r.value) {
        const c = constant(t);
        if (c === undefined) return fragmentError(loc, `${printedOp}: collection elements must be scalars, not ${printTerm(t)}`, "list the allowed values as strings, numbers, booleans or null");
        items.push(c);
      }
      return { op, field, operand: { kind: "list", items }, negated: e.negated };
    }
    const c = r.type === "string" ? constant(r) : undefined;
    if (c === undefined) return fragmentError(loc, `${printedOp}: the pattern must be a known string, not ${printTerm(r)}`, "match the field against a string constant");
    return { op, field, operand: { kind: "constant", constant: c }, negated: e.negated };
  }
  // a comparison: one side a field, the other a scalar, another field, or (for =) a variable
  const [fieldTerm, other, swapped] = l.type === "ref" ? [l, r, false] : [r, l, true];
  if (fieldTerm.type !== "ref") return fragmentError(loc, "both rhs and lhs non-scalar/non-ground", "compare a field with a constant");
  const field = fieldPath(fieldTerm, shorts)!;
  const atomOp = swapped ? (SWAPPED[op] ?? op) : op;
  if (other.type === "ref") return { op: atomOp, field, operand: { kind: "field", path: fieldPath(other, shorts)! }, negated: e.negated };
  const c = constant(other);
  if (c !== undefined) {
    if (c.value === null && atomOp !== "eq" && atomOp !== "ne") {
      return fragmentError(loc, `${printedOp}: null can only be compared with == or !=`, "test `== null` or `!= null`");
    }
    return { op: atomOp, field, operand: { kind: "constant", constant: c }, negated: e.negated };
  }
  if (name === "eq" && other.type === "var") {
    const missing = assertFeature(cs, "existence-ref");
    if (missing) return fragmentError(loc, `existence of field: ${missing}`, "compare the field with `!= null`, or choose a SQL target");
    // `field = _`: the field exists, which a database says as IS NOT NULL
    return { op: "ne", field, operand: { kind: "constant", constant: { value: null } }, negated: e.negated };
  }
  return fragmentError(loc, "both rhs and lhs non-scalar/non-ground", "compare a field with a scalar constant (use `in` for a list)");
}

/** A call as OPA's messages print it: `equal(a, "b")`, not `a == "b"`. */
function printCall(t: Term & { type: "call" }): string {
  const [op, ...args] = t.value;
  return `${(op && opName(op)) ?? (op ? printTerm(op) : "")}(${args.map((a) => printTerm(a)).join(", ")})`;
}

/** `input.<table>.<column>` → [table, column]; `input.<short>` → [short] when mapped to a table. */
function fieldPath(t: Term & { type: "ref" }, shorts: ReadonlySet<string>): string[] | undefined {
  const [root, ...rest] = t.value;
  if (root?.type !== "var" || root.value !== "input") return undefined;
  if (!rest.every((p) => p.type === "string")) return undefined;
  const parts = rest.map((p) => p.value as string);
  if (parts.length === 2) return parts;
  if (parts.length === 1 && shorts.has(parts[0]!)) return parts;
  return undefined;
}

function constant(t: Term): Constant | undefined {
  switch (t.type) {
    case "null":
      return { value: null };
    case "boolean":
    case "string":
      return { value: t.value };
    case "number":
      return Number.isFinite(Number(t.value)) ? { value: Number(t.value), text: t.value } : undefined;
    default:
      return undefined;
  }
}

function supportDetails(ref: readonly Term[], support: readonly Module[]): string {
  const path = ref.map((t) => (t.type === "var" || t.type === "string" ? String(t.value) : "")).join(".");
  for (const m of support) {
    const pkg = m.package.path.map((t) => String(t.value)).join(".");
    const rules = m.rules.filter((r) => `${pkg}.${r.head.reference.map((t) => String(t.value)).join(".")}` === path);
    const shown = `data.${path.split(".").slice(2).join(".")}`;
    if (rules.some((r) => r.default)) return `use of default rule in ${shown}`;
    if (rules.length > 1) return `use of multi-value rule in ${shown}`;
  }
  return "";
}
