// Small helpers over the AST that the stages and the planner use: constructors for generated terms
// and expressions, OPA's predicates on terms (ground, scalar, constant) and the kinds of expression.
import type {
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
} from "./nodes.js";
import { termsEqual } from "./compare.js";
import { isGround } from "./ground.js";
import { opaRef, opaTerm } from "./print.js";
import { assertNever } from "../../runtime/errors.js";

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
    return opaRef(op.value);
  }
  return opaTerm(op);
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
    case "var":
    case "ref":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return false;
    default:
      assertNever(t);
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
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
      case "templatestring":
        return t;
      default:
        assertNever(t);
    }
  };
  return rename;
}
