// The safety analysis' reordering of a body (OPA's reorderBodyForSafety): expressions keep their
// order unless they must wait for variables bound later; what can never be bound is returned as
// unsafe, by expression. Closures (comprehensions, `every`, `and`/`or`/`not` groups) are then
// reordered with the variables bound before them.
//
// It runs for every body of every rule and query, so its state is kept in arrays indexed by the
// expression's position (no map or set per expression), and the map of unsafe expressions is
// made only when something is unsafe.
import type { Body, Expr, NodeLocation, Term } from "../../ast/nodes.js";
import { addAll, outputVarsForBody, outputVarsForExpr, type Arity } from "./outputVars.js";
import { ScopedVars, type VarSet } from "./scopedVars.js";
import { NameList } from "./nameList.js";
import { ALL_VARS, isGenerated, SAFETY_PARAMS, varsOf, varsOfTerms } from "../../ast/visit.js";
import { assertNever } from "../../../runtime/errors.js";

/** The vars each expression left unsafe, in the order the expressions were found unsafe. */
export type Unsafe = ReadonlyMap<Expr, Set<string>>;

/** The result for a body with nothing unsafe (shared: callers only read it). */
const NO_UNSAFE: Unsafe = new Map();
const NO_TERM_VARS: ReadonlySet<string> = new Set();
/** Not yet known to be unsafe: its vars were not all safe from the start. */
const PENDING = 1;
/** Placed in the new order (and not unsafe). */
const PLACED = 2;
type State = Set<string> | typeof PENDING | typeof PLACED | undefined;

/** The safety vars of `e`, collected in `sink` (empty, and left empty). */
function varList(e: Expr, sink: NameList): string[] {
  varsOf(e, SAFETY_PARAMS, sink);
  return sink.take() as string[];
}

/** Unsafe vars by expression, the map made at the first one. */
class UnsafeSink {
  map: Map<Expr, Set<string>> | undefined;
  constructor(map: Map<Expr, Set<string>> | undefined) {
    this.map = map;
  }
  add(e: Expr, v: string): void {
    const m = (this.map ??= new Map());
    let s = m.get(e);
    if (!s) m.set(e, (s = new Set()));
    s.add(v);
  }
  addAll(u: Unsafe): void {
    for (const [e, vs] of u) for (const v of vs) this.add(e, v);
  }
}

/** Reorders a body for safety; returns the new order and what stayed unsafe. `closureTerms` is
 * false when the body is known to hold no comprehensions or template strings (facts.ts). */
export function reorderBodyForSafety(arity: Arity, globals: VarSet, body: Body, closureTerms = true): { body: Body; unsafe: Unsafe } {
  const n = body.length;
  // each expression's vars, walked once (the closures pass below needs them again); the vars
  // safe from the start are the globals among them
  const vars: string[][] = new Array(n);
  // the vars found safe so far (a NameList: a body's vars are a handful)
  const safe = new NameList();
  const sink = new NameList();
  for (let i = 0; i < n; i++) {
    const vs = varList(body[i]!, sink);
    vars[i] = vs;
    for (let j = 0; j < vs.length; j++) if (globals.has(vs[j]!)) safe.add(vs[j]!);
  }
  // An expression's state: PENDING when some var is not safe from the start (made into a set
  // of the unsafe ones only when it cannot be placed at once; most can), the set, or PLACED.
  // The entries are ordered as a map's insertion order would order them (the errors follow it):
  // by position, but an entry made later (for closure vars) comes after all others; `order`
  // numbers them, made only then.
  const state: State[] = new Array(n);
  let order: number[] | undefined;
  let appended = 0;
  for (let i = 0; i < n; i++) {
    const vs = vars[i]!;
    for (let j = 0; j < vs.length; j++) {
      if (!safe.has(vs[j]!)) {
        state[i] = PENDING;
        break;
      }
    }
  }
  // the closures of each expression: which hold any, and their vars that the body binds
  let withClosures: boolean[] | undefined;
  let closureVars: (string[] | undefined)[] | undefined;
  let closureTermsAt: (Term[] | undefined)[] | undefined;
  let bodyVars: Set<string> | undefined;
  for (let i = 0; i < n; i++) {
    const e = body[i]!;
    const group = hasClosureBody(e);
    if (!closureTerms && !group) continue;
    const terms = group ? undefined : closureTermsOf(e);
    if (!group && !terms) continue;
    (withClosures ??= new Array(n).fill(false))[i] = true;
    if (terms) (closureTermsAt ??= new Array(n))[i] = terms;
    const inClosures = group ? varsInClosureBody(e) : varsOfClosureTerms(terms!);
    if (!bodyVars) {
      bodyVars = new Set();
      for (let k = 0; k < n; k++) addAll(bodyVars, vars[k]!);
    }
    let cv: string[] | undefined;
    for (const v of inClosures) if (bodyVars.has(v) && !globals.has(v)) (cv ??= []).push(v);
    if (cv) (closureVars ??= new Array(n))[i] = cv;
  }

  // the new order: body[placedAt[k]] for k < placed; placedAt is made at the first expression
  // placed out of its position (until then, and in most bodies, the k-th placed is body[k])
  let placedAt: number[] | undefined;
  let placed = 0;
  // what `reordered` binds; recomputed only when it grows (safe grows with it), and only when it
  // could matter: when a closure var occurs in `reordered` (all its vars: `placedVars`) and is
  // not safe yet — recomputing it for every closure would make long bodies quadratic
  let ob: ReadonlySet<string> | undefined;
  let obLength = -1;
  const placedVars = closureVars ? new Set<string>() : undefined;
  for (;;) {
    const before = placed;
    for (let i = 0; i < n; i++) {
      let u = state[i];
      if (u === PLACED) continue;
      const e = body[i]!;
      const ovs = outputVarsForExpr(e, arity, safe);
      const cv = closureVars?.[i];
      if (cv) {
        if (obLength !== placed && someUnsafePlaced(cv, placedVars!, safe)) {
          ob = outputVarsForBody(placedExprs(body, placedAt, placed), arity, safe);
          obLength = placed;
        }
        let uv: Set<string> | undefined;
        for (let j = 0; j < cv.length; j++) if (obLength !== placed || !ob!.has(cv[j]!)) (uv ??= new Set()).add(cv[j]!);
        if (uv) {
          if (uv.size === ovs.length && allIn(uv, ovs)) continue;
          if (u === undefined) (order ??= positions(n))[i] = n + appended++;
          state[i] = u = uv;
        }
      }
      if (u === PENDING) {
        // the vars not safe from the start, less those now safe or bound by the expression
        // (`safe` holds what was safe from the start)
        let made: Set<string> | undefined;
        const vs = vars[i]!;
        for (let j = 0; j < vs.length; j++) if (!safe.has(vs[j]!) && !ovs.includes(vs[j]!)) (made ??= new Set()).add(vs[j]!);
        if (made) state[i] = made;
        u = made;
      } else if (u) {
        // (deleting the element a Set iteration is at is allowed: no copy needed)
        for (const v of u) if (safe.has(v) || ovs.includes(v)) u.delete(v);
      }
      if (!u || u.size === 0) {
        state[i] = PLACED;
        if (!placedAt && i !== placed) placedAt = positions(n);
        if (placedAt) placedAt[placed] = i;
        placed++;
        addAll(safe, ovs);
        // (only read for closure vars: without any, the walk is saved)
        if (placedVars) varsOf(e, ALL_VARS, placedVars);
      }
    }
    if (placed === before) break;
  }
  const found = placed === n ? undefined : unsafeMap(body, state, order, vars, globals);
  // (the sink, which closures add to, made only for a body with closures)
  if (!withClosures) return { body: placedExprs(body, placedAt, placed), unsafe: found ?? NO_UNSAFE };
  const unsafe = new UnsafeSink(found);

  // closures: their bodies are checked with the variables bound before them
  {
    const g = new ScopedVars(globals);
    const lastVars = vars[n - 1]!;
    for (let k = 0; k < placed; k++) {
      if (k === 1) addAll(g, lastVars);
      if (k > 0) addAll(g, vars[placedAt ? placedAt[k - 1]! : k - 1]!);
      const i = placedAt ? placedAt[k]! : k;
      if (withClosures[i]) reorderClosures(arity, g, unsafe, body[i]!, closureTermsAt?.[i]);
    }
  }
  return { body: placedExprs(body, placedAt, placed), unsafe: unsafe.map ?? NO_UNSAFE };
}

/** The placed expressions in their new order: the body itself when none moved and all were
 * placed (the common case: no copy made). */
function placedExprs(body: Body, placedAt: number[] | undefined, placed: number): Body {
  if (!placedAt) return placed === body.length ? body : body.slice(0, placed);
  const out: Body = new Array(placed);
  for (let k = 0; k < placed; k++) out[k] = body[placedAt[k]!]!;
  return out;
}

function positions(n: number): number[] {
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** The unsafe expressions' map, in the order they were found unsafe. An expression skipped on
 * every pass still holds its first state: all its vars but the globals. */
function unsafeMap(body: Body, state: State[], order: number[] | undefined, vars: string[][], globals: VarSet): Map<Expr, Set<string>> | undefined {
  const at: number[] = [];
  for (let i = 0; i < state.length; i++) if (state[i] !== undefined && state[i] !== PLACED) at.push(i);
  if (at.length === 0) return undefined;
  if (order) at.sort((a, b) => order[a]! - order[b]!);
  const m = new Map<Expr, Set<string>>();
  for (const i of at) {
    let u = state[i]!;
    if (u === PENDING) {
      u = new Set();
      for (const v of vars[i]!) if (!globals.has(v)) u.add(v);
    }
    m.set(body[i]!, u as Set<string>);
  }
  return m;
}

/** Whether an expression is itself a closure (`every`) or a group (`and`/`or`/`not`). */
function hasClosureBody(e: Expr): boolean {
  const ts = e.terms;
  return !Array.isArray(ts) && (ts.type === "every" || ts.type === "and" || ts.type === "or" || ts.type === "not");
}

function someUnsafePlaced(cv: string[], placedVars: Set<string>, safe: NameList): boolean {
  for (let i = 0; i < cv.length; i++) if (placedVars.has(cv[i]!) && !safe.has(cv[i]!)) return true;
  return false;
}

function allIn(a: Set<string>, b: readonly string[]): boolean {
  for (const v of a) if (!b.includes(v)) return false;
  return true;
}

/** Variables inside the body of an `every` or a group. */
function varsInClosureBody(e: Expr): Set<string> {
  const vs = new Set<string>();
  const ts = e.terms as Exclude<Expr["terms"], Term[]>;
  if (ts.type === "every" || ts.type === "not") varsOf(ts.body, ALL_VARS, vs);
  else if (ts.type === "and" || ts.type === "or") {
    varsOf(ts.lhs, ALL_VARS, vs);
    varsOf(ts.rhs, ALL_VARS, vs);
  }
  return vs;
}

function varsOfClosureTerms(terms: Term[]): Set<string> {
  const vs = new Set<string>();
  for (const t of terms) varsOf(t, ALL_VARS, vs);
  return vs;
}

/** The closure terms (comprehensions, template strings; outermost only) of an expression that
 * is not a closure or group itself, in order; undefined when there are none. */
function closureTermsOf(e: Expr): Term[] | undefined {
  const out: Term[] = [];
  const ts = e.terms;
  if (Array.isArray(ts)) closureTermsOfTerms(ts, out);
  else if (ts.type === "some") closureTermsOfTerms(ts.symbols, out);
  else if (ts.type === "every") closureTermsIn(ts.domain, out);
  else if (ts.type !== "and" && ts.type !== "or" && ts.type !== "not") closureTermsIn(ts as Term, out);
  const ws = e.with;
  for (let i = 0; i < ws.length; i++) {
    closureTermsIn(ws[i]!.target, out);
    closureTermsIn(ws[i]!.value, out);
  }
  return out.length > 0 ? out : undefined;
}

function closureTermsIn(t: Term, out: Term[]): void {
  switch (t.type) {
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      out.push(t);
      return;
    case "ref":
    case "array":
    case "set":
    case "call":
      closureTermsOfTerms(t.value, out);
      return;
    case "object": {
      const kvs = t.value;
      for (let i = 0; i < kvs.length; i++) {
        closureTermsIn(kvs[i]![0], out);
        closureTermsIn(kvs[i]![1], out);
      }
      return;
    }
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
      return;
    default:
      assertNever(t);
  }
}

// (indexed loops here and in the reordering: hot, see bench/frontend.bench.ts)
function closureTermsOfTerms(ts: Term[], out: Term[]): void {
  for (let i = 0; i < ts.length; i++) closureTermsIn(ts[i]!, out);
}

/** Reorders the closures of `current` (its closure terms, when it is not a closure itself). */
function reorderClosures(arity: Arity, g: ScopedVars, unsafe: UnsafeSink, current: Expr, terms: Term[] | undefined): void {
  const ts = current.terms;
  if (!Array.isArray(ts) && ts.type === "every") {
    if (ts.key?.type === "var") g.add(ts.key.value);
    if (ts.value.type === "var") g.add(ts.value.value);
    ts.body = reorderNested(arity, g, unsafe, current, NO_TERM_VARS, ts.body);
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
  for (const t of terms ?? []) {
    if (t.type === "arraycomprehension" || t.type === "setcomprehension") {
      t.value.body = reorderNested(arity, g, unsafe, current, varsOf(t.value.term), t.value.body);
    } else if (t.type === "objectcomprehension") {
      t.value.body = reorderNested(arity, g, unsafe, current, varsOfTerms([t.value.key, t.value.value]), t.value.body);
    }
  }
}

/** A closure body of `current` (comprehension, every), reordered if it can be made safe. */
function reorderNested(arity: Arity, g: ScopedVars, unsafe: UnsafeSink, current: Expr, termVars: ReadonlySet<string>, body: Body): Body {
  if (termVars.size > 0) {
    const bv = new Set<string>();
    varsOf(body, SAFETY_PARAMS, bv);
    for (const v of termVars) if (!bv.has(v) && !g.has(v)) unsafe.add(current, v);
  }
  const r = reorderBodyForSafety(arity, g, body);
  if (r.unsafe.size === 0) return r.body;
  unsafe.addAll(r.unsafe);
  return body;
}

/** An `and`/`or`/`not` operand: an explicit `{ ... }` operand is a body of its own; an implicit
 * one is a condition that binds nothing. What stays unsafe is reported at the innermost
 * expression holding a group (OPA: a statement that is a group is at its parenthesis). */
function reorderOperand(arity: Arity, g: ScopedVars, unsafe: UnsafeSink, group: Expr, body: Body, explicit: boolean): Body {
  let globals: ScopedVars = g;
  if (!explicit) {
    // only the compiler's own temporaries may be bound inside an implicit operand
    const at = groupExpr(group);
    globals = new ScopedVars(g);
    const vs = new Set<string>();
    varsOf(body, SAFETY_PARAMS, vs);
    for (const v of vs) {
      if (g.has(v) || isGenerated(v)) continue;
      unsafe.add(at, v);
      globals.add(v);
    }
  }
  const r = reorderBodyForSafety(arity, globals, body);
  if (r.unsafe.size === 0) return r.body;
  unsafe.addAll(r.unsafe);
  return body;
}

/** A cache, keyed by the group's identity: a stand-in for the expression holding an
 * `and`/`or`/`not` group, so that the group's unsafe vars are reported at that expression. */
const groupExprs = new WeakMap<object, Expr>();
function groupExpr(group: { location: NodeLocation }): Expr {
  let e = groupExprs.get(group);
  if (!e) groupExprs.set(group, (e = { type: "expr", index: 0, terms: [], negated: false, with: [], generated: false, location: group.location }));
  return e;
}
