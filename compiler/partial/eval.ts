// The partial evaluator: a backtracking evaluator in continuation-passing style over the compiled
// AST (OPA's topdown, v1/topdown/eval.go, in its partial mode). A term evaluates to a known value
// (the runtime's Value) or to a residual (`Res`: a term over unknown refs and generated vars).
// An expression whose operands are all known is evaluated (builtins through the runtime's
// registry); one with a residual operand is saved, its operands plugged. Rules and functions are
// inlined (one branch per body), unifications of a local with a residual bind the local instead
// of being saved (OPA's copy propagation, done as the residual is made; finished bodies get the
// rest of it). A rule with a default value or named in disableInlining that depends on an unknown
// becomes a support rule, as does a negation OPA would not inline (evalNot). Everything else that
// would need a residual this evaluator cannot write (comprehensions, `with`, `every` over
// unknowns, else chains, general ref heads) is a `pe_unsupported` error at the construct's location.
import type { Body, Every, Expr, Module, NodeLocation, Ref, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "../passes/context.js";
import type { TreeNode } from "../passes/analysis/ruleTree.js";
import { termToValue } from "../compile.js";
import { EvalContext } from "../../runtime/builtins/context.js";
import { getBuiltin, invokeBuiltin } from "../../runtime/builtins/registry.js";
import { dot, dotData, scanKey, scanValue, scanView } from "../../runtime/eval/ops.js";
import { equal } from "../../runtime/value/compare.js";
import { isNumber, numberText } from "../../runtime/value/number.js";
import { RegoObject, makeObject, objectEntries } from "../../runtime/value/object.js";
import { RegoSet } from "../../runtime/value/set.js";
import { isPlainObject, type Value } from "../../runtime/value/value.js";
import type { PartialResult } from "./index.js";
import { mapExprTerms } from "../ast/copy.js";
import { isConstant } from "../ast/terms.js";
import { compareTerms } from "../ast/compare.js";
import { walkTerms } from "../ast/visit.js";
import { builtinDecl } from "../builtins/decls.js";
import { conflictError, type ConflictKind } from "../../runtime/eval/errors.js";
import { unsupported } from "./errors.js";

/** A residual: a term over unknown refs and generated vars, already plugged. */
class Res {
  /** `seq`: the order residuals are made in (the evaluator's count): a negation tells those made
   * inside it from its caller's. */
  constructor(
    readonly term: Term,
    readonly seq: number,
  ) {}
}
type PV = Value | Res;
type K = () => void;

/** The vars of one rule body (or of the query); `suffix` renames its vars in residuals. */
interface Frame {
  vars: Map<string, PV>;
  suffix: string;
}

interface Branch {
  saved: Expr[];
  value: PV;
  /** A function's head arguments, for its support rule. */
  args?: Term[];
}

export interface EvaluatorOptions {
  input: unknown;
  data: unknown;
  unknowns: Ref[];
  disableInlining: Ref[];
}

export class PartialEvaluator {
  private input: Value | undefined;
  private readonly data: Value;
  private readonly unknowns: Ref[];
  private readonly disabled: Ref[];
  private readonly dataNode: TreeNode | undefined;
  private readonly evalCtx = new EvalContext();
  /** The expressions saved on the current path. */
  private saved: Expr[] = [];
  /** Bindings made on the current path, undone on backtracking. */
  private readonly trail: [Frame, string, PV | undefined][] = [];
  private frames = 0;
  private generated = 0;
  private readonly supportRules = new Map<string, Rule[]>();
  private readonly supportRefs = new Map<readonly Rule[], Res>();
  /** How many residuals this evaluation has made. */
  private resCount = 0;
  /** Residual var name → the order it was made in. */
  private readonly made = new Map<string, number>();
  /** The iteration that made each residual key var (`i1` → `input.x[i1]`), for ensureGenerators. */
  private readonly generators = new Map<string, Term>();
  /** Wildcards (`$pe<n>`) that must print with a name wherever they occur. */
  private readonly named = new Set<string>();
  /** Residual vars of rule bodies and wildcards (not the query's own vars). */
  private readonly locals = new Set<string>();
  /** The values each saved expression was made from. */
  private readonly operands = new WeakMap<Expr, readonly PV[]>();
  /** Existence checks (`input.x.y = _`) saved where a var was bound to a residual ref. */
  private readonly existence = new WeakSet<Expr>();

  constructor(
    private readonly ctx: CompileContext,
    options: EvaluatorOptions,
  ) {
    this.input = options.input as Value | undefined;
    this.data = options.data as Value;
    this.unknowns = options.unknowns;
    this.disabled = options.disableInlining;
    this.dataNode = ctx.ruleTree?.child({ type: "var", value: "data" } as Term);
  }

  private res(term: Term): Res {
    return new Res(term, ++this.resCount);
  }

  run(body: Body): PartialResult {
    const frame: Frame = { vars: new Map(), suffix: "" };
    const queries: Body[] = [];
    this.evalBody(frame, body, 0, () => {
      const q = [...this.saved];
      // the query's own vars keep their values in the answer (OPA keeps live vars)
      for (const [name, v] of [...frame.vars].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        if (name.startsWith("$") || name.startsWith("__")) continue;
        const loc = body[0]!.location;
        const t = this.toTerm(v, loc);
        if (!(t.type === "var" && t.value === name)) q.push(callExpr("eq", [{ type: "var", value: name, location: loc }, t], loc));
      }
      queries.push(nameSharedWildcards(propagateCopies(this.ensureGenerators(this.pruneExistence(q)), this.locals), this.named));
    });
    return { queries, support: this.supportModules() };
  }

  /**
   * A key var of an iteration over an unknown that the body uses only under `not` (its copy was
   * propagated into the negation) gets its iteration back, `_ = input.x[i1]`, as OPA keeps
   * `x1 = input.x[i1]`: without it the var would be unsafe.
   */
  private ensureGenerators(body: Body): Body {
    const positive = new Set<string>();
    const negated = new Set<string>();
    for (const e of body) walkTerms(e, (t) => void (t.type === "var" && (e.negated ? negated : positive).add(t.value)));
    const extra: Expr[] = [];
    const add = (v: string): void => {
      const gen = this.generators.get(v);
      if (!gen || positive.has(v)) return;
      positive.add(v);
      // the iteration's own keys come first
      walkTerms(gen, (t) => void (t.type === "var" && t.value !== v && negated.has(t.value) && add(t.value)));
      const name = `$gen${++this.generated}`;
      this.made.set(name, this.generated);
      extra.push(callExpr("eq", [{ type: "var", value: name, location: gen.location }, gen], gen.location as NodeLocation));
    };
    for (const v of negated) add(v);
    return extra.length > 0 ? [...body, ...extra] : body;
  }

  // -------------------------------------------------------------------------------------------
  // bindings

  private bind(frame: Frame, name: string, v: PV): void {
    this.trail.push([frame, name, frame.vars.get(name)]);
    frame.vars.set(name, v);
  }

  private undo(mark: number): void {
    while (this.trail.length > mark) {
      const [f, name, old] = this.trail.pop()!;
      if (old === undefined) f.vars.delete(name);
      else f.vars.set(name, old);
    }
  }

  /** Binds, continues, unbinds. */
  private withBinding(frame: Frame, name: string, v: PV, k: K): void {
    const mark = this.trail.length;
    this.bind(frame, name, v);
    k();
    this.undo(mark);
  }

  /** Saves one expression; `operands` are the values it was made from (for evalNot). */
  private save(e: Expr, operands: readonly PV[], k: K): void {
    this.operands.set(e, [...operands]);
    this.withSaved([e], k);
  }

  private withSaved(exprs: readonly Expr[], k: K): void {
    const n = this.saved.length;
    this.saved.push(...exprs);
    k();
    this.saved.length = n;
  }

  /**
   * A var bound to a residual that reads unknown refs: the refs must be defined, even when the var
   * is never used (`input.x.y = _`). Each ref is saved as an existence check; pruneExistence drops
   * the checks that an expression using the ref makes redundant.
   */
  private withExistence(v: Res, loc: NodeLocation, k: K): void {
    const checks: Expr[] = [];
    walkTerms(v.term, (t) => {
      if (t.type !== "ref") return false;
      const e = callExpr("eq", [t, { type: "var", value: `$ex${++this.generated}`, location: loc }], loc);
      this.existence.add(e);
      this.operands.set(e, [v]);
      checks.push(e);
      return true;
    });
    if (checks.length === 0) return k();
    this.withSaved(checks, k);
  }

  /** The body without the existence checks of refs that a positive expression of it (or `also`)
   * reads, or that an earlier check already asserts. */
  private pruneExistence(body: readonly Expr[], also: readonly Term[] = []): Expr[] {
    if (!body.some((e) => this.existence.has(e))) return [...body];
    const read: Ref[] = [];
    const collectRefs = (x: Expr | Term): void => walkTerms(x, (t) => void (t.type === "ref" && read.push(t.value)));
    for (const e of body) if (!e.negated && !this.existence.has(e)) collectRefs(e);
    for (const t of also) collectRefs(t);
    const out: Expr[] = [];
    for (const e of body) {
      if (this.existence.has(e)) {
        const ref = ((e.terms as Term[])[1] as Term & { type: "ref" }).value;
        if (read.some((r) => isRefPrefix(ref, r))) continue;
        read.push(ref);
      }
      out.push(e);
    }
    return out;
  }

  /** A var of the residual for an unbound local: bound to itself under its residual name. */
  private residualVar(frame: Frame, name: string, loc: NodeLocation): Res {
    const n = ++this.generated;
    const residualName = name.startsWith("$") ? `$pe${n}` : name + frame.suffix;
    this.made.set(residualName, n);
    if (frame.suffix !== "" || name.startsWith("$")) this.locals.add(residualName);
    const r = this.res({ type: "var", value: residualName, location: loc });
    this.bind(frame, name, r);
    return r;
  }

  // -------------------------------------------------------------------------------------------
  // bodies and expressions

  private evalBody(frame: Frame, body: Body, i: number, k: K): void {
    if (i === body.length) return k();
    this.evalExpr(frame, body[i]!, () => this.evalBody(frame, body, i + 1, k));
  }

  private evalExpr(frame: Frame, e: Expr, k: K): void {
    if (e.with.length > 0) return this.evalWith(frame, e, k);
    if (e.negated) return this.evalNot(frame, e, k);
    const ts = e.terms;
    if (Array.isArray(ts)) return this.evalCall(frame, e, ts, k);
    switch (ts.type) {
      case "some":
        return k();
      case "every":
        return this.evalEvery(frame, ts, k);
      case "and":
      case "or":
      case "not":
        throw unsupported(`\`${ts.type}\``, e.location);
      default:
        this.evalTerm(frame, ts, (v) => {
          if (v instanceof Res) this.save(termExpr(v.term, e.location), [v], k);
          else if (v !== false) k();
        });
    }
  }

  private evalCall(frame: Frame, e: Expr, ts: Term[], k: K): void {
    const op = ts[0]!;
    const name = op.type === "ref" ? opName(op.value) : undefined;
    if (name === undefined) throw unsupported("this call", e.location);
    if (name === "eq" || name === "assign") return this.unify(frame, ts[1]!, ts[2]!, k, e.location);
    if (name.startsWith("data.")) return this.callFunction(frame, e, (op as { value: Ref }).value, ts.slice(1), k);
    if (name === "print" || name === "internal.print") return k();
    const decl = this.ctx.builtins.get(name);
    const def = getBuiltin(name);
    if (!decl || !def) throw unsupported(`the call of ${name}`, e.location);
    const args = ts.slice(1, 1 + decl.arity);
    const out = ts.length - 1 > decl.arity ? ts[ts.length - 1] : undefined;
    this.evalTerms(frame, args, 0, [], (vals) => {
      if (vals.some((v) => v instanceof Res)) {
        const argTerms = vals.map((v) => this.toTerm(v, e.location));
        if (out === undefined) return this.save(callExpr(name, argTerms, e.location, op), vals, k);
        const mark = this.trail.length;
        const o = this.plugOut(frame, out);
        this.save(callExpr(name, [...argTerms, o], e.location, op), vals, k);
        this.undo(mark);
        return;
      }
      if (def.async) throw unsupported(`the call of ${name} (asynchronous)`, e.location);
      const r = invokeBuiltin(this.evalCtx, def, { name, location: e.location }, vals as Value[]);
      if (r === undefined) return;
      if (decl.relation) {
        // a relation (walk): its result holds every answer
        const view = scanView(r);
        if (out === undefined) return view.length > 0 ? k() : undefined;
        for (let n = 0; n < view.length; n++) this.unifyTermPV(frame, out, scanValue(r, view, n), false, k, e.location);
        return;
      }
      if (out !== undefined) return this.unifyTermPV(frame, out, r, false, k, e.location);
      if (r !== false) k();
    });
  }

  /** An output operand as a residual term: unbound vars become residual vars. */
  private plugOut(frame: Frame, t: Term): Term {
    if (t.type === "var") {
      const v = frame.vars.get(t.value);
      return v === undefined ? this.residualVar(frame, t.value, t.location).term : this.toTerm(v, t.location);
    }
    if (t.type === "array") return { ...t, value: t.value.map((x) => this.plugOut(frame, x)) };
    if (t.type === "object") return { ...t, value: t.value.map(([a, b]) => [this.plugOut(frame, a), this.plugOut(frame, b)] as [Term, Term]) };
    let out: Term | undefined;
    this.evalTerm(frame, t, (v) => (out = this.toTerm(v, t.location)));
    if (!out) throw unsupported("this output term", t.location);
    return out;
  }

  private evalTerms(frame: Frame, ts: readonly Term[], i: number, acc: PV[], k: (vs: PV[]) => void): void {
    if (i === ts.length) return k(acc);
    this.evalTerm(frame, ts[i]!, (v) => {
      acc.push(v);
      this.evalTerms(frame, ts, i + 1, acc, k);
      acc.pop();
    });
  }

  // -------------------------------------------------------------------------------------------
  // unification

  /** `at`: the location of the expression, which the residual expressions it saves carry. */
  private unify(frame: Frame, a: Term, b: Term, k: K, at: NodeLocation): void {
    if (a.type === "var" && (b.type !== "var" || !frame.vars.has(a.value))) return this.evalTerm(frame, b, (bv) => this.unifyTermPV(frame, a, bv, false, k, at));
    if (this.hasUnbound(frame, a)) {
      if (this.hasUnbound(frame, b)) {
        if (a.type === "array" && b.type === "array" && a.value.length === b.value.length) return this.unifyEach(frame, a.value, b.value, 0, k, at);
        if (a.type === "object" && b.type === "object") {
          const pairs = matchPairs(a.value, b.value);
          if (pairs === null) return;
          if (pairs) return this.unifyEach(frame, pairs[0], pairs[1], 0, k, at);
        }
      }
      return this.evalTerm(frame, b, (bv) => this.unifyTermPV(frame, a, bv, false, k, at));
    }
    this.evalTerm(frame, a, (av) => this.unifyTermPV(frame, b, av, true, k, at), isConstant(b) ? termToValue(b) : undefined);
  }

  private unifyEach(frame: Frame, as: Term[], bs: Term[], i: number, k: K, at: NodeLocation): void {
    if (i === as.length) return k();
    this.unify(frame, as[i]!, bs[i]!, () => this.unifyEach(frame, as, bs, i + 1, k, at), at);
  }

  /** Unifies a term with a value; `valueFirst`: the value was written on the left; `at`: the
   * location of the expression (else the term's) for the expressions saved. */
  private unifyTermPV(frame: Frame, t: Term, v: PV, valueFirst: boolean, k: K, at: NodeLocation = t.location): void {
    if (t.type === "var") {
      const b = frame.vars.get(t.value);
      if (b === undefined) return v instanceof Res ? this.withExistence(v, at, () => this.withBinding(frame, t.value, v, k)) : this.withBinding(frame, t.value, v, k);
      if (b instanceof Res && !(v instanceof Res) && (b.term.type === "ref" || b.term.type === "var")) {
        // a copy of a residual meets a known value: saved once, the var is that value from here on
        const [l, r] = valueFirst ? [this.toTerm(v, t.location), b.term] : [b.term, this.toTerm(v, t.location)];
        return this.save(callExpr("eq", [l, r], at), [b, v], () => this.withBinding(frame, t.value, v, k));
      }
      return valueFirst ? this.unifyPV(v, b, at, k) : this.unifyPV(b, v, at, k);
    }
    if ((t.type === "array" || t.type === "object") && this.hasUnbound(frame, t)) {
      if (v instanceof Res) {
        const mark = this.trail.length;
        const plugged = this.plugOut(frame, t);
        const [l, r] = valueFirst ? [v.term, plugged] : [plugged, v.term];
        this.save(callExpr("eq", [l, r], at), [v], k);
        this.undo(mark);
        return;
      }
      if (t.type === "array") {
        if (!Array.isArray(v) || v.length !== t.value.length) return;
        return this.unifyElems(frame, t.value, v, 0, valueFirst, k, at);
      }
      if (!isPlainObject(v) && !(v instanceof RegoObject)) return;
      const entries = objectEntries(v);
      if (entries.length !== t.value.length) return;
      const keys: Term[] = t.value.map(([key]) => key);
      return this.evalTerms(frame, keys, 0, [], (ks) => {
        const vals: Value[] = [];
        for (const key of ks) {
          if (key instanceof Res) throw unsupported("an object pattern with a residual key", t.location);
          const x = dot(v, key);
          if (x === undefined) return;
          vals.push(x);
        }
        this.unifyElems(frame, t.value.map(([, x]) => x), vals, 0, valueFirst, k, at);
      });
    }
    this.evalTerm(frame, t, (tv) => (valueFirst ? this.unifyPV(v, tv, at, k) : this.unifyPV(tv, v, at, k)), v instanceof Res ? undefined : v);
  }

  private unifyElems(frame: Frame, ts: Term[], vs: Value[], i: number, valueFirst: boolean, k: K, at?: NodeLocation): void {
    if (i === ts.length) return k();
    this.unifyTermPV(frame, ts[i]!, vs[i]!, valueFirst, () => this.unifyElems(frame, ts, vs, i + 1, valueFirst, k, at), at);
  }

  private unifyPV(a: PV, b: PV, loc: NodeLocation, k: K): void {
    if (!(a instanceof Res) && !(b instanceof Res)) {
      if (equal(a, b)) k();
      return;
    }
    this.save(callExpr("eq", [this.toTerm(a, loc), this.toTerm(b, loc)], loc), [a, b], k);
  }

  private hasUnbound(frame: Frame, t: Term): boolean {
    switch (t.type) {
      case "var":
        return !frame.vars.has(t.value);
      case "array":
        return t.value.some((x) => this.hasUnbound(frame, x));
      case "object":
        return t.value.some(([a, b]) => this.hasUnbound(frame, a) || this.hasUnbound(frame, b));
      default:
        return false;
    }
  }

  // -------------------------------------------------------------------------------------------
  // terms

  /** `expected`: the constant the term is unified with, if any (a default rule needs no support
   * rule when its value cannot be that constant, as in OPA's evalVirtualComplete). */
  private evalTerm(frame: Frame, t: Term, k: (v: PV) => void, expected?: Value): void {
    switch (t.type) {
      case "null":
      case "boolean":
      case "string":
      case "number":
        return k(termToValue(t));
      case "var": {
        const v = frame.vars.get(t.value);
        if (v === undefined) throw unsupported(`the unbound var ${t.value}`, t.location);
        return k(v);
      }
      case "ref":
        return this.evalRef(frame, t.value, t.location, k, expected);
      case "array":
        return this.evalTerms(frame, t.value, 0, [], (vs) => k(vs.some((v) => v instanceof Res) ? this.res({ ...t, value: vs.map((v) => this.toTerm(v, t.location)) }) : [...(vs as Value[])]));
      case "set":
        return this.evalTerms(frame, t.value, 0, [], (vs) => k(vs.some((v) => v instanceof Res) ? this.res({ ...t, value: vs.map((v) => this.toTerm(v, t.location)) }) : new RegoSet(vs as Value[])));
      case "object": {
        const flat = t.value.flat();
        return this.evalTerms(frame, flat, 0, [], (vs) => {
          if (vs.some((v) => v instanceof Res)) {
            const pairs: [Term, Term][] = [];
            for (let i = 0; i < vs.length; i += 2) pairs.push([this.toTerm(vs[i]!, t.location), this.toTerm(vs[i + 1]!, t.location)]);
            return k(this.res({ ...t, value: pairs }));
          }
          const entries: [Value, Value][] = [];
          for (let i = 0; i < vs.length; i += 2) entries.push([vs[i] as Value, vs[i + 1] as Value]);
          k(makeObject(entries));
        });
      }
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        return k(this.evalComprehension(frame, t));
      case "call": {
        // a nested call: its value through a fresh output var
        const out: Term = { type: "var", value: `$call${++this.generated}`, location: t.location };
        const e: Expr = { type: "expr", index: 0, terms: [...t.value, out], negated: false, with: [], generated: true, location: t.location };
        return this.evalExpr(frame, e, () => {
          const v = frame.vars.get(out.value as string)!;
          k(v);
        });
      }
      default:
        throw unsupported(`a ${t.type} term`, t.location);
    }
  }

  /** A comprehension over known values is its value; over unknowns, an error. */
  private evalComprehension(frame: Frame, t: Term & { type: "arraycomprehension" | "setcomprehension" | "objectcomprehension" }): Value {
    const items: Value[] = [];
    const entries: [Value, Value][] = [];
    const n = this.saved.length;
    const check = (v: PV): Value => {
      if (v instanceof Res || this.saved.length > n) throw unsupported("a comprehension over unknowns", t.location);
      return v;
    };
    if (t.type === "objectcomprehension") {
      const { key, value, body } = t.value;
      this.evalBody(frame, body, 0, () => this.evalTerm(frame, key, (kv) => this.evalTerm(frame, value, (vv) => entries.push([check(kv), check(vv)]))));
      for (let i = 0; i < entries.length; i++) {
        for (let j = 0; j < i; j++) {
          if (equal(entries[i]![0], entries[j]![0]) && !equal(entries[i]![1], entries[j]![1])) {
            throw conflictError("object", t.location);
          }
        }
      }
      return makeObject(entries);
    }
    const { term, body } = t.value;
    this.evalBody(frame, body, 0, () => this.evalTerm(frame, term, (v) => items.push(check(v))));
    return t.type === "arraycomprehension" ? items : new RegoSet(items);
  }

  // -------------------------------------------------------------------------------------------
  // refs

  private evalRef(frame: Frame, ref: Ref, loc: NodeLocation, k: (v: PV) => void, expected?: Value): void {
    const head = ref[0]!;
    if (head.type === "var" && head.value === "input") {
      if (this.isUnknownPath(["input"], ref.length === 1)) return this.residualRef(frame, ref, 1, [ref[0]!], loc, k);
      return this.walkKnown(frame, ref, 1, this.input, ["input"], false, loc, k);
    }
    if (head.type === "var" && head.value === "data") return this.evalDataRef(frame, ref, loc, k, expected);
    const start = (base: PV): void => {
      if (base instanceof Res) return this.residualRef(frame, ref, 1, refParts(base.term), loc, k);
      this.walkKnown(frame, ref, 1, base, undefined, false, loc, k);
    };
    if (head.type === "var") {
      const v = frame.vars.get(head.value);
      if (v === undefined) throw unsupported(`the unbound var ${head.value}`, head.location);
      return start(v);
    }
    this.evalTerm(frame, head, start);
  }

  /** Whether a path of input or data (string keys so far) is covered by an unknown; `whole`: the
   * path is all the ref reads (a prefix of an unknown then reads unknown parts too). */
  private isUnknownPath(path: readonly string[], whole: boolean): boolean {
    return this.unknowns.some((u) => {
      const n = Math.min(u.length, path.length);
      for (let i = 0; i < n; i++) if ((u[i] as { value: string }).value !== path[i]) return false;
      return u.length <= path.length || whole;
    });
  }

  /** The ref from operand `from` on, after `base` (the residual ref so far): known operands as
   * constants, residual ones as their terms, unbound vars as residual vars. */
  private residualRef(frame: Frame, ref: Ref, from: number, base: Term[], loc: NodeLocation, k: (v: PV) => void): void {
    const head = base[0]!;
    const op = ref[from];
    if (base.length === 1 && (head.type === "object" || head.type === "array") && op && !(op.type === "var" && !frame.vars.has(op.value))) {
      // a collection term with residual parts, read at a known key: the part itself
      return this.evalTerm(frame, op, (key) => {
        const el = key instanceof Res ? null : element(head, key);
        if (el === undefined) return;
        if (el === null) return this.residualRefFrom(frame, ref, from, base, loc, k);
        if (isConstant(el)) return this.walkKnown(frame, ref, from + 1, termToValue(el), undefined, false, loc, k);
        this.residualRef(frame, ref, from + 1, refParts(el), loc, k);
      });
    }
    this.residualRefFrom(frame, ref, from, base, loc, k);
  }

  private residualRefFrom(frame: Frame, ref: Ref, from: number, base: Term[], loc: NodeLocation, k: (v: PV) => void): void {
    const go = (j: number, acc: Term[]): void => {
      if (j === ref.length) return k(this.res(acc.length === 1 && !isRoot(acc[0]!) ? acc[0]! : { type: "ref", value: acc, location: loc }));
      const t = ref[j]!;
      if (t.type === "var" && !frame.vars.has(t.value)) {
        const mark = this.trail.length;
        const r = this.residualVar(frame, t.value, t.location);
        this.generators.set((r.term as { value: string }).value, { type: "ref", value: [...acc, r.term], location: loc });
        go(j + 1, [...acc, r.term]);
        this.undo(mark);
        return;
      }
      this.evalTerm(frame, t, (v) => go(j + 1, [...acc, this.toTerm(v, t.location)]));
    };
    go(from, base);
  }

  /**
   * Reads ref[i..] from a known value (undefined: nothing there). `path` is the input/data path
   * read so far while its keys are strings (unknowns are checked at every step), undefined below
   * a var key or a rule's value; `base`: reading base data (number keys are their text).
   */
  private walkKnown(frame: Frame, ref: Ref, i: number, cur: Value | undefined, path: string[] | undefined, base: boolean, loc: NodeLocation, k: (v: PV) => void): void {
    if (i === ref.length) {
      if (cur !== undefined) k(cur);
      return;
    }
    const t = ref[i]!;
    const step = (key: Value, next: Value | undefined): void => {
      const p = path && typeof key === "string" ? [...path, key] : undefined;
      if (p && this.isUnknownPath(p, i + 1 === ref.length)) return this.residualRef(frame, ref, i + 1, pathTerms(ref[0]!, p, loc), loc, k);
      if (next !== undefined) this.walkKnown(frame, ref, i + 1, next, p, base, loc, k);
    };
    if (this.hasUnbound(frame, t)) {
      // iterating where an unknown lies below: the whole iteration is residual
      if (path && this.isUnknownPath(path, true)) return this.residualRef(frame, ref, i, pathTerms(ref[0]!, path, loc), loc, k);
      if (cur === undefined) return;
      const view = scanView(cur);
      for (let n = 0; n < view.length; n++) {
        const key = scanKey(cur, view, n);
        const value = scanValue(cur, view, n);
        this.unifyTermPV(frame, t, key, false, () => step(key, value));
      }
      return;
    }
    this.evalTerm(frame, t, (key) => {
      if (key instanceof Res) {
        if (path && this.isUnknownPath(path, true)) return this.residualRef(frame, ref, i, pathTerms(ref[0]!, path, loc), loc, k);
        if (cur === undefined) return;
        // a residual key: one branch per key of the known collection (OPA's "iterate data - unknown key")
        const view = scanView(cur);
        for (let n = 0; n < view.length; n++) {
          const kk = scanKey(cur, view, n);
          this.save(callExpr("eq", [key.term, this.toTerm(kk, t.location)], t.location), [key], () => step(kk, scanValue(cur, view, n)));
        }
        return;
      }
      step(key, cur === undefined ? undefined : base ? dotData(cur, key) : dot(cur, key));
    });
  }

  private evalDataRef(frame: Frame, ref: Ref, loc: NodeLocation, k: (v: PV) => void, expected?: Value): void {
    let node = this.dataNode;
    const path: string[] = ["data"];
    let i = 1;
    if (this.isUnknownPath(path, ref.length === 1)) return this.residualRef(frame, ref, 1, [ref[0]!], loc, k);
    while (node && i < ref.length && (node.values.length === 0 || node.children.size > 0)) {
      const t = ref[i]!;
      let key: string | undefined;
      if (t.type === "string") key = t.value;
      else if (t.type !== "var" || frame.vars.has(t.value)) {
        let v: PV | undefined;
        this.evalTerm(frame, t, (x) => (v = x));
        if (typeof v === "string") key = v;
      }
      if (node.values.length > 0) {
        // rules at this ref and at refs below it: a constant key of a rule below goes there
        if (key === undefined) throw unsupported("iteration over rules at a ref and below it", t.location);
        if (node.values.some((r) => this.ctx.ruleRef(r).length > path.length + 1)) throw unsupported(`the rule ${path.join(".")} (a general ref head)`, t.location);
        if (!node.child({ type: "string", value: key } as Term)) break;
      }
      if (key === undefined && t.type === "var" && !frame.vars.has(t.value) && node.children.size > 0) {
        // iterating over the rules below a node: one branch per child
        for (const child of node.sortedChildren()) {
          const kv = termToValue(child.key!);
          if (typeof kv !== "string") throw unsupported("iteration over rules with non-string keys", t.location);
          this.withBinding(frame, t.value, kv, () => this.evalDataRef(frame, [...ref.slice(0, i), str(kv, t.location), ...ref.slice(i + 1)], loc, k));
        }
        return;
      }
      if (key === undefined) {
        if (node.children.size > 0) throw unsupported("iteration over rules and packages", t.location);
        break;
      }
      const child = node.child({ type: "string", value: key } as Term);
      if (!child) {
        node = undefined;
        break;
      }
      node = child;
      path.push(key);
      i++;
      if (this.isUnknownPath(path, i === ref.length)) {
        return this.residualRef(frame, ref, i, pathTerms(ref[0]!, path, loc), loc, k);
      }
    }
    if (node && node.values.length > 0 && !(node.children.size > 0 && i === ref.length)) {
      return this.evalRules(frame, node.values, ref, i, path, loc, k, i === ref.length ? expected : undefined);
    }
    if (node && i === ref.length) {
      const v = this.nodeValue(node, path, loc);
      if (v !== undefined) k(v);
      return;
    }
    // base data below the rules' prefixes
    let cur: Value | undefined = this.data;
    for (const key of path.slice(1)) cur = cur === undefined ? undefined : dotData(cur, key);
    this.walkKnown(frame, ref, i, cur, path, true, loc, k);
  }

  // -------------------------------------------------------------------------------------------
  // rules

  private newFrame(): Frame {
    return { vars: new Map(), suffix: String(++this.frames) };
  }

  /** The rules at ref[0..i) (all of one kind), then the rest of the ref on their value. */
  private evalRules(frame: Frame, rules: readonly Rule[], ref: Ref, i: number, path: string[], loc: NodeLocation, k: (v: PV) => void, expected?: Value): void {
    const rest = (v: PV, from: number): void => {
      if (v instanceof Res) return this.residualRef(frame, ref, from, refParts(v.term), loc, k);
      this.walkKnown(frame, ref, from, v, undefined, false, loc, k);
    };
    const first = rules.find((r) => !r.default) ?? rules[0]!;
    const depth = path.length;
    const rref = this.ctx.ruleRef(first);
    if (first.head.args) throw unsupported(`the function ${path.join(".")} used as a value`, loc);
    if (rref.length === depth && !(first.head.key && !first.head.value)) return this.evalComplete(rules, path, loc, (v) => rest(v, i), expected);
    if (rref.length === depth || (rref.length === depth + 1 && first.head.value)) {
      // a partial set (`p contains x`) or object (`p[k] := v`)
      const isSet = rref.length === depth;
      if (i === ref.length) return k(this.partialWhole(rules, isSet, path, loc));
      const operand = ref[i]!;
      // an element that several bodies give is one element (when nothing residual stands before it)
      const seen: Value[] = [];
      const n = this.saved.length;
      return this.eachElement(rules, isSet, (f, r, kv) => {
        if (isSet && !(kv instanceof Res) && this.saved.length === n) {
          if (seen.some((x) => equal(x, kv))) return;
          seen.push(kv);
        }
        const cont = (): void => (isSet ? rest(kv, i + 1) : this.evalTerm(f, r.head.value!, (vv) => rest(vv, i + 1)));
        this.unifyTermPV(frame, operand, kv, false, cont);
      });
    }
    throw unsupported(`the rule ${path.join(".")} (a general ref head)`, loc);
  }

  /** Each element key of a partial set or object (each body in a frame of its own). */
  private eachElement(rules: readonly Rule[], isSet: boolean, k: (frame: Frame, rule: Rule, key: PV) => void): void {
    for (const r of rules) {
      if (r.else) throw unsupported("a partial rule with else", r.location);
      const f = this.newFrame();
      const keyTerm = isSet ? r.head.key! : r.head.reference[r.head.reference.length - 1]!;
      this.evalBody(f, r.body, 0, () => this.evalTerm(f, keyTerm, (kv) => k(f, r, kv)));
    }
  }

  /** A partial set or object as a whole: its value when every element is known. */
  private partialWhole(rules: readonly Rule[], isSet: boolean, path: string[], loc: NodeLocation): Value {
    const n = this.saved.length;
    const items: Value[] = [];
    const entries: [Value, Value][] = [];
    const whole = unsupported(`the partial ${isSet ? "set" : "object"} ${path.join(".")} over unknowns as a whole`, loc);
    this.eachElement(rules, isSet, (f, r, kv) => {
      if (kv instanceof Res || this.saved.length > n) throw whole;
      if (isSet) return void items.push(kv);
      this.evalTerm(f, r.head.value!, (vv) => {
        if (vv instanceof Res) throw whole;
        const same = entries.find(([x]) => equal(x, kv));
        if (same && !equal(same[1], vv)) throw conflictError("object", r.location);
        if (!same) entries.push([kv, vv]);
      });
    });
    return isSet ? new RegoSet(items) : makeObject(entries);
  }

  /** A package (a node of the rule tree without rules) as a whole: its base data with the values
   * of its rules (functions left out) and subpackages, when all are known. */
  private nodeValue(node: TreeNode, path: string[], loc: NodeLocation): Value | undefined {
    if (node.values.length > 0) {
      if (node.values.some((r) => r.head.args)) return undefined;
      if (node.children.size > 0) throw unsupported(`the rules at ${path.join(".")} and below it as a whole`, loc);
      const n = this.saved.length;
      let out: Value | undefined;
      const ref: Ref = [{ type: "var", value: "data", location: loc }, ...path.slice(1).map((p) => str(p, loc))];
      this.evalRules({ vars: new Map(), suffix: "" }, node.values, ref, ref.length, path, loc, (v) => {
        if (v instanceof Res || this.saved.length > n) throw unsupported(`the document ${path.join(".")} over unknowns as a whole`, loc);
        out = v;
      });
      return out;
    }
    let base: Value | undefined = this.data;
    for (const key of path.slice(1)) base = base === undefined ? undefined : dotData(base, key);
    const entries = new Map<string, Value>();
    if (base !== undefined && isPlainObject(base)) for (const key of Object.keys(base)) entries.set(key, base[key]!);
    for (const child of node.sortedChildren()) {
      if (child.key?.type !== "string") throw unsupported(`the document ${path.join(".")} (non-string keys) as a whole`, loc);
      const v = this.nodeValue(child, [...path, child.key.value], loc);
      if (v !== undefined) entries.set(child.key.value, v);
    }
    return makeObject([...entries]);
  }

  /** A complete rule's value: one branch per body with a residual; known bodies give one value
   * (or the default); a default or disabled inlining over residuals gives a support rule. */
  private evalComplete(rules: readonly Rule[], path: string[], loc: NodeLocation, k: (v: PV) => void, expected?: Value): void {
    const defaults = rules.filter((r) => r.default);
    const { branches, values } = this.ruleBranches(
      rules.filter((r) => !r.default),
      (rule, f, emit) => this.evalBody(f, rule.body, 0, () => this.evalTerm(f, rule.head.value ?? boolTrue(loc), emit)),
      "rule",
      rules[0]!.location,
    );
    if (values) {
      if (values.length === 1) return k(values[0]!);
      if (defaults.length === 0) return;
      const dv = this.defaultValue(defaults[0]!);
      if (dv !== undefined) k(dv);
      return;
    }
    if (this.defaultNeeded(defaults[0], expected) || this.isDisabled(path)) {
      return k(this.support(rules, branches, defaults[0], path, loc));
    }
    for (const b of branches) this.withSaved(b.saved, () => k(b.value));
  }

  /**
   * The branches of rules (each body in a frame of its own, an else only when the bodies before it
   * fail; an else chain over unknowns is an error). `values`: the distinct values when no branch
   * is residual (more than one: a conflict).
   */
  private ruleBranches(
    rules: readonly Rule[],
    run: (rule: Rule, frame: Frame, emit: (v: PV) => void) => void,
    conflict: ConflictKind,
    loc: NodeLocation,
  ): { branches: Branch[]; values?: Value[] } {
    const branches: Branch[] = [];
    const residual = (b: Branch): boolean => b.saved.length > 0 || b.value instanceof Res;
    for (const r of rules) {
      for (let rule: Rule | undefined = r; rule; rule = rule.else) {
        const current = rule;
        const got = this.collect((emit) => run(current, this.newFrame(), emit));
        branches.push(...got);
        if (got.length > 0) {
          if ((rule !== r || rule.else) && got.some(residual)) throw unsupported("an else chain over unknowns", rule.location);
          break;
        }
      }
    }
    if (branches.some(residual)) return { branches };
    const values: Value[] = [];
    for (const b of branches) if (!values.some((v) => equal(v, b.value as Value))) values.push(b.value as Value);
    if (values.length > 1) throw conflictError(conflict, loc);
    return { branches, values };
  }

  /** Whether disableInlining names the rule at this path (`data`, then its keys). */
  private isDisabled(path: readonly string[]): boolean {
    return this.disabled.some((d) => d.length === path.length && d.every((t, j) => (t as { value: string }).value === path[j]));
  }

  /** A default rule's value (its body holds what the compiler moved out of the value). */
  private defaultValue(def: Rule): PV | undefined {
    let out: PV | undefined;
    const f = this.newFrame();
    this.evalBody(f, def.body, 0, () => this.evalTerm(f, def.head.value ?? boolTrue(def.location), (v) => (out ??= v)));
    return out;
  }

  /** Whether a default's value may be what is asked for: always, unless a constant other than it is. */
  private defaultNeeded(def: Rule | undefined, expected: Value | undefined): boolean {
    if (!def) return false;
    if (expected === undefined) return true;
    const dv = this.defaultValue(def);
    return dv instanceof Res || dv === undefined || equal(dv, expected);
  }

  /** Runs `run`, collecting each success as a branch (the expressions it saved and its value). */
  private collect(run: (emit: (v: PV) => void) => void): Branch[] {
    const outer = this.saved;
    this.saved = [];
    const out: Branch[] = [];
    try {
      run((value) => out.push({ saved: this.pruneExistence(this.saved, value instanceof Res ? [value.term] : []), value }));
    } finally {
      this.saved = outer;
    }
    return out;
  }

  /** A support rule set `data.partial.<path>`: the residual bodies, and the default. */
  private support(rules: readonly Rule[], branches: Branch[], def: Rule | undefined, path: string[], loc: NodeLocation, args?: Term[]): Res {
    const known = this.supportRefs.get(rules);
    if (known) return known;
    const key = path.slice(1, -1).join(".");
    const name = path[path.length - 1]!;
    const list = this.supportRules.get(key) ?? [];
    const mk = (value: Term, body: Body, isDefault: boolean, headArgs = args): Rule => ({
      type: "rule",
      default: isDefault,
      head: {
        type: "head",
        name,
        reference: [{ type: "var", value: name, location: loc }],
        value,
        ...(headArgs && headArgs.length > 0 ? { args: headArgs.map((a) => (a.type === "var" && this.named.has(a.value) ? wildcardName(a) : a)) } : {}),
        assign: false,
        generatedValue: !isDefault && value.type === "boolean" && value.value,
        keywords: isDefault ? [] : ["if"],
        location: loc,
      },
      body: body.length > 0 ? nameSharedWildcards(propagateCopies(this.ensureGenerators(body), withoutVars(this.locals, [...(headArgs ?? []), value])), this.named) : [termExpr(boolTrue(loc), loc)],
      generatedBody: false,
      annotations: [],
      location: loc,
    });
    if (def) {
      list.push(mk(this.toTerm(this.defaultValue(def) ?? true, loc), [], true));
    }
    for (const b of branches) list.push(mk(this.toTerm(b.value, loc), b.saved, false, b.args));
    this.supportRules.set(key, list);
    const res = this.res({ type: "ref", value: [{ type: "var", value: "data", location: loc }, str("partial", loc), ...path.slice(1).map((s) => str(s, loc))], location: loc });
    this.supportRefs.set(rules, res);
    return res;
  }

  private supportModules(): Module[] {
    const out: Module[] = [];
    for (const [key, rules] of [...this.supportRules].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const loc = rules[0]!.location;
      const segs = ["partial", ...(key === "" ? [] : key.split("."))];
      out.push({
        type: "module",
        package: { type: "package", path: [{ type: "var", value: "data", location: loc }, ...segs.map((s) => str(s, loc))], location: loc },
        imports: [],
        rules,
        annotations: [],
        comments: [],
        regoVersion: "v1",
      });
    }
    return out;
  }

  /** A call of a user function: each body inlined with the arguments bound. */
  private callFunction(frame: Frame, e: Expr, op: Ref, operands: Term[], k: K): void {
    const node = this.dataNode && this.lookupNode(op);
    const rules = node?.values ?? [];
    const arity = rules[0]?.head.args?.length;
    if (arity === undefined) throw unsupported(`the call of ${opName(op)}`, e.location);
    const out = operands.length > arity ? operands[arity] : undefined;
    const path = op.map((t) => (t as { value: string }).value);
    if (this.isDisabled(path)) return this.callSupport(frame, e, rules, path, operands.slice(0, arity), out, k);
    const defaults = rules.filter((r) => r.default);
    this.evalTerms(frame, operands.slice(0, arity), 0, [], (args) => {
      const { branches, values } = this.ruleBranches(
        rules.filter((r) => !r.default),
        (rule, f, emit) => {
          const bindArgs = (j: number): void => {
            if (j === arity) return this.evalBody(f, rule.body, 0, () => this.evalTerm(f, rule.head.value ?? boolTrue(e.location), emit));
            this.unifyTermPV(f, rule.head.args![j]!, args[j]!, false, () => bindArgs(j + 1));
          };
          bindArgs(0);
        },
        "function",
        e.location,
      );
      if (defaults.length > 0) {
        if (!values) throw unsupported("a function with a default over unknowns", e.location);
        const dv = values.length === 0 ? this.defaultValue(defaults[0]!) : undefined;
        if (dv !== undefined) branches.push({ saved: [], value: dv });
      }
      for (const b of branches) {
        this.withSaved(b.saved, () => {
          if (out !== undefined) return this.unifyTermPV(frame, out, b.value, false, k, e.location);
          if (b.value instanceof Res) return this.save(termExpr(b.value.term, e.location), [b.value], k);
          if (b.value !== false) k();
        });
      }
    });
  }

  /** A call of a function named in disableInlining: saved as a call of its support function,
   * whose rules are the function's bodies evaluated over their parameters. */
  private callSupport(frame: Frame, e: Expr, rules: readonly Rule[], path: string[], argTerms: Term[], out: Term | undefined, k: K): void {
    let res = this.supportRefs.get(rules);
    if (!res) {
      const branches: Branch[] = [];
      for (const r of rules) {
        if (r.else || r.default) throw unsupported(`a function with ${r.else ? "else" : "a default"} in disableInlining`, r.location);
        const f = this.newFrame();
        const mark = this.trail.length;
        const headArgs = r.head.args!.map((a) => this.plugOut(f, a));
        const got = this.collect((emit) => this.evalBody(f, r.body, 0, () => this.evalTerm(f, r.head.value ?? boolTrue(r.location), emit)));
        this.undo(mark);
        for (const b of got) branches.push({ ...b, args: headArgs });
      }
      res = this.support(rules, branches, undefined, path, e.location);
    }
    const fn = res.term;
    this.evalTerms(frame, argTerms, 0, [], (args) => {
      const terms = args.map((v) => this.toTerm(v, e.location));
      if (out === undefined) return this.save(callExpr("", terms, e.location, fn), args, k);
      const mark = this.trail.length;
      this.save(callExpr("", [...terms, this.plugOut(frame, out)], e.location, fn), args, k);
      this.undo(mark);
    });
  }

  private lookupNode(ref: Ref): TreeNode | undefined {
    let node = this.dataNode;
    for (let i = 1; i < ref.length && node; i++) node = node.child(ref[i]!);
    return node;
  }

  // -------------------------------------------------------------------------------------------
  // negation, every, with

  /**
   * `not expr` (OPA's evalNotPartial): the positive expression's branches are collected; none: the
   * negation holds; one with nothing saved: it fails. Otherwise the branches are negated inline
   * (one query per choice of an expression from each branch) when every expression can be
   * negated as it is: no ref or call made inside the negation nested in an operand, no var made
   * inside it, and at most 16 choices. Else the branches become a support rule, negated, with
   * the caller's vars it uses as arguments.
   */
  private evalNot(frame: Frame, e: Expr, k: K): void {
    const positive: Expr = { ...e, negated: false };
    const id = ++this.frames;
    const before = this.generated;
    const start = this.resCount;
    // each branch with the iterations its negated expressions need (they are positive expressions
    // over vars made inside: the branches are then not inlined)
    const branches = this.collect((emit) => this.evalExpr(frame, positive, () => emit(true))).map((b) => ({ ...b, saved: this.ensureGenerators(b.saved) }));
    if (branches.length === 0) return k();
    if (branches.some((b) => b.saved.length === 0)) return;
    let size = 1;
    for (const b of branches) size *= b.saved.length;
    const inline = size <= 16 && branches.every((b) => b.saved.every((s) => !this.nested(s, start) && (s.negated || residualVarNames(s).every((v) => !this.madeAfter(v, before)))));
    if (inline) return this.complements(branches, 0, k);
    const outside = [...new Set(branches.flatMap((b) => b.saved.flatMap((s) => residualVarNames(s))))].filter((v) => !this.madeAfter(v, before) && !v.startsWith("$ex")).sort();
    const name = `__not${frame.suffix || 0}_${e.index}_${id}__`;
    const loc = e.location;
    // a wildcard passed to the support rule is written with a name: it is one var in both places
    for (const v of outside) if (v.startsWith("$pe")) this.named.add(v);
    const args: Term[] = outside.map((v) => ({ type: "var", value: v, location: loc }));
    const res = this.support([], branches.map((b) => ({ saved: b.saved, value: true })), undefined, ["data", name], loc, args);
    const call: Expr = args.length > 0 ? callExpr("", args, loc, res.term) : termExpr(res.term, loc);
    this.withSaved([{ ...call, negated: true }], k);
  }

  /** One query per choice of an expression from each branch, each chosen expression negated. */
  private complements(branches: Branch[], i: number, k: K): void {
    if (i === branches.length) return k();
    for (const s of branches[i]!.saved) {
      const negated: Expr = { ...s, negated: !s.negated };
      const ops = this.operands.get(s);
      if (ops) this.operands.set(negated, ops);
      this.withSaved([negated], () => this.complements(branches, i + 1, k));
    }
  }

  /** OPA's containsNestedRefOrCall, where a residual made before the negation (`start`) counts as
   * the caller's var it would be in OPA. */
  private nested(s: Expr, start: number): boolean {
    const inside = (this.operands.get(s) ?? []).filter((v): v is Res => v instanceof Res && v.seq > start).map((v) => v.term);
    const isEq = Array.isArray(s.terms) && s.terms[0]?.type === "ref" && opName(s.terms[0].value) === "eq";
    const isCall = Array.isArray(s.terms) && !isEq;
    return inside.some((t) => (isCall ? hasRefOrCall(t) : t.type === "ref" ? t.value.slice(1).some(hasRefOrCall) : hasRefOrCall(t)));
  }

  private madeAfter(name: string, before: number): boolean {
    return (this.made.get(name) ?? 0) > before;
  }

  private evalEvery(frame: Frame, ev: Every, k: K): void {
    this.evalTerm(frame, ev.domain, (dom) => {
      if (dom instanceof Res) throw unsupported("`every` over unknowns", ev.location);
      // a domain that is not a collection: `every` is undefined, as in OPA
      if (typeof dom !== "object" || dom === null) return;
      const view = scanView(dom);
      for (let n = 0; n < view.length; n++) {
        const key = scanKey(dom, view, n);
        const value = scanValue(dom, view, n);
        const mark = this.trail.length;
        if (ev.key?.type === "var") this.bind(frame, ev.key.value, key);
        if (ev.value.type === "var") this.bind(frame, ev.value.value, value);
        const got = this.collect((emit) => this.evalBody(frame, ev.body, 0, () => emit(true)));
        this.undo(mark);
        if (got.some((b) => b.saved.length > 0)) throw unsupported("`every` over unknowns", ev.location);
        if (got.length === 0) return;
      }
      k();
    });
  }

  /** `with input... as v` over known values; anything else under `with` is an error. */
  private evalWith(frame: Frame, e: Expr, k: K): void {
    const ws = e.with;
    const plain: Expr = { ...e, with: [] };
    let input = this.input;
    for (const w of ws) {
      const target = w.target.type === "ref" ? w.target.value : undefined;
      if (!target || target[0]?.type !== "var" || target[0].value !== "input" || target.slice(1).some((t) => t.type !== "string")) {
        throw unsupported("`with` on anything but input", w.location);
      }
      let v: PV | undefined;
      this.evalTerm(frame, w.value, (x) => (v = x));
      if (v === undefined || v instanceof Res) throw unsupported("`with` over unknowns", w.location);
      input = setPath(input, target.slice(1).map((t) => t.value as string), v);
    }
    const outer = this.input;
    const n = this.saved.length;
    this.input = input;
    try {
      this.evalExpr(frame, plain, () => {
        if (this.saved.length > n) throw unsupported("an expression with `with` over unknowns", e.location);
        this.input = outer;
        try {
          k();
        } finally {
          this.input = input;
        }
      });
    } finally {
      this.input = outer;
    }
  }

  // -------------------------------------------------------------------------------------------
  // values as terms

  private toTerm(v: PV, loc: NodeLocation): Term {
    if (v instanceof Res) return v.term;
    return valueToTerm(v, loc);
  }
}

export function valueToTerm(v: Value, loc: NodeLocation): Term {
  if (v === null) return { type: "null", value: null, location: loc };
  if (typeof v === "boolean") return { type: "boolean", value: v, location: loc };
  if (typeof v === "string") return str(v, loc);
  if (isNumber(v)) return { type: "number", value: numberText(v), location: loc };
  if (Array.isArray(v)) return { type: "array", value: v.map((x) => valueToTerm(x, loc)), location: loc };
  if (v instanceof RegoSet) return { type: "set", value: v.sorted().map((x) => valueToTerm(x, loc)), location: loc };
  return { type: "object", value: objectEntries(v).map(([a, b]) => [valueToTerm(a, loc), valueToTerm(b, loc)] as [Term, Term]), location: loc };
}

function isRoot(t: Term): boolean {
  return t.type === "var" && (t.value === "input" || t.value === "data");
}

/** A residual term as the leading terms of a longer ref. */
function refParts(t: Term): Term[] {
  return t.type === "ref" ? [...t.value] : [t];
}

/** `input.a.b` / `data.a.b` from a path of string keys. */
function pathTerms(head: Term, path: readonly string[], loc: NodeLocation): Term[] {
  return [head, ...path.slice(1).map((s) => str(s, loc))];
}

function str(s: string, loc: NodeLocation): Term {
  return { type: "string", value: s, location: loc };
}

function boolTrue(loc: NodeLocation): Term {
  return { type: "boolean", value: true, location: loc };
}

function termExpr(t: Term, loc: NodeLocation): Expr {
  return { type: "expr", index: 0, terms: t, negated: false, with: [], generated: false, location: loc };
}

/** `name(args...)` as an operator expression (the operator ref kept when given). */
function callExpr(name: string, args: Term[], loc: NodeLocation, op?: Term): Expr {
  const ref: Term = op ?? { type: "ref", value: name.split(".").map((s, i) => (i === 0 ? { type: "var", value: s, location: loc } : str(s, loc))), location: loc };
  return { type: "expr", index: 0, terms: [ref, ...args], negated: false, with: [], generated: false, location: loc };
}

/** `eq`, `internal.member_2`, `data.pkg.f`: an operator ref's dotted name (undefined if not static). */
function opName(ref: Ref): string | undefined {
  const parts: string[] = [];
  for (const t of ref) {
    if (t.type !== "var" && t.type !== "string") return undefined;
    parts.push(t.value);
  }
  return parts.join(".");
}

/**
 * The body re-indexed, its wildcards (`$pe<n>`, printed `_`) that occur more than once renamed
 * `__pe<n>__`: printed as `_` each would be a fresh var, and the residual would mean something else.
 */
function nameSharedWildcards(body: Body, named: ReadonlySet<string>): Body {
  const counts = new Map<string, number>();
  for (const e of body) walkTerms(e, (t) => void (t.type === "var" && t.value.startsWith("$pe") && counts.set(t.value, (counts.get(t.value) ?? 0) + 1)));
  const shared = [...counts].filter(([name, n]) => n > 1 || named.has(name)).map(([name]) => name);
  const rename = (t: Term): Term => (t.type === "var" && shared.includes(t.value) ? wildcardName(t) : t);
  return body.map((e, i) => ({ ...(shared.length > 0 ? mapExprTerms(e, rename) : e), index: i }));
}

function wildcardName(t: Term & { type: "var" }): Term {
  return { ...t, value: `__pe${t.value.slice(3)}__` };
}

/** Two object terms' values paired by their constant keys: undefined if a key is not constant,
 * null if the keys differ (the unification fails). */
function matchPairs(a: [Term, Term][], b: [Term, Term][]): [Term[], Term[]] | null | undefined {
  if (![...a, ...b].every(([key]) => isConstant(key))) return undefined;
  if (a.length !== b.length) return null;
  const xs: Term[] = [];
  const ys: Term[] = [];
  for (const [key, v] of a) {
    const kv = termToValue(key);
    const other = b.find(([k2]) => equal(termToValue(k2), kv));
    if (!other) return null;
    xs.push(v);
    ys.push(other[1]);
  }
  return [xs, ys];
}

/** The element of an array or object term at a known key: undefined if there is none, null if
 * that cannot be told (a key that is not constant). */
function element(t: Term & { type: "array" | "object" }, key: Value): Term | undefined | null {
  if (t.type === "array") return typeof key === "number" && Number.isInteger(key) ? t.value[key] : undefined;
  for (const [k, v] of t.value) {
    if (!isConstant(k)) return null;
    if (equal(termToValue(k), key)) return v;
  }
  return undefined;
}

/**
 * OPA's copy propagation on a finished body: `g = t` where g is a residual var of a rule body or
 * a wildcard and t a constant or a var is dropped, g replaced by t everywhere else; then a call
 * whose output g is used once elsewhere is nested there (`plus(input.x, 1, g); g > 2` →
 * `input.x + 1 > 2`).
 */
function propagateCopies(body: Body, locals: ReadonlySet<string>): Body {
  let out = body;
  for (;;) {
    let i = out.findIndex((e) => copyOf(e, locals) !== undefined);
    let g: string;
    let t: Term;
    if (i >= 0) [g, t] = copyOf(out[i]!, locals)!;
    else {
      i = out.findIndex((e, j) => {
        const o = callOutput(e, locals);
        return o !== undefined && out.reduce((n, x, m) => n + (m === j ? 0 : varCount(x, o)), 0) === 1 && varCount(e, o) === 1 && !out.some((x) => refHeadUse(x, o));
      });
      if (i < 0) return out;
      const ts = out[i]!.terms as Term[];
      g = (ts[ts.length - 1] as { value: string }).value;
      t = { type: "call", value: ts.slice(0, -1), location: out[i]!.location };
    }
    const substitute = (x: Term): Term => (x.type === "var" && x.value === g ? t : x);
    out = out.filter((_, j) => j !== i).map((e) => mapExprTerms(e, substitute));
  }
}

/** The output var of a builtin call expression, when it is a residual var of a rule body. */
function callOutput(e: Expr, locals: ReadonlySet<string>): string | undefined {
  if (e.negated || e.with.length > 0 || !Array.isArray(e.terms)) return undefined;
  const op = e.terms[0]!;
  const name = op.type === "ref" ? opName(op.value) : undefined;
  const decl = name !== undefined && name !== "eq" && !name.startsWith("data.") ? builtinDecl(name) : undefined;
  const last = e.terms[e.terms.length - 1]!;
  if (!decl?.result || last.type !== "var" || !locals.has(last.value)) return undefined;
  return e.terms.length - 2 === decl.arity ? last.value : undefined;
}

/** The set without the vars of the terms (a rule head's vars are live: copy propagation keeps them). */
function withoutVars(locals: ReadonlySet<string>, terms: readonly Term[]): ReadonlySet<string> {
  const live = new Set<string>();
  for (const t of terms) walkTerms(t, (x) => void (x.type === "var" && live.add(x.value)));
  return live.size === 0 ? locals : new Set([...locals].filter((v) => !live.has(v)));
}

/** Whether the var heads a ref in the expression (a call cannot take its place there). */
function refHeadUse(e: Expr, name: string): boolean {
  let found = false;
  walkTerms(e, (t) => void (t.type === "ref" && t.value[0]!.type === "var" && t.value[0]!.value === name && (found = true)));
  return found;
}

function varCount(e: Expr, name: string): number {
  let n = 0;
  walkTerms(e, (t) => void (t.type === "var" && t.value === name && n++));
  return n;
}

function copyOf(e: Expr, locals: ReadonlySet<string>): [string, Term] | undefined {
  if (e.negated || e.with.length > 0 || !Array.isArray(e.terms) || e.terms.length !== 3) return undefined;
  const [op, a, b] = e.terms as [Term, Term, Term];
  if (op.type !== "ref" || op.value.length !== 1 || op.value[0]!.type !== "var" || op.value[0]!.value !== "eq") return undefined;
  const usable = (t: Term): boolean => t.type === "var" || isConstant(t);
  if (a.type === "var" && locals.has(a.value) && usable(b) && !(b.type === "var" && b.value === a.value)) return [a.value, b];
  if (b.type === "var" && locals.has(b.value) && usable(a) && !(a.type === "var" && a.value === b.value)) return [b.value, a];
  return undefined;
}

/** Whether ref `a` is `b` or a prefix of it (a read of b reads a). */
function isRefPrefix(a: Ref, b: Ref): boolean {
  return a.length <= b.length && a.every((t, i) => compareTerms(t, b[i]!) === 0);
}

function hasRefOrCall(t: Term): boolean {
  let found = false;
  walkTerms(t, (x) => {
    if (x.type === "ref" || x.type === "call") found = true;
    return found;
  });
  return found;
}

function residualVarNames(e: Expr): string[] {
  const out: string[] = [];
  const visit = (t: Term): void => {
    if (t.type === "var") out.push(t.value);
    else if (t.type === "ref" || t.type === "array" || t.type === "set" || t.type === "call") t.value.slice(t.type === "ref" ? 1 : 0).forEach(visit);
    else if (t.type === "object") t.value.forEach(([a, b]) => (visit(a), visit(b)));
  };
  const ts = e.terms;
  if (Array.isArray(ts)) ts.slice(1).forEach(visit);
  else visit(ts as Term);
  return out;
}

/** A copy of `root` with `value` at `path` (missing objects created), for `with input.x as v`. */
function setPath(root: Value | undefined, path: string[], value: Value): Value {
  if (path.length === 0) return value;
  const obj: Record<string, Value> = Object.create(null) as Record<string, Value>;
  if (root !== undefined && isPlainObject(root)) for (const key of Object.keys(root)) obj[key] = root[key]!;
  obj[path[0]!] = setPath(obj[path[0]!], path.slice(1), value);
  return obj;
}
