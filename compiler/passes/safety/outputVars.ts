// Which variables an expression binds ("output vars"), given the variables already bound: the
// core of OPA's safety analysis (unify.go and outputVarsFor* in compile.go), shared by the safety
// check, `some ... in` declarations, and print and template-string checks.
import type { Body, Expr, Ref, Term } from "../../ast/nodes.js";
import { keyOf } from "../../ast/compare.js";
import { isEquality, isGround, validEqAssignArgCount } from "../../ast/terms.js";
import { ScopedVars, type VarLookup, type VarSet } from "./scopedVars.js";
import { NameList, NO_NAMES } from "./nameList.js";
import { isGenerated, SAFETY_PARAMS, varsOf, varsOfTerms, varsOfTermsFrom, Walker, type VarParams, type VarSink } from "../../ast/visit.js";
import { assertNever } from "../../../runtime/errors.js";

export type Arity = (ref: Ref) => number;

const ALL_SAFE_PARAMS: VarParams = { skipRefHead: true, skipObjectKeys: true, skipClosures: true };
const CALL_PARAMS: VarParams = { skipClosures: true, skipSets: true, skipObjectKeys: true, skipRefHead: true };

function subsetOf(vs: Set<string>, safe: VarLookup): boolean {
  for (const v of vs) if (!safe.has(v)) return false;
  return true;
}

export function isRefSafe(ref: Ref, safe: VarLookup): boolean {
  const head = ref[0]!;
  if (head.type === "var") return safe.has(head.value);
  return subsetOf(varsOf(head, SAFETY_PARAMS), safe);
}

function isCallSafe(call: Term, safe: VarLookup): boolean {
  return subsetOf(varsOf(call, SAFETY_PARAMS), safe);
}

// A class rather than closures: it runs for every equality of every body the safety analysis
// orders, several times over (hot, see bench/frontend.bench.ts). One instance per equality; it is
// its own view of what is known safe.
class Unifier implements VarLookup {
  /** The vars the unification binds, in the order found. */
  readonly unified = new NameList();
  /** Vars waiting for others to be safe (made at the first: most unifications have none). */
  private unknown: Map<string, Set<string>> | undefined;

  /** `safe`, and `walked`'s names when given, are known safe before the unification. */
  constructor(
    private readonly safeVars: VarLookup,
    private readonly walked: NameList | undefined,
  ) {}

  /** Unifies `a` with `b`: the vars bound are then in `unified`. */
  run(a: Term, b: Term): void {
    this.rec(a, b);
    this.unknown = undefined;
  }

  /** Known safe before the unification. */
  has(x: string): boolean {
    return this.safeVars.has(x) || (this.walked !== undefined && this.walked.has(x));
  }

  private isSafe(x: string): boolean {
    return this.has(x) || this.unified.has(x);
  }

  private markSafe(x: string): void {
    const unknown = this.unknown;
    this.unified.add(x);
    if (!unknown || unknown.size === 0) return;
    const deps = unknown.get(x);
    unknown.delete(x);
    if (deps) for (const v of deps) this.markSafe(v);
    for (const [v, d] of [...unknown]) {
      if (d.has(x)) {
        d.delete(x);
        if (d.size === 0 && unknown.has(v)) {
          unknown.delete(v);
          this.markSafe(v);
        }
      }
    }
  }

  private markUnknown(x: string, y: string): void {
    const unknown = (this.unknown ??= new Map());
    let s = unknown.get(x);
    if (!s) unknown.set(x, (s = new Set()));
    s.add(y);
  }

  private markAllSafe(t: Term): void {
    for (const v of varsOf(t, ALL_SAFE_PARAMS)) this.markSafe(v);
  }

  private unifyAll(x: string, t: Term): void {
    if (this.isSafe(x)) {
      this.markAllSafe(t);
      return;
    }
    const vs = [...varsOf(t, ALL_SAFE_PARAMS)].filter((v) => !this.has(v) && !this.unified.has(v));
    if (vs.length === 0) this.markSafe(x);
    else for (const v of vs) this.markUnknown(x, v);
  }

  private rec(a: Term, b: Term): void {
    const safe: VarLookup = this;
    switch (a.type) {
      case "var":
        switch (b.type) {
          case "var":
            if (this.isSafe(b.value)) this.markSafe(a.value);
            else if (this.isSafe(a.value)) this.markSafe(b.value);
            else {
              this.markUnknown(a.value, b.value);
              this.markUnknown(b.value, a.value);
            }
            return;
          case "array":
          case "object":
            return this.unifyAll(a.value, b);
          case "ref":
            if (isRefSafe(b.value, safe)) this.markSafe(a.value);
            return;
          case "call":
            if (isCallSafe(b, safe)) this.markSafe(a.value);
            return;
          case "string":
          case "number":
          case "boolean":
          case "null":
          case "set":
          case "arraycomprehension":
          case "setcomprehension":
          case "objectcomprehension":
          case "templatestring":
            this.markSafe(a.value);
            return;
          default:
            assertNever(b);
        }
      case "ref":
        if (isRefSafe(a.value, safe)) {
          if (b.type === "var") this.markSafe(b.value);
          else if (b.type === "array" || b.type === "object") this.markAllSafe(b);
        }
        return;
      case "call":
        if (isCallSafe(a, safe)) {
          if (b.type === "var") this.markSafe(b.value);
          else if (b.type === "array" || b.type === "object") this.markAllSafe(b);
        }
        return;
      case "arraycomprehension":
        if (b.type === "var") this.markSafe(b.value);
        else if (b.type === "array") this.markAllSafe(b);
        return;
      case "objectcomprehension":
        if (b.type === "var") this.markSafe(b.value);
        else if (b.type === "object") this.markAllSafe(b);
        return;
      case "setcomprehension":
        if (b.type === "var") this.markSafe(b.value);
        return;
      case "array":
        switch (b.type) {
          case "var":
            return this.unifyAll(b.value, a);
          case "arraycomprehension":
          case "objectcomprehension":
          case "setcomprehension":
            return this.markAllSafe(a);
          case "ref":
            if (isRefSafe(b.value, safe)) this.markAllSafe(a);
            return;
          case "call":
            if (isCallSafe(b, safe)) this.markAllSafe(a);
            return;
          case "array":
            if (a.value.length === b.value.length) for (let i = 0; i < a.value.length; i++) this.rec(a.value[i]!, b.value[i]!);
            return;
          case "string":
          case "number":
          case "boolean":
          case "object":
          case "null":
          case "set":
          case "templatestring":
            return;
          default:
            assertNever(b);
        }
      case "object":
        switch (b.type) {
          case "var":
            return this.unifyAll(b.value, a);
          case "ref":
            if (isRefSafe(b.value, safe)) this.markAllSafe(a);
            return;
          case "call":
            if (isCallSafe(b, safe)) this.markAllSafe(a);
            return;
          case "object":
            if (a.value.length === b.value.length) this.recObjects(a.value, b.value);
            return;
          case "string":
          case "number":
          case "boolean":
          case "null":
          case "array":
          case "set":
          case "arraycomprehension":
          case "setcomprehension":
          case "objectcomprehension":
          case "templatestring":
            return;
          default:
            assertNever(b);
        }
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "set":
      case "templatestring":
        if (b.type === "var") this.markSafe(b.value);
        return;
      default:
        assertNever(a);
    }
  }

  private recObjects(a: [Term, Term][], b: [Term, Term][]): void {
    const values = new Map<string, Term>();
    for (const [k, v] of b) {
      const key = keyOf(k);
      if (!values.has(key)) values.set(key, v);
    }
    for (const [k, v] of a) {
      const other = values.get(keyOf(k));
      if (other) this.rec(v, other);
    }
  }
}

/** Variables a term-level walk binds (non-ground refs whose head is safe bind their vars), in a
 * new list. (every: the walk descends into the body; OPA's does too, but those vars are local.) */
function refOutputs(node: Expr | Term, safe: VarLookup): NameList {
  const w = new RefOutputs(safe);
  if (node.type === "expr") w.expr(node);
  else w.term(node);
  return w.out;
}

const SKIP_REF_HEAD: VarParams = { skipRefHead: true };

class RefOutputs extends Walker {
  readonly out = new NameList();
  constructor(private readonly safe: VarLookup) {
    super();
  }
  expr(e: Expr): void {
    this.parts(e, true);
  }
  term(t: Term): void {
    switch (t.type) {
      case "ref":
        if (!isRefSafe(t.value, this.safe)) return;
        if (!isGround(t)) varsOfTermsFrom(t.value, 1, SKIP_REF_HEAD, this.out);
        return this.children(t);
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
      case "templatestring":
        // closures bind nothing outside
        return;
      case "string":
      case "number":
      case "boolean":
      case "object":
      case "null":
      case "var":
      case "array":
      case "set":
      case "call":
        return this.children(t);
      default:
        assertNever(t);
    }
  }
}

/** The variables an equality binds, given `safe`, distinct and in the order found (a new array,
 * or a shared empty one: read only). */
export function outputVarsForExprEq(e: Expr & { terms: Term[] }, safe: VarSet): readonly string[] {
  if (!validEqAssignArgCount(e)) return [...safe];
  // the term walk's vars and `safe` are known to unify (a view: `safe` can be the whole body's)
  const walked = refOutputs(e, safe);
  const unifier = new Unifier(safe, walked.n > 0 ? walked : undefined);
  unifier.run(e.terms[1]!, e.terms[2]!);
  const unified = unifier.unified;
  // `:=` binds its left side from its right side, never the other way
  let rhs: Set<string> | undefined;
  if (unified.n > 0 && e.assigned === true) rhs = varsOf(e.terms[2]!);
  if (walked.n === 0) {
    // (the unifier's names are the output: the same names in the same order)
    if (rhs) unified.remove(rhs);
    unified.remove(safe);
    return unified.take();
  }
  // the walk's names, then the unifier's not yet among them (but none from the right of `:=`)
  for (let i = 0; i < unified.n; i++) if (!rhs?.has(unified.at(i))) walked.add(unified.at(i));
  walked.remove(safe);
  return walked.take();
}

/** The variables an expression binds, given `safe`, distinct and in the order found (read only:
 * it may be shared). */
export function outputVarsForExpr(e: Expr, arity: Arity, safe: VarSet): readonly string[] {
  if (e.negated) return NO_NAMES;
  const ws = e.with;
  for (let i = 0; i < ws.length; i++) {
    if (!subsetOf(varsOf(ws[i]!, SAFETY_PARAMS), safe)) return NO_NAMES;
  }
  const ts = e.terms;
  if (Array.isArray(ts)) {
    if (isEquality(e)) return outputVarsForExprEq(e, safe);
    const op = ts[0]!;
    if (op.type !== "ref") return NO_NAMES;
    const ar = arity(op.value);
    if (ar < 0) return NO_NAMES;
    const walked = refOutputs(e, safe);
    const numInputs = ar + 1;
    if (numInputs >= ts.length) return walked.take();
    // the call's inputs must all be bound for its outputs to be
    const inputs = new Set<string>();
    for (let i = 0; i < numInputs; i++) varsOf(ts[i]!, CALL_PARAMS, inputs);
    for (const v of inputs) if (!walked.has(v) && !safe.has(v)) return NO_NAMES;
    return varsOfTermsFrom(ts, numInputs, CALL_PARAMS, walked).take();
  }
  switch (ts.type) {
    case "every":
      return refOutputs(ts.domain, safe).take();
    case "some":
    case "and":
    case "or":
    case "not":
      return NO_NAMES;
    case "string":
    case "number":
    case "boolean":
    case "object":
    case "null":
    case "var":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return refOutputs(e, safe).take();
    default:
      assertNever(ts);
  }
}

export function outputVarsForBody(body: Body, arity: Arity, safe: VarSet): Set<string> {
  const o = new Set(safe);
  for (const e of body) addAll(o, outputVarsForExpr(e, arity, o));
  for (const v of safe) o.delete(v);
  return o;
}

/** Adds names to a set. */
export function addAll(into: VarSink, vs: readonly string[]): void {
  for (let i = 0; i < vs.length; i++) into.add(vs[i]!);
}

/** The variables known before an expression of a body: the globals, what the expressions before
 * it bind (OPA's output vars) and the compiler's temporaries they mention. */
export class KnownVars implements VarSet {
  private readonly bound: ScopedVars;
  private readonly generated = new Set<string>();
  constructor(
    globals: VarSet,
    private readonly arity: Arity,
  ) {
    this.bound = new ScopedVars(globals);
  }

  after(e: Expr): void {
    addAll(this.bound, outputVarsForExpr(e, this.arity, this.bound));
    for (const v of varsOf(e)) if (isGenerated(v)) this.generated.add(v);
  }

  has(v: string): boolean {
    return this.bound.has(v) || this.generated.has(v);
  }

  *[Symbol.iterator](): Iterator<string> {
    yield* this.bound;
    for (const v of this.generated) if (!this.bound.has(v)) yield v;
  }
}
