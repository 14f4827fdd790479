// Generic traversal of the AST: `children` lists a node's child nodes in source order, `walk`
// visits depth first (OPA's GenericVisitor: return true to skip a node's children), and
// `transform` rebuilds a tree bottom-up, copying only what changed.
import type { Body, Every, Expr, ExprTerms, Head, Import, LogicalExpr, Module, Node, NotGroup, Package, Rule, SomeDecl, Term, With } from "./nodes.js";

/** The child nodes of `node`, in source order. */
export function children(node: Node): Node[] {
  switch (node.type) {
    case "module":
      return [node.package, ...node.imports, ...node.rules];
    case "package":
      return node.path;
    case "import":
      return [node.path];
    case "rule":
      return [node.head, ...node.body, ...(node.else ? [node.else] : [])];
    case "head":
      return [...node.reference, ...(node.args ?? []), ...(node.key ? [node.key] : []), ...(node.value && !node.generatedValue ? [node.value] : [])];
    case "expr":
      return [...exprTermNodes(node.terms), ...node.with];
    case "with":
      return [node.target, node.value];
    case "some":
      return node.symbols;
    case "every":
      return [...(node.key ? [node.key] : []), node.value, node.domain, ...node.body];
    case "and":
    case "or":
      return [...node.lhs, ...node.rhs];
    case "not":
      return node.body;
    case "ref":
    case "array":
    case "set":
    case "call":
      return node.value;
    case "object":
      return node.value.flat();
    case "arraycomprehension":
    case "setcomprehension":
      return [node.value.term, ...node.value.body];
    case "objectcomprehension":
      return [node.value.key, node.value.value, ...node.value.body];
    case "templatestring":
      return node.value.parts;
    default:
      return [];
  }
}

function exprTermNodes(t: ExprTerms): Node[] {
  return Array.isArray(t) ? t : [t];
}

/**
 * Visits `node` and its descendants depth first. `visit` returning true skips the node's
 * children (as OPA's GenericVisitor). `parent` is the node the visited one hangs off.
 */
export function walk(node: Node, visit: (node: Node, parent: Node | undefined) => boolean | void): void {
  const stack: [Node, Node | undefined][] = [[node, undefined]];
  while (stack.length > 0) {
    const [n, parent] = stack.pop()!;
    if (visit(n, parent) === true) continue;
    const kids = children(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, n]);
  }
}

/** Every term under `node` (refs' and calls' operands included). */
export function walkTerms(node: Node, visit: (term: Term) => boolean | void): void {
  walk(node, (n) => (isTermNode(n) ? visit(n) : undefined));
}

/** Every expression under `node` (in comprehensions, `every` and logical operands too). */
export function walkExprs(node: Node, visit: (expr: Expr) => boolean | void): void {
  walk(node, (n) => (n.type === "expr" ? visit(n) : undefined));
}

/** Every var term under `node`. */
export function vars(node: Node): Set<string> {
  const out = new Set<string>();
  walkTerms(node, (t) => {
    if (t.type === "var") out.add(t.value);
  });
  return out;
}

function isTermNode(n: Node): n is Term {
  switch (n.type) {
    case "module":
    case "package":
    case "import":
    case "rule":
    case "head":
    case "expr":
    case "with":
    case "some":
    case "every":
    case "and":
    case "or":
    case "not":
    case "comment":
    case "annotations":
      return false;
    default:
      return true;
  }
}

/** Rewrites bottom-up: `fn` sees each node after its children were rewritten and returns the
 * node to use (itself for no change). Unchanged subtrees are shared, not copied. */
export interface Transformer {
  term?(t: Term): Term;
  expr?(e: Expr): Expr;
  rule?(r: Rule): Rule;
}

export function transformModule(m: Module, tr: Transformer): Module {
  const pkg = transformPackage(m.package, tr);
  const imports = mapSame(m.imports, (i) => transformImport(i, tr));
  const rules = mapSame(m.rules, (r) => transformRule(r, tr));
  return pkg === m.package && imports === m.imports && rules === m.rules ? m : { ...m, package: pkg, imports, rules };
}

function transformPackage(p: Package, tr: Transformer): Package {
  const path = mapSame(p.path, (t) => transformTerm(t, tr));
  return path === p.path ? p : { ...p, path };
}

function transformImport(i: Import, tr: Transformer): Import {
  const path = transformTerm(i.path, tr);
  return path === i.path ? i : { ...i, path };
}

export function transformRule(r: Rule, tr: Transformer): Rule {
  const head = transformHead(r.head, tr);
  const body = transformBody(r.body, tr);
  const els = r.else ? transformRule(r.else, tr) : undefined;
  const out = head === r.head && body === r.body && els === r.else ? r : { ...r, head, body, ...(els ? { else: els } : {}) };
  return tr.rule ? tr.rule(out) : out;
}

function transformHead(h: Head, tr: Transformer): Head {
  const reference = mapSame(h.reference, (t) => transformTerm(t, tr));
  const args = h.args ? mapSame(h.args, (t) => transformTerm(t, tr)) : undefined;
  const key = h.key ? transformTerm(h.key, tr) : undefined;
  const value = h.value ? transformTerm(h.value, tr) : undefined;
  if (reference === h.reference && args === h.args && key === h.key && value === h.value) return h;
  const out: Head = { ...h, reference };
  if (args) out.args = args;
  if (key) out.key = key;
  if (value) out.value = value;
  return out;
}

export function transformBody(b: Body, tr: Transformer): Body {
  return mapSame(b, (e) => transformExpr(e, tr));
}

export function transformExpr(e: Expr, tr: Transformer): Expr {
  const terms = transformExprTerms(e.terms, tr);
  const withs = mapSame(e.with, (w): With => {
    const target = transformTerm(w.target, tr);
    const value = transformTerm(w.value, tr);
    return target === w.target && value === w.value ? w : { ...w, target, value };
  });
  const out = terms === e.terms && withs === e.with ? e : { ...e, terms, with: withs };
  return tr.expr ? tr.expr(out) : out;
}

function transformExprTerms(t: ExprTerms, tr: Transformer): ExprTerms {
  if (Array.isArray(t)) return mapSame(t, (x) => transformTerm(x, tr));
  switch (t.type) {
    case "some": {
      const symbols = mapSame(t.symbols, (x) => transformTerm(x, tr));
      return symbols === t.symbols ? t : ({ ...t, symbols } satisfies SomeDecl);
    }
    case "every": {
      const key = t.key ? transformTerm(t.key, tr) : undefined;
      const value = transformTerm(t.value, tr);
      const domain = transformTerm(t.domain, tr);
      const body = transformBody(t.body, tr);
      if (key === t.key && value === t.value && domain === t.domain && body === t.body) return t;
      const out: Every = { ...t, value, domain, body };
      if (key) out.key = key;
      return out;
    }
    case "and":
    case "or": {
      const lhs = transformBody(t.lhs, tr);
      const rhs = transformBody(t.rhs, tr);
      return lhs === t.lhs && rhs === t.rhs ? t : ({ ...t, lhs, rhs } satisfies LogicalExpr);
    }
    case "not": {
      const body = transformBody(t.body, tr);
      return body === t.body ? t : ({ ...t, body } satisfies NotGroup);
    }
    default:
      return transformTerm(t, tr);
  }
}

export function transformTerm(t: Term, tr: Transformer): Term {
  let out: Term = t;
  switch (t.type) {
    case "ref":
    case "array":
    case "set":
    case "call": {
      const value = mapSame(t.value, (x) => transformTerm(x, tr));
      if (value !== t.value) out = { ...t, value } as Term;
      break;
    }
    case "object": {
      const value = mapSame(t.value, (p): [Term, Term] => {
        const k = transformTerm(p[0], tr);
        const v = transformTerm(p[1], tr);
        return k === p[0] && v === p[1] ? p : [k, v];
      });
      if (value !== t.value) out = { ...t, value };
      break;
    }
    case "arraycomprehension":
    case "setcomprehension": {
      const term = transformTerm(t.value.term, tr);
      const body = transformBody(t.value.body, tr);
      if (term !== t.value.term || body !== t.value.body) out = { ...t, value: { term, body } };
      break;
    }
    case "objectcomprehension": {
      const key = transformTerm(t.value.key, tr);
      const value = transformTerm(t.value.value, tr);
      const body = transformBody(t.value.body, tr);
      if (key !== t.value.key || value !== t.value.value || body !== t.value.body) out = { ...t, value: { key, value, body } };
      break;
    }
    case "templatestring": {
      const parts = mapSame(t.value.parts, (p) => (p.type === "expr" ? transformExpr(p, tr) : transformTerm(p, tr)));
      if (parts !== t.value.parts) out = { ...t, value: { ...t.value, parts } };
      break;
    }
  }
  return tr.term ? tr.term(out) : out;
}

/** `xs.map(f)`, or `xs` itself when `f` changed nothing. */
function mapSame<T>(xs: T[], f: (x: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < xs.length; i++) {
    const y = f(xs[i]!);
    if (y !== xs[i] && !out) out = xs.slice(0, i);
    if (out) out.push(y);
  }
  return out ?? xs;
}
