// The state one compilation carries from stage to stage: the modules (sorted by file name, as
// OPA sorts them), the trees and graph built from them, the generated-variable counter, the map of
// rewritten variables, the type environment, and the errors (capped as OPA caps them).
import type { Body, Import, Module, NodeLocation, Ref, Rule, Term } from "../ast/nodes.js";
import { RegoError, type RegoErrorCode } from "../../runtime/errors.js";
import { defaultCapabilities, type BuiltinDecl, type Capabilities } from "../builtins/decls.js";
import type { ModuleTreeNode, TreeNode } from "./analysis/ruleTree.js";
import type { DependencyRecord, Graph } from "./analysis/graph.js";
import type { TypeEnv } from "./types/env.js";
import { SchemaSet } from "./types/schema.js";
import { collectFacts, FactCollector, ModuleFacts } from "./analysis/facts.js";
import { stringTerm } from "../ast/terms.js";
import { opaRef } from "../ast/print.js";
import { errorLimitError } from "../errors.js";

export interface CompileOptions {
  capabilities?: Capabilities;
  /** OPA's strict mode (unused imports/args/vars, deprecated built-ins, keyword overrides). */
  strict?: boolean;
  /** Keep `print(...)` calls (rewritten to `internal.print`); off by default, as in OPA. */
  enablePrint?: boolean;
  /** Stop after this many errors (OPA's default is 10); 0 means no limit. */
  maxErrors?: number;
  /** JSON Schemas for the type checker, keyed as OPA keys its schema set (see SchemaSet). */
  schemas?: Readonly<Record<string, unknown>>;
}

/** Thrown by `err` when the limit is reached; the runner catches it. */
export class ErrorLimitReached extends Error {}

export interface QueryState {
  body: Body;
  /** Generated var → the user's var name (`__localq0__` → `x`). */
  rewritten: Map<string, string>;
  /** The package and imports the query is compiled in (none for entrypoint queries). */
  pkg?: Ref;
  imports?: Import[];
  gen: LocalVarGen;
}

/** Generated var → the term it stands for. Recorded for every hoisted term and read to print type
 * errors and by checkNegation (what a negated expression's hoisting took out of it): a record is
 * two appends, and the map is made (and brought up to date) when
 * read. A name set again stands for the last term. */
export class HoistedTerms {
  private readonly names: string[] = [];
  private readonly terms: Term[] = [];
  private readonly byName = new Map<string, Term>();
  private indexed = 0;

  set(name: string, t: Term): void {
    this.names.push(name);
    this.terms.push(t);
  }

  get(name: string): Term | undefined {
    for (; this.indexed < this.names.length; this.indexed++) this.byName.set(this.names[this.indexed]!, this.terms[this.indexed]!);
    return this.byName.get(name);
  }
}

export class LocalVarGen {
  private next = 0;
  constructor(
    private readonly exclude: ReadonlySet<string>,
    private readonly suffix = "",
  ) {}
  generate(): string {
    for (;;) {
      const v = `__local${this.suffix}${this.next++}__`;
      if (!this.exclude.has(v)) return v;
    }
  }
}

export class CompileContext {
  readonly errors: RegoError[] = [];
  readonly builtins: ReadonlyMap<string, BuiltinDecl>;
  /** Whether a built-in's name starts with `data` (none of OPA's does). */
  private readonly builtinUnderData: boolean;
  readonly strict: boolean;
  readonly enablePrint: boolean;
  readonly maxErrors: number;
  /** The schema set given to the compilation, if any. */
  readonly schemas: SchemaSet | undefined;
  /** Modules sorted by file name. */
  modules: Module[];
  /** Imports saved by RemoveImports. */
  readonly imports = new Map<Module, Import[]>();
  readonly ruleModule = new Map<Rule, Module>();
  moduleTree: ModuleTreeNode | undefined;
  ruleTree: TreeNode | undefined;
  graph: Graph | undefined;
  /** The dependency walks RewriteExprTerms recorded, by module, for SetGraph to replay. */
  earlyDependencies: Map<Module, DependencyRecord> | undefined;
  typeEnv: TypeEnv | undefined;
  readonly rewrittenVars = new Map<string, string>();
  gen: LocalVarGen = new LocalVarGen(new Set());
  query: QueryState | undefined;
  /** The module stages run, in order, with their milliseconds (filled by the runner). */
  readonly timings: { stage: string; ms: number }[] = [];
  /** Query stage name → milliseconds summed over every query compiled on this context (a sum,
   * not an entry per run: a compile may run the query stages for thousands of entrypoints). */
  readonly queryTimings = new Map<string, number>();
  /** Generated var → the term it stands for (hoisted refs and calls), so that type errors can
   * print what the user wrote instead of the compiler's locals. */
  readonly hoisted = new HoistedTerms();
  /** What each module may contain (facts.ts), from InitLocalVarGen on. */
  readonly facts = new Map<Module, ModuleFacts>();
  /** The rules that may hold comprehensions or template strings: the `closureTerms` set all the
   * modules' facts share (see mayHoldClosureTerms); undefined until the facts are known. */
  private closureRules: Set<Rule> | undefined;
  /** The facts ResolveRefs collected as it went (see factCollector), for InitLocalVarGen. */
  private earlyFacts: { vars: Set<string>; closureRules: Set<Rule>; facts: Map<Module, ModuleFacts> } | undefined;

  constructor(modules: Module[], options: CompileOptions = {}) {
    this.modules = [...modules].sort((a, b) => cmp(moduleFile(a), moduleFile(b)));
    this.builtins = (options.capabilities ?? defaultCapabilities()).builtins;
    this.strict = options.strict === true;
    this.enablePrint = options.enablePrint === true;
    this.maxErrors = options.maxErrors ?? 10;
    this.builtinUnderData = [...this.builtins.keys()].some((n) => n.startsWith("data"));
    this.schemas = options.schemas ? new SchemaSet(options.schemas) : undefined;
    for (const m of this.modules) for (const r of m.rules) for (let x: Rule | undefined = r; x; x = x.else) this.ruleModule.set(x, m);
  }

  /** Records an error; past the limit, records "error limit reached" and stops the stage. */
  err(code: RegoErrorCode, message: string, location: NodeLocation | undefined): void {
    if (this.maxErrors > 0 && this.errors.length >= this.maxErrors) {
      this.errors.push(errorLimitError());
      throw new ErrorLimitReached();
    }
    this.errors.push(new RegoError(code, message, location ? plainLoc(location) : undefined));
  }

  failed(): boolean {
    return this.errors.length > 0;
  }

  /** Generated names must not clash with any var of the modules (only those named like
   * generated ones are kept); the same walk collects the modules' facts. */
  initLocalVarGen(): void {
    const early = this.earlyFacts;
    this.earlyFacts = undefined;
    if (early && this.modules.every((m) => early.facts.has(m))) {
      // ResolveRefs walked every module's rules right after resolving them: nothing has changed
      // them since
      for (const m of this.modules) this.facts.set(m, early.facts.get(m)!);
      this.closureRules = early.closureRules;
      this.gen = new LocalVarGen(early.vars);
      return;
    }
    const vars = new Set<string>();
    const closureRules = new Set<Rule>();
    for (const m of this.modules) this.facts.set(m, collectFacts(m, vars, closureRules));
    this.closureRules = closureRules;
    this.gen = new LocalVarGen(vars);
  }

  /** A collector of a module's facts for ResolveRefs to feed each rule once resolved (the rule's
   * nodes are then still in the processor's caches, where a walk of its own, later, finds them
   * in memory); InitLocalVarGen takes the facts of every module so collected over. */
  factCollector(m: Module): FactCollector {
    const early = (this.earlyFacts ??= { vars: new Set(), closureRules: new Set(), facts: new Map() });
    const c = new FactCollector(early.vars, new ModuleFacts(early.closureRules));
    early.facts.set(m, c.facts);
    return c;
  }

  /** Whether a module may contain what `has` asks about: always, before the facts are known. */
  mayContain(m: Module, has: (f: ModuleFacts) => boolean): boolean {
    const f = this.facts.get(m);
    return f === undefined || has(f);
  }

  /** Whether a rule (or else branch) may hold comprehensions or template strings: always,
   * before the facts are known. */
  mayHoldClosureTerms(rule: Rule): boolean {
    // one lookup (the stages ask for every rule): every rule is a module's, and no stage makes
    // rules, so once the facts are known each rule's module has facts noting into this set
    const rules = this.closureRules;
    return rules === undefined || rules.has(rule);
  }

  /** A rule's full ref: its package path followed by its head ref (`data.pkg.p.q[x]`). */
  ruleRef(rule: Rule): Ref {
    const m = this.ruleModule.get(rule);
    const pkg = m ? m.package.path : [];
    const href = rule.head.reference;
    const head = href[0]!;
    // one copy at its final length (a copy of the path grown by push would keep spare room); the
    // head's var becomes a string key
    const out: Term[] = pkg.concat(href);
    if (head.type === "var") out[pkg.length] = stringTerm(head.value, head.location);
    return out;
  }

  /** The number of arguments of a built-in or user function, -1 if `ref` names neither. */
  getArity(ref: Ref): number {
    // a ref into `data` names a built-in only if the capabilities declare one so named: else its
    // name (printed for every call of a user function) is not needed
    const head = ref[0];
    if (!(head?.type === "var" && head.value === "data") || this.builtinUnderData) {
      const bi = this.builtins.get(opaRef(ref));
      if (bi) return bi.arity;
    }
    const rules = this.ruleTree?.findRules(ref);
    if (!rules || rules.length === 0) return -1;
    return rules[0]!.head.args?.length ?? 0;
  }

  /** Every rule, else branches excluded, in module order. */
  *rules(): Generator<Rule> {
    for (const m of this.modules) yield* m.rules;
  }
}

export function moduleFile(m: Module): string {
  return m.package.location.file;
}

export function plainLoc(l: NodeLocation): { file: string; row: number; col: number; offset: number; text: string } {
  return { file: l.file, row: l.row, col: l.col, offset: l.offset, text: l.text };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
