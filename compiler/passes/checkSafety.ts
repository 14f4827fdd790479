// CheckSafetyRuleHeads and CheckSafetyRuleBodies: every variable must be bound before it is used
// in a position that cannot bind it (negation, built-in inputs, closures). Bodies are reordered
// so that left-to-right evaluation binds variables first (stable: expressions keep their order
// unless they must wait); what can never be bound is reported ("var x is unsafe").
import type { Body, Expr, Module, NodeLocation, Rule, Term } from "../ast/nodes.js";
import { refString } from "./terms.js";
import type { CompileContext } from "./context.js";
import { outputVarsForBody, outputVarsForExpr, type Arity } from "./outputVars.js";
import { ScopedVars, type VarSet } from "./scopedVars.js";
import { headMayHaveVars } from "./rewriteLocalVars.js";
import { isGenerated, SAFETY_PARAMS, varsOf, varsOfTerms, walkTerms } from "./visit.js";

const RESERVED = ["input", "data"];
const FUTURE_KEYWORDS = new Set(["in", "every", "contains", "if"]);

type Unsafe = Map<Expr, Set<string>>;

function addUnsafe(u: Unsafe, e: Expr, v: string): void {
  let s = u.get(e);
  if (!s) u.set(e, (s = new Set()));
  s.add(v);
}

/** Reorders a body for safety; returns the new order and what stayed unsafe. `closureTerms` is
 * false when the body is known to hold no comprehensions or template strings (facts.ts). */
export function reorderBodyForSafety(arity: Arity, globals: VarSet, body: Body, closureTerms = true): { body: Body; unsafe: Unsafe } {
  // each expression's vars, walked once (the closures pass below needs them again)
  const exprVars = new Map<Expr, Set<string>>();
  const bodyVars = new Set<string>();
  for (const e of body) {
    const vs = varsOf(e, SAFETY_PARAMS);
    exprVars.set(e, vs);
    for (const v of vs) bodyVars.add(v);
  }
  const safe = new Set<string>();
  for (const v of bodyVars) if (globals.has(v)) safe.add(v);
  // An expression's unsafe vars: at first those not safe from the start, kept as PENDING (the
  // entry holds its place in the map's order, which the errors' order follows) and made into a
  // set only when the expression cannot be placed at once; most can, and no set is made.
  const pending: Map<Expr, Set<string> | typeof PENDING> = new Map();
  const unsafe = pending as Unsafe;
  let lastVars = EMPTY;
  for (const e of body) {
    lastVars = exprVars.get(e)!;
    for (const v of lastVars) {
      if (!safe.has(v)) {
        pending.set(e, PENDING);
        break;
      }
    }
  }
  const reordered: Body = [];
  const placed = new Set<Expr>();
  // what `reordered` binds; recomputed only when it grows (safe grows with it), and only when it
  // could matter: when a closure var occurs in `reordered` (all its vars: `placedVars`) and is
  // not safe yet — recomputing it for every closure would make long bodies quadratic
  let ob: Set<string> | undefined;
  let obLength = -1;
  const placedVars = new Set<string>();
  const closureVars = new Map<Expr, string[]>();
  for (const e of body) {
    if (!closureTerms && !hasClosureBody(e)) continue;
    const cv: string[] = [];
    for (const v of varsInClosures(e)) if (bodyVars.has(v) && !globals.has(v)) cv.push(v);
    if (cv.length > 0) closureVars.set(e, cv);
  }
  for (;;) {
    const n = reordered.length;
    for (const e of body) {
      if (placed.has(e)) continue;
      const ovs = outputVarsForExpr(e, arity, safe);
      const cv = closureVars.get(e);
      if (cv) {
        if (obLength !== reordered.length && someUnsafePlaced(cv, placedVars, safe)) {
          ob = outputVarsForBody(reordered, arity, safe);
          obLength = reordered.length;
        }
        const uv = new Set<string>();
        for (const v of cv) if (obLength !== reordered.length || !ob!.has(v)) uv.add(v);
        if (uv.size > 0) {
          if (uv.size === ovs.size && allIn(uv, ovs)) continue;
          unsafe.set(e, uv);
        }
      }
      let u = pending.get(e);
      if (u === PENDING) {
        // the vars not safe from the start, less those now safe or bound by the expression
        // (`safe` holds what was safe from the start)
        let made: Set<string> | undefined;
        for (const v of exprVars.get(e)!) if (!ovs.has(v) && !safe.has(v)) (made ??= new Set()).add(v);
        if (made) pending.set(e, made);
        u = made;
      } else if (u) {
        // (deleting the element a Set iteration is at is allowed: no copy needed)
        for (const v of u) if (ovs.has(v) || safe.has(v)) u.delete(v);
      }
      if (!u || u.size === 0) {
        unsafe.delete(e);
        reordered.push(e);
        placed.add(e);
        for (const v of ovs) safe.add(v);
        // (only read for closure vars: without any, the walk is saved)
        if (closureVars.size > 0) varsOf(e, {}, placedVars);
      }
    }
    if (reordered.length === n) break;
  }
  // (an expression skipped on every pass still holds its first set)
  for (const [e, u] of pending) {
    if (u !== PENDING) continue;
    const vs = new Set<string>();
    for (const v of exprVars.get(e)!) if (!globals.has(v)) vs.add(v);
    pending.set(e, vs);
  }

  // closures: their bodies are checked with the variables bound before them
  if (!closureTerms && !body.some(hasClosureBody)) return { body: reordered, unsafe };
  const g = new ScopedVars(globals);
  for (let i = 0; i < reordered.length; i++) {
    const e = reordered[i]!;
    if (i === 1) for (const v of lastVars) g.add(v);
    if (i > 0) for (const v of exprVars.get(reordered[i - 1]!)!) g.add(v);
    if (closureTerms || hasClosureBody(e)) reorderClosures(arity, g, unsafe, e);
  }
  return { body: reordered, unsafe };
}

const EMPTY: ReadonlySet<string> = new Set();
const PENDING = Symbol("pending");

/** Whether an expression is itself a closure (`every`) or a group (`and`/`or`/`not`). */
function hasClosureBody(e: Expr): boolean {
  const ts = e.terms;
  return !Array.isArray(ts) && (ts.type === "every" || ts.type === "and" || ts.type === "or" || ts.type === "not");
}

function someUnsafePlaced(cv: string[], placedVars: Set<string>, safe: Set<string>): boolean {
  for (const v of cv) if (placedVars.has(v) && !safe.has(v)) return true;
  return false;
}

function allIn(a: Set<string>, b: Set<string>): boolean {
  for (const v of a) if (!b.has(v)) return false;
  return true;
}

/** Variables inside the closures of an expression (comprehensions, every bodies). */
function varsInClosures(e: Expr): Set<string> {
  const vs = new Set<string>();
  const ts = e.terms;
  if (!Array.isArray(ts) && ts.type === "every") {
    varsOf(ts.body, {}, vs);
    return vs;
  }
  if (!Array.isArray(ts) && (ts.type === "and" || ts.type === "or")) {
    varsOf(ts.lhs, {}, vs);
    varsOf(ts.rhs, {}, vs);
    return vs;
  }
  if (!Array.isArray(ts) && ts.type === "not") {
    varsOf(ts.body, {}, vs);
    return vs;
  }
  forEachClosureTerm(e, (t) => varsOf(t, {}, vs));
  return vs;
}

function forEachClosureTerm(e: Expr, f: (t: Term) => void): void {
  const ts = e.terms;
  if (Array.isArray(ts)) for (const t of ts) closureTermsIn(t, f);
  else if (ts.type === "some") for (const t of ts.symbols) closureTermsIn(t, f);
  else if (ts.type === "every") closureTermsIn(ts.domain, f);
  else if (ts.type !== "and" && ts.type !== "or" && ts.type !== "not") closureTermsIn(ts as Term, f);
  for (const w of e.with) {
    closureTermsIn(w.target, f);
    closureTermsIn(w.value, f);
  }
}

/** Calls f on the closures in a term, outermost only. */
function closureTermsIn(t: Term, f: (t: Term) => void): void {
  switch (t.type) {
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      f(t);
      return;
    case "ref":
    case "array":
    case "set":
    case "call":
      for (const x of t.value) closureTermsIn(x, f);
      return;
    case "object":
      for (const [k, v] of t.value) {
        closureTermsIn(k, f);
        closureTermsIn(v, f);
      }
      return;
    default:
      return;
  }
}

function reorderClosures(arity: Arity, g: ScopedVars, unsafe: Unsafe, current: Expr): void {
  const ts = current.terms;
  if (!Array.isArray(ts) && ts.type === "every") {
    if (ts.key?.type === "var") g.add(ts.key.value);
    if (ts.value.type === "var") g.add(ts.value.value);
    ts.body = reorderNested(arity, g, unsafe, current, new Set(), ts.body);
    return;
  }
  if (!Array.isArray(ts) && (ts.type === "and" || ts.type === "or")) {
    ts.lhs = reorderOperand(arity, g, unsafe, current, ts.lhs, ts.explicitLhs);
    ts.rhs = reorderOperand(arity, g, unsafe, current, ts.rhs, ts.explicitRhs);
    return;
  }
  if (!Array.isArray(ts) && ts.type === "not") {
    ts.body = reorderOperand(arity, g, unsafe, current, ts.body, ts.explicitBody);
    return;
  }
  forEachClosureTerm(current, (t) => {
    if (t.type === "arraycomprehension" || t.type === "setcomprehension") {
      t.value.body = reorderNested(arity, g, unsafe, current, varsOf(t.value.term), t.value.body);
    } else if (t.type === "objectcomprehension") {
      t.value.body = reorderNested(arity, g, unsafe, current, varsOfTerms([t.value.key, t.value.value]), t.value.body);
    }
  });
}

/** A closure body of `current` (comprehension, every), reordered if it can be made safe. */
function reorderNested(arity: Arity, g: ScopedVars, unsafe: Unsafe, current: Expr, termVars: Set<string>, body: Body): Body {
  const bv = varsOf(body, SAFETY_PARAMS);
  for (const v of termVars) if (!bv.has(v) && !g.has(v)) addUnsafe(unsafe, current, v);
  const r = reorderBodyForSafety(arity, g, body);
  if (r.unsafe.size === 0) return r.body;
  for (const [e, vs] of r.unsafe) for (const v of vs) addUnsafe(unsafe, e, v);
  return body;
}

/** An `and`/`or`/`not` operand: an explicit `{ ... }` operand is a body of its own; an implicit
 * one is a condition that binds nothing. What stays unsafe is reported at the innermost
 * expression holding a group (OPA: a statement that is a group is at its parenthesis). */
function reorderOperand(arity: Arity, g: ScopedVars, unsafe: Unsafe, group: Expr, body: Body, explicit: boolean): Body {
  let globals: ScopedVars = g;
  if (!explicit) {
    // only the compiler's own temporaries may be bound inside an implicit operand
    const at = groupExpr(group);
    globals = new ScopedVars(g);
    for (const v of varsOf(body, SAFETY_PARAMS)) {
      if (g.has(v) || isGenerated(v)) continue;
      addUnsafe(unsafe, at, v);
      globals.add(v);
    }
  }
  const r = reorderBodyForSafety(arity, globals, body);
  if (r.unsafe.size === 0) return r.body;
  for (const [e, vs] of r.unsafe) for (const v of vs) addUnsafe(unsafe, e, v);
  return body;
}

/** A stand-in for the expression holding an `and`/`or`/`not` group, so that the group's unsafe
 * vars are reported at that expression. */
const groupExprs = new WeakMap<object, Expr>();
function groupExpr(group: { location: NodeLocation }): Expr {
  let e = groupExprs.get(group);
  if (!e) groupExprs.set(group, (e = { type: "expr", index: 0, terms: [], negated: false, with: [], generated: false, location: group.location }));
  return e;
}

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
  const name = refString(rule.head.reference);
  if (!m.rules.some((r) => r !== rule && r.location.row === row && refString(r.head.reference) !== name)) return "";
  return ` in rule ${name}`;
}

/** The vars of a rule's head terms that neither the arguments nor the body (SAFETY_PARAMS)
 * bind. The body is searched from its end, and only until every head var is found: the
 * compiler's own bindings of head values come last, and walking whole bodies here was a cost. */
function unboundHeadVars(terms: Term[], args: Term[], body: Body): Set<string> {
  const unbound = varsOfTerms(terms);
  for (const v of varsOfTerms(args)) unbound.delete(v);
  for (let i = body.length - 1; i >= 0 && unbound.size > 0; i--) {
    for (const v of varsOf(body[i]!, SAFETY_PARAMS)) unbound.delete(v);
  }
  return unbound;
}

export function checkSafetyRuleHeads(ctx: CompileContext): void {
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        if (!headMayHaveVars(r)) continue;
        const h = r.head;
        const terms = [...h.reference.slice(1), ...(h.args ?? []), ...(h.key ? [h.key] : []), ...(h.value ? [h.value] : [])];
        const unbound = unboundHeadVars(terms, h.args ?? [], r.body);
        if (unbound.size === 0) continue;
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

export function checkSafetyRuleBodies(ctx: CompileContext): void {
  const arity: Arity = (ref) => ctx.getArity(ref);
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        const globals = new Set(RESERVED);
        varsOfTerms(r.head.args ?? [], {}, globals);
        const { body, unsafe } = reorderBodyForSafety(arity, globals, r.body, ctx.mayHoldClosureTerms(r));
        if (unsafe.size > 0) reportUnsafe(ctx, unsafe, [ctx.rewrittenVars], ruleSuffix(m, top));
        else r.body = body;
      }
    }
  }
}

export function checkSafetyQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  const { body, unsafe } = reorderBodyForSafety((ref) => ctx.getArity(ref), new Set(RESERVED), q.body);
  if (unsafe.size > 0) reportUnsafe(ctx, unsafe, [q.rewritten, ctx.rewrittenVars]);
  else q.body = body;
}
