// CheckKeywordOverrides: in strict mode and in Rego v1 modules, rules and variables must not be
// named after the root documents `input` and `data`.
import type { Body, Module, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { isAssignment } from "../ast/terms.js";
import { walkExprs } from "../ast/visit.js";

const ROOTS = new Set(["input", "data"]);

function rootName(t: Term): string | undefined {
  if (t.type === "var" && ROOTS.has(t.value)) return t.value;
  if (t.type === "ref" && t.value.length === 1 && t.value[0]!.type === "var" && ROOTS.has(t.value[0]!.value)) return t.value[0]!.value;
  return undefined;
}

function checkBodies(ctx: CompileContext, node: Module | Body): void {
  walkExprs(node, (e) => {
    if (isAssignment(e) && e.terms.length === 3) {
      const lhs = e.terms[1]!;
      const names: string[] = [];
      const collect = (t: Term): void => {
        const n = rootName(t);
        if (n) names.push(n);
        else if (t.type === "array") t.value.forEach(collect);
        else if (t.type === "object") for (const [, v] of t.value) collect(v);
      };
      collect(lhs);
      for (const n of names) ctx.err("rego_compile_error", `variables must not shadow ${n} (use a different variable name)`, e.location);
    }
  });
}

export function checkKeywordOverrides(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    if (!ctx.strict && m.regoVersion === "v0") continue;
    for (const r of m.rules) {
      const head = r.head.reference[0];
      if (head?.type === "var" && ROOTS.has(head.value)) {
        ctx.err("rego_compile_error", `rules must not shadow ${head.value} (use a different rule name)`, r.location);
      }
    }
    if (ctx.mayContain(m, (f) => f.bareRoots)) checkBodies(ctx, m);
  }
}

export function checkKeywordOverridesInQuery(ctx: CompileContext): void {
  if (ctx.strict) checkBodies(ctx, ctx.query!.body);
}
