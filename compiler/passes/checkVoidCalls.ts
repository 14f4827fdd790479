// CheckVoidCalls: a built-in without a result (`print`, `internal.print`) cannot be used as a
// value (`x := print(1)`).
import type { Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { opaRef, opaTerm } from "../ast/print.js";
import { walkTerms, type VarNode } from "../ast/visit.js";

function check(ctx: CompileContext, node: VarNode | Term[]): void {
  walkTerms(node, (t) => {
    if (t.type !== "call") return false;
    const op = t.value[0]!;
    if (op.type !== "ref") return false;
    const bi = ctx.builtins.get(opaRef(op.value));
    if (bi && bi.result === undefined) ctx.err("rego_type_error", `${opaTerm(t)} used as value`, t.location);
    return false;
  });
}

export function checkVoidCalls(ctx: CompileContext): void {
  const isVoid = (name: string): boolean => {
    const bi = ctx.builtins.get(name);
    return bi !== undefined && bi.result === undefined;
  };
  for (const m of ctx.modules) if (ctx.mayContain(m, (f) => f.mayCall(isVoid))) check(ctx, m);
}

export function checkVoidCallsInQuery(ctx: CompileContext): void {
  check(ctx, ctx.query!.body);
}
