// CheckTypes: OPA's type checker. Rules are typed in dependency order (their types go into the
// environment under their paths: a complete rule's value type, a set, an object, a function);
// each body is checked expression by expression: calls against the declared argument types
// ("count: invalid argument(s)"), unification of incompatible types ("match error"), membership,
// references into values whose shape is known ("undefined ref: ..."), functions used as values,
// and `with` replacements of functions by functions of another arity.
import type { Body, Expr, NodeLocation, Ref, Rule, Term } from "../../ast/nodes.js";
import type { CompileContext } from "../context.js";
import type { TreeNode } from "../analysis/ruleTree.js";
import { termsEqual } from "../../ast/compare.js";
import { userNames } from "../../ast/terms.js";
import { opaRef, opaTerm } from "../../ast/print.js";
import { TypeEnv } from "./env.js";
import { checkRefs, type Messages, type TypeError } from "./refs.js";
import { A, fromDecl, isNil, keys, obj, or, set, unifies, values, type MaybeType, type Type } from "./types.js";
import { SchemaScopes } from "./schemaScopes.js";
import { fillNil, hasVars, isDataRef, nested, unify1, unify2 } from "./unify.js";
import { assertNever } from "../../../runtime/errors.js";


class Checker {
  constructor(
    readonly ctx: CompileContext,
    readonly rename: (t: Term) => Term,
    /** Undefined when no schema is in play (the common case costs nothing more). */
    readonly schemas: SchemaScopes | undefined = SchemaScopes.of(ctx),
  ) {}

  // (made at first use: a checker is made for every query, and most need neither)
  private builtinTypes: Map<string, Type> | undefined;
  private readonly msgs: Messages = { err: (m, l, nil) => this.err(m, l, nil), name: (r) => this.name(r) };

  /** The root environment (rule types go in as rules are checked). */
  rootEnv(): TypeEnv {
    const env = new TypeEnv(undefined, (e, t) => this.closureType(e, t));
    this.schemas?.applyInput(env);
    return env;
  }

  /** The type of what a call's operator (or a `with` target) names: a user function under
   * `data`, else a built-in. */
  funcType(env: TypeEnv, ref: Ref): MaybeType {
    if (isDataRef(ref)) return env.getRef(ref);
    const name = opaRef(ref);
    const cache = (this.builtinTypes ??= new Map());
    let t = cache.get(name);
    if (!t) {
      const b = this.ctx.builtins.get(name);
      if (!b) return undefined;
      cache.set(name, (t = fromDecl(b.decl)));
    }
    return t;
  }

  /** Comprehension bodies already checked in an environment (checkClosures, then typing). */
  private closureCache: WeakMap<Term, { env: TypeEnv; result: { env: TypeEnv; errs: readonly TypeError[] } }> | undefined;

  private checkClosureBody(env: TypeEnv, t: Term & { value: { body: Body } }): { env: TypeEnv; errs: readonly TypeError[] } {
    const cache = (this.closureCache ??= new WeakMap());
    const hit = cache.get(t);
    if (hit && hit.env === env) return hit.result;
    const result = this.checkBody(env, t.value.body);
    cache.set(t, { env, result });
    return result;
  }

  closureType(env: TypeEnv, t: Term & { type: "arraycomprehension" | "setcomprehension" | "objectcomprehension" }): MaybeType {
    const { env: cpy, errs } = this.checkClosureBody(env, t);
    if (errs.length > 0) return undefined;
    // what the body leaves undetermined (variables of the enclosing scope not typed yet) is any
    const of = (x: Term): Type => fillNil(cpy.get(x));
    if (t.type === "arraycomprehension") return { kind: "array", static: [], dynamic: of(t.value.term) };
    if (t.type === "setcomprehension") return set(of(t.value.term));
    return obj([], { key: of(t.value.key), value: of(t.value.value) });
  }

  /** `closures` is false when the body is known to hold no comprehensions (facts.ts): the walk
   * looking for them is saved. */
  checkBody(parent: TypeEnv, body: Body, closures = true): { env: TypeEnv; errs: readonly TypeError[] } {
    const env = parent.wrap();
    // (the errors' array is made at the first: most bodies have none)
    let errs: TypeError[] | undefined;
    for (const e of body) {
      const w = e.with.length > 0 ? this.checkWith(env, e) : undefined;
      if (w) {
        (errs ??= []).push(w);
        continue;
      }
      const restore = this.applyWith(env, e);
      try {
        const closureErrs = closures ? this.checkClosures(env, e) : NO_ERRORS;
        if (closureErrs.length > 0) (errs ??= []).push(...closureErrs);
        const before = errs?.length ?? 0;
        errs = checkRefs(env, e, this.msgs, errs);
        const refErrs = (errs?.length ?? 0) > before;
        const err = this.checkExpr(env, e);
        if (err && !((closureErrs.length > 0 || refErrs) && err.nil)) (errs ??= []).push(err);
      } finally {
        restore();
      }
    }
    return { env, errs: errs ?? NO_ERRORS };
  }

  /** The errors of the first comprehension (outermost, in order) whose body has any. */
  private checkClosures(env: TypeEnv, e: Expr): readonly TypeError[] {
    const ts = e.terms;
    if (Array.isArray(ts)) {
      for (const t of ts) {
        const errs = this.closureErrors(env, t);
        if (errs) return errs;
      }
    } else if (ts.type !== "some" && ts.type !== "every" && ts.type !== "and" && ts.type !== "or" && ts.type !== "not") {
      const errs = this.closureErrors(env, ts as Term);
      if (errs) return errs;
    }
    return NO_ERRORS;
  }

  // a method, not a closure made per expression: it runs for every term of every body
  private closureErrors(env: TypeEnv, t: Term): readonly TypeError[] | undefined {
    switch (t.type) {
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension": {
        const { errs } = this.checkClosureBody(env, t);
        return errs.length > 0 ? errs : undefined;
      }
      case "ref":
      case "array":
      case "set":
      case "call":
        for (const x of t.value) {
          const errs = this.closureErrors(env, x);
          if (errs) return errs;
        }
        return undefined;
      case "object":
        for (const [k, v] of t.value) {
          const errs = this.closureErrors(env, k) ?? this.closureErrors(env, v);
          if (errs) return errs;
        }
        return undefined;
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "var":
      case "templatestring":
        return undefined;
      default:
        assertNever(t);
    }
  }

  checkRule(env: TypeEnv, rule: Rule): void {
    // the rule's schema annotations go into a layer of their own; without any, the body's
    // environment wraps the root directly (an empty layer changes no lookup, and costs one)
    const m = this.schemas && this.ctx.ruleModule.get(rule);
    let scoped = env;
    if (m) this.schemas!.applyRule((scoped = env.wrap()), rule, m);
    const { env: cpy, errs } = this.checkBody(scoped, rule.body, this.ctx.mayHoldClosureTerms(rule));
    if (errs.length > 0) {
      this.report(errs);
      env.put(this.ctx.ruleRef(rule), A);
      return;
    }
    // the rule's path is its package's path followed by its head ref (ctx.ruleRef), not made
    // here: a package path is `data` and strings (the parser makes no other), so the vars that
    // cut the path come after the head ref's first term
    const h = rule.head;
    const pkg = this.ctx.ruleModule.get(rule)?.package.path ?? NO_TERMS;
    const href = h.reference;
    let t: MaybeType;
    // arguments the body does not constrain are any
    if (h.args) for (const a of h.args) unconstrainedAreAny(cpy, a);
    if (h.args && h.args.length > 0) {
      t = { kind: "function", args: argTypes(cpy, h.args), result: fillNil(h.value ? cpy.get(h.value) : undefined) };
      env.insertRule(pkg, href, href.length, t);
      return;
    }
    if (h.key !== undefined && h.value === undefined) {
      const k = cpy.get(h.key);
      if (!k) return;
      t = set(fillNil(k));
      const cut = firstFrom1(href, isVar);
      if (cut >= 0) {
        // multi-value rules with vars in their ref: an object of sets
        t = nested(cpy, href.slice(cut), t);
        if (!t) return;
        env.insertRule(pkg, href, cut, t);
        return;
      }
      env.insertRule(pkg, href, href.length, t);
      return;
    }
    const v0 = h.value ? cpy.get(h.value) : undefined;
    const v = v0 ? fillNil(v0) : undefined;
    const cut = firstFrom1(href, hasVars);
    if (cut >= 0) {
      t = nested(cpy, href.slice(cut), v);
      if (t) env.insertRule(pkg, href, cut, t);
      return;
    }
    if (v) env.insertRule(pkg, href, href.length, v);
  }

  report(errs: readonly TypeError[]): void {
    for (const e of errs) this.ctx.err("rego_type_error", e.message, e.location);
  }

  /** Each rule's ref up to its first term with vars, and that as text. */
  private readonly rulePaths = new Map<Rule, { path: Ref; text: string }>();
  private rulePath(r: Rule): { path: Ref; text: string } {
    let p = this.rulePaths.get(r);
    if (!p) {
      const rr = this.ctx.ruleRef(r);
      const cut = rr.findIndex((t, i) => i > 0 && hasVars(t));
      const path = cut < 0 ? rr : rr.slice(0, cut);
      this.rulePaths.set(r, (p = { path, text: opaTerm({ type: "ref", value: path, location: rr[0]!.location }) }));
    }
    return p;
  }

  /** The rules whose ref is a prefix of `ref` or has it as a prefix (found in the rule tree, in
   * the graph's order). */
  private rulesAlong(ref: Ref): Rule[] {
    const graph = this.ctx.graph;
    const out: Rule[] = [];
    if (!graph) return out;
    const along = (r: Rule): void => {
      const rr = this.ctx.ruleRef(r);
      const n = Math.min(rr.length, ref.length);
      for (let i = 0; i < n; i++) if (!termsEqual(rr[i]!, ref[i]!)) return;
      if (graph.position(r) >= 0) out.push(r);
    };
    let node: TreeNode | undefined = this.ctx.ruleTree;
    for (let i = 0; i < ref.length && node; i++) {
      node = node.child(ref[i]!);
      if (node && i < ref.length - 1) node.values.forEach(along);
    }
    const below = (n: TreeNode): void => {
      n.values.forEach(along);
      for (const c of n.children.values()) below(c);
    };
    if (node) below(node);
    return out.sort((a, b) => graph.position(a) - graph.position(b));
  }

  /** The rules that depend on each rule directly (the dependency graph reversed, made once). */
  private dependentsOf: Map<Rule, Rule[]> | undefined;
  private dependents(r: Rule): readonly Rule[] {
    if (!this.dependentsOf) {
      this.dependentsOf = new Map();
      for (const x of this.ctx.graph?.nodes ?? []) {
        for (const d of this.ctx.graph!.dependencies(x)) {
          const list = this.dependentsOf.get(d);
          if (list) list.push(x);
          else this.dependentsOf.set(d, [x]);
        }
      }
    }
    return this.dependentsOf.get(r) ?? [];
  }

  private err(message: string, location: NodeLocation, nil = false): TypeError {
    return { message, location, nil };
  }

  private name(ref: Ref): string {
    return opaRef(ref.map(this.rename));
  }

  checkExpr(env: TypeEnv, e: Expr): TypeError | undefined {
    return this.checkExprInner(env, e);
  }

  /** `with data.x as v` (or a replaced function): what is replaced may have the value's type too,
   * and the rules depending on it may have any type. Applied to the body's environment for the
   * duration of one expression. */
  private applyWith(env: TypeEnv, e: Expr): () => void {
    if (e.with.length === 0) return NOTHING_TO_RESTORE;
    const targets = e.with.filter((w) => w.target.type === "ref" && isDataRef(w.target.value));
    if (targets.length === 0) return NOTHING_TO_RESTORE;
    const saved = env.tree.detachVar("data");
    const affected = new Set<Rule>();
    const nodes = this.ctx.graph?.nodes ?? [];
    for (const w of targets) {
      const ref = (w.target as { value: Ref }).value;
      const orig = env.next?.getRef(ref);
      const vt = env.get(w.value);
      const replaced = orig?.kind === "function" ? A : or(orig, vt ?? A);
      for (const r of this.rulesAlong(ref)) affected.add(r);
      env.put(ref, replaced);
    }
    // rules that depend on replaced ones, transitively (in the graph's order after those)
    const todo = [...affected];
    const closure = new Set<Rule>();
    while (todo.length > 0) {
      for (const d of this.dependents(todo.pop()!)) {
        if (affected.has(d) || closure.has(d)) continue;
        closure.add(d);
        todo.push(d);
      }
    }
    for (const r of nodes) if (closure.has(r)) affected.add(r);
    const replacedPaths = new Set(targets.map((w) => opaTerm(w.target)));
    for (const r of affected) {
      const { path, text } = this.rulePath(r);
      if (!replacedPaths.has(text)) env.put(path, A);
    }
    return () => env.tree.restoreVar("data", saved);
  }

  // (the operands are the expression's terms from index 1: no array is made per expression)
  private checkExprInner(env: TypeEnv, e: Expr): TypeError | undefined {
    const ts = e.terms;
    if (!Array.isArray(ts)) return undefined;
    const op = ts[0]!;
    if (op.type !== "ref") return undefined;
    if (isNamed(op.value, "eq")) return this.checkEq(env, e, ts);
    const member = memberArity(op.value);
    if (member !== 0) {
      const m = this.checkMember(env, e, ts, member === 3);
      if (m) return m;
    }
    return this.checkCall(env, e, op.value, ts);
  }

  private checkWith(env: TypeEnv, e: Expr): TypeError | undefined {
    for (const w of e.with) {
      const target = w.target.type === "ref" ? this.funcType(env, w.target.value) : undefined;
      const value = w.value.type === "ref" ? this.funcType(env, w.value.value) : env.get(w.value);
      if (target?.kind === "function" && value?.kind === "function" && !unifies(target, value)) {
        return this.err(`${this.name((w.target as { value: Ref }).value)}: arity mismatch`, w.location);
      }
    }
    return undefined;
  }

  /** A call's errors; `ts` is the expression's terms (the operands from index 1). */
  private checkCall(env: TypeEnv, e: Expr, op: Ref, ts: Term[]): TypeError | undefined {
    const t = this.funcType(env, op);
    const nargs = ts.length - 1;
    if (!t) return this.err(`undefined function ${this.name(op)}`, e.location, anyNil(env, ts));
    // any, or a union that may be a function (several definitions): nothing to check
    if (t.kind === "any" && (t.of.length === 0 || t.of.some((m) => m.kind === "function"))) return undefined;
    if (t.kind !== "function") return this.err(`undefined function ${this.name(op)}`, e.location, anyNil(env, ts));
    // the declared arguments, then the result
    const nfargs = t.args.length + (t.result ? 1 : 0);
    if (nargs > nfargs && !t.variadic) return this.err(`${this.name(op)}: too many arguments`, e.location, anyNil(env, ts));
    if (nargs < t.args.length) return this.err(`${this.name(op)}: too few arguments`, e.location, anyNil(env, ts));
    // (whether an operand is unknown is decided before the unifications, which type vars)
    const nil = anyNil(env, ts);
    for (let i = 0; i < nargs; i++) {
      const want = i < t.args.length ? t.args[i]! : i < nfargs ? t.result! : t.variadic!;
      if (!unify1(env, ts[i + 1]!, want, false)) return this.err(`${this.name(op)}: invalid argument(s)`, e.location, nil);
    }
    return undefined;
  }

  private checkEq(env: TypeEnv, e: Expr, ts: Term[]): TypeError | undefined {
    const nargs = ts.length - 1;
    if (nargs !== 2) return this.err(`eq: ${nargs < 2 ? "too few" : "too many"} arguments`, e.location);
    const a = ts[1]!;
    const b = ts[2]!;
    const ta = env.get(a);
    const tb = env.get(b);
    if (!unify2(env, a, ta, b, tb)) return this.err("match error", e.location, isNil(ta) || isNil(tb));
    return undefined;
  }

  /** `x in xs` / `k, v in xs`: the operands must be able to be an element (and key) of xs. */
  private checkMember(env: TypeEnv, e: Expr, ts: Term[], three: boolean): TypeError | undefined {
    const args = ts.slice(1);
    const coll = args[three ? 2 : 1];
    if (!coll) return undefined;
    const ct = env.get(coll);
    if (!ct || isNil(ct)) return undefined;
    const check = (t: Term | undefined, want: MaybeType): boolean => {
      if (!t || !want) return true;
      const have = env.get(t);
      if (!have || isNil(have)) return true;
      return unifies(have, want);
    };
    if (three && !check(args[0], keys(ct))) return this.err("match error", e.location);
    if (!check(args[three ? 1 : 0], values(ct))) return this.err("match error", e.location);
    return undefined;
  }

}

const NOTHING_TO_RESTORE = (): void => undefined;

/** A function's argument types. (A function, not a closure in checkRule: hot, see
 * bench/frontend.bench.ts.) */
function argTypes(env: TypeEnv, args: Term[]): Type[] {
  const out: Type[] = new Array(args.length);
  for (let i = 0; i < args.length; i++) out[i] = fillNil(env.get(args[i]!));
  return out;
}

/** Types the vars of an argument the body left untyped as any. */
function unconstrainedAreAny(env: TypeEnv, x: Term): void {
  if (x.type === "var" && !env.get(x)) env.putVar(x.value, A);
  else if (x.type === "array" || x.type === "ref") for (const y of x.value) unconstrainedAreAny(env, y);
  else if (x.type === "object") for (const [, v] of x.value) unconstrainedAreAny(env, v);
}

function isVar(t: Term): boolean {
  return t.type === "var";
}

/** The index of the first term of a rule's head ref after its first that satisfies `f`, or -1. */
function firstFrom1(path: Ref, f: (t: Term) => boolean): number {
  for (let i = 1; i < path.length; i++) if (f(path[i]!)) return i;
  return -1;
}
const NO_ERRORS: readonly TypeError[] = [];
const NO_TERMS: Ref = [];

/** Whether a ref is the one-var ref `name` (how operators like `eq` are written). */
function isNamed(ref: Ref, name: string): boolean {
  const h = ref[0]!;
  return ref.length === 1 && h.type === "var" && h.value === name;
}

/** 2 or 3 for `internal.member_2`/`internal.member_3`, else 0. */
function memberArity(ref: Ref): number {
  if (ref.length !== 2) return 0;
  const h = ref[0]!;
  const m = ref[1]!;
  if (h.type !== "var" || h.value !== "internal" || m.type !== "string") return 0;
  return m.value === "member_2" ? 2 : m.value === "member_3" ? 3 : 0;
}

/** Whether any operand's type holds unknowns (errors caused by those are dropped when a more
 * specific one was reported). */
function anyNil(env: TypeEnv, ts: Term[]): boolean {
  for (let i = 1; i < ts.length; i++) {
    const t = ts[i]!;
    // scalars always have a type (the common operands: no type made for them)
    if (t.type === "string" || t.type === "number" || t.type === "boolean" || t.type === "null") continue;
    if (isNil(env.get(t))) return true;
  }
  return false;
}

/** Maps the compiler's names back to what the user wrote, for messages. */
function renamer(ctx: CompileContext, maps: ReadonlyMap<string, string>[]): (t: Term) => Term {
  return userNames(maps, (v) => ctx.hoisted.get(v));
}

export function checkTypes(ctx: CompileContext): void {
  const checker = new Checker(ctx, renamer(ctx, [ctx.rewrittenVars]));
  const env = checker.rootEnv();
  const sorted = ctx.graph?.sort() ?? [];
  for (const r of sorted) checker.checkRule(env, r);
  ctx.typeEnv = env;
}

export function checkTypesInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  const checker = new Checker(ctx, renamer(ctx, [q.rewritten, ctx.rewrittenVars]));
  const env = ctx.typeEnv ?? checker.rootEnv();
  const { errs } = checker.checkBody(env, q.body);
  checker.report(errs);
}

export type { TypeEnv };
