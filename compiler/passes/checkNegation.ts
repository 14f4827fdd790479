// regoc's own check, beyond OPA: a legacy `not` whose refs or calls OPA's compiler evaluates
// before the negation. RewriteExprTerms moves nested calls out of an expression and
// RewriteDynamicTerms the refs that are call operands or dynamic keys, into expressions of their
// own that are not negated (`not valid(input.token)` is `__local0__ = input.token;
// not valid(__local0__)`): when one of them is undefined the body fails there, and the `not` never
// gets to succeed. `opa eval` answers the same; a deny rule written so silently does not fire.
// Read from the compiled modules: what was moved out of a negated expression are the generated
// vars in it that stand for a hoisted term (CompileContext.hoisted).
import type { Expr, NodeLocation, Term } from "../ast/nodes.js";
import { walkExprs } from "../ast/visit.js";
import { RegoError, assertNever } from "../../runtime/errors.js";
import type { CompileContext } from "./context.js";
import { isTermExpr, userNames } from "../ast/terms.js";
import { opaTerm } from "../ast/print.js";

/** The warnings of every legacy `not` of the compiled modules (none for a failed compile). */
export function negationWarnings(ctx: CompileContext): RegoError[] {
  if (ctx.failed()) return [];
  const original = userNames([ctx.rewrittenVars], (v) => ctx.hoisted.get(v));
  const out: RegoError[] = [];
  for (const m of ctx.modules) {
    walkExprs(m, (e) => {
      if (!e.negated) return;
      const names: string[] = [];
      for (const t of hoistedTerms(ctx, e)) {
        const name = opaTerm(original(t));
        if (!names.includes(name)) names.push(name);
      }
      if (names.length > 0) out.push(warning(e.location, names));
    });
  }
  return out;
}

/** The terms moved out of `e`'s terms that can be undefined (see canFail). */
function hoistedTerms(ctx: CompileContext, e: Expr): Term[] {
  const found: Term[] = [];
  const visit = (t: Term): void => {
    if (t.type === "var") {
      const h = ctx.hoisted.get(t.value);
      if (h && canFail(ctx, h)) found.push(h);
    } else if (t.type === "ref" || t.type === "array" || t.type === "set" || t.type === "call") t.value.forEach(visit);
    else if (t.type === "object") t.value.forEach(([k, v]) => (visit(k), visit(v)));
  };
  const ts = e.terms;
  if (Array.isArray(ts)) ts.forEach(visit);
  else if (isTermExpr(e)) visit(ts as Term);
  // (`with` values are left out: they are what the expression runs under, not what it negates;
  // a test's `not allow with input as fixture(...)` fails loudly when the fixture is undefined)
  return found;
}

/**
 * Whether a hoisted term can be undefined for reasons other than a wrongly typed value: a ref
 * below a document (`input.token`, `x.name`, `data.t.rule`), a call of a user function, or a
 * builtin call over such a term. The input and data documents themselves, local vars (bound
 * before the `not`), constants and comprehensions are taken as defined, so that
 * `not object.get(input, "a", 0) == 1` is not warned of.
 */
function canFail(ctx: CompileContext, t: Term): boolean {
  switch (t.type) {
    case "var": {
      const h = ctx.hoisted.get(t.value);
      return h !== undefined && canFail(ctx, h);
    }
    case "ref":
      return t.value.length > 1 || t.value.some((x) => canFail(ctx, x));
    case "call": {
      const op = t.value[0]!;
      if (op.type === "ref" && op.value[0]!.type === "var" && op.value[0]!.value === "data") return true;
      return t.value.some((x, i) => i > 0 && canFail(ctx, x));
    }
    case "array":
    case "set":
      return t.value.some((x) => canFail(ctx, x));
    case "object":
      return t.value.some(([k, v]) => canFail(ctx, k) || canFail(ctx, v));
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      return false;
    default:
      assertNever(t);
  }
}

function warning(loc: NodeLocation, names: string[]): RegoError {
  const what = names.length === 1 ? `${names[0]} is` : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} are`;
  const inner = loc.text.replace(/^not\s+/, "");
  return new RegoError(
    "rego_negation_warning",
    `\`${loc.text}\`: ${what} evaluated before the negation, so when ${names.length === 1 ? "it is" : "one is"} undefined ` +
      `the expression fails and the rule does not fire (as in OPA); negate a helper rule that holds the whole check, ` +
      `or write \`not { ${inner} }\` (import future.keywords.not)`,
    { file: loc.file, row: loc.row, col: loc.col },
  );
}
