// Deep copies of AST terms (locations are shared: they are never mutated). Stages rewrite in
// place, so a term that stands in more than one place is copied for each: the terms an import's
// ref expands to at every use (resolveRefs.ts' globalRef). A copy can also map each term it makes
// (mapExprTerms): partial evaluation renames and substitutes vars in its residual expressions so.
import type { Body, Expr, Term, With } from "./nodes.js";
import { assertNever } from "../../runtime/errors.js";

/** Applied to each copied term, its parts first. */
export type TermMap = (t: Term) => Term;

const same: TermMap = (t) => t;

export function copyTerm<T extends Term>(t: T): T {
  return copy(t, same) as T;
}

/** A copy of the expression with `f` applied to every term in it, inner terms first. */
export function mapExprTerms(e: Expr, f: TermMap): Expr {
  return copyExpr(e, f);
}

function copy(t: Term, f: TermMap): Term {
  switch (t.type) {
    case "ref":
    case "array":
    case "set":
    case "call":
      return f({ ...t, value: t.value.map((x) => copy(x, f)) });
    case "object":
      return f({ ...t, value: t.value.map(([k, v]) => [copy(k, f), copy(v, f)] as [Term, Term]) });
    case "arraycomprehension":
    case "setcomprehension":
      return f({ ...t, value: { term: copy(t.value.term, f), body: copyBody(t.value.body, f) } });
    case "objectcomprehension":
      return f({
        ...t,
        value: { key: copy(t.value.key, f), value: copy(t.value.value, f), body: copyBody(t.value.body, f) },
      });
    case "templatestring":
      return f({
        ...t,
        value: {
          multiLine: t.value.multiLine,
          parts: t.value.parts.map((p) => ((p as { type: string }).type === "expr" ? copyExpr(p as Expr, f) : copy(p as Term, f))),
        },
      });
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
      return f({ ...t });
    default:
      assertNever(t);
  }
}

function copyExpr(e: Expr, f: TermMap): Expr {
  const ts = e.terms;
  let terms: Expr["terms"];
  if (Array.isArray(ts)) terms = ts.map((t) => copy(t, f));
  else if (ts.type === "some") terms = { ...ts, symbols: ts.symbols.map((t) => copy(t, f)) };
  else if (ts.type === "every") {
    terms = { ...ts, value: copy(ts.value, f), domain: copy(ts.domain, f), body: copyBody(ts.body, f) };
    if (ts.key) terms.key = copy(ts.key, f);
  } else if (ts.type === "and" || ts.type === "or") terms = { ...ts, lhs: copyBody(ts.lhs, f), rhs: copyBody(ts.rhs, f) };
  else if (ts.type === "not") terms = { ...ts, body: copyBody(ts.body, f) };
  else terms = copy(ts as Term, f);
  return { ...e, terms, with: e.with.map((w) => copyWith(w, f)) };
}

function copyWith(w: With, f: TermMap): With {
  return { ...w, target: copy(w.target, f), value: copy(w.value, f) };
}

function copyBody(b: Body, f: TermMap): Body {
  return b.map((e) => copyExpr(e, f));
}
