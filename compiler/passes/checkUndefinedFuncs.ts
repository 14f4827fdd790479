// CheckUndefinedFuncs: every call names a built-in or a user function, with the right number of
// arguments (one more when the result is captured).
import type { Expr, Ref, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { isEquality, userNames } from "../ast/terms.js";
import { opaRef } from "../ast/print.js";
import { ExprWalker } from "../ast/visit.js";

/** Maps generated names back to the user's (for messages). */
export function originalRef(ref: Ref, ...maps: ReadonlyMap<string, string>[]): string {
  return opaRef(ref.map(userNames(maps)));
}

/** The check of one expression (true: do not look into its closures). */
function checker(ctx: CompileContext, rewritten: ReadonlyMap<string, string>[]): (e: Expr) => boolean {
  return (e) => {
    if (!Array.isArray(e.terms)) return false;
    const op = e.terms[0]!;
    if (op.type !== "ref") {
      // a local var in the operator's place (`data := 0; data()`): OPA names no function (its
      // operator ref is empty)
      ctx.err("rego_type_error", "undefined function ", e.location);
      return true;
    }
    const arity = ctx.getArity(op.value);
    const n = e.terms.length - 1;
    if (arity >= 0) {
      if (e.generated) {
        if (!isEquality(e) && n !== arity + 1) {
          arityError(ctx, op.value, e.location, arity, n - 1, rewritten);
          return true;
        }
      } else if (n !== arity && n !== arity + 1) {
        arityError(ctx, op.value, e.location, arity, n, rewritten);
        return true;
      }
      return false;
    }
    ctx.err("rego_type_error", `undefined function ${originalRef(op.value, ...rewritten)}`, e.location);
    return true;
  };
}

function arityError(ctx: CompileContext, ref: Ref, loc: Term["location"], exp: number, act: number, rewritten: ReadonlyMap<string, string>[]): void {
  const name = originalRef(ref, ...rewritten);
  if (ctx.builtins.has(opaRef(ref))) {
    ctx.err("rego_type_error", `${name}: arity mismatch`, loc);
    return;
  }
  ctx.err("rego_type_error", `function ${name} has arity ${exp}, got ${act} argument${act === 1 ? "" : "s"}`, loc);
}

export function checkUndefinedFuncs(ctx: CompileContext): void {
  const walk = new ExprWalker(checker(ctx, [ctx.rewrittenVars]));
  // rule by rule, in the order of a walk of the module: the terms of a rule holding no closure
  // terms hold no expressions, and are not walked
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        walk.intoTerms = ctx.mayHoldClosureTerms(r);
        if (walk.intoTerms) walk.any(r.head);
        walk.body(r.body);
      }
    }
  }
}

export function checkUndefinedFuncsInQuery(ctx: CompileContext): void {
  const walk = new ExprWalker(checker(ctx, [ctx.query!.rewritten, ctx.rewrittenVars]));
  walk.body(ctx.query!.body);
}
