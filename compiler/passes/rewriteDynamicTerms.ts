// RewriteDynamicTerms: refs and comprehensions used as call operands, inside composite values or
// inside other refs are bound to generated variables first (`f(data.x) = 1` →
// `__local0__ = data.x; f(__local0__) = 1`), so every operand the planner sees is a variable or a
// constant. The generated expressions keep the original's `with` modifiers.
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, LocalVarGen } from "./context.js";
import { eqExpr, isEquality, isEvery, isTermExpr, varTerm } from "./terms.js";

let hoisted: Map<string, Term> | undefined;

export function rewriteDynamics(gen: LocalVarGen, body: Body): Body {
  const result: Body = [];
  for (const e of body) {
    if (isEquality(e)) {
      if (e.terms.length === 3) {
        e.terms[1] = inTerm(gen, e, e.terms[1]!, result);
        e.terms[2] = inTerm(gen, e, e.terms[2]!, result);
      }
    } else if (Array.isArray(e.terms)) {
      for (let i = 1; i < e.terms.length; i++) e.terms[i] = one(gen, e, e.terms[i]!, result);
    } else if (isEvery(e)) {
      e.terms.domain = one(gen, e, e.terms.domain, result);
      e.terms.body = rewriteDynamics(gen, e.terms.body);
    } else if (isTermExpr(e)) {
      e.terms = inTerm(gen, e, e.terms, result);
    } else if (e.terms.type === "and" || e.terms.type === "or") {
      e.terms.lhs = rewriteDynamics(gen, e.terms.lhs);
      e.terms.rhs = rewriteDynamics(gen, e.terms.rhs);
    } else if (e.terms.type === "not") {
      e.terms.body = rewriteDynamics(gen, e.terms.body);
    }
    result.push(e);
  }
  return result;
}

function generate(gen: LocalVarGen, original: Expr, t: Term, result: Body): Term {
  const v = varTerm(gen.generate(), t.location);
  hoisted?.set(v.value, t);
  const eq = eqExpr({ ...v }, t, t.location, true);
  eq.with = original.with;
  result.push(eq);
  return v;
}

function inTerm(gen: LocalVarGen, original: Expr, t: Term, result: Body): Term {
  switch (t.type) {
    case "ref":
      for (let i = 1; i < t.value.length; i++) t.value[i] = one(gen, original, t.value[i]!, result);
      return t;
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
      t.value.body = rewriteDynamics(gen, t.value.body);
      return t;
    default:
      return one(gen, original, t, result);
  }
}

function one(gen: LocalVarGen, original: Expr, t: Term, result: Body): Term {
  switch (t.type) {
    case "ref":
      for (let i = 1; i < t.value.length; i++) t.value[i] = one(gen, original, t.value[i]!, result);
      return generate(gen, original, t, result);
    case "array":
      for (let i = 0; i < t.value.length; i++) t.value[i] = one(gen, original, t.value[i]!, result);
      return t;
    case "object":
      return {
        ...t,
        value: t.value.map(([k, v]) => {
          const k2 = one(gen, original, k, result);
          return [k2, one(gen, original, v, result)] as [Term, Term];
        }),
      };
    case "set":
      return { ...t, value: t.value.map((x) => one(gen, original, x, result)) };
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
      t.value.body = rewriteDynamics(gen, t.value.body);
      return generate(gen, original, t, result);
    default:
      return t;
  }
}

export function rewriteDynamicTerms(ctx: CompileContext): void {
  hoisted = ctx.hoisted;
  for (const m of ctx.modules) for (const r of m.rules) for (let x: Rule | undefined = r; x; x = x.else) x.body = rewriteDynamics(ctx.gen, x.body);
}

export function rewriteDynamicTermsInQuery(ctx: CompileContext): void {
  hoisted = ctx.hoisted;
  ctx.query!.body = rewriteDynamics(ctx.query!.gen, ctx.query!.body);
}
