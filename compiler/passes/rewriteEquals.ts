// RewriteEquals: a comparison used as a condition is unification (`a == b` → `a = b`); a
// comparison whose result is captured (`x := a == b`) is left alone.
import type { CompileContext } from "./context.js";
import { nameRef } from "../ast/terms.js";
import { walkExprs } from "../ast/visit.js";

export function rewriteEquals(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    if (!ctx.mayContain(m, (f) => f.calls.has("equal"))) continue;
    walkExprs(m, (e) => {
      const ts = e.terms;
      if (!Array.isArray(ts) || ts.length !== 3) return;
      const op = ts[0]!;
      if (op.type === "ref" && op.value.length === 1 && op.value[0]!.type === "var" && op.value[0]!.value === "equal") {
        ts[0] = nameRef("eq", op.location);
      }
    });
  }
}
