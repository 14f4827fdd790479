// ResolveRefs: every reference to a rule of the same package or to an import becomes fully
// qualified (`p` → `data.pkg.p`, `bar[_]` → `data.foo.bar[_]` under `import data.foo.bar`), except
// where a local declaration (`:=`, `some`, function arguments) shadows the name. In strict mode,
// imports that are never used are errors.
import type { Body, Expr, Import, Module, Ref, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { copyTerm } from "../ast/copy.js";
import { isAssignment, isGround, refTerm, stringTerm, validEqAssignArgCount } from "../ast/terms.js";
import { opaRef } from "../ast/print.js";
import { varsOf, type VarParams } from "../ast/visit.js";
import { assertNever } from "../../runtime/errors.js";

interface Global {
  ref: Ref;
  used: boolean;
}

/**
 * The names a module resolves: its imports (by the name they bind), else the rules of its package.
 * A package's rule names and their refs are shared by all its modules and made on first use (a
 * package split over many files would otherwise build every name's ref once per file). Only the
 * imports' `used` flags are read (strict mode).
 */
class Globals {
  constructor(
    private readonly imports: ReadonlyMap<string, Global>,
    private readonly pkg?: PackageRules,
  ) {}

  get(name: string): Global | undefined {
    return this.imports.get(name) ?? this.pkg?.get(name);
  }
}

/** A package's rule names → `data.<pkg>.<name>` (the location is the use's: see globalRef). */
class PackageRules {
  private readonly refs = new Map<string, Global>();
  constructor(
    private readonly path: Ref,
    readonly names: Set<string>,
  ) {}

  get(name: string): Global | undefined {
    if (!this.names.has(name)) return undefined;
    let g = this.refs.get(name);
    if (!g) this.refs.set(name, (g = { ref: [...this.path, stringTerm(name, this.path[0]?.location!)], used: false }));
    return g;
  }
}

export function resolveRefs(ctx: CompileContext): void {
  const modules = ctx.modules;
  // each module's package, and the modules of each package whose rule names are yet to be
  // collected: they are, right before the package's first module is resolved (a package of one
  // module, the common case, then has its rules' heads in the processor's caches when they are
  // resolved)
  const pkgOf: PackageRules[] = [];
  const uncollected = new Map<PackageRules, Module[]>();
  const packages = new Map<string, PackageRules>();
  for (let i = 0; i < modules.length; i++) {
    const m = modules[i]!;
    const key = pkgKey(m.package.path);
    let p = packages.get(key);
    if (!p) {
      packages.set(key, (p = new PackageRules(m.package.path, new Set())));
      uncollected.set(p, [m]);
    } else uncollected.get(p)!.push(m);
    pkgOf.push(p);
  }
  for (let i = 0; i < modules.length; i++) {
    const m = modules[i]!;
    const pkg = pkgOf[i]!;
    const members = uncollected.get(pkg);
    if (members) {
      uncollected.delete(pkg);
      for (let k = 0; k < members.length; k++) addRuleNames(members[k]!, pkg.names);
    }
    const globals = getGlobals(pkg, m.imports);
    const facts = ctx.factCollector(m);
    const rules = m.rules;
    for (let j = 0; j < rules.length; j++) {
      const top = rules[j]!;
      for (let r: Rule | undefined = top; r; r = r.else) {
        const err = resolveRefsInRule(globals, r);
        if (err) ctx.err("rego_compile_error", err, r.location);
      }
      // the module's facts (facts.ts), while the rule just resolved is in the caches
      facts.addRule(top);
    }
    if (ctx.strict) {
      for (const imp of m.imports) {
        if (isDirective(imp)) continue;
        const g = globals.get(importName(imp));
        if (g && !g.used) ctx.err("rego_compile_error", `${importString(imp)} unused`, imp.location);
      }
    }
  }
}

/** Adds the names of a module's rules (their heads' first var) to `names`. */
function addRuleNames(m: Module, names: Set<string>): void {
  const rules = m.rules;
  for (let j = 0; j < rules.length; j++) {
    const head = rules[j]!.head.reference[0];
    if (head?.type === "var") names.add(head.value);
  }
}

/** ResolveRefs for a query: only names declared in it are left alone. */
export function resolveRefsInQuery(ctx: CompileContext): void {
  const q = ctx.query!;
  let globals = new Globals(new Map());
  if (q.pkg || (q.imports && q.imports.length > 0)) {
    const pkg = q.pkg ?? [];
    const exports = new Set<string>();
    for (const m of ctx.modules) {
      if (pkgKey(m.package.path) !== pkgKey(pkg)) continue;
      for (const r of m.rules) if (r.head.reference[0]?.type === "var") exports.add(r.head.reference[0].value);
    }
    globals = getGlobals(new PackageRules(pkg, exports), q.imports ?? []);
  }
  const ignore = new DeclaredStack([declaredVars(q.body)]);
  // (a new array, as the caller's body was given)
  q.body = resolveBody(globals, ignore, q.body).slice();
}

function pkgKey(path: Ref): string {
  return path.map((t) => (t as { value: string }).value).join("\u0000");
}

function isDirective(imp: Import): boolean {
  const head = imp.path.type === "ref" ? imp.path.value[0] : imp.path;
  return head?.type === "var" && (head.value === "future" || head.value === "rego");
}

/** The name an import binds: its alias, or the last segment of its path. */
export function importName(imp: Import): string {
  if (imp.alias) return imp.alias;
  const path = imp.path.type === "ref" ? imp.path.value : [imp.path];
  const last = path[path.length - 1]!;
  return (last as { value: string }).value;
}

export function importString(imp: Import): string {
  const path = imp.path.type === "ref" ? imp.path.value : [imp.path];
  return `import ${opaRef(path)}${imp.alias ? ` as ${imp.alias}` : ""}`;
}

function getGlobals(pkg: PackageRules | undefined, imports: readonly Import[]): Globals {
  const bound = new Map<string, Global>();
  for (const imp of imports) {
    if (isDirective(imp)) continue;
    const path = imp.path.type === "ref" ? imp.path.value : [imp.path];
    bound.set(importName(imp), { ref: path, used: false });
  }
  return new Globals(bound, pkg);
}

export class DeclaredStack {
  constructor(private readonly frames: ReadonlySet<string>[] = []) {}
  has(v: string): boolean {
    const fs = this.frames;
    for (let i = 0; i < fs.length; i++) if (fs[i]!.has(v)) return true;
    return false;
  }
  push(s: ReadonlySet<string>): void {
    this.frames.push(s);
  }
  pop(): void {
    this.frames.pop();
  }
}

// (shared by the bodies that declare nothing, most of them)
const NO_VARS: ReadonlySet<string> = new Set();

/** The vars a body declares with `:=` or `some` (not looking into comprehensions). */
export function declaredVars(body: Body | Expr): ReadonlySet<string> {
  let out: Set<string> | undefined;
  if (Array.isArray(body)) for (let i = 0; i < body.length; i++) out = declaredIn(body[i]!, out);
  else out = declaredIn(body, out);
  return out ?? NO_VARS;
}

/** Adds the vars `e` declares to `out`, made when there are any; returns it. */
function declaredIn(e: Expr, out: Set<string> | undefined): Set<string> | undefined {
  const ts = e.terms;
  if (isAssignment(e) && validEqAssignArgCount(e)) {
    collectVars(e.terms[1]!, (out ??= new Set()));
  } else if (!Array.isArray(ts) && ts.type === "some") {
    const symbols = ts.symbols;
    for (let i = 0; i < symbols.length; i++) {
      const s = symbols[i]!;
      if (s.type === "var") (out ??= new Set()).add(s.value);
      else if (s.type === "call") {
        // the call's operands: `some k, v in xs` declares k and v, `some v in xs` v
        const args = s.value;
        if (args.length === 4) collectVars(args[2]!, (out ??= new Set()));
        collectVars(args[1]!, (out ??= new Set()));
      }
    }
  } else if (!Array.isArray(ts) && ts.type === "every") {
    // every bodies are visited (OPA's generic visitor descends into them)
    const body = ts.body;
    for (let i = 0; i < body.length; i++) out = declaredIn(body[i]!, out);
  }
  return out;
}

/** The vars of `t` outside its closures (comprehensions, template strings), added to `out`. */
function collectVars(t: Term, out: Set<string>): void {
  varsOf(t, OUTSIDE_CLOSURES, out);
}

const OUTSIDE_CLOSURES: VarParams = { skipClosures: true };

/** Adds the vars of a function argument to `argVars`; the error if it shadows `input`/`data`
 * (the walk stops at the first). */
function argVarsOf(t: Term, argVars: Set<string>): string | undefined {
  switch (t.type) {
    case "var":
      argVars.add(t.value);
      return undefined;
    case "ref":
      if (t.value.length === 1 && t.value[0]!.type === "var" && (t.value[0]!.value === "input" || t.value[0]!.value === "data")) {
        return `args must not shadow ${t.value[0]!.value} (use a different variable name)`;
      }
      for (const x of t.value) {
        const err = argVarsOf(x, argVars);
        if (err) return err;
      }
      return undefined;
    case "array":
      for (const x of t.value) {
        const err = argVarsOf(x, argVars);
        if (err) return err;
      }
      return undefined;
    case "object":
      for (const [, v] of t.value) {
        const err = argVarsOf(v, argVars);
        if (err) return err;
      }
      return undefined;
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
      return undefined;
    default:
      assertNever(t);
  }
}

function resolveRefsInRule(globals: Globals, rule: Rule): string | undefined {
  let argVars: ReadonlySet<string> = NO_VARS;
  const args = rule.head.args;
  if (args && args.length > 0) {
    const vars = new Set<string>();
    for (let i = 0; i < args.length; i++) {
      const err = argVarsOf(args[i]!, vars);
      if (err) return err;
    }
    argVars = vars;
  }
  const ignore = new DeclaredStack([argVars, declaredVars(rule.body)]);
  const h = rule.head;
  const last = h.reference.length - 1;
  const keyIsLast = h.key !== undefined && h.key === h.reference[last];
  for (let i = 1; i < h.reference.length; i++) h.reference[i] = resolveTerm(globals, ignore, h.reference[i]!);
  if (h.key) h.key = keyIsLast ? h.reference[last]! : resolveTerm(globals, ignore, h.key);
  if (h.value) h.value = resolveTerm(globals, ignore, h.value);
  rule.body = resolveBody(globals, ignore, rule.body);
  return undefined;
}

/** Resolves a body's expressions, each in place (the body itself is returned: no copy). */
function resolveBody(globals: Globals, ignore: DeclaredStack, body: Body): Body {
  for (let i = 0; i < body.length; i++) resolveExpr(globals, ignore, body[i]!);
  return body;
}

// Terms are rewritten copy-on-write: a term none of whose parts resolve to something else is
// returned as it is (most are), and a changed one is a new term over the parts that are kept. The
// parser shares no term between two places of a module (except a head's key, which is its ref's
// last term and kept so), so the stages after this one still rewrite each place on its own.

/** Resolves an expression in place (and returns it). */
function resolveExpr(globals: Globals, ignore: DeclaredStack, e: Expr): Expr {
  const ts = e.terms;
  if (Array.isArray(ts)) {
    e.terms = resolveTerms(globals, ignore, ts);
  } else if (ts.type === "some") {
    const s = ts.symbols[0];
    if (s?.type === "call") {
      const r = resolveTerm(globals, ignore, s);
      if (r !== s || ts.symbols.length !== 1) ts.symbols = [r];
    }
  } else if (ts.type === "every") {
    const locals = new Set<string>();
    if (ts.key) collectVars(ts.key, locals);
    collectVars(ts.value, locals);
    ignore.push(locals);
    ts.domain = resolveTerm(globals, ignore, ts.domain);
    ts.body = resolveBody(globals, ignore, ts.body);
    ignore.pop();
  } else if (ts.type === "and" || ts.type === "or") {
    ts.lhs = resolveBody(globals, ignore, ts.lhs);
    ts.rhs = resolveBody(globals, ignore, ts.rhs);
  } else if (ts.type === "not") {
    ts.body = resolveBody(globals, ignore, ts.body);
  } else {
    e.terms = resolveTerm(globals, ignore, ts as Term);
  }
  const ws = e.with;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    w.target = resolveTerm(globals, ignore, w.target);
    w.value = resolveTerm(globals, ignore, w.value);
  }
  return e;
}

/** A fresh copy of a global's ref, located at the use. (A scalar, nearly every term of one, is
 * copied once with the use's location rather than copied and then copied again.) */
function globalRef(g: Global, at: Term): Term[] {
  g.used = true;
  const location = at.location;
  // (a literal, not a spread: V8 can pretenure a literal's site, and these copies stay in the AST)
  return g.ref.map((t) => (isScalarTerm(t) ? ({ type: t.type, value: t.value, location } as Term) : { ...copyTerm(t), location }));
}

function isScalarTerm(t: Term): boolean {
  return t.type === "string" || t.type === "var" || t.type === "number" || t.type === "boolean" || t.type === "null";
}

/** The terms resolved: `ts` itself when none changed. (A changed one is a copy at its final
 * length: a slice grown by push would keep spare room in the AST.) */
function resolveTerms(globals: Globals, ignore: DeclaredStack, ts: Term[]): Term[] {
  let out: Term[] | undefined;
  for (let i = 0; i < ts.length; i++) {
    const x = ts[i]!;
    const y = resolveTerm(globals, ignore, x);
    if (y !== x) (out ??= ts.slice())[i] = y;
  }
  return out ?? ts;
}

export function resolveTerm(globals: Globals, ignore: DeclaredStack, t: Term): Term {
  switch (t.type) {
    case "var": {
      const g = globals.get(t.value);
      if (g && !ignore.has(t.value)) return refTerm(globalRef(g, t), t.location);
      return t;
    }
    case "ref": {
      const value = resolveRef(globals, ignore, t.value);
      return value === t.value ? t : { ...t, value };
    }
    case "object": {
      let out: [Term, Term][] | undefined;
      for (let i = 0; i < t.value.length; i++) {
        const kv = t.value[i]!;
        const k = resolveTerm(globals, ignore, kv[0]);
        const v = resolveTerm(globals, ignore, kv[1]);
        if (k !== kv[0] || v !== kv[1]) (out ??= t.value.slice())[i] = [k, v];
      }
      return out ? { ...t, value: out } : t;
    }
    case "array":
    case "set":
    case "call": {
      const value = resolveTerms(globals, ignore, t.value);
      return value === t.value ? t : { ...t, value };
    }
    case "arraycomprehension":
    case "setcomprehension":
      ignore.push(declaredVars(t.value.body));
      t.value.term = resolveTerm(globals, ignore, t.value.term);
      t.value.body = resolveBody(globals, ignore, t.value.body);
      ignore.pop();
      return t;
    case "objectcomprehension":
      ignore.push(declaredVars(t.value.body));
      t.value.key = resolveTerm(globals, ignore, t.value.key);
      t.value.value = resolveTerm(globals, ignore, t.value.value);
      t.value.body = resolveBody(globals, ignore, t.value.body);
      ignore.pop();
      return t;
    case "templatestring":
      t.value.parts = t.value.parts.map((p) =>
        (p as { type: string }).type === "expr" ? resolveExpr(globals, ignore, p as Expr) : resolveTerm(globals, ignore, p as Term),
      );
      return t;
    case "string":
    case "number":
    case "boolean":
    case "null":
      return t;
    default:
      assertNever(t);
  }
}

/** A ref resolved: `ref` itself when nothing in it changed, else a new array at its final length
 * (one grown by push would keep spare room, in every resolved ref of the AST). */
function resolveRef(globals: Globals, ignore: DeclaredStack, ref: Ref): Ref {
  let out: Term[] | undefined;
  // the global's path that the head stands for, if it does
  let head: Term[] | undefined;
  for (let i = 0; i < ref.length; i++) {
    const x = ref[i]!;
    let y = x;
    if (x.type === "var") {
      const g = globals.get(x.value);
      if (g && !ignore.has(x.value)) {
        const cpy = globalRef(g, x);
        if (i === 0) {
          head = cpy;
          continue;
        }
        y = refTerm(cpy, x.location);
      }
    } else if (!isGround(x) || x.type === "ref" || x.type === "call" || x.type === "array" || x.type === "object" || x.type === "set") {
      y = resolveTerm(globals, ignore, x);
    }
    if (y !== x) (out ??= ref.slice())[i] = y;
  }
  if (head === undefined) return out ?? ref;
  const rest = out ?? ref;
  return rest.length === 1 ? head : head.concat(rest.slice(1));
}
