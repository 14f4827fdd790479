// CheckRuleConflicts: rules sharing a path must agree (all single-value or all multi-value, the
// same arity, complete and partial definitions not mixed, at most one default); a rule with a
// ground ref owns its whole extent (no other rule, and no package, may live below it), and a rule
// with variables in its ref may not have functions below it.
import type { Ref, Rule } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import type { TreeNode } from "./analysis/ruleTree.js";
import { isGround, refHasPrefix } from "../ast/terms.js";
import { opaRef, opaTerm } from "../ast/print.js";

function isMultiValue(r: Rule): boolean {
  return r.head.key !== undefined && r.head.value === undefined;
}

function locString(r: { location: { file: string; row: number } }): string {
  return `${r.location.file}:${r.location.row}`;
}

export function checkRuleConflicts(ctx: CompileContext): void {
  const name = (r: Rule): string =>
    opaRef(
      ctx.ruleRef(r).map((t) => (t.type === "var" && ctx.rewrittenVars.has(t.value) ? { ...t, value: ctx.rewrittenVars.get(t.value)! } : t)),
    );
  const rename = (ref: Ref): Ref => ref.map((t) => (t.type === "var" && ctx.rewrittenVars.has(t.value) ? { ...t, value: ctx.rewrittenVars.get(t.value)! } : t));
  ctx.ruleTree!.depthFirst((node) => {
    if (node.values.length === 0) return false;
    // (what the rules at a node agree on is compared with the first rule: no sets or refs made
    // per node, most nodes hold one rule)
    const first0 = node.values[0]!;
    const length0 = ruleRefLength(ctx, first0);
    const kind0 = isMultiValue(first0);
    const arity0 = first0.head.args?.length ?? 0;
    let lengthsDiffer = false;
    let kindsDiffer = false;
    let multiValue = false;
    let aritiesDiffer = false;
    let complete = 0;
    let partial = 0;
    let defaults: Rule[] | undefined;
    let conflicts: { ref: Ref; rule: Rule }[] | undefined;
    let groundSeen = false;
    for (const r of node.values) {
      if (ruleRefLength(ctx, r) !== length0) lengthsDiffer = true;
      if (isMultiValue(r) !== kind0) kindsDiffer = true;
      if (isMultiValue(r)) multiValue = true;
      if ((r.head.args?.length ?? 0) !== arity0) aritiesDiffer = true;
      if (r.default) (defaults ??= []).push(r);
      const ground = isGroundRuleRef(ctx, r);
      if (ground) groundSeen = true;
      if (!isMultiValue(r) && ground) complete++;
      else partial++;
    }
    if (node.children.size > 0) {
      // the last rule decides which conflicts are reported (as OPA does)
      const lastGround = isGroundRuleRef(ctx, node.values[node.values.length - 1]!);
      if (lastGround) conflicts = flattenChildren(ctx, node, () => true);
      else {
        const fns = flattenChildren(ctx, node, (x) => (x.head.args?.length ?? 0) > 0);
        if (fns.length > 0) conflicts = fns;
        else if (groundSeen) conflicts = flattenChildren(ctx, node, () => true);
      }
    }
    const first = node.values[0]!;
    // (the name is printed only for an error: most nodes have none)
    const last = node.values[node.values.length - 1]!;
    if (conflicts && conflicts.length > 0) {
      const lines = conflicts.map((c) => `  rule ${opaRef(rename(c.ref))} at ${locString(c.rule)}`);
      ctx.err("rego_type_error", `rule ${name(last)} conflicts with:\n${lines.join("\n")}`, first.location);
    } else if (kindsDiffer || aritiesDiffer || (complete >= 1 && partial >= 1) || (multiValue && lengthsDiffer)) {
      ctx.err("rego_type_error", `conflicting rules ${name(last)} found`, first.location);
    } else if (defaults && defaults.length > 1) {
      const pkg = ctx.ruleModule.get(defaults[0]!)!.package;
      ctx.err("rego_type_error", `multiple default rules ${name(last)} found at ${defaults.map(locString).join(", ")}`, pkg.location);
    }
    return false;
  });

  // packages inside the extent of a rule
  for (const m of ctx.modules) {
    const pkgNode = ctx.moduleTree!.at(m.package.path);
    if (!pkgNode) continue;
    for (const r of m.rules) {
      const ref = r.head.reference;
      if (!groundAfterHead(ref)) continue;
      const node = pkgNode.at(ref);
      if (!node) continue;
      for (const child of node.modules) {
        if (child === m) continue;
        const pkg = child.package.path.slice(1).map((t) => (t as { value: string }).value).join(".");
        ctx.err("rego_type_error", `package ${pkg} conflicts with rule ${opaRef(ref)} defined at ${locString(r)}`, m.package.location);
      }
    }
  }
}

function groundAfterHead(ref: Ref): boolean {
  for (let i = 1; i < ref.length; i++) if (!isGround(ref[i]!)) return false;
  return true;
}

/** The length of a rule's full ref (ctx.ruleRef), without making it. */
function ruleRefLength(ctx: CompileContext, r: Rule): number {
  const m = ctx.ruleModule.get(r);
  return (m ? m.package.path.length : 0) + r.head.reference.length;
}

/** Whether a rule's full ref (ctx.ruleRef) is ground after its first term, without making it:
 * the package path, then the head ref's first term (a var stands for a string), then the rest. */
function isGroundRuleRef(ctx: CompileContext, r: Rule): boolean {
  const m = ctx.ruleModule.get(r);
  const pkg = m ? m.package.path : [];
  for (let i = 1; i < pkg.length; i++) if (!isGround(pkg[i]!)) return false;
  const href = r.head.reference;
  const head = href[0]!;
  if (pkg.length > 0 && head.type !== "var" && !isGround(head)) return false;
  for (let i = 1; i < href.length; i++) if (!isGround(href[i]!)) return false;
  return true;
}

/** The rules below a node, with refs that are prefixes of others removed, sorted. */
function flattenChildren(ctx: CompileContext, node: TreeNode, keep: (r: Rule) => boolean): { ref: Ref; rule: Rule }[] {
  let out: { ref: Ref; rule: Rule }[] = [];
  for (const sub of node.children.values()) {
    sub.depthFirst((x) => {
      for (const r of x.values) {
        if (!keep(r)) continue;
        const ref = ctx.ruleRef(r);
        if (out.some((o) => refHasPrefix(ref, o.ref))) continue;
        out = out.filter((o) => !refHasPrefix(o.ref, ref));
        out.push({ ref, rule: r });
      }
      return false;
    });
  }
  return out.sort((a, b) => {
    const x = a.ref.map(opaTerm).join("\u0000");
    const y = b.ref.map(opaTerm).join("\u0000");
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
