// CheckDeprecatedBuiltins: in strict mode and in Rego v1 modules, deprecated built-ins
// (`any`, `all`, `re_match`, `set_diff`, `cast_*`, `net.cidr_overlap`) are errors.
import type { Body } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { operatorName } from "../ast/terms.js";
import { walkExprs, walkTerms, type VarNode } from "../ast/visit.js";

function check(ctx: CompileContext, node: VarNode | Body): void {
  const report = (name: string, at: Body[number]["location"]): void => {
    const bi = ctx.builtins.get(name);
    if (bi?.deprecated) ctx.err("rego_type_error", `deprecated built-in function calls in expression: ${name}`, at);
  };
  walkExprs(node, (e) => {
    if (Array.isArray(e.terms)) report(operatorName(e as Parameters<typeof operatorName>[0]), e.location);
  });
  walkTerms(node, (t) => {
    if (t.type === "call" && t.value[0]!.type === "ref") {
      report(t.value[0]!.value.map((x) => (x as { value: string }).value).join("."), t.location);
    }
  });
}

export function checkDeprecatedBuiltins(ctx: CompileContext): void {
  const deprecated = (name: string): boolean => !!ctx.builtins.get(name)?.deprecated;
  for (const m of ctx.modules) {
    if ((ctx.strict || m.regoVersion !== "v0") && ctx.mayContain(m, (f) => f.mayCall(deprecated))) check(ctx, m);
  }
}

export function checkDeprecatedBuiltinsInQuery(ctx: CompileContext): void {
  if (ctx.strict) check(ctx, ctx.query!.body);
}
