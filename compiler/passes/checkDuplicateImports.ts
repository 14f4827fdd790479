// CheckDuplicateImports: two imports binding the same name (in strict mode and in Rego v1
// modules): "import must not shadow import input.foo".
import type { CompileContext } from "./context.js";
import { importName, importString } from "./resolveRefs.js";

export function checkDuplicateImports(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    if (!ctx.strict && m.regoVersion === "v0") continue;
    const seen = new Map<string, string>();
    for (const imp of m.imports) {
      const path = imp.path.type === "ref" ? imp.path.value : [imp.path];
      const head = path[0];
      // `future.keywords.*` imports may repeat; `rego.*` directives may not
      if (head?.type === "var" && head.value === "future") continue;
      const name = head?.type === "var" && head.value === "rego" ? importString(imp) : importName(imp);
      const prev = seen.get(name);
      if (prev !== undefined) ctx.err("rego_compile_error", `import must not shadow ${prev}`, imp.location);
      else seen.set(name, importString(imp));
    }
  }
}

/** RemoveImports: imports have done their work (ResolveRefs); keep them aside for later checks. */
export function removeImports(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    ctx.imports.set(m, m.imports);
    m.imports = [];
  }
}
