// RewriteTemplateStrings: `$"a {x} b {input.y}"` becomes the call
// `internal.template_string(["a ", {x}, " b ", {__local0__ | __local0__ = input.y}])`: a plain
// variable is wrapped in a set, any other expression in a set comprehension (so an undefined value
// renders as <undefined> instead of failing the body). Variables inside a template expression
// must be declared before it. Later stages flatten the call like any other.
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, LocalVarGen } from "./context.js";
import { KnownVars, outputVarsForBody, type Arity } from "./safety/outputVars.js";
import { ScopedVars, type VarSet } from "./safety/scopedVars.js";
import { eqExpr, nameRef, varTerm } from "../ast/terms.js";
import { SAFETY_PARAMS, someTerm, varsOf, walkTerms } from "../ast/visit.js";
import { assertNever } from "../../runtime/errors.js";

type Err = { message: string; at: Term["location"] };

class TemplateRewriter {
  readonly errs: Err[] = [];
  constructor(
    readonly gen: LocalVarGen,
    readonly arity: Arity,
  ) {}

  /** Rewrites the template strings of a body and of the closures inside it. Each expression sees
   * what the ones before it bind (worked out as the body goes, not once per expression). */
  body(body: Body, globals: VarSet): void {
    if (!body.some(hasTemplate)) return;
    const known = new KnownVars(globals, this.arity);
    for (const e of body) {
      if (hasTemplate(e)) {
        const before = this.errs.length;
        this.convertIn(e, known);
        if (this.errs.length > before) return;
      }
      known.after(e);
    }
  }

  /** What is known after the whole body (for the terms of a comprehension). */
  private safeAfter(body: Body, globals: VarSet): VarSet {
    const known = new KnownVars(globals, this.arity);
    for (const e of body) known.after(e);
    return known;
  }

  /** Converts the template strings of an expression or term (closures get their own scope). */
  convertIn(node: Expr | Term, safe: VarSet): void {
    if (node.type === "expr" && !Array.isArray(node.terms) && node.terms.type === "every") {
      const ev = node.terms;
      this.convertIn(ev.domain, safe);
      const inner = new ScopedVars(safe);
      for (const k of [ev.key, ev.value]) if (k?.type === "var") inner.add(k.value);
      this.body(ev.body, inner);
      return;
    }
    walkTerms(node, (t) => {
      switch (t.type) {
        case "arraycomprehension":
        case "setcomprehension":
          this.closure(t.value.body, [t.value.term], safe);
          return true;
        case "objectcomprehension":
          this.closure(t.value.body, [t.value.key, t.value.value], safe);
          return true;
        case "templatestring":
          this.convert(t, safe);
          return true;
        case "string":
        case "number":
        case "boolean":
        case "object":
        case "null":
        case "var":
        case "ref":
        case "array":
        case "set":
        case "call":
          return false;
        default:
          assertNever(t);
      }
    });
  }

  closure(body: Body, terms: Term[], globals: VarSet): void {
    this.body(body, globals);
    if (!terms.some(hasTemplate)) return;
    const safe = this.safeAfter(body, globals);
    for (const t of terms) this.convertIn(t, safe);
  }

  private convert(t: Term & { type: "templatestring" }, safe: VarSet): void {
    const parts: Term[] = [];
    let failed = false;
    for (const p of t.value.parts) {
      if ((p as { type: string }).type !== "expr") {
        parts.push(p as Term);
        continue;
      }
      const e = p as Expr;
      const term: Term = Array.isArray(e.terms) ? { type: "call", value: e.terms, location: e.location } : (e.terms as Term);
      // the vars of nested template strings are their own conversion's business
      const unsafe = [...varsOf(term, SAFETY_PARAMS)].filter((v) => !safe.has(v)).sort();
      this.convertIn(term, safe);
      if (term.type === "var" && e.with.length === 0) {
        parts.push({ type: "set", value: [term], location: term.location });
        continue;
      }
      for (const v of unsafe) {
        this.errs.push({ message: `var ${v.startsWith("$") ? "_" : v} is undeclared`, at: term.location });
        failed = true;
      }
      const x = varTerm(this.gen.generate(), term.location);
      const capture = eqExpr(varTerm(x.value, x.location), term, term.location);
      capture.with = e.with;
      parts.push({ type: "setcomprehension", value: { term: x, body: [capture] }, location: term.location });
    }
    if (failed) return;
    const call = t as unknown as { type: string; value: unknown };
    call.type = "call";
    call.value = [nameRef("internal.template_string", t.location), { type: "array", value: parts, location: t.location }];
  }
}

function hasTemplate(node: Expr | Term): boolean {
  return someTerm(node, (t) => t.type === "templatestring");
}

export function rewriteTemplateStrings(ctx: CompileContext): void {
  const rw = new TemplateRewriter(ctx.gen, (ref) => ctx.getArity(ref));
  for (const m of ctx.modules) {
    if (!ctx.mayContain(m, (f) => f.templates)) continue;
    ctx.facts.get(m)?.calls.add("internal.template_string");
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        if (!someTerm(r, (t) => t.type === "templatestring")) continue;
        const globals = varsOf(r.head.args ?? []);
        globals.add("input").add("data");
        rw.body(r.body, globals);
        const headSafe = outputVarsForBody(r.body, (ref) => ctx.getArity(ref), globals);
        for (const v of globals) headSafe.add(v);
        const h = r.head;
        for (const t of [...h.reference.slice(1), ...(h.args ?? []), ...(h.key ? [h.key] : []), ...(h.value ? [h.value] : [])]) {
          rw.convertIn(t, headSafe);
        }
        // like print, closures are visited once more on their own: unconverted ones report again
        for (const node of [r.head, r.body] as const) {
          walkTerms(node as Parameters<typeof walkTerms>[0], (t) => {
            if (t.type === "arraycomprehension" || t.type === "setcomprehension") rw.closure(t.value.body, [t.value.term], globals);
            else if (t.type === "objectcomprehension") rw.closure(t.value.body, [t.value.key, t.value.value], globals);
            return false;
          });
        }
      }
    }
  }
  for (const e of rw.errs) ctx.err("rego_compile_error", e.message, e.at);
}

export function rewriteTemplateStringsInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  if (!someTerm(q.body, (t) => t.type === "templatestring")) return;
  const rw = new TemplateRewriter(q.gen, (ref) => ctx.getArity(ref));
  rw.body(q.body, new Set(["input", "data"]));
  for (const e of rw.errs) ctx.err("rego_compile_error", e.message, e.at);
}
