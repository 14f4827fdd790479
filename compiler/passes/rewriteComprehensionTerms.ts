// RewriteComprehensionTerms: a comprehension's term (or key/value) that needs evaluation is bound
// in its body (`[x[0] | ...]` → `[__local0__ | ...; __local0__ = x[0]]`), and RewriteRefsInHead
// does the same for rule heads (`p[data.foo[i]] if {...}` → `p[__local0__] if {...;
// __local0__ = data.foo[i]}`).
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, LocalVarGen } from "./context.js";
import { eqExpr, isComprehension, varTerm } from "../ast/terms.js";
import { someTerm, Walker } from "../ast/visit.js";
import { assertNever } from "../../runtime/errors.js";

/** Whether a term contains refs or comprehensions (OPA's requiresEval): anywhere below it,
 * template-string expressions included. */
export function requiresEval(t: Term | undefined): boolean {
  return t !== undefined && someTerm(t, evaluated);
}

function evaluated(t: Term): boolean {
  return t.type === "ref" || isComprehension(t);
}

function bind(gen: LocalVarGen, body: Body, t: Term): Term {
  const v = varTerm(gen.generate(), t.location);
  body.push(eqExpr(varTerm(v.value, v.location), t, t.location, true));
  return v;
}

/** The rewrite of every comprehension under a node, innermost first (the order the generated
 * names follow). A Walker of its own, kept for the stage, rather than walkTerms with a callback:
 * that made a walker and a closure per comprehension and per rule. */
class ComprehensionTerms extends Walker {
  constructor(private readonly gen: LocalVarGen) {
    super();
  }

  expr(e: Expr): void {
    this.parts(e, true);
  }

  term(t: Term): void {
    switch (t.type) {
      case "arraycomprehension":
      case "setcomprehension":
        this.body(t.value.body);
        this.term(t.value.term);
        if (requiresEval(t.value.term)) t.value.term = bind(this.gen, t.value.body, t.value.term);
        return;
      case "objectcomprehension":
        this.body(t.value.body);
        this.term(t.value.key);
        this.term(t.value.value);
        if (requiresEval(t.value.key)) t.value.key = bind(this.gen, t.value.body, t.value.key);
        if (requiresEval(t.value.value)) t.value.value = bind(this.gen, t.value.body, t.value.value);
        return;
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
      case "templatestring":
        this.children(t);
        break;
      default:
        assertNever(t);
    }
  }
}

export function rewriteComprehensionTerms(ctx: CompileContext): void {
  const walk = new ComprehensionTerms(ctx.gen);
  for (const m of ctx.modules) {
    for (const r of m.rules) for (let x: Rule | undefined = r; x; x = x.else) if (ctx.mayHoldClosureTerms(x)) walk.any(x);
  }
}

export function rewriteComprehensionTermsInQuery(ctx: CompileContext): void {
  new ComprehensionTerms(ctx.query!.gen).body(ctx.query!.body);
}

export function rewriteRefsInHead(ctx: CompileContext): void {
  const modules = ctx.modules;
  for (let i = 0; i < modules.length; i++) {
    const rules = modules[i]!.rules;
    for (let j = 0; j < rules.length; j++) {
      for (let r: Rule | undefined = rules[j]; r; r = r.else) {
        const h = r.head;
        if (h.key && requiresEval(h.key)) {
          const keyIsLast = h.key === h.reference[h.reference.length - 1];
          h.key = bind(ctx.gen, r.body, h.key);
          if (keyIsLast) h.reference[h.reference.length - 1] = h.key;
        }
        if (h.value && requiresEval(h.value)) h.value = bind(ctx.gen, r.body, h.value);
        // (in place: each rule's args are an array of its own, and most need nothing bound)
        if (h.args) for (let i = 0; i < h.args.length; i++) if (requiresEval(h.args[i])) h.args[i] = bind(ctx.gen, r.body, h.args[i]!);
      }
    }
  }
}
