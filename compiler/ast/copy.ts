// Deep copies of AST terms (locations are shared: they are never mutated). Stages rewrite in
// place, so a term that stands in more than one place is copied for each: the terms an import's
// ref expands to at every use (resolveRefs.ts' globalRef).
import type { Body, Expr, Term, With } from "./nodes.js";
import { assertNever } from "../../runtime/errors.js";

export function copyTerm<T extends Term>(t: T): T {
  switch (t.type) {
    case "ref":
    case "array":
    case "set":
    case "call":
      return { ...t, value: t.value.map(copyTerm) };
    case "object":
      return { ...t, value: t.value.map(([k, v]) => [copyTerm(k), copyTerm(v)] as [Term, Term]) };
    case "arraycomprehension":
    case "setcomprehension":
      return { ...t, value: { term: copyTerm(t.value.term), body: copyBody(t.value.body) } };
    case "objectcomprehension":
      return {
        ...t,
        value: { key: copyTerm(t.value.key), value: copyTerm(t.value.value), body: copyBody(t.value.body) },
      };
    case "templatestring":
      return {
        ...t,
        value: {
          multiLine: t.value.multiLine,
          parts: t.value.parts.map((p) => ((p as { type: string }).type === "expr" ? copyExpr(p as Expr) : copyTerm(p as Term))),
        },
      };
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
      return { ...t };
    default:
      assertNever(t);
  }
}

function copyExpr(e: Expr): Expr {
  const ts = e.terms;
  let terms: Expr["terms"];
  if (Array.isArray(ts)) terms = ts.map(copyTerm);
  else if (ts.type === "some") terms = { ...ts, symbols: ts.symbols.map(copyTerm) };
  else if (ts.type === "every") {
    terms = { ...ts, value: copyTerm(ts.value), domain: copyTerm(ts.domain), body: copyBody(ts.body) };
    if (ts.key) terms.key = copyTerm(ts.key);
  } else if (ts.type === "and" || ts.type === "or") terms = { ...ts, lhs: copyBody(ts.lhs), rhs: copyBody(ts.rhs) };
  else if (ts.type === "not") terms = { ...ts, body: copyBody(ts.body) };
  else terms = copyTerm(ts as Term);
  return { ...e, terms, with: e.with.map(copyWith) };
}

function copyWith(w: With): With {
  return { ...w, target: copyTerm(w.target), value: copyTerm(w.value) };
}

function copyBody(b: Body): Body {
  return b.map(copyExpr);
}
