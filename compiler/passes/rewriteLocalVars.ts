// RewriteLocalVars: variables declared with `:=`, `some` and `every`, and function arguments,
// get unique generated names (`x := 1` → `__local0__ = 1`), so that later stages and the planner
// see plain unification with no shadowing. Redeclarations, assignment to non-variables and use
// before declaration are errors; `some x in xs` becomes `x = xs[__localN__]`. In strict mode,
// unused arguments and assigned variables are errors too.
import type { Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { LocalDeclaredVars, Occurrence } from "./locals/scopes.js";
import { Rewriter } from "./locals/rewriter.js";
import { isScalar } from "../ast/terms.js";
import { ALL_VARS, isWildcard, varsOf, varsOfTerms, varsOfTermsFrom, walkTerms } from "../ast/visit.js";
import { assertNever } from "../../runtime/errors.js";

export function headMayHaveVars(r: Rule): boolean {
  const h = r.head;
  if (h.args?.some((a) => !isScalar(a))) return true;
  if (h.key && !isScalar(h.key)) return true;
  if (h.value && !isScalar(h.value)) return true;
  for (let i = 1; i < h.reference.length; i++) if (!isScalar(h.reference[i]!)) return true;
  return false;
}

export function rewriteLocalVars(ctx: CompileContext): void {
  const rw = new Rewriter(ctx.gen, ctx.strict);
  // the stacks record their renamings straight into the compilation's map
  const argsStack = new LocalDeclaredVars(ctx.rewrittenVars);
  // each rule body's scopes, started anew from the arguments for every rule
  const ruleStack = new LocalDeclaredVars(ctx.rewrittenVars);
  // outside strict mode no argument is ever reported unused: one empty set serves every rule
  const noUnusedArgs = new Set<string>();
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      argsStack.clear();
      const unusedArgs = ctx.strict ? varsOfTerms(top.head.args ?? []) : noUnusedArgs;
      rewriteArgs(rw, argsStack, top);
      for (let r: Rule | undefined = top; r; r = r.else) {
        const stack = rewriteRule(ctx, rw, r, unusedArgs, argsStack, ruleStack);
        for (const a of unusedArgs) if (stack.count(a) > 1) unusedArgs.delete(a);
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
  for (const a of rule.head.args ?? []) rewriteArg(rw, stack, a);
}

function rewriteArg(rw: Rewriter, stack: LocalDeclaredVars, t: Term): void {
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
      for (const [, v] of t.value) rewriteArg(rw, stack, v);
      return;
    case "call":
      rw.error("rule arguments cannot contain calls", t);
      return;
    case "ref":
    case "array":
      for (const x of t.value) rewriteArg(rw, stack, x);
      return;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      return;
    default:
      assertNever(t);
  }
}

/** Rewrites a rule's head and body in `stack` (started from `argsStack`), and returns it. */
function rewriteRule(ctx: CompileContext, rw: Rewriter, rule: Rule, unusedArgs: Set<string>, argsStack: LocalDeclaredVars, stack: LocalDeclaredVars): LocalDeclaredVars {
  const onlyScalars = !headMayHaveVars(rule);
  const used = new Set<string>();
  const h = rule.head;
  if (!onlyScalars) {
    if (ctx.mayHoldClosureTerms(rule)) {
      for (let i = 1; i < h.reference.length; i++) rewriteHeadClosures(ctx, rw, h.reference[i]!);
      if (h.args) for (const a of h.args) rewriteHeadClosures(ctx, rw, a);
      if (h.key && h.key !== h.reference[h.reference.length - 1]) rewriteHeadClosures(ctx, rw, h.key);
      if (h.value) rewriteHeadClosures(ctx, rw, h.value);
    }
    varsOfTermsFrom(h.reference, 1, ALL_VARS, used);
    if (h.key) varsOf(h.key, ALL_VARS, used);
    if (h.value) {
      if (unusedArgs.size === 0) varsOf(h.value, ALL_VARS, used);
      else {
        for (const v of varsOf(h.value)) {
          used.add(v);
          unusedArgs.delete(v);
        }
      }
    }
  }
  stack.startFrom(argsStack);
  rule.body = rw.body(stack, used, rule.body);
  if (!onlyScalars) {
    const declared = stack;
    // every var in the head (closure bodies included) that the body declared takes its new name;
    // else branches carry their own copy of the arguments: map them to the generated names too
    if (h.args) for (const a of h.args) renameDeclared(a, declared);
    for (let i = 1; i < h.reference.length; i++) renameDeclared(h.reference[i]!, declared);
    if (h.key && h.key !== h.reference[h.reference.length - 1]) renameDeclared(h.key, declared);
    if (h.value) renameDeclared(h.value, declared);
  }
  return stack;
}

// (functions of their own rather than closures made per rule: RewriteLocalVars visits every rule)

/** Closures in the head are scoped on their own. */
function rewriteHeadClosures(ctx: CompileContext, rw: Rewriter, t: Term): void {
  switch (t.type) {
    case "array":
    case "set":
    case "ref":
    case "call":
      for (const x of t.value) rewriteHeadClosures(ctx, rw, x);
      return;
    case "object":
      for (const [k, v] of t.value) {
        rewriteHeadClosures(ctx, rw, k);
        rewriteHeadClosures(ctx, rw, v);
      }
      return;
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension": {
      rw.term(new LocalDeclaredVars(ctx.rewrittenVars), t);
      return;
    }
    case "templatestring":
      for (const part of t.value.parts) {
        if ((part as { type: string }).type !== "expr") continue;
        const e = part as Expr;
        if (Array.isArray(e.terms)) for (const x of e.terms) rewriteHeadClosures(ctx, rw, x);
        else if (e.terms.type !== "some" && e.terms.type !== "every" && e.terms.type !== "and" && e.terms.type !== "or" && e.terms.type !== "not") {
          rewriteHeadClosures(ctx, rw, e.terms as Term);
        }
        for (const w of e.with) rewriteHeadClosures(ctx, rw, w.value);
      }
      return;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
      return;
    default:
      assertNever(t);
  }
}

/** Renames the vars under a head term that the body declared (in its outermost scope). */
function renameDeclared(t: Term, declared: LocalDeclaredVars): void {
  switch (t.type) {
    case "var": {
      const gv = declared.peekDeclared(t.value);
      if (gv !== undefined) t.value = gv;
      return;
    }
    case "ref":
    case "array":
    case "set":
    case "call": {
      const xs = t.value;
      for (let i = 0; i < xs.length; i++) renameDeclared(xs[i]!, declared);
      return;
    }
    case "object": {
      const kvs = t.value;
      for (let i = 0; i < kvs.length; i++) {
        renameDeclared(kvs[i]![0], declared);
        renameDeclared(kvs[i]![1], declared);
      }
      return;
    }
    case "null":
    case "boolean":
    case "number":
    case "string":
      return;
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      renameDeclaredInClosure(t, declared);
      break;
    default:
      assertNever(t);
  }
}

/** renameDeclared for terms with bodies (the walk of visit.ts). A function of its own, not a
 * closure in renameDeclared, which runs for every term (hot, see bench/frontend.bench.ts). */
function renameDeclaredInClosure(t: Term, declared: LocalDeclaredVars): void {
  walkTerms(t, (x) => {
    if (x.type === "var") {
      const gv = declared.peekDeclared(x.value);
      if (gv !== undefined) x.value = gv;
    }
    return false;
  });
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
