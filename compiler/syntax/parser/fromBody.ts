// Rules written without a body (OPA's "rule from body"): a top-level statement that parsed as
// an expression, such as `a.b.c = 1`, `p := 2`, `f(x) = y`, `p[x]`, `a.b.c` or `f(1)`, becomes
// a rule; anything else is an error with OPA's message. And OPA's Rego-v1 rule checks.
import type { Body, Expr, Head, NodeLocation, Rule, Term } from "../../ast/nodes.js";
import { printTerm } from "../../ast/print.js";
import { builtinDecl } from "../../builtins/decls.js";
import { keywordsV1 } from "../token.js";
import { trueExpr } from "./rules.js";
import { headKeywords, NO_ANNOTATIONS } from "./shared.js";
import { assertNever } from "../../../runtime/errors.js";

export type FromBody = { rule: Rule } | { error: string };

function newRule(head: Head, location: NodeLocation, bodyLoc: NodeLocation): Rule {
  return { type: "rule", default: false, head, body: [trueExpr(bodyLoc)], generatedBody: true, annotations: NO_ANNOTATIONS, location };
}

function newHead(reference: Term[], location: NodeLocation): Head {
  return { type: "head", reference, assign: false, generatedValue: false, keywords: headKeywords(false, false), location };
}

export function ruleFromBody(body: Body): FromBody {
  if (body.length !== 1) return { error: "multiple expressions cannot be used for rule head" };
  return ruleFromExpr(body[0]!);
}

function ruleFromExpr(expr: Expr): FromBody {
  if (expr.with.length > 0) return { error: "expressions using with keyword cannot be used for rule head" };
  if (expr.negated) return { error: "negated expressions cannot be used for rule head" };
  const t = expr.terms;
  if (!Array.isArray(t)) {
    switch (t.type) {
      case "some":
        return { error: "'some' declarations cannot be used for rule head" };
      case "every":
      case "and":
      case "or":
      case "not":
        return { error: "expression cannot be used for rule head" };
      case "ref":
        return t.value.length > 2 ? ruleWithDots(t) : partialSetRule(t);
      case "string":
      case "number":
      case "boolean":
      case "object":
      case "null":
      case "var":
      case "array":
      case "set":
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
      case "call":
      case "templatestring":
        return { error: `${t.type} cannot be used for rule name` };
      default:
        assertNever(t);
    }
  }
  const op = t[0]!;
  const opName = op.type === "ref" ? printTerm(op) : "";
  if (opName === "eq" || opName === "assign") {
    const r = ruleFromEq(expr, t);
    if ("rule" in r && opName === "assign") r.rule.head.assign = true;
    return r;
  }
  // OPA checks the name against its own built-ins (not a capabilities file given to the compiler);
  // decls.ts reads them from compiler/builtins/capabilities.json, the one list of them
  if (opName !== "" && builtinDecl(opName) !== undefined) return { error: "rule name conflicts with built-in function" };
  return ruleFromCall(t);
}

/** `lhs = rhs` / `lhs := rhs`: a function `f(x) = y`, a partial object `p[k] = v`, or a complete
 * rule `p = v` / `a.b.c = v`. */
function ruleFromEq(expr: Expr, terms: Term[]): FromBody {
  const lhs = terms[1];
  const rhs = terms[2];
  if (!lhs || !rhs || terms.length !== 3) return { error: "assignment requires two operands" };
  const r = callEqRule(lhs, rhs) ?? partialObjectRule(lhs, rhs) ?? completeRule(lhs, rhs);
  if ("rule" in r) {
    r.rule.location = expr.location;
    r.rule.head.location = expr.location;
  }
  return r;
}

function callEqRule(lhs: Term, rhs: Term): FromBody | undefined {
  if (lhs.type !== "call") return undefined;
  const op = lhs.value[0]!;
  // (OPA tries the three readings in turn and reports only the last one's error)
  if (op.type !== "ref" || op.value[0]!.type !== "var") return undefined;
  const head = newHead(op.value, lhs.location);
  if (op.value.length < 2) head.name = (op.value[0] as { value: string }).value;
  head.value = rhs;
  head.args = lhs.value.slice(1);
  return { rule: newRule(head, lhs.location, rhs.location) };
}

function partialObjectRule(lhs: Term, rhs: Term): FromBody | undefined {
  if (lhs.type !== "ref") return undefined;
  const ref = lhs.value;
  if (ref[0]!.type !== "var") return undefined;
  const head = newHead(ref, rhs.location);
  if (ref.length < 2) head.name = (ref[0] as { value: string }).value;
  head.value = rhs;
  if (ref.length === 2) {
    // back-compat: `foo.bar = "baz"` is the partial object foo with key "bar"
    head.name = (ref[0] as { value: string }).value;
    head.key = ref[1];
  }
  return { rule: newRule(head, rhs.location, rhs.location) };
}

function completeRule(lhs: Term, rhs: Term): FromBody {
  let head: Head;
  if (lhs.type === "var") {
    head = newHead([lhs], lhs.location);
    head.name = lhs.value;
  } else if (lhs.type === "ref") {
    const ref = lhs.value;
    if (ref[0]!.type !== "var") return { error: `invalid rule head: ${printTerm(lhs)}` };
    head = newHead(ref, lhs.location);
    if (ref.length < 2) head.name = (ref[0] as { value: string }).value;
  } else {
    return { error: `${lhs.type} cannot be used for rule name` };
  }
  head.value = rhs;
  return { rule: newRule(head, lhs.location, rhs.location) };
}

/** `a.b.c` alone: the rule a.b.c with the value true. */
function ruleWithDots(term: Term & { type: "ref" }): FromBody {
  const ref = term.value;
  if (ref[0]!.type !== "var") return { error: `invalid rule head: ${printTerm(term)}` };
  const head = newHead(ref, term.location);
  head.value = { type: "boolean", value: true, location: term.location };
  head.generatedValue = true;
  return { rule: newRule(head, term.location, term.location) };
}

/** `p[x]` alone: the partial set p with the element x. */
function partialSetRule(term: Term & { type: "ref" }): FromBody {
  const ref = term.value;
  if (ref.length === 1) return { error: "refs cannot be used for rule head" };
  if (ref[0]!.type !== "var") return { error: `invalid rule head: ${printTerm(term)}` };
  const v = ref[0]!;
  const head = newHead([v], term.location);
  head.name = v.value;
  head.key = ref[1];
  return { rule: newRule(head, term.location, term.location) };
}

/** `f(x)` alone: the function f returning true. */
function ruleFromCall(terms: Term[]): FromBody {
  if (terms.length <= 1) return { error: "rule argument list must take at least one argument" };
  const op = terms[0]!;
  const loc = op.location;
  if (op.type !== "ref" || op.value[0]!.type !== "var") return { error: `invalid rule head: ${printTerm(op)}` };
  const head = newHead(op.value, loc);
  if (op.value.length < 2) head.name = (op.value[0] as { value: string }).value;
  head.value = { type: "boolean", value: true, location: loc };
  head.args = terms.slice(1);
  return { rule: newRule(head, loc, loc) };
}

/** OPA's CheckRegoV1 for one rule (and nothing of its else chain): the syntax v1 requires. */
export function checkRegoV1Rule(rule: Rule): { message: string; location: NodeLocation }[] {
  const errs: { message: string; location: NodeLocation }[] = [];
  const head = rule.head;
  const kind = head.args && head.args.length > 0 ? "function" : "rule";
  if (head.reference.length < 2 && head.name !== undefined && keywordsV1.has(head.name)) {
    errs.push({ message: `${head.name} keyword cannot be used for rule name`, location: rule.location });
  }
  if (rule.generatedBody && head.generatedValue) {
    errs.push({ message: `${kind} must have value assignment and/or body declaration`, location: rule.location });
  }
  if (!rule.generatedBody && !head.keywords.includes("if") && !rule.default) {
    errs.push({ message: `\`if\` keyword is required before ${kind} body`, location: rule.location });
  }
  if (!head.value && head.key && !head.keywords.includes("contains")) {
    errs.push({ message: "`contains` keyword is required for partial set rules", location: rule.location });
  }
  return errs;
}
