// RewritePrintCalls: with print enabled, `print(a, b)` becomes
// `internal.print([{__local0__ | __local0__ = a}, {__local1__ | __local1__ = b}])` so that an
// undefined operand prints as <undefined> instead of stopping the body; every operand's vars must
// be declared before the call. With print disabled (OPA's default) the calls are erased.
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, LocalVarGen } from "./context.js";
import { addAll, KnownVars, outputVarsForExpr, type Arity } from "./safety/outputVars.js";
import { ScopedVars, type VarSet } from "./safety/scopedVars.js";
import { boolTerm, eqExpr, nameRef, newExpr, operatorName, varTerm, isCallExpr } from "../ast/terms.js";
import { SAFETY_PARAMS, varsOf, walkBodies, walkExprs } from "../ast/visit.js";
import { assertNever } from "../../runtime/errors.js";

const RESERVED = ["input", "data"];

export function isPrintCall(e: Expr): boolean {
  return isCallExpr(e) && operatorName(e) === "print";
}

export function rewritePrintCalls(ctx: CompileContext): void {
  const modules = ctx.modules.filter((m) => ctx.mayContain(m, (f) => f.calls.has("print")));
  if (!ctx.enablePrint) {
    for (const m of modules) for (const r of m.rules) erase(r);
    return;
  }
  const arity: Arity = (ref) => ctx.getArity(ref);
  for (const m of modules) {
    ctx.facts.get(m)?.calls.add("internal.print");
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        let hasPrint = false;
        walkExprs(r, (e) => {
          if (isPrintCall(e)) hasPrint = true;
          return hasPrint;
        });
        if (!hasPrint) continue;
        // the operands become comprehensions
        ctx.facts.get(m)?.closureTerms.add(r);
        const safe = varsOf(r.head.args ?? []);
        for (const v of RESERVED) safe.add(v);
        const report = (errs: Err[]): void => {
          for (const e of errs) ctx.err("rego_compile_error", e.message, e.at);
        };
        report(rewriteBody(ctx.gen, arity, safe, r.body, ctx.rewrittenVars));
        // closures in the head see the arguments only
        const h = r.head;
        for (const t of [...h.reference.slice(1), ...(h.args ?? []), ...(h.key ? [h.key] : []), ...(h.value ? [h.value] : [])]) {
          forEachClosureIn(t, (b, extra = []) => report(rewriteBody(ctx.gen, arity, new Set([...safe, ...extra]), b, ctx.rewrittenVars)));
        }
      }
    }
  }
}

export function rewritePrintCallsInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  if (!ctx.enablePrint) {
    eraseAll(q.body);
    return;
  }
  for (const e of rewriteBody(q.gen, (ref) => ctx.getArity(ref), new Set(RESERVED), q.body, q.rewritten)) {
    ctx.err("rego_compile_error", e.message, e.at);
  }
}

type Err = { message: string; at: Term["location"] };

/** Rewrites the print calls of one body (and of the closures inside it). What each expression
 * sees bound is worked out as the body goes (not once per expression: bodies can be long). */
export function rewriteBody(gen: LocalVarGen, arity: Arity, globals: VarSet, body: Body, rewritten: ReadonlyMap<string, string>): Err[] {
  const errs: Err[] = [];
  // the globals and what the expressions so far bind
  const bound = new ScopedVars(globals);
  for (const e of body) {
    const closure = (b: Body, extra: Iterable<string> = []): void => {
      const s = new ScopedVars(bound);
      for (const v of extra) s.add(v);
      errs.push(...rewriteBody(gen, arity, s, b, rewritten));
    };
    forEachClosure(e, closure);
    if (errs.length > 0) return errs;
    addAll(bound, outputVarsForExpr(e, arity, bound));
  }
  // and the compiler's temporaries they mention
  const safe = new KnownVars(globals, arity);
  for (let i = 0; i < body.length; safe.after(body[i]!), i++) {
    const e = body[i]!;
    if (!isPrintCall(e)) continue;
    const args = (e.terms as Term[]).slice(1);
    const local: Err[] = [];
    for (const a of args) {
      for (const v of [...varsOf(a, SAFETY_PARAMS)].filter((v) => !safe.has(v)).sort()) {
        const name = rewritten.get(v) ?? v;
        local.push({ message: `var ${name.startsWith("$") ? "_" : name} is undeclared`, at: a.location });
      }
    }
    if (local.length > 0) return [...errs, ...local];
    const terms: Term[] = args.map((a) => {
      const x = varTerm(gen.generate(), a.location);
      return { type: "setcomprehension", value: { term: x, body: [eqExpr(varTerm(x.value, x.location), a, a.location)] }, location: a.location };
    });
    body[i] = newExpr([nameRef("internal.print", e.location), { type: "array", value: terms, location: e.location }], e.location);
  }
  return errs;
}

/** Calls f on the bodies of the closures directly inside an expression (and on the bodies of
 * `and`/`or`/`not` groups, which see the same variables). */
export function forEachClosure(e: Expr, f: (b: Body, extra?: Iterable<string>) => void): void {
  const ts = e.terms;
  if (!Array.isArray(ts) && ts.type === "every") {
    const kv: string[] = [];
    if (ts.key?.type === "var") kv.push(ts.key.value);
    if (ts.value.type === "var") kv.push(ts.value.value);
    f(ts.body, kv);
    return;
  }
  if (!Array.isArray(ts) && (ts.type === "and" || ts.type === "or")) {
    f(ts.lhs);
    f(ts.rhs);
    return;
  }
  if (!Array.isArray(ts) && ts.type === "not") {
    f(ts.body);
    return;
  }
  const visitTerm = (t: Term): void => forEachClosureIn(t, f);
  if (Array.isArray(ts)) ts.forEach(visitTerm);
  else if (ts.type !== "some") visitTerm(ts as Term);
  for (const w of e.with) visitTerm(w.value);
}

/** Calls f on the bodies of the closures directly inside a term. */
export function forEachClosureIn(t0: Term, f: (b: Body, extra?: Iterable<string>) => void): void {
  const visitTerm = (t: Term): void => {
    switch (t.type) {
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        f(t.value.body);
        return;
      case "ref":
      case "array":
      case "set":
      case "call":
        t.value.forEach(visitTerm);
        return;
      case "object":
        for (const [k, v] of t.value) {
          visitTerm(k);
          visitTerm(v);
        }
        return;
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "var":
      case "templatestring":
        return;
      default:
        assertNever(t);
    }
  };
  visitTerm(t0);
}

function erase(r: Rule): void {
  for (let x: Rule | undefined = r; x; x = x.else) {
    eraseAll(x.head);
    eraseAll(x.body);
  }
}

/** Erases the print calls of every body under a node: closures and `and`/`or`/`not` groups. */
function eraseAll(node: Rule["head"] | Body): void {
  walkBodies(node, eraseInPlace);
  walkExprs(node, (e) => {
    const ts = e.terms;
    if (Array.isArray(ts)) return;
    if (ts.type === "and" || ts.type === "or") {
      eraseInPlace(ts.lhs);
      eraseInPlace(ts.rhs);
    } else if (ts.type === "not") eraseInPlace(ts.body);
  });
}

/** Removes the print calls of a body in place (an emptied body becomes `true`). */
function eraseInPlace(b: Body): void {
  if (!b.some(isPrintCall)) return;
  const loc = b[0]!.location;
  const kept = b.filter((e) => !isPrintCall(e));
  b.length = 0;
  b.push(...kept);
  if (b.length === 0) b.push(newExpr(boolTerm(true, loc), loc));
}


