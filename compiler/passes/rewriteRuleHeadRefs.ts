// RewriteRuleHeadRefs: non-scalar, non-variable terms in a rule's head ref are bound in the body
// (`p.q[y.z] if {...}` → `p.q[__local0__] if {...; __local0__ = y.z}`), which is what the rule tree
// and the planner can index.
import type { Rule } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { eqExpr, isScalar, varTerm } from "../ast/terms.js";

export function rewriteRuleHeadRefs(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        const ref = r.head.reference;
        for (let i = 1; i < ref.length; i++) {
          const t = ref[i]!;
          if (t.type === "var" || isScalar(t)) continue;
          const v = varTerm(ctx.gen.generate(), t.location);
          if (i === ref.length - 1 && r.head.key === t) r.head.key = v;
          ref[i] = v;
          r.body.push(eqExpr(varTerm(v.value, v.location), t, t.location, true));
        }
      }
    }
  }
}
