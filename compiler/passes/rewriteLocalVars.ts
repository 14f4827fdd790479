// RewriteLocalVars: variables declared with `:=`, `some` and `every`, and function arguments,
// get unique generated names (`x := 1` → `__local0__ = 1`), so that later stages and the planner
// see plain unification with no shadowing. Redeclarations, assignment to non-variables and use
// before declaration are errors; `some x in xs` becomes `x = xs[__localN__]`. In strict mode,
// unused arguments and assigned variables are errors too.
import type { Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { LocalDeclaredVars, Occurrence } from "./localVars.js";
import { Rewriter } from "./localVarsRewriter.js";
import { isScalar } from "./terms.js";
import { isWildcard, varsOf, varsOfTerms, walkTerms } from "./visit.js";

export function headMayHaveVars(r: Rule): boolean {
  const h = r.head;
  if ((h.args ?? []).some((a) => !isScalar(a))) return true;
  if (h.key && !isScalar(h.key)) return true;
  if (h.value && !isScalar(h.value)) return true;
  return h.reference.slice(1).some((t) => !isScalar(t));
}

export function rewriteLocalVars(ctx: CompileContext): void {
  const rw = new Rewriter(ctx.gen, ctx.strict);
  const argsStack = new LocalDeclaredVars();
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      argsStack.clear();
      const unusedArgs = ctx.strict ? varsOfTerms(top.head.args ?? []) : new Set<string>();
      rewriteArgs(rw, argsStack, top);
      for (let r: Rule | undefined = top; r; r = r.else) {
        const stack = rewriteRule(ctx, rw, r, unusedArgs, argsStack);
        for (const a of [...unusedArgs]) if (stack.count(a) > 1) unusedArgs.delete(a);
      }
      if (ctx.strict) {
        for (const a of unusedArgs) {
          if (!isWildcard(a)) rw.error(`unused argument ${a}. (hint: use _ (wildcard variable) instead)`, top.head);
        }
      }
    }
  }
  report(ctx, rw);
}

function report(ctx: CompileContext, rw: Rewriter): void {
  for (const e of rw.errs) ctx.err(e.code, e.message, e.at.location);
  rw.errs.length = 0;
}

function rewriteArgs(rw: Rewriter, stack: LocalDeclaredVars, rule: Rule): void {
  const visit = (t: Term): void => {
    switch (t.type) {
      case "var": {
        let gv = stack.declared(t.value);
        if (gv !== undefined) stack.seen(t.value);
        else {
          gv = rw.gen.generate();
          stack.insert(t.value, gv, Occurrence.Arg);
        }
        t.value = gv;
        return;
      }
      case "object":
        for (const [, v] of t.value) visit(v);
        return;
      case "call":
        rw.error("rule arguments cannot contain calls", t);
        return;
      case "ref":
      case "array":
        for (const x of t.value) visit(x);
        return;
      default:
        return;
    }
  };
  for (const a of rule.head.args ?? []) visit(a);
}

function rewriteRule(ctx: CompileContext, rw: Rewriter, rule: Rule, unusedArgs: Set<string>, argsStack: LocalDeclaredVars): LocalDeclaredVars {
  const onlyScalars = !headMayHaveVars(rule);
  const used = new Set<string>();
  const h = rule.head;
  if (!onlyScalars) {
    // closures in the head are scoped on their own
    const nested = (t: Term): void => {
      const fresh = new LocalDeclaredVars();
      switch (t.type) {
        case "array":
        case "set":
        case "ref":
        case "call":
          for (const x of t.value) nested(x);
          return;
        case "object":
          for (const [k, v] of t.value) {
            nested(k);
            nested(v);
          }
          return;
        case "arraycomprehension":
        case "setcomprehension":
        case "objectcomprehension":
          rw.term(fresh, t);
          for (const [k, v] of fresh.rewritten) ctx.rewrittenVars.set(k, v);
          return;
        case "templatestring":
          for (const part of t.value.parts) {
            if ((part as { type: string }).type !== "expr") continue;
            const e = part as Expr;
            if (Array.isArray(e.terms)) e.terms.forEach(nested);
            else if (e.terms.type !== "some" && e.terms.type !== "every" && e.terms.type !== "and" && e.terms.type !== "or" && e.terms.type !== "not") nested(e.terms as Term);
            for (const w of e.with) nested(w.value);
          }
          return;
        default:
          return;
      }
    };
    for (const t of h.reference.slice(1)) nested(t);
    for (const a of h.args ?? []) nested(a);
    if (h.key && h.key !== h.reference[h.reference.length - 1]) nested(h.key);
    if (h.value) nested(h.value);
    varsOfTerms(h.reference.slice(1), {}, used);
    if (h.key) varsOf(h.key, {}, used);
    if (h.value) {
      const vv = varsOf(h.value);
      for (const v of vv) {
        used.add(v);
        unusedArgs.delete(v);
      }
    }
  }
  const stack = argsStack.copy();
  rule.body = rw.body(stack, used, rule.body);
  for (const [k, v] of stack.rewritten) ctx.rewrittenVars.set(k, v);
  if (!onlyScalars) {
    const declared = stack.peek();
    // every var in the head (closure bodies included) that the body declared takes its new name
    const xform = (t: Term): void =>
      walkTerms(t, (x) => {
        if (x.type === "var") {
          const gv = declared.get(x.value);
          if (gv !== undefined) x.value = gv;
        }
        return false;
      });
    // else branches carry their own copy of the arguments: map them to the generated names too
    for (const a of h.args ?? []) xform(a);
    for (const t of h.reference.slice(1)) xform(t);
    if (h.key && h.key !== h.reference[h.reference.length - 1]) xform(h.key);
    if (h.value) xform(h.value);
  }
  return stack;
}

/** RewriteLocalVars for a query: the query's own scope, generated names `__localqN__`. */
export function rewriteLocalVarsInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  const rw = new Rewriter(q.gen, ctx.strict);
  const stack = new LocalDeclaredVars();
  q.body = rw.body(stack, new Set(), q.body);
  for (const [k, v] of stack.rewritten) q.rewritten.set(k, v);
  report(ctx, rw);
}
