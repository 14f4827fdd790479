// CheckRecursion: no rule may depend on itself, directly or through others (the dependency graph
// of SetGraph). Each rule on a cycle is reported with the cycle.
import type { Rule } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { buildGraph } from "./analysis/graph.js";
import { opaRef } from "../ast/print.js";

export function setGraph(ctx: CompileContext): void {
  ctx.graph = buildGraph(ctx);
}

export function checkRecursion(ctx: CompileContext): void {
  const g = ctx.graph!;
  const name = (r: Rule): string => opaRef(ctx.ruleRef(r));
  // a path is searched (and reported) only from the rules that are on a cycle: one search per
  // rule would make a long chain of rules quadratic
  const cyclic = g.onCycles();
  if (cyclic.size === 0) return;
  ctx.ruleTree!.depthFirst((node) => {
    for (const top of node.values) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        if (!cyclic.has(r)) continue;
        const path = g.dfsPath(r, r);
        if (path.length > 0) {
          ctx.err("rego_recursion_error", `rule ${name(r)} is recursive: ${path.map(name).join(" -> ")}`, r.location);
        }
      }
    }
    return false;
  });
}
