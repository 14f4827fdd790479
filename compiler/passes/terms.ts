// Small helpers over the AST that every stage uses: constructors for generated terms and
// expressions, OPA's predicates on terms (ground, scalar, constant), the kinds of expression, and
// OPA's printed form of terms (error messages quote refs and terms the way OPA prints them).
import type {
  Body,
  Every,
  Expr,
  NodeLocation,
  Ref,
  SomeDecl,
  Term,
  VarTerm,
  RefTerm,
  StringTerm,
  BooleanTerm,
} from "../ast/nodes.js";
import { isGround } from "../ast/ground.js";

// ---------------------------------------------------------------------------------------------
// Constructors (a generated node takes the location of what it stands for)

export function varTerm(name: string, location: NodeLocation): VarTerm {
  return { type: "var", value: name, location };
}
export function stringTerm(value: string, location: NodeLocation): StringTerm {
  return { type: "string", value, location };
}
export function boolTerm(value: boolean, location: NodeLocation): BooleanTerm {
  return { type: "boolean", value, location };
}
export function refTerm(value: Term[], location: NodeLocation): RefTerm {
  return { type: "ref", value, location };
}
/** The operator ref of a built-in or function name: `count` → [var count], `a.b` → [var a, "b"]. */
export function nameRef(name: string, location: NodeLocation): RefTerm {
  if (!name.includes(".")) return refTerm([varTerm(name, location)], location);
  const [head, ...rest] = name.split(".");
  return refTerm([varTerm(head!, location), ...rest.map((s) => stringTerm(s, location))], location);
}

export function newExpr(terms: Expr["terms"], location: NodeLocation, generated = false): Expr {
  return { type: "expr", index: 0, terms, negated: false, with: [], generated, location };
}
/** `e` with other terms (a literal: V8 pretenures a literal's objects when they live on, never
 * the copies a spread `{ ...e, terms }` makes). */
export function withTerms(e: Expr, terms: Expr["terms"]): Expr {
  return { type: "expr", index: e.index, terms, negated: e.negated, with: e.with, generated: e.generated, location: e.location };
}
/** `a = b` (unification). */
export function eqExpr(a: Term, b: Term, location: NodeLocation, generated = false): Expr {
  return newExpr([nameRef("eq", location), a, b], location, generated);
}

// ---------------------------------------------------------------------------------------------
// Expression kinds

export function isCallExpr(e: Expr): e is Expr & { terms: Term[] } {
  return Array.isArray(e.terms);
}
export function operatorName(e: Expr & { terms: Term[] }): string {
  const op = e.terms[0]!;
  if (op.type === "ref") {
    const head = op.value[0]!;
    if (op.value.length === 1 && head.type === "var") return head.value;
    return refString(op.value);
  }
  return termString(op);
}
export function isEquality(e: Expr): e is Expr & { terms: Term[] } {
  return isCallExpr(e) && isOperator(e.terms[0]!, "eq");
}
export function isAssignment(e: Expr): e is Expr & { terms: Term[] } {
  return isCallExpr(e) && isOperator(e.terms[0]!, "assign");
}
export function isSome(e: Expr): e is Expr & { terms: SomeDecl } {
  return !Array.isArray(e.terms) && e.terms.type === "some";
}
export function isEvery(e: Expr): e is Expr & { terms: Every } {
  return !Array.isArray(e.terms) && e.terms.type === "every";
}
export function isTermExpr(e: Expr): e is Expr & { terms: Term } {
  if (Array.isArray(e.terms)) return false;
  const t = e.terms.type;
  return t !== "some" && t !== "every" && t !== "and" && t !== "or" && t !== "not";
}
/** `eq`/`assign` with exactly two operands. */
export function validEqAssignArgCount(e: Expr & { terms: Term[] }): boolean {
  return e.terms.length === 3;
}
function isOperator(t: Term, name: string): boolean {
  return t.type === "ref" && t.value.length === 1 && t.value[0]!.type === "var" && t.value[0]!.value === name;
}

/** The operands of a call expression (everything after the operator). */
export function operands(e: Expr & { terms: Term[] }): Term[] {
  return e.terms.slice(1);
}

// ---------------------------------------------------------------------------------------------
// Predicates on terms

export function isScalar(t: Term): boolean {
  return t.type === "null" || t.type === "boolean" || t.type === "number" || t.type === "string";
}

/** No vars, refs, calls or comprehensions anywhere (OPA's IsConstant). */
export function isConstant(t: Term): boolean {
  switch (t.type) {
    case "null":
    case "boolean":
    case "number":
    case "string":
      return true;
    case "array":
    case "set":
      return t.value.every(isConstant);
    case "object":
      return t.value.every(([k, v]) => isConstant(k) && isConstant(v));
    default:
      return false;
  }
}

export { isGround };

export function isComprehension(t: Term): boolean {
  return t.type === "arraycomprehension" || t.type === "setcomprehension" || t.type === "objectcomprehension";
}

export function refHasPrefix(ref: Ref, prefix: Ref): boolean {
  if (prefix.length > ref.length) return false;
  return prefix.every((p, i) => termsEqual(p, ref[i]!));
}

/** The leading ground part of a ref (OPA's GroundPrefix: stops at the first non-ground term). */
export function groundPrefix(ref: Ref): Ref {
  const i = ref.findIndex((t, j) => j > 0 && !isGround(t));
  return i < 0 ? ref : ref.slice(0, i);
}

/** Structural equality of terms (locations ignored; sets and objects compared in order). */
export function termsEqual(a: Term, b: Term): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case "null":
      return true;
    case "boolean":
    case "string":
    case "var":
      return a.value === b.value;
    case "number":
      return a.value === b.value || Number(a.value) === Number(b.value as string);
    case "ref":
    case "array":
    case "call": {
      const bv = b.value as Term[];
      return a.value.length === bv.length && a.value.every((t, i) => termsEqual(t, bv[i]!));
    }
    case "set": {
      const bv = b.value as Term[];
      return a.value.length === bv.length && a.value.every((t) => bv.some((u) => termsEqual(t, u)));
    }
    case "object": {
      const bv = b.value as [Term, Term][];
      return (
        a.value.length === bv.length &&
        a.value.every(([k, v]) => bv.some(([k2, v2]) => termsEqual(k, k2) && termsEqual(v, v2)))
      );
    }
    default:
      return termString(a) === termString(b);
  }
}

// ---------------------------------------------------------------------------------------------
// OPA's printed form

const KEYWORDS = new Set([
  "not", "package", "import", "as", "default", "else", "with", "null", "true", "false", "some", "every", "in",
  "contains", "if",
]);
const IDENT = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function quoteString(s: string): string {
  return JSON.stringify(s);
}

/** The dotted name of a ref that refString prints as its values joined by dots (a var head not
 * a wildcard, then strings each an identifier and no keyword), else undefined. */
export function plainDottedName(ref: Ref): string | undefined {
  const head = ref[0];
  if (head?.type !== "var" || head.value.startsWith("$")) return undefined;
  let out = head.value;
  for (let i = 1; i < ref.length; i++) {
    const t = ref[i]!;
    if (t.type !== "string" || !IDENT.test(t.value) || KEYWORDS.has(t.value)) return undefined;
    out += `.${t.value}`;
  }
  return out;
}

export function refString(ref: Ref): string {
  let out = ref.length > 0 ? termString(ref[0]!) : "";
  for (let i = 1; i < ref.length; i++) {
    const t = ref[i]!;
    if (t.type === "string" && IDENT.test(t.value) && !KEYWORDS.has(t.value)) out += `.${t.value}`;
    else out += `[${termString(t)}]`;
  }
  return out;
}

export function termString(t: Term): string {
  switch (t.type) {
    case "null":
      return "null";
    case "boolean":
      return t.value ? "true" : "false";
    case "number":
      return t.value;
    case "string":
      return quoteString(t.value);
    case "var":
      return t.value.startsWith("$") ? "_" : t.value;
    case "ref":
      return refString(t.value);
    case "array":
      return `[${t.value.map(termString).join(", ")}]`;
    case "set":
      return t.value.length === 0 ? "set()" : `{${t.value.map(termString).join(", ")}}`;
    case "object":
      return `{${t.value.map(([k, v]) => `${termString(k)}: ${termString(v)}`).join(", ")}}`;
    case "arraycomprehension":
      return `[${termString(t.value.term)} | ${bodyString(t.value.body)}]`;
    case "setcomprehension":
      return `{${termString(t.value.term)} | ${bodyString(t.value.body)}}`;
    case "objectcomprehension":
      return `{${termString(t.value.key)}: ${termString(t.value.value)} | ${bodyString(t.value.body)}}`;
    case "call": {
      const [op, ...args] = t.value;
      return `${termString(op!)}(${args.map(termString).join(", ")})`;
    }
    case "templatestring":
      return t.location.text || '$"..."';
  }
}

export function exprString(e: Expr): string {
  let s: string;
  if (Array.isArray(e.terms)) {
    const [op, ...args] = e.terms;
    s = `${termString(op!)}(${args.map(termString).join(", ")})`;
  } else if (e.terms.type === "some") {
    s = `some ${e.terms.symbols.map(termString).join(", ")}`;
  } else if (e.terms.type === "every") {
    const ev = e.terms;
    s = `every ${ev.key ? `${termString(ev.key)}, ` : ""}${termString(ev.value)} in ${termString(ev.domain)} { ${bodyString(ev.body)} }`;
  } else if (e.terms.type === "and" || e.terms.type === "or") {
    s = `{ ${bodyString(e.terms.lhs)} } ${e.terms.type} { ${bodyString(e.terms.rhs)} }`;
  } else if (e.terms.type === "not") {
    s = `not { ${bodyString(e.terms.body)} }`;
  } else {
    s = termString(e.terms as Term);
  }
  if (e.negated) s = `not ${s}`;
  for (const w of e.with) s += ` with ${termString(w.target)} as ${termString(w.value)}`;
  return s;
}

export function bodyString(b: Body): string {
  return b.map(exprString).join("; ");
}

/** A function renaming the vars of a term (outside closures, which are kept as they are) by
 * maps: the first map that knows a name wins; `alias`, when given, first replaces a var by the
 * term it was made for (a hoisted expression). Used to map the compiler's var names back to what
 * the user wrote (messages) and by the planner's `with` captures. */
export function userNames(maps: readonly ReadonlyMap<string, string>[], alias?: (name: string) => Term | undefined): (t: Term) => Term {
  const rename = (t: Term): Term => {
    switch (t.type) {
      case "var": {
        const a = alias?.(t.value);
        if (a) return rename(a);
        for (const m of maps) {
          const o = m.get(t.value);
          if (o !== undefined) return { ...t, value: o };
        }
        return t;
      }
      case "ref":
      case "array":
      case "set":
      case "call":
        return { ...t, value: t.value.map(rename) };
      case "object":
        return { ...t, value: t.value.map(([k, v]) => [rename(k), rename(v)] as [Term, Term]) };
      default:
        return t;
    }
  };
  return rename;
}
