// RewriteWithValues: checks every `with` target (input, a data path that does not partially
// replace a rule's document, a user function, or a replaceable built-in) and binds replacement
// values that need evaluation to generated variables before the expression.
import type { Body, Rule, Term } from "../ast/nodes.js";
import type { RegoErrorCode } from "../../runtime/errors.js";
import type { CompileContext, LocalVarGen } from "./context.js";
import { requiresEval } from "./rewriteComprehensionTerms.js";
import { eqExpr, varTerm } from "../ast/terms.js";
import { opaRef } from "../ast/print.js";
import { walkBodies } from "../ast/visit.js";

type WithError = { code: RegoErrorCode; message: string; at: Term };

export function rewriteWithValues(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    if (!ctx.mayContain(m, (f) => f.withs)) continue;
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        const visit = (b: Body): void => {
          const out = rewriteWithInBody(ctx, ctx.gen, b);
          if ("error" in out) ctx.err(out.error.code, out.error.message, out.error.at.location);
          else if (out.body !== b) {
            b.length = 0;
            b.push(...out.body);
          }
        };
        walkBodies(r.head, visit);
        walkBodies(r.body, visit);
      }
    }
  }
}

export function rewriteWithValuesInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  const visit = (b: Body): void => {
    const out = rewriteWithInBody(ctx, q.gen, b);
    if ("error" in out) ctx.err(out.error.code, out.error.message, out.error.at.location);
    else if (out.body !== b) {
      b.length = 0;
      b.push(...out.body);
    }
  };
  walkBodies(q.body, visit);
}

function rewriteWithInBody(ctx: CompileContext, gen: LocalVarGen, body: Body): { body: Body } | { error: WithError } {
  if (!body.some((e) => e.with.length > 0)) return { body };
  const result: Body = [];
  for (const e of body) {
    for (const w of e.with) {
      const v = validateWith(ctx, w.target, w.value);
      if (typeof v !== "boolean") return { error: v };
      if (v) {
        const x = varTerm(gen.generate(), w.value.location);
        result.push(eqExpr(varTerm(x.value, x.location), w.value, w.value.location, true));
        w.value = x;
      }
    }
    result.push(e);
  }
  return { body: result };
}

function isRootRef(t: Term, root: string): boolean {
  return t.type === "ref" && t.value[0]!.type === "var" && t.value[0]!.value === root;
}

/** Whether a term names a built-in (`count`, `time.now_ns`). */
function builtinName(ctx: CompileContext, t: Term): string | undefined {
  const name = t.type === "var" ? t.value : t.type === "ref" ? opaRef(t.value) : undefined;
  return name !== undefined && ctx.builtins.has(name) ? name : undefined;
}

/** Whether a replacement value is a function (a user function or built-in): no evaluation then. */
function isFunctionValue(ctx: CompileContext, value: Term): boolean {
  if (value.type === "ref" && ctx.ruleTree!.lookup(value.value)) return true;
  return builtinName(ctx, value) !== undefined;
}

/** true: the value must be evaluated first; false: fine as is; otherwise the error. */
function validateWith(ctx: CompileContext, target: Term, value: Term): boolean | WithError {
  if (value.type === "var" && ctx.builtins.has(value.value)) {
    const m = value as unknown as { type: string; value: unknown };
    m.type = "ref";
    m.value = [varTerm(value.value, value.location)];
  }
  const tree = ctx.ruleTree!;
  if (isRootRef(target, "data")) {
    const ref = (target as { value: Term[] }).value;
    let node = tree;
    let reached = true;
    for (let i = 0; i < ref.length - 1; i++) {
      const child = node.child(ref[i]!);
      if (!child) {
        reached = false;
        break;
      }
      if (child.values.length > 0) {
        return { code: "rego_compile_error", message: "with keyword cannot partially replace virtual document(s)", at: target };
      }
      node = child;
    }
    if (reached) {
      const child = node.child(ref[ref.length - 1]!);
      if (child && child.values.some((r) => (r.head.args?.length ?? 0) > 0) && isFunctionValue(ctx, value)) return false;
    }
    if (value.type === "ref") {
      const vn = tree.lookup(value.value);
      if (vn && vn.values.some((r) => (r.head.args?.length ?? 0) > 0)) return false;
    }
  } else if (isRootRef(target, "input")) {
    // fine
  } else if (builtinName(ctx, target) !== undefined) {
    const name = builtinName(ctx, target)!;
    if (target.type === "var") {
      const m = target as unknown as { type: string; value: unknown };
      m.type = "ref";
      m.value = [varTerm(name, target.location)];
    }
    const bi = ctx.builtins.get(name)!;
    const err = (message: string): WithError => ({ code: "rego_compile_error", message, at: target });
    if (name === "eq" || name === "rego.metadata.chain" || name === "rego.metadata.rule") {
      return err(`with keyword replacing built-in function: replacement of "${name}" invalid`);
    }
    if (name.startsWith("internal.")) return err(`with keyword replacing built-in function: replacement of internal function "${name}" invalid`);
    if (bi.relation) return err("with keyword replacing built-in function: target must not be a relation");
    if (bi.result === undefined) return err("with keyword replacing built-in function: target must not be a void function");
    if (isFunctionValue(ctx, value)) return false;
  } else {
    return { code: "rego_type_error", message: "with keyword target must reference existing input, data, or a function", at: target };
  }
  return requiresEval(value);
}
