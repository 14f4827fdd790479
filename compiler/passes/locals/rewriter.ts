// The rewriter behind RewriteLocalVars: walks a body with a stack of declared scopes, gives each
// declared variable (`:=`, `some`, `every`, comprehension scopes) its generated name, and records
// the errors OPA reports (redeclaration, assignment to non-variables, use before declaration,
// `some` and `every` misuse; unused variables in strict mode).
import type { Body, Expr, Rule, Term, With } from "../../ast/nodes.js";
import type { LocalVarGen } from "../context.js";
import { LocalDeclaredVars, Occurrence } from "./scopes.js";
import { outputVarsForExprEq } from "../safety/outputVars.js";
import { declaredVars } from "../resolveRefs.js";
import { boolTerm, isAssignment, isEvery, isScalar, isSome, nameRef, newExpr, refTerm, validEqAssignArgCount, varTerm, withTerms } from "../../ast/terms.js";
import { opaTerm } from "../../ast/print.js";
import { isWildcard, varsOf, varsOfTerms } from "../../ast/visit.js";
import { assertNever } from "../../../runtime/errors.js";

type Errs = { code: "rego_compile_error"; message: string; at: Term | Expr | With | Rule | { location: Term["location"] } }[];

export class Rewriter {
  readonly errs: Errs = [];
  constructor(
    readonly gen: LocalVarGen,
    readonly strict: boolean,
  ) {}

  error(message: string, at: { location: Term["location"] }): void {
    this.errs.push({ code: "rego_compile_error", message, at });
  }

  body(stack: LocalDeclaredVars, used: Set<string>, body: Body): Body {
    const errsBefore = this.errs.length;
    // the expressions are rewritten in place; only `some` replaces (or drops) one: a new body is
    // made from the first of those on, else the body itself is the result
    let out: Body | undefined;
    for (let i = 0; i < body.length; i++) {
      const e = body[i]!;
      let x: Expr | undefined;
      if (isAssignment(e)) {
        stack.assignment = true;
        x = this.assignment(stack, e);
      } else if (isSome(e)) x = this.some(stack, e);
      else if (isEvery(e)) x = this.every(stack, e);
      else x = this.expr(stack, e);
      if (x === e && out === undefined) continue;
      out ??= body.slice(0, i);
      if (x) out.push(x);
    }
    out ??= body;
    if (out.length === 0) out.push(newExpr(boolTerm(true, body[0]!.location), body[0]!.location));
    if (this.strict && this.errs.length === errsBefore) this.checkUnusedAssigned(body, stack, used);
    if (this.errs.length === errsBefore) this.checkUnusedDeclared(body, stack, used, out);
    return out;
  }

  private checkUnusedAssigned(body: Body, stack: LocalDeclaredVars, used: Set<string>): void {
    const unused: string[] = [];
    for (const [v, { occurrence, name }] of stack.peek()) {
      if (occurrence === Occurrence.Assigned && !isWildcard(v) && stack.count(v) <= 1) unused.push(name!);
    }
    if (unused.length === 0) return;
    const rewrittenUsed = new Set([...used].map((v) => stack.declared(v) ?? v));
    const reversed = reverse(stack);
    for (const gv of unused.filter((v) => !rewrittenUsed.has(v)).sort()) {
      const at = body.find((e) => varsOf(e).has(gv)) ?? body[0]!;
      this.error(`assigned var ${reversed.get(gv)} unused`, at);
    }
  }

  private checkUnusedDeclared(body: Body, stack: LocalDeclaredVars, used: Set<string>, out: Body): void {
    // A declared var used since its declaration (count above 1) is in the rewritten body: every
    // use counted is a var of `out` renamed to the generated name. Only when some declared var
    // was not counted is the body walked for its vars (a var can also get its generated name
    // without being counted: a bare `input`/`data` ref replaced by a declared var).
    let uncounted = false;
    for (const e of stack.peek().values()) if (e.occurrence === Occurrence.Declared && e.count <= 1) uncounted = true;
    if (!uncounted) return;
    const declared = new Set<string>();
    for (const { occurrence, name } of stack.peek().values()) if (occurrence === Occurrence.Declared) declared.add(name!);
    const bodyVars = varsOf(out);
    for (const v of used) bodyVars.add(stack.declared(v) ?? v);
    const reversed = reverse(stack);
    for (const gv of [...declared].filter((v) => !bodyVars.has(v) && !used.has(v)).sort()) {
      const rv = reversed.get(gv)!;
      if (rv.startsWith("__local")) continue;
      const at = body.find((e) => declaredVars(e).has(rv)) ?? body[0]!;
      this.error(`declared var ${rv} unused`, at);
    }
  }

  /** Renames a declaration; reports redeclarations in the same scope. */
  declare(stack: LocalDeclaredVars, v: string, occ: Occurrence): string | string[] {
    switch (stack.occurrence(v)) {
      case Occurrence.Seen:
        return [`var ${v} referenced above`];
      case Occurrence.Assigned:
        return [`var ${v} assigned above`];
      case Occurrence.Declared:
        return [`var ${v} declared above`];
      case Occurrence.Arg:
        return [`arg ${v} redeclared`];
    }
    const gv = this.gen.generate();
    stack.insert(v, gv, occ);
    return gv;
  }

  assignment(stack: LocalDeclaredVars, e: Expr & { terms: Term[] }): Expr {
    if (e.negated) {
      this.error("cannot assign vars inside negated expression", e);
      return e;
    }
    const before = this.errs.length;
    if (!validEqAssignArgCount(e)) return e;
    this.term(stack, e.terms[2]!);
    const ws = e.with;
    for (let i = 0; i < ws.length; i++) this.term(stack, ws[i]!.value);
    this.assignTo(stack, e.terms[1]!);
    if (this.errs.length === before) {
      e.terms[0] = nameRef("eq", e.terms[0]!.location);
      e.assigned = true;
    }
    return e;
  }

  /** The left side of `:=`: declares its vars. */
  private assignTo(stack: LocalDeclaredVars, t: Term): void {
    switch (t.type) {
      case "var": {
        const gv = this.declare(stack, t.value, Occurrence.Assigned);
        if (typeof gv === "string") (t as { value: string }).value = gv;
        else this.error(gv[0]!, t);
        return;
      }
      case "array":
        for (const x of t.value) this.assignTo(stack, x);
        return;
      case "object":
        for (const [, v] of t.value) this.assignTo(stack, v);
        return;
      case "ref":
        if (isRootDocRef(t)) {
          const gv = this.declare(stack, (t.value[0] as { value: string }).value, Occurrence.Assigned);
          if (typeof gv === "string") replaceWithVar(t, gv);
          else this.error(gv[0]!, t);
          return;
        }
        break;
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "set":
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
      case "call":
      case "templatestring":
        break;
      default:
        assertNever(t);
    }
    this.error(`cannot assign to ${t.type}`, t);
  }

  some(stack: LocalDeclaredVars, e: Expr): Expr | undefined {
    const decl = (e.terms as { symbols: Term[]; location: Term["location"] });
    const symbols = decl.symbols;
    for (let i = 0; i < symbols.length; i++) {
      const s = symbols[i]!;
      if (s.type === "var") {
        const gv = this.declare(stack, s.value, Occurrence.Declared);
        if (typeof gv !== "string") {
          this.error(gv[0]!, decl);
          return undefined;
        }
      } else if (s.type === "call") {
        // (the call's operands read in place: `some k, v in xs` is member_3(k, v, xs), `some v in
        // xs` member_2(v, xs))
        const ops = s.value;
        const three = ops.length === 4;
        const key = three ? ops[1]! : varTerm(this.gen.generate(), s.location);
        const val = ops[three ? 2 : 1]!;
        const container = ops[three ? 3 : 2]!;
        // (concat: the ref's terms at their final length, kept in the AST; a spread would leave
        // spare room)
        const rhs = container.type === "ref" ? refTerm(container.value.concat([key]), container.location) : refTerm([container, key], container.location);
        const x = withTerms(e, [nameRef("eq", e.location), val, rhs]);
        const outputs = outputVarsForExprEq(x as Expr & { terms: Term[] }, varsOf(container));
        const declared = inNameOrder(outputs);
        for (let k = 0; k < declared.length; k++) {
          const gv = this.declare(stack, declared[k]!, Occurrence.Declared);
          if (typeof gv !== "string") {
            this.error(gv[0]!, decl);
            return undefined;
          }
        }
        return this.expr(stack, x);
      }
    }
    return undefined;
  }

  every(stack: LocalDeclaredVars, e: Expr): Expr | undefined {
    const ev = e.terms as import("../../ast/nodes.js").Every;
    this.term(stack, ev.domain);
    stack.push();
    try {
      if (ev.key) {
        const k = ev.key as Term;
        if (k.type === "var" && !isWildcard(k.value)) {
          const gv = this.declare(stack, k.value, Occurrence.Declared);
          if (typeof gv !== "string") {
            this.error(gv[0]!, ev);
            return undefined;
          }
          k.value = gv;
        }
      } else {
        ev.key = varTerm(this.gen.generate(), ev.location);
      }
      const v = ev.value;
      if (v.type === "var" && !isWildcard(v.value)) {
        const gv = this.declare(stack, v.value, Occurrence.Declared);
        if (typeof gv !== "string") {
          this.error(gv[0]!, ev);
          return undefined;
        }
        v.value = gv;
      }
      ev.body = this.body(stack, new Set(), ev.body);
      for (const w of e.with) this.with(stack, w);
    } finally {
      stack.pop();
    }
    return e;
  }

  // (indexed loops in expr and term: hot, see bench/frontend.bench.ts)
  expr(stack: LocalDeclaredVars, e: Expr): Expr {
    const ts = e.terms;
    if (Array.isArray(ts)) this.terms(stack, ts);
    else if (ts.type === "and" || ts.type === "or") {
      if (!ts.explicitLhs) this.noAssignments(ts.lhs, `implicit ${ts.type} operand`);
      if (!ts.explicitRhs) this.noAssignments(ts.rhs, `implicit ${ts.type} operand`);
      ts.lhs = this.nested(stack, ts.lhs);
      ts.rhs = this.nested(stack, ts.rhs);
    } else if (ts.type === "not") {
      if (!ts.explicitBody) this.noAssignments(ts.body, "negated expression");
      ts.body = this.nested(stack, ts.body);
    }
    else if (ts.type !== "every" && ts.type !== "some") this.term(stack, ts as Term);
    const ws = e.with;
    for (let i = 0; i < ws.length; i++) this.with(stack, ws[i]!);
    return e;
  }

  private terms(stack: LocalDeclaredVars, ts: Term[]): void {
    for (let i = 0; i < ts.length; i++) this.term(stack, ts[i]!);
  }

  /** An implicit operand is a condition: it may not declare variables. */
  private noAssignments(body: Body, what: string): void {
    for (const e of body) if (isAssignment(e)) this.error(`cannot assign vars inside ${what}`, e);
  }

  private nested(stack: LocalDeclaredVars, body: Body): Body {
    stack.push();
    try {
      return this.body(stack, new Set(), body);
    } finally {
      stack.pop();
    }
  }

  with(stack: LocalDeclaredVars, w: With): void {
    this.term(stack, w.target);
    const shadowed = stack.declared("input");
    if (shadowed !== undefined) {
      const t = w.target;
      if (t.type === "var" && t.value === shadowed) replaceWithRef(t, "input");
      else if (t.type === "ref" && t.value[0]!.type === "var" && t.value[0]!.value === shadowed) (t.value[0] as { value: string }).value = "input";
    }
    this.term(stack, w.value);
  }

  /** Rewrites the uses of declared vars in a term (and the declarations in its closures). */
  term(stack: LocalDeclaredVars, t: Term): void {
    switch (t.type) {
      case "var": {
        const gv = stack.declared(t.value);
        if (gv !== undefined) {
          stack.seen(t.value);
          t.value = gv;
        } else if (stack.occurrence(t.value) === Occurrence.New) {
          stack.insert(t.value, t.value, Occurrence.Seen);
        }
        return;
      }
      case "ref": {
        if (isRootDocRef(t)) {
          const x = (t.value[0] as { value: string }).value;
          const occ = stack.globalOccurrence(x);
          if (occ !== undefined && occ !== Occurrence.Seen) replaceWithVar(t, stack.declared(x)!);
          return;
        }
        this.terms(stack, t.value);
        return;
      }
      case "call": {
        const op = t.value[0]!;
        if (op.type === "ref" && callsShadowed(stack, op.value)) this.error(`called function ${opaTerm(op)} shadowed`, t);
        this.terms(stack, t.value);
        return;
      }
      case "array":
      case "set":
        this.terms(stack, t.value);
        return;
      case "object": {
        const kvs = t.value;
        for (let i = 0; i < kvs.length; i++) {
          this.term(stack, kvs[i]![0]);
          this.term(stack, kvs[i]![1]);
        }
        return;
      }
      case "arraycomprehension":
      case "setcomprehension": {
        const used = varsOf(t.value.term);
        stack.push();
        t.value.body = this.body(stack, used, t.value.body);
        this.term(stack, t.value.term);
        stack.pop();
        return;
      }
      case "objectcomprehension": {
        const used = varsOfTerms([t.value.key, t.value.value]);
        stack.push();
        t.value.body = this.body(stack, used, t.value.body);
        this.term(stack, t.value.key);
        this.term(stack, t.value.value);
        stack.pop();
        return;
      }
      case "templatestring":
        for (const p of t.value.parts) {
          if ((p as { type: string }).type === "expr") this.expr(stack, p as Expr);
          else this.term(stack, p as Term);
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

/** Whether a var of a called operator's ref is one the stack renames (a local shadowing the
 * function). An operator ref of vars and scalars (nearly all) is read directly, the others by
 * their var set; a call's operator is checked for every call. */
function callsShadowed(stack: LocalDeclaredVars, ref: Term[]): boolean {
  let plain = true;
  for (let i = 0; i < ref.length; i++) {
    const x = ref[i]!;
    if (x.type === "var") {
      const gv = stack.declared(x.value);
      if (gv !== undefined && gv !== x.value) return true;
    } else if (!isScalar(x)) plain = false;
  }
  if (plain) return false;
  for (const v of varsOfTerms(ref)) {
    const gv = stack.declared(v);
    if (gv !== undefined && gv !== v) return true;
  }
  return false;
}

/** Names sorted as Array.prototype.sort sorts strings (by UTF-16 code units); a `some` declares
 * one or two, which an insertion sort orders without the library sort's allocations. */
function inNameOrder(names: readonly string[]): readonly string[] {
  if (names.length < 2) return names;
  const out = names.slice();
  for (let i = 1; i < out.length; i++) {
    const x = out[i]!;
    let j = i - 1;
    for (; j >= 0 && out[j]! > x; j--) out[j + 1] = out[j]!;
    out[j + 1] = x;
  }
  return out;
}

/** The innermost scope's generated names → original names. */
function reverse(stack: LocalDeclaredVars): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, { name }] of stack.peek()) if (name !== undefined) out.set(name, k);
  return out;
}

function isRootDocRef(t: Term): boolean {
  return t.type === "ref" && t.value.length === 1 && t.value[0]!.type === "var" && (t.value[0]!.value === "input" || t.value[0]!.value === "data");
}

function replaceWithVar(t: Term, name: string): void {
  const m = t as unknown as { type: string; value: unknown };
  m.type = "var";
  m.value = name;
}
function replaceWithRef(t: Term, root: string): void {
  const m = t as unknown as { type: string; value: unknown };
  m.type = "ref";
  m.value = [varTerm(root, t.location)];
}
