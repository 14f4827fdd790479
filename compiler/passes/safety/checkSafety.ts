// CheckSafetyRuleHeads and CheckSafetyRuleBodies: every variable must be bound before it is used
// in a position that cannot bind it (negation, built-in inputs, closures). Bodies are reordered
// so that left-to-right evaluation binds variables first (stable: expressions keep their order
// unless they must wait); what can never be bound is reported ("var x is unsafe").
import type { Body, Expr, Module, NodeLocation, Rule, Term } from "../../ast/nodes.js";
import { isScalar } from "../../ast/terms.js";
import { opaRef } from "../../ast/print.js";
import type { CompileContext } from "../context.js";
import type { Arity } from "./outputVars.js";
import { reorderBodyForSafety, type Unsafe } from "./reorder.js";
import { headMayHaveVars } from "../rewriteLocalVars.js";
import { ALL_VARS, isGenerated, SAFETY_PARAMS, varsOf, varsOfTerms, walkTerms } from "../../ast/visit.js";

const RESERVED = ["input", "data"];
const FUTURE_KEYWORDS = new Set(["in", "every", "contains", "if"]);

function compareLoc(a: NodeLocation, b: NodeLocation): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.row - b.row || a.col - b.col;
}

/** The errors for what stayed unsafe (OPA's safetyErrorSlice). */
export function reportUnsafe(ctx: CompileContext, unsafe: Unsafe, rewritten: ReadonlyMap<string, string>[], suffix = ""): void {
  if (unsafe.size === 0) return;
  const locs = new Map<string, NodeLocation>();
  for (const [e, vs] of unsafe) {
    for (const v of vs) {
      const l = locs.get(v);
      if (!l || compareLoc(l, e.location) > 0) locs.set(v, e.location);
    }
  }
  const pairs = [...locs].sort((a, b) => compareLoc(a[1], b[1]));
  let reported = 0;
  for (const [v0, loc] of pairs) {
    let v = v0;
    for (const m of rewritten) if (m.has(v)) v = m.get(v)!;
    if (isGenerated(v)) continue;
    const name = v.startsWith("$") ? "_" : v;
    const msg = FUTURE_KEYWORDS.has(name)
      ? `var ${name} is unsafe (hint: \`import future.keywords.${name}\` to import a future keyword)`
      : `var ${name} is unsafe${suffix}`;
    ctx.err("rego_unsafe_var_error", msg, loc);
    reported++;
  }
  if (reported > 0) return;
  const seen = new Set<string>();
  for (const [e, vs] of [...unsafe].sort((a, b) => compareLoc(a[0].location, b[0].location))) {
    const before = seen.size;
    for (const v of vs) if (isGenerated(v)) seen.add(v);
    if (seen.size > before) ctx.err("rego_unsafe_var_error", "expression is unsafe", e.location);
  }
}

/** " in rule p" when another rule starts on the same line (so the message says which). */
function ruleSuffix(m: Module, rule: Rule): string {
  const row = rule.location.row;
  const name = opaRef(rule.head.reference);
  if (!m.rules.some((r) => r !== rule && r.location.row === row && opaRef(r.head.reference) !== name)) return "";
  return ` in rule ${name}`;
}

/** The vars of a rule's head terms that neither the arguments nor the body (SAFETY_PARAMS)
 * bind; undefined when there are none (the common case: no set is made). The body is searched
 * from its end, and only until every head var is found: the compiler's own bindings of head
 * values come last. */
function unboundHeadVars(h: Rule["head"], body: Body): Set<string> | undefined {
  const headVars = new Set<string>();
  const ref = h.reference;
  for (let i = 1; i < ref.length; i++) headTermVars(ref[i]!, headVars);
  if (h.args) for (let i = 0; i < h.args.length; i++) headTermVars(h.args[i]!, headVars);
  if (h.key) headTermVars(h.key, headVars);
  if (h.value) headTermVars(h.value, headVars);
  if (headVars.size === 0) return undefined;
  // the head's vars in an array, those found bound dropped in place (no set shrunk per var)
  const unbound = Array.from(headVars);
  let left = unbound.length;
  // the vars found bound, dropped from `unbound` after each step
  const scratch = new Set<string>();
  if (h.args) {
    for (let i = 0; i < h.args.length; i++) headTermVars(h.args[i]!, scratch);
    left = dropBound(unbound, left, scratch);
  }
  for (let i = body.length - 1; i >= 0 && left > 0; i--) {
    // the vars an expression's own terms are (most often the one binding a head value: `__localN__
    // = ...`, last) dropped first: when that drops them all, the expression's inner terms are not
    // walked. The full walk drops a superset of these, so what is left is the same.
    left = dropTopVars(body[i]!, unbound, left);
    if (left === 0) break;
    varsOf(body[i]!, SAFETY_PARAMS, scratch);
    left = dropBound(unbound, left, scratch);
  }
  if (left === 0) return undefined;
  unbound.length = left;
  return new Set(unbound);
}

/** Adds a head term's vars (varsOf's, in its order); after RewriteRefsInHead, head terms are
 * nearly all vars and scalars, taken without a walker. */
function headTermVars(t: Term, into: Set<string>): void {
  if (t.type === "var") into.add(t.value);
  else if (!isScalar(t)) varsOf(t, ALL_VARS, into);
}

/** Drops from vs[0:n] (keeping the order of the rest) the vars that are an expression's own
 * terms; returns how many are left. Each of these is among the expression's safety vars. */
function dropTopVars(e: Expr, vs: string[], n: number): number {
  const ts = e.terms;
  if (!Array.isArray(ts)) return n;
  for (let j = 1; j < ts.length; j++) {
    const t = ts[j]!;
    if (t.type !== "var") continue;
    const at = vs.indexOf(t.value);
    if (at < 0 || at >= n) continue;
    vs.copyWithin(at, at + 1, n);
    n--;
  }
  return n;
}

/** Drops the vars in `scratch` from vs[0:n] (keeping the order of the rest), empties `scratch`;
 * returns how many are left. */
function dropBound(vs: string[], n: number, scratch: Set<string>): number {
  if (scratch.size === 0) return n;
  let k = 0;
  for (let i = 0; i < n; i++) if (!scratch.has(vs[i]!)) vs[k++] = vs[i]!;
  scratch.clear();
  return k;
}

export function checkSafetyRuleHeads(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        if (!headMayHaveVars(r)) continue;
        const h = r.head;
        const unbound = unboundHeadVars(h, r.body);
        if (!unbound) continue;
        const terms = [...h.reference.slice(1), ...(h.args ?? []), ...(h.key ? [h.key] : []), ...(h.value ? [h.value] : [])];
        const seen = new Set<string>();
        for (const t of terms) {
          walkTerms(t, (x) => {
            if (x.type !== "var" || !unbound.has(x.value) || seen.has(x.value)) return false;
            seen.add(x.value);
            const v = ctx.rewrittenVars.get(x.value) ?? x.value;
            if (!isGenerated(v)) ctx.err("rego_unsafe_var_error", `var ${v.startsWith("$") ? "_" : v} is unsafe${ruleSuffix(m, top)}`, x.location);
            return false;
          });
        }
      }
    }
  }
}

/** The globals of a body without arguments (shared: the reordering only reads its globals). */
const RESERVED_SET: ReadonlySet<string> = new Set(RESERVED);

export function checkSafetyRuleBodies(ctx: CompileContext): void {
  const arity: Arity = (ref) => ctx.getArity(ref);
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        const args = r.head.args;
        const globals = args && args.length > 0 ? varsOfTerms(args, ALL_VARS, new Set(RESERVED)) : RESERVED_SET;
        const { body, unsafe } = reorderBodyForSafety(arity, globals, r.body, ctx.mayHoldClosureTerms(r));
        if (unsafe.size > 0) reportUnsafe(ctx, unsafe, [ctx.rewrittenVars], ruleSuffix(m, top));
        else r.body = body;
      }
    }
  }
}

export function checkSafetyQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  const { body, unsafe } = reorderBodyForSafety((ref) => ctx.getArity(ref), RESERVED_SET, q.body);
  if (unsafe.size > 0) reportUnsafe(ctx, unsafe, [q.rewritten, ctx.rewrittenVars]);
  else q.body = body;
}
