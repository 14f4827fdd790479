// RewriteExprTerms: nested calls are flattened into generated expressions that capture their
// results (`x := f(g(y))` → `g(y, __local1__); f(__local1__, __local0__); x = __local0__`), and
// refs whose head is a value or call get that value bound first (`[1, 2][i]` →
// `__local0__ = [1, 2]; __local0__[i]`). Heads, comprehension terms and `every` domains too.
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, HoistedTerms, LocalVarGen } from "./context.js";
import { DependencyRecord, DependencyWalker } from "./analysis/graph.js";
import { eqExpr, newExpr, varTerm } from "../ast/terms.js";
import { assertNever } from "../../runtime/errors.js";

/** What the expansion works with: the generator of the new vars, and the record of the terms
 * they stand for. */
interface Expansion {
  readonly gen: LocalVarGen;
  readonly hoisted: HoistedTerms;
}

export function rewriteExprTerms(ctx: CompileContext): void {
  const ex: Expansion = { gen: ctx.gen, hoisted: ctx.hoisted };
  // each rule's dependencies (SetGraph's walk) are recorded right after the rule is rewritten,
  // while its nodes are in the processor's caches: a walk of every rule later finds them in
  // memory again
  const tree = ctx.ruleTree;
  const early = tree && new Map<Module, DependencyRecord>();
  const deps = tree && new DependencyWalker(new DependencyRecord(), tree);
  const modules = ctx.modules;
  for (let i = 0; i < modules.length; i++) {
    const m = modules[i]!;
    const rec = deps && !mayCallRegoMetadata(ctx, m) ? new DependencyRecord() : undefined;
    if (rec) deps!.sink = rec;
    const rules = m.rules;
    for (let j = 0; j < rules.length; j++) {
      const top = rules[j]!;
      for (let r: Rule | undefined = top; r; r = r.else) {
        rewriteExprTermsInHead(ex, r);
        r.body = rewriteExprTermsInBody(ex, r.body);
      }
      if (rec) deps!.addRule(top);
    }
    if (rec) early!.set(m, rec);
  }
  ctx.earlyDependencies = early;
}

/** Whether RewriteRegoMetadataCalls (which runs between this stage and SetGraph) may rewrite the
 * module's rules: SetGraph walks those itself. */
function mayCallRegoMetadata(ctx: CompileContext, m: Module): boolean {
  return ctx.mayContain(m, (f) => f.calls.has("rego.metadata.chain") || f.calls.has("rego.metadata.rule"));
}

export function rewriteExprTermsInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  q.body = rewriteExprTermsInBody({ gen: q.gen, hoisted: ctx.hoisted }, q.body);
}

function rewriteExprTermsInHead(ex: Expansion, rule: Rule): void {
  const h = rule.head;
  // (in place: each rule's args are an array of its own)
  if (h.args) for (let i = 0; i < h.args.length; i++) h.args[i] = expandTerm(ex, h.args[i]!, rule.body);
  if (h.key) {
    const keyIsLast = h.key === h.reference[h.reference.length - 1];
    const out = expandTerm(ex, h.key, rule.body);
    h.key = out;
    if (keyIsLast) h.reference[h.reference.length - 1] = out;
  }
  if (h.value) h.value = expandTerm(ex, h.value, rule.body);
}

// The expansion appends the expressions to run first to an array it is given (no arrays or pairs
// made per term: it runs for every term of every body; hot, see bench/frontend.bench.ts).

function rewriteExprTermsInBody(ex: Expansion, body: Body): Body {
  const out: Body = [];
  for (let i = 0; i < body.length; i++) expandExpr(ex, body[i]!, out);
  // nothing hoisted (most bodies): `out` is the body's expressions in their places, and the body
  // is kept
  if (out.length === body.length) return body;
  // a copy at its final length: `out`, grown by push, has spare room that the AST would keep
  return out.slice();
}

/** Appends the expressions an expression needs first, then the expression, to `out`. */
function expandExpr(ex: Expansion, e: Expr, out: Expr[]): void {
  const ws = e.with;
  for (let i = 0; i < ws.length; i++) ws[i]!.value = expandTerm(ex, ws[i]!.value, out);
  const ts = e.terms;
  if (Array.isArray(ts)) {
    for (let i = 1; i < ts.length; i++) {
      const from = out.length;
      ts[i] = expandTerm(ex, ts[i]!, out);
      withModifiers(e, out, from);
    }
  } else if (ts.type === "every") {
    const v = varTerm(ex.gen.generate(), ts.domain.location);
    const eq = eqExpr(v, ts.domain, ts.domain.location, true);
    eq.with = e.with;
    expandExpr(ex, eq, out);
    ts.domain = varTerm(v.value, v.location);
    ts.body = rewriteExprTermsInBody(ex, ts.body);
  } else if (ts.type === "and" || ts.type === "or") {
    ts.lhs = rewriteExprTermsInBody(ex, ts.lhs);
    ts.rhs = rewriteExprTermsInBody(ex, ts.rhs);
  } else if (ts.type === "not") {
    ts.body = rewriteExprTermsInBody(ex, ts.body);
  } else if (ts.type !== "some") {
    const from = out.length;
    e.terms = expandTerm(ex, ts as Term, out);
    withModifiers(e, out, from);
  }
  out.push(e);
}

/** The expressions hoisted out of an expression's terms (out[from:]) keep its `with`. */
function withModifiers(e: Expr, out: Expr[], from: number): void {
  if (e.with.length > 0) for (let i = from; i < out.length; i++) out[i]!.with = e.with;
}

/** Flattens the calls inside a term: appends the expressions to run first to `support` and
 * returns the new term. */
function expandTerm(ex: Expansion, t: Term, support: Expr[]): Term {
  switch (t.type) {
    case "call": {
      expandFrom(ex, t.value, 1, support);
      const out = varTerm(ex.gen.generate(), t.location);
      ex.hoisted.set(out.value, t);
      // (concat: an array at its final length, kept in the AST; a spread would leave spare room)
      support.push(newExpr(t.value.concat([varTerm(out.value, out.location)]), t.location, true));
      return out;
    }
    case "ref": {
      expandFrom(ex, t.value, 0, support);
      const head = t.value[0]!;
      if (head.type !== "var" && head.type !== "ref") {
        const v = varTerm(ex.gen.generate(), head.location);
        ex.hoisted.set(v.value, head);
        support.push(eqExpr(v, head, head.location, true));
        t.value[0] = varTerm(v.value, v.location);
      }
      return t;
    }
    // collections in place, as calls and refs (not copied)
    case "array":
    case "set":
      expandFrom(ex, t.value, 0, support);
      return t;
    case "object":
      for (let i = 0; i < t.value.length; i++) {
        const kv = t.value[i]!;
        kv[0] = expandTerm(ex, kv[0], support);
        kv[1] = expandTerm(ex, kv[1], support);
      }
      return t;
    case "arraycomprehension":
    case "setcomprehension":
      // what the term needs goes first in the comprehension's own body
      t.value.term = expandTerm(ex, t.value.term, t.value.body);
      t.value.body = rewriteExprTermsInBody(ex, t.value.body);
      return t;
    case "objectcomprehension":
      t.value.key = expandTerm(ex, t.value.key, t.value.body);
      t.value.value = expandTerm(ex, t.value.value, t.value.body);
      t.value.body = rewriteExprTermsInBody(ex, t.value.body);
      return t;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
    case "templatestring":
      return t;
    default:
      assertNever(t);
  }
}

/** Expands ts[from:] in place. Strings and vars, most of them, hold nothing to expand: they are
 * passed over without a call. */
function expandFrom(ex: Expansion, ts: Term[], from: number, support: Expr[]): void {
  for (let i = from; i < ts.length; i++) {
    const x = ts[i]!;
    if (x.type !== "string" && x.type !== "var") ts[i] = expandTerm(ex, x, support);
  }
}
