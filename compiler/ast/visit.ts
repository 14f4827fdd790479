// Walking the AST: OPA's VarVisitor (the variables of a node, with the same skip parameters the
// safety checks use) and generic walkers over terms, expressions, bodies and closures.
import type { Body, Every, Expr, Head, Module, Rule, SomeDecl, Term, With } from "./nodes.js";
import { assertNever } from "../../runtime/errors.js";

/** Where a walk adds the vars it finds: a set, or a list that keeps them distinct itself. */
export interface VarSink {
  add(v: string): unknown;
}

export interface VarParams {
  /** Skip the head (first term) of refs. */
  skipRefHead?: boolean;
  /** Skip the operator of calls (call expressions and call terms). */
  skipRefCallHead?: boolean;
  /** Skip comprehensions, template strings and `every` bodies (closures). */
  skipClosures?: boolean;
  skipObjectKeys?: boolean;
  skipSets?: boolean;
  skipWithTarget?: boolean;
}

/** Every variable (no parameters set): one shared object for the callers that pass it on. */
export const ALL_VARS: VarParams = {};

/** OPA's SafetyCheckVisitorParams. */
export const SAFETY_PARAMS: VarParams = { skipRefCallHead: true, skipClosures: true };

export type VarNode = Term | Expr | Body | Rule | Head | With | SomeDecl | Every | Module;

/** The variables of a node, added to a set or another sink (in the order found). */
export function varsOf(node: VarNode | Term[], params?: VarParams): Set<string>;
export function varsOf<S extends VarSink>(node: VarNode | Term[], params: VarParams, into: S): S;
export function varsOf(node: VarNode | Term[], params: VarParams = ALL_VARS, into: VarSink = new Set<string>()): VarSink {
  new VarCollector(params, into).node(node);
  return into;
}

export function varsOfTerms(terms: readonly Term[], params: VarParams = ALL_VARS, into: Set<string> = new Set()): Set<string> {
  const v = new VarCollector(params, into);
  for (let i = 0; i < terms.length; i++) v.term(terms[i]!);
  return into;
}

/** The variables of terms[from:] (no copy of the array made), added to a set or another sink. */
export function varsOfTermsFrom<S extends VarSink>(terms: readonly Term[], from: number, params: VarParams, into: S): S {
  const v = new VarCollector(params, into);
  for (let i = from; i < terms.length; i++) v.term(terms[i]!);
  return into;
}

class VarCollector {
  constructor(
    readonly p: VarParams,
    readonly vars: VarSink,
  ) {}

  node(n: VarNode | Term[]): void {
    if (Array.isArray(n)) {
      for (let i = 0; i < n.length; i++) {
        const x = n[i]!;
        if ((x as { type: string }).type === "expr") this.expr(x as Expr);
        else this.term(x as Term);
      }
      return;
    }
    switch (n.type) {
      case "expr":
        return this.expr(n);
      case "rule":
        return this.rule(n);
      case "head":
        return this.head(n);
      case "with":
        return this.with(n);
      case "some":
        this.termsFrom(n.symbols, 0);
        return;
      case "every":
        return this.every(n, false);
      case "module":
        for (const r of n.rules) this.rule(r);
        return;
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
        return this.term(n);
      default:
        assertNever(n);
    }
  }

  rule(r: Rule): void {
    this.head(r.head);
    this.body(r.body);
    if (r.else) this.rule(r.else);
  }

  // (the walk runs for nearly every expression of every stage: no arrays are copied on the way,
  // and its loops are indexed; hot, see bench/frontend.bench.ts)

  private body(b: Body): void {
    for (let i = 0; i < b.length; i++) this.expr(b[i]!);
  }

  head(h: Head): void {
    this.refTerms(h.reference);
    if (h.key) this.term(h.key);
    if (h.args) this.termsFrom(h.args, 0);
    if (h.value) this.term(h.value);
  }

  /** The terms of a ref, from index `from`. */
  private termsFrom(ts: Term[], from: number): void {
    for (let i = from; i < ts.length; i++) this.term(ts[i]!);
  }

  /** A call's operator: with skipRefCallHead, only the operands of an operator ref. */
  private operator(op: Term): void {
    if (this.p.skipRefCallHead && op.type === "ref") this.termsFrom(op.value, 1);
    else this.term(op);
  }

  expr(e: Expr): void {
    const ts = e.terms;
    if (Array.isArray(ts)) {
      this.operator(ts[0]!);
      this.termsFrom(ts, 1);
    } else if (ts.type === "some") {
      this.termsFrom(ts.symbols, 0);
    } else if (ts.type === "every") {
      this.every(ts, this.p.skipClosures === true);
    } else if (ts.type === "and" || ts.type === "or") {
      if (!this.p.skipClosures) {
        this.body(ts.lhs);
        this.body(ts.rhs);
      }
    } else if (ts.type === "not") {
      if (!this.p.skipClosures) this.body(ts.body);
    } else {
      this.term(ts as Term);
    }
    const ws = e.with;
    for (let i = 0; i < ws.length; i++) this.with(ws[i]!);
  }

  every(ev: Every, closure: boolean): void {
    if (closure) {
      this.term(ev.domain);
      return;
    }
    if (ev.key) this.term(ev.key);
    this.term(ev.value);
    this.term(ev.domain);
    this.body(ev.body);
  }

  with(w: With): void {
    if (this.p.skipWithTarget) {
      this.term(w.value);
      return;
    }
    if (this.p.skipRefCallHead) {
      if (w.target.type === "ref") this.termsFrom(w.target.value, 1);
      if (w.value.type === "ref") this.termsFrom(w.value.value, 1);
      else this.term(w.value);
      return;
    }
    this.term(w.target);
    this.term(w.value);
  }

  refTerms(ref: Term[]): void {
    this.termsFrom(ref, this.p.skipRefHead ? 1 : 0);
  }

  term(t: Term): void {
    switch (t.type) {
      case "var":
        this.vars.add(t.value);
        return;
      case "ref":
        return this.refTerms(t.value);
      case "array":
        this.termsFrom(t.value, 0);
        return;
      case "set":
        if (this.p.skipSets) return;
        this.termsFrom(t.value, 0);
        return;
      case "object": {
        const kvs = t.value;
        for (let i = 0; i < kvs.length; i++) {
          if (!this.p.skipObjectKeys) this.term(kvs[i]![0]);
          this.term(kvs[i]![1]);
        }
        return;
      }
      case "call":
        this.operator(t.value[0]!);
        this.termsFrom(t.value, 1);
        return;
      case "arraycomprehension":
      case "setcomprehension":
        if (this.p.skipClosures) return;
        this.term(t.value.term);
        this.body(t.value.body);
        return;
      case "objectcomprehension":
        if (this.p.skipClosures) return;
        this.term(t.value.key);
        this.term(t.value.value);
        this.body(t.value.body);
        return;
      case "templatestring":
        if (this.p.skipClosures) return;
        for (const part of t.value.parts) {
          if ((part as { type: string }).type === "expr") this.expr(part as Expr);
          else this.term(part as Term);
        }
        return;
      case "string":
      case "number":
      case "boolean":
      case "null":
        return;
      default:
        assertNever(t);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Generic walkers. A callback returning true stops the descent below that node.

export type TermVisitor = (t: Term) => boolean | void;

/** Visits every term under a node, outermost first (comprehension and every bodies included). */
export function walkTerms(node: VarNode | Term[], f: TermVisitor): void {
  new TermWalker(f).any(node);
}

/** Visits every expression under a node (including those in comprehension and every bodies).
 * Returning true stops the descent into that expression's closures. */
export function walkExprs(node: VarNode | Term[], f: (e: Expr) => boolean | void): void {
  new ExprWalker(f).any(node);
}

/** A recursive walk of everything that holds terms; subclasses say what to do at each
 * expression and term (plain methods, no callbacks: the hot walks of the stages use it). */
export abstract class Walker {
  abstract expr(e: Expr): void;
  abstract term(t: Term): void;

  any(node: VarNode | Term[]): void {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const x = node[i]!;
        if ((x as { type: string }).type === "expr") this.expr(x as Expr);
        else this.term(x as Term);
      }
      return;
    }
    switch (node.type) {
      case "expr":
        return this.expr(node);
      case "module":
        for (let i = 0; i < node.rules.length; i++) this.any(node.rules[i]!);
        return;
      case "rule":
        this.any(node.head);
        this.body(node.body);
        if (node.else) this.any(node.else);
        return;
      case "head": {
        const ref = node.reference;
        this.terms(ref);
        if (node.args) this.terms(node.args);
        if (node.key && node.key !== ref[ref.length - 1]) this.term(node.key);
        if (node.value) this.term(node.value);
        return;
      }
      case "with":
        this.term(node.target);
        this.term(node.value);
        return;
      case "some":
        this.terms(node.symbols);
        return;
      case "every":
        if (node.key) this.term(node.key);
        this.term(node.value);
        this.term(node.domain);
        this.body(node.body);
        return;
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
        return this.term(node);
      default:
        assertNever(node);
    }
  }

  /** The sub-terms and bodies of a term. */
  children(t: Term): void {
    switch (t.type) {
      case "ref":
      case "array":
      case "set":
      case "call": {
        const xs = t.value;
        for (let i = 0; i < xs.length; i++) this.term(xs[i]!);
        return;
      }
      case "object": {
        const kvs = t.value;
        for (let i = 0; i < kvs.length; i++) {
          const kv = kvs[i]!;
          this.term(kv[0]);
          this.term(kv[1]);
        }
        return;
      }
      case "arraycomprehension":
      case "setcomprehension":
        this.term(t.value.term);
        this.body(t.value.body);
        return;
      case "objectcomprehension":
        this.term(t.value.key);
        this.term(t.value.value);
        this.body(t.value.body);
        return;
      case "templatestring": {
        const parts = t.value.parts;
        for (let i = 0; i < parts.length; i++) {
          const p = parts[i]!;
          if ((p as { type: string }).type === "expr") this.expr(p as Expr);
          else this.term(p as Term);
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

  /** The expressions of a body, in order. */
  body(b: Body): void {
    for (let i = 0; i < b.length; i++) this.expr(b[i]!);
  }

  /** The terms of an array of terms, in order. */
  terms(ts: readonly Term[]): void {
    for (let i = 0; i < ts.length; i++) this.term(ts[i]!);
  }

  /** The terms and bodies of an expression. */
  parts(e: Expr, withTargets: boolean): void {
    const ts = e.terms;
    if (Array.isArray(ts)) this.terms(ts);
    else if (ts.type === "some") this.terms(ts.symbols);
    else if (ts.type === "every") {
      if (withTargets && ts.key) this.term(ts.key);
      if (withTargets) this.term(ts.value);
      this.term(ts.domain);
      this.body(ts.body);
    } else if (ts.type === "and" || ts.type === "or") {
      this.body(ts.lhs);
      this.body(ts.rhs);
    } else if (ts.type === "not") this.body(ts.body);
    else this.term(ts as Term);
    const ws = e.with;
    for (let i = 0; i < ws.length; i++) {
      if (withTargets) this.term(ws[i]!.target);
      this.term(ws[i]!.value);
    }
  }
}

class TermWalker extends Walker {
  constructor(private readonly f: TermVisitor) {
    super();
  }
  expr(e: Expr): void {
    this.parts(e, true);
  }
  term(t: Term): void {
    if (this.f(t) !== true) this.children(t);
  }
}

/** walkExprs' walker, which a hot walk (CheckUndefinedFuncs) keeps and reuses. */
export class ExprWalker extends Walker {
  /** False for a node known to hold no comprehensions or template strings (facts.ts): terms are
   * skipped (then only `every` bodies and `and`/`or`/`not` groups hold expressions below
   * expressions). */
  intoTerms = true;
  constructor(private readonly f: (e: Expr) => boolean | void) {
    super();
  }
  expr(e: Expr): void {
    if (this.f(e) !== true) this.parts(e, false);
  }
  term(t: Term): void {
    if (this.intoTerms) this.children(t);
  }
}

/** Calls f on every body under a node: rule bodies, comprehension bodies, every bodies. */
export function walkBodies(node: VarNode, f: (b: Body) => void): void {
  if (Array.isArray(node)) f(node as Body);
  else if (node.type === "rule") f(node.body);
  const seen = new Set<Body>();
  walkTerms(node, (t) => {
    if (t.type === "arraycomprehension" || t.type === "setcomprehension" || t.type === "objectcomprehension") {
      if (!seen.has(t.value.body)) {
        seen.add(t.value.body);
        f(t.value.body);
      }
    }
  });
  walkExprs(node, (e) => {
    if (!Array.isArray(e.terms) && e.terms.type === "every" && !seen.has(e.terms.body)) {
      seen.add(e.terms.body);
      f(e.terms.body);
    }
  });
}


export function isGenerated(v: string): boolean {
  return v.startsWith("__local");
}
export function isWildcard(v: string): boolean {
  return v.startsWith("$");
}

/** Whether any term under a node satisfies `pred` (stops at the first). */
export function someTerm(node: VarNode | Term[], pred: (t: Term) => boolean): boolean {
  let found = false;
  walkTerms(node, (t) => {
    if (found) return true;
    if (pred(t)) found = true;
    return found;
  });
  return found;
}
