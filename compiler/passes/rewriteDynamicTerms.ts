// RewriteDynamicTerms: refs and comprehensions used as call operands, inside composite values or
// inside other refs are bound to generated variables first (`f(data.x) = 1` →
// `__local0__ = data.x; f(__local0__) = 1`), so every operand the planner sees is a variable or a
// constant. The generated expressions keep the original's `with` modifiers.
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { CompileContext, HoistedTerms, LocalVarGen } from "./context.js";
import { eqExpr, isEquality, isEvery, isTermExpr, varTerm } from "../ast/terms.js";
import { assertNever } from "../../runtime/errors.js";

/** The rewrite of bodies; `hoisted` records what each generated var stands for. */
class DynamicTerms {
  // The body being rewritten, the position reached in it, and the new body: made at the first
  // hoisted term (from the expressions before it), so that a body with none is kept as it is.
  private body: Body = [];
  private at = 0;
  private out: Body | undefined;

  constructor(
    private readonly gen: LocalVarGen,
    private readonly hoisted: HoistedTerms,
  ) {}

  rewrite(body: Body): Body {
    const outer = this.body;
    const outerAt = this.at;
    const outerOut = this.out;
    this.body = body;
    this.out = undefined;
    for (let i = 0; i < body.length; i++) {
      this.at = i;
      const e = body[i]!;
      this.expr(e);
      // (the expression may have made `out`: TypeScript cannot see that)
      (this.out as Body | undefined)?.push(e);
    }
    const result = this.out ?? body;
    this.body = outer;
    this.at = outerAt;
    this.out = outerOut;
    return result;
  }

  private expr(e: Expr): void {
    if (isEquality(e)) {
      if (e.terms.length === 3) {
        e.terms[1] = this.inTerm(e, e.terms[1]!);
        e.terms[2] = this.inTerm(e, e.terms[2]!);
      }
    } else if (Array.isArray(e.terms)) {
      this.operands(e, e.terms);
    } else if (isEvery(e)) {
      e.terms.domain = this.one(e, e.terms.domain);
      e.terms.body = this.rewrite(e.terms.body);
    } else if (isTermExpr(e)) {
      e.terms = this.inTerm(e, e.terms);
    } else if (e.terms.type === "and" || e.terms.type === "or") {
      e.terms.lhs = this.rewrite(e.terms.lhs);
      e.terms.rhs = this.rewrite(e.terms.rhs);
    } else if (e.terms.type === "not") {
      e.terms.body = this.rewrite(e.terms.body);
    }
  }

  /** Binds `t` to a new var in an expression placed before the current one. */
  private generate(original: Expr, t: Term): Term {
    const v = varTerm(this.gen.generate(), t.location);
    this.hoisted.set(v.value, t);
    const eq = eqExpr(varTerm(v.value, v.location), t, t.location, true);
    eq.with = original.with;
    (this.out ??= this.body.slice(0, this.at)).push(eq);
    return v;
  }

  private inTerm(original: Expr, t: Term): Term {
    switch (t.type) {
      case "ref":
        this.operands(original, t.value);
        return t;
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        t.value.body = this.rewrite(t.value.body);
        return t;
      case "string":
      case "number":
      case "boolean":
      case "object":
      case "null":
      case "var":
      case "array":
      case "set":
      case "call":
      case "templatestring":
        return this.one(original, t);
      default:
        assertNever(t);
    }
  }

  /** A ref's terms after its head (a call's operands), each through `one`, in place. Strings and vars, most of
   * them, are left as they are without a call. */
  private operands(original: Expr, ts: Term[]): void {
    for (let i = 1; i < ts.length; i++) {
      const x = ts[i]!;
      if (x.type !== "string" && x.type !== "var") ts[i] = this.one(original, x);
    }
  }

  private one(original: Expr, t: Term): Term {
    switch (t.type) {
      case "ref":
        this.operands(original, t.value);
        return this.generate(original, t);
      case "array":
        for (let i = 0; i < t.value.length; i++) t.value[i] = this.one(original, t.value[i]!);
        return t;
      // An object or set is copied only when one of its terms was hoisted: most are constants.
      case "object": {
        let value: [Term, Term][] | undefined;
        for (let i = 0; i < t.value.length; i++) {
          const kv = t.value[i]!;
          const k = this.one(original, kv[0]);
          const v = this.one(original, kv[1]);
          if (k !== kv[0] || v !== kv[1]) (value ??= t.value.slice())[i] = [k, v];
        }
        return value ? { ...t, value } : t;
      }
      case "set": {
        let value: Term[] | undefined;
        for (let i = 0; i < t.value.length; i++) {
          const x = t.value[i]!;
          const y = this.one(original, x);
          if (y !== x) (value ??= t.value.slice())[i] = y;
        }
        return value ? { ...t, value } : t;
      }
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        t.value.body = this.rewrite(t.value.body);
        return this.generate(original, t);
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "var":
      case "call":
      case "templatestring":
        return t;
      default:
        assertNever(t);
    }
  }
}

/** Rewrites a body (a new array when anything was hoisted, else the body itself). */
export function rewriteDynamics(gen: LocalVarGen, hoisted: HoistedTerms, body: Body): Body {
  return new DynamicTerms(gen, hoisted).rewrite(body);
}

export function rewriteDynamicTerms(ctx: CompileContext): void {
  const rw = new DynamicTerms(ctx.gen, ctx.hoisted);
  const modules = ctx.modules;
  for (let i = 0; i < modules.length; i++) {
    const rules = modules[i]!.rules;
    for (let j = 0; j < rules.length; j++) for (let x: Rule | undefined = rules[j]; x; x = x.else) x.body = rw.rewrite(x.body);
  }
}

export function rewriteDynamicTermsInQuery(ctx: CompileContext): void {
  ctx.query!.body = rewriteDynamics(ctx.query!.gen, ctx.hoisted, ctx.query!.body);
}
