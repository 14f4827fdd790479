// RewriteExprTerms: nested calls are flattened into generated expressions that capture their
// results (`x := f(g(y))` → `g(y, __local1__); f(__local1__, __local0__); x = __local0__`), and
// refs whose head is a value or call get that value bound first (`[1, 2][i]` →
// `__local0__ = [1, 2]; __local0__[i]`). Heads, comprehension terms and `every` domains too.
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, LocalVarGen } from "./context.js";
import { eqExpr, newExpr, varTerm } from "./terms.js";

let hoisted: Map<string, Term> | undefined;

export function rewriteExprTerms(ctx: CompileContext): void {
  hoisted = ctx.hoisted;
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        rewriteExprTermsInHead(ctx.gen, r);
        r.body = rewriteExprTermsInBody(ctx.gen, r.body);
      }
    }
  }
}

export function rewriteExprTermsInQuery(ctx: CompileContext): void {
  hoisted = ctx.hoisted;
  const q = ctx.query!;
  q.body = rewriteExprTermsInBody(q.gen, q.body);
}

function rewriteExprTermsInHead(gen: LocalVarGen, rule: Rule): void {
  const h = rule.head;
  if (h.args) {
    h.args = h.args.map((a) => {
      const [support, out] = expandTerm(gen, a);
      rule.body.push(...support);
      return out;
    });
  }
  if (h.key) {
    const keyIsLast = h.key === h.reference[h.reference.length - 1];
    const [support, out] = expandTerm(gen, h.key);
    rule.body.push(...support);
    h.key = out;
    if (keyIsLast) h.reference[h.reference.length - 1] = out;
  }
  if (h.value) {
    const [support, out] = expandTerm(gen, h.value);
    rule.body.push(...support);
    h.value = out;
  }
}

export function rewriteExprTermsInBody(gen: LocalVarGen, body: Body): Body {
  const out: Body = [];
  for (const e of body) out.push(...expandExpr(gen, e));
  return out;
}

function expandExpr(gen: LocalVarGen, e: Expr): Expr[] {
  const result: Expr[] = [];
  for (const w of e.with) {
    const [extras, value] = expandTerm(gen, w.value);
    w.value = value;
    result.push(...extras);
  }
  const ts = e.terms;
  if (Array.isArray(ts)) {
    for (let i = 1; i < ts.length; i++) {
      const [extras, t] = expandTerm(gen, ts[i]!);
      ts[i] = t;
      if (e.with.length > 0) for (const x of extras) x.with = e.with;
      result.push(...extras);
    }
  } else if (ts.type === "every") {
    const v = varTerm(gen.generate(), ts.domain.location);
    const eq = eqExpr(v, ts.domain, ts.domain.location, true);
    eq.with = e.with;
    result.push(...expandExpr(gen, eq));
    ts.domain = { ...v };
    ts.body = rewriteExprTermsInBody(gen, ts.body);
  } else if (ts.type === "and" || ts.type === "or") {
    ts.lhs = rewriteExprTermsInBody(gen, ts.lhs);
    ts.rhs = rewriteExprTermsInBody(gen, ts.rhs);
  } else if (ts.type === "not") {
    ts.body = rewriteExprTermsInBody(gen, ts.body);
  } else if (ts.type !== "some") {
    const [extras, t] = expandTerm(gen, ts as Term);
    if (e.with.length > 0) for (const x of extras) x.with = e.with;
    result.push(...extras);
    e.terms = t;
  }
  result.push(e);
  return result;
}

/** Flattens the calls inside a term; returns the expressions to run first and the new term. */
export function expandTerm(gen: LocalVarGen, t: Term): [Expr[], Term] {
  switch (t.type) {
    case "call": {
      const support: Expr[] = [];
      for (let i = 1; i < t.value.length; i++) {
        const [extras, x] = expandTerm(gen, t.value[i]!);
        t.value[i] = x;
        support.push(...extras);
      }
      const out = varTerm(gen.generate(), t.location);
      hoisted?.set(out.value, t);
      support.push(newExpr([...t.value, { ...out }], t.location, true));
      return [support, out];
    }
    case "ref": {
      const support: Expr[] = [];
      for (let i = 0; i < t.value.length; i++) {
        const [extras, x] = expandTerm(gen, t.value[i]!);
        t.value[i] = x;
        support.push(...extras);
      }
      const head = t.value[0]!;
      if (head.type !== "var" && head.type !== "ref") {
        const v = varTerm(gen.generate(), head.location);
        hoisted?.set(v.value, head);
        support.push(eqExpr(v, head, head.location, true));
        t.value[0] = { ...v };
      }
      return [support, t];
    }
    case "array": {
      const support: Expr[] = [];
      for (let i = 0; i < t.value.length; i++) {
        const [extras, x] = expandTerm(gen, t.value[i]!);
        t.value[i] = x;
        support.push(...extras);
      }
      return [support, t];
    }
    case "set": {
      const support: Expr[] = [];
      const value = t.value.map((x) => {
        const [extras, y] = expandTerm(gen, x);
        support.push(...extras);
        return y;
      });
      return [support, { ...t, value }];
    }
    case "object": {
      const support: Expr[] = [];
      const value = t.value.map(([k, v]) => {
        const [e1, k2] = expandTerm(gen, k);
        const [e2, v2] = expandTerm(gen, v);
        support.push(...e1, ...e2);
        return [k2, v2] as [Term, Term];
      });
      return [support, { ...t, value }];
    }
    case "arraycomprehension":
    case "setcomprehension": {
      const [support, term] = expandTerm(gen, t.value.term);
      t.value.body.push(...support);
      t.value.term = term;
      t.value.body = rewriteExprTermsInBody(gen, t.value.body);
      return [[], t];
    }
    case "objectcomprehension": {
      const [s1, key] = expandTerm(gen, t.value.key);
      t.value.body.push(...s1);
      t.value.key = key;
      const [s2, value] = expandTerm(gen, t.value.value);
      t.value.body.push(...s2);
      t.value.value = value;
      t.value.body = rewriteExprTermsInBody(gen, t.value.body);
      return [[], t];
    }
    default:
      return [[], t];
  }
}
