// The planner: a compiled program (compiler/passes) → an IR plan in OPA's JSON vocabulary
// (see ../../../shared/docs/opa-ir-reference.md §6-§9). Like OPA's planner it works in
// continuation style: each planX(..., iter) appends its statements to the current block and calls
// `iter` where the rest of the query goes (inside scans, with-blocks, ...). This file holds the
// planner's state and the entry points; rules.ts plans rules into funcs, exprs.ts expressions,
// terms.ts values and unification, refs.ts references into data.
import type { Body, Module, NodeLocation, Ref, Rule } from "../ast/nodes.js";
import type { Block, Func, Local, Operand, Plan, Policy, Stmt, StmtOf } from "../ir/types.js";
import { isStackOverflow, RegoError } from "../../runtime/errors.js";
import { opaRef } from "../ast/print.js";
import { isGenerated, isWildcard, SAFETY_PARAMS, varsOf } from "../ast/visit.js";
import { planQuery } from "./exprs.js";
import { FuncStack, MocksStack, RuleTrie, swapShadows, type PlanScope } from "./trie.js";
import * as S from "./stmts.js";
import { VarStack } from "./vars.js";
import { SeqProbe } from "./flat.js";
import { RuleDeps, type RuleTreeNode } from "./deps.js";
import { planFunc, type RuleSet } from "./rules.js";

export type Iter = () => void;

/** The prefix of the messages of internal errors (planner bugs); tests and the fuzzer look for it. */
export const INTERNAL_PLANNER_ERROR = "internal error in the planner";

/** How deeply one rule body (or query) may nest what the planner nests: bodies within bodies
 * (comprehensions, `every`, `not`, `and`/`or`), and the rest of a body inside an expression that
 * opens a block for it (an iteration, a `with`, a relation's results). Each level costs the
 * planner and the code generator stack; far beyond what policies do. */
export const MAX_PLAN_NESTING = 200;

/** Locals of one func or plan: each becomes a variable of one JS function, and V8 puts them all
 * in its stack frame (about 110,000 fill a default stack on their own). */
export const MAX_LOCALS = 50_000;

/** Statements of the whole plan: a fixed allowance plus some per character of source. Policies
 * plan to well under one statement per character; this catches the blow-up of a body that
 * iterates over several rule sets with variable keys (the rest of the body is planned once per
 * rule of each, as OPA's planner does), which would otherwise plan until memory runs out. */
const STMTS_BASE = 2_000_000;
const STMTS_PER_CHAR = 20;

/** Rule sets met deeper than this (in nesting levels, counting rule sets within rule sets) are
 * planned after the current query instead of inside it, so chains of rules of any length plan on
 * a bounded stack: at most this plus one body's MAX_PLAN_NESTING. */
const DEFER_RULES_AT = 16;

/** One plan to produce: a name (`test/allow`) and its query. */
export interface QuerySet {
  name: string;
  query: Body;
  /** Generated var → user var, for result-set keys (`__localq0__` → `x`). */
  rewritten?: ReadonlyMap<string, string>;
  /** Extra (generated) vars to put in each result under the given key (expression values). */
  captures?: ReadonlyMap<string, string>;
}

/** A built-in as the planner reads it (builtins/decls.ts' BuiltinDecl): its declaration goes
 * into the plan as it is. */
export interface PlanBuiltin {
  name: string;
  decl: unknown;
  arity: number;
  relation: boolean;
  /** Undefined for void built-ins. */
  result?: unknown;
}

export interface PlanInput {
  modules: readonly Module[];
  /** The rule → module map of the compilation (for rule refs). */
  ruleRef: (r: Rule) => Ref;
  /** The compilation's rule tree (which rules a `with` affects: deps.ts). */
  ruleTree: RuleTreeNode;
  builtins: ReadonlyMap<string, PlanBuiltin>;
  queries: readonly QuerySet[];
  /** Characters of Rego source behind the modules and queries (sizes the statement budget). */
  sourceSize?: number;
  /** Generated var → the user's var it stands for, in the modules' rules (`__local3__` →
   * `grant`): names the locals of the plan's funcs (Planner.localNames). */
  rewrittenVars?: ReadonlyMap<string, string>;
}

/** The Rego variable behind each local, by local number, of each func and plan (by name). */
export interface PlanLocalNames {
  funcs: Map<string, Array<string | undefined>>;
  plans: Map<string, Array<string | undefined>>;
}

/** A node of Planner.operatorNames: the name of the ref so far, and the names going on from it
 * by their next string term. */
type OperatorName = { name: string | undefined; next: OperatorNames | undefined };
type OperatorNames = Map<string, OperatorName>;

/** The statements of a block while it is open, and of a block left empty: nothing writes to a
 * plan's arrays. */
const NO_STMTS = Object.freeze([]) as unknown as Stmt[];

export const INPUT = "input";
export const DATA = "data";

export class Planner {
  readonly strings: { value: string }[] = [];
  private readonly stringIndex = new Map<string, number>();
  readonly files: { value: string }[] = [];
  private readonly fileIndex = new Map<string, number>();
  readonly externs = new Map<string, PlanBuiltin>();
  readonly rules = new RuleTrie();
  readonly funcs = new FuncStack();
  readonly mocks = new MocksStack();
  readonly funcList: Func[] = [];
  readonly plans: Plan[] = [];
  /** The block being planned (its statements so far are on the statement stack: see openBlock). */
  curr: Block = { stmts: NO_STMTS };
  readonly vars = new VarStack(new Map([[INPUT, 0], [DATA, 1]]));
  /** The names of the locals of the func or plan being planned: a local gets its var's name when
   * every use of its number (rule bodies reuse numbers) is that var; null for any other. */
  names: Array<string | null | undefined> = [];
  readonly localNames: PlanLocalNames = { funcs: new Map(), plans: new Map() };
  /** The query being planned's generated vars → its user vars. */
  private queryRewritten: ReadonlyMap<string, string> | undefined;
  ltarget: Operand = { type: "local", value: 0 };
  lnext: Local = 2;
  loc: NodeLocation | undefined;
  /** Nesting of the rule body or query being planned (see MAX_PLAN_NESTING). */
  private depth = 0;
  /** Nesting across rule sets planned inside one another (what the JS stack holds). */
  private stackDepth = 0;
  /** Rule sets to plan once the current query is planned (see DEFER_RULES_AT). */
  private readonly deferred: (() => void)[] = [];
  /** Statements left in the budget (see STMTS_BASE). */
  private stmtBudget: number;
  /** The continuation of flat items of sequences (flat.ts). */
  readonly probe = new SeqProbe(this);

  constructor(readonly input: PlanInput) {
    this.stmtBudget = STMTS_BASE + STMTS_PER_CHAR * (input.sourceSize ?? 0);
  }

  /** Enters a level of nesting of the current body. */
  enter(): void {
    this.stackDepth++;
    if (++this.depth > MAX_PLAN_NESTING) {
      throw this.error(
        `rule body nested too deeply to plan: more than ${MAX_PLAN_NESTING} levels of iterations, \`with\` modifiers and nested bodies (regoc's limit; split the rule)`,
      );
    }
  }

  leave(): void {
    this.depth--;
    this.stackDepth--;
  }

  /** Plans a rule set into the func `name` (which has its own body nesting) now, or later when
   * rule sets are already nested deeply here: then in the scope (shadows, generations, mocks) of
   * now. (The set and name, not closures: hot, see bench/frontend.bench.ts.) */
  planRuleSet(set: RuleSet, name: string): void {
    if (this.stackDepth > DEFER_RULES_AT) {
      const scope: PlanScope = { shadowed: this.rules.shadows(), funcs: this.funcs.frames(), mocks: this.mocks.frames() };
      this.funcs.add(set.path, name);
      this.deferred.push(() => {
        const shadowed = swapShadows(this.rules, scope.shadowed);
        const funcs = this.funcs.swap(scope.funcs);
        const mocks = this.mocks.swap(scope.mocks);
        this.planRuleSet(set, name);
        this.mocks.swap(mocks);
        this.funcs.swap(funcs);
        swapShadows(this.rules, shadowed);
      });
      return;
    }
    const depth = this.depth;
    this.depth = 0;
    this.stackDepth++;
    planFunc(this, set, name);
    this.stackDepth--;
    this.depth = depth;
  }

  plan(): Policy {
    this.buildTrie();
    try {
      for (const qs of this.input.queries) this.planQuerySet(qs);
    } catch (e) {
      // a safety net under the nesting limit (enter): located where planning had got to
      if (isStackOverflow(e)) throw this.error("policy too complex to plan: the planner ran out of stack");
      throw e;
    }
    const builtin_funcs = [...this.externs.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((b) => ({ name: b.name, decl: b.decl as Policy["static"]["builtin_funcs"][number]["decl"] }));
    return {
      static: { strings: this.strings, builtin_funcs, files: this.files },
      plans: { plans: this.plans },
      funcs: { funcs: this.funcList },
    };
  }

  private buildTrie(): void {
    for (const m of this.input.modules) {
      // The package's node, found once for all the module's rules: their refs start with the
      // package path, and their nodes are below it (none of them can give rules to a node on it).
      const path = m.package.path;
      const last = path.length - 1;
      const pkg = this.rules.lookupOrInsert(path);
      for (const r of m.rules) {
        // each rule's ref is made here, once, and kept with the rule in the trie
        const ref = this.input.ruleRef(r);
        const cut = firstNonString(ref);
        const end = cut < 0 ? ref.length : cut;
        // (a ref that does not go on from the package path, were there one, is walked whole)
        const underPkg = end > path.length && ref[last] === path[last];
        const node = !underPkg ? this.rules.lookupOrInsert(ref, 0, end) : pkg.rulesOf().length > 0 ? pkg : pkg.lookupOrInsert(ref, path.length, end);
        node.addRule(r, ref);
      }
    }
  }

  private planQuerySet(qs: QuerySet): void {
    // (the query's one block, if any, is set when planned: an empty list has no room to waste)
    const plan: Plan = { name: qs.name, blocks: [] };
    this.plans.push(plan);
    const qvars = [...varsOf(qs.query, SAFETY_PARAMS)].filter((v) => v !== INPUT && v !== DATA).sort();
    const names = new Map<string, number>();
    const visible: [string, number][] = [];
    for (const v of qvars) {
      const rw = qs.rewritten?.get(v) ?? v;
      if (isGenerated(rw) || isWildcard(rw)) continue;
      if (!names.has(rw)) names.set(rw, this.getString(rw));
      visible.push([v, names.get(rw)!]);
    }
    const captures = [...(qs.captures ?? [])].map(([v, key]) => [v, this.getString(key)] as const);
    this.loc = qs.query[0]?.location;
    this.lnext = 2;
    this.names = [];
    this.queryRewritten = qs.rewritten;
    this.vars.push();
    const block = this.openBlock();
    let defined = false;
    planQuery(this, qs.query, 0, () => {
      const lr = this.newLocal();
      this.append(S.MakeObjectStmt(this, lr));
      for (const [v, key] of [...visible, ...captures]) {
        this.append(S.ObjectInsertStmt(this, lr, this.stringIndexOperand(key), this.varOperand(v)));
      }
      this.append(S.ResultSetAddStmt(this, lr));
      defined = true;
    });
    this.vars.pop();
    this.closeBlock(block);
    this.localNames.plans.set(plan.name, this.takeNames());
    this.queryRewritten = undefined;
    if (defined) plan.blocks = [block];
    // rule sets put off while planning the query, and those they put off in turn
    for (let i = 0; i < this.deferred.length; i++) this.deferred[i]!();
    this.deferred.length = 0;
  }

  // ------------------------------------------------------------------------------------------
  // helpers shared by the planning functions

  // Operands are immutable and a plan holds hundreds of thousands of them (most statements read
  // one or two): one object per local, string and boolean, shared by every statement that reads
  // it, instead of a new one at each read.
  private readonly localOperands: Operand[] = [];
  private readonly stringOperands: Operand[] = [];
  private readonly boolOperands: readonly [Operand, Operand] = [
    { type: "bool", value: false },
    { type: "bool", value: true },
  ];

  /** The operand reading local `l`. */
  local(l: Local): Operand {
    return (this.localOperands[l] ??= { type: "local", value: l });
  }

  bool(b: boolean): Operand {
    return this.boolOperands[b ? 1 : 0];
  }

  /** The operand of the string constant `s` (added to the plan's strings). */
  stringOperand(s: string): Operand {
    return this.stringIndexOperand(this.getString(s));
  }

  /** The operand of the plan's string `i`. */
  stringIndexOperand(i: number): Operand {
    return (this.stringOperands[i] ??= { type: "string_index", value: i });
  }

  /** Operator names by the texts of their refs' terms (see operatorName). */
  private readonly operatorNames: OperatorNames = new Map();

  /** The name of a call's operator (`count`, `data.pkg.f`), as opaRef makes it: asked for at
   * each call planned (and when checking it is flat). Nearly every operator ref is a var and
   * strings (`internal.member_2`, `data.pkg.f`), each its own object, the same few names again
   * and again: those are made once per name, found by their terms' texts (a map per term: no
   * key string built); the others once per ask. */
  operatorName(ref: Ref): string {
    const head = ref[0];
    if (head?.type !== "var" || head.value.startsWith("$")) return opaRef(ref);
    if (ref.length === 1) return head.value;
    let node = this.operatorNames.get(head.value);
    if (node === undefined) this.operatorNames.set(head.value, (node = { name: undefined, next: undefined }));
    for (let i = 1; i < ref.length; i++) {
      const t = ref[i]!;
      if (t.type !== "string") return opaRef(ref);
      const next: Map<string, OperatorName> = (node.next ??= new Map());
      let child = next.get(t.value);
      if (child === undefined) next.set(t.value, (child = { name: undefined, next: undefined }));
      node = child;
    }
    return (node.name ??= opaRef(ref));
  }

  varOperand(v: string): Operand {
    return this.local(this.vars.getOrEmpty(v));
  }

  getString(s: string): number {
    let i = this.stringIndex.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push({ value: s });
      this.stringIndex.set(s, i);
    }
    return i;
  }

  private getFile(s: string): number {
    let i = this.fileIndex.get(s);
    if (i === undefined) {
      i = this.files.length;
      this.files.push({ value: s });
      this.fileIndex.set(s, i);
    }
    return i;
  }

  // The location fields of the current location, worked out once per location (row and col are
  // computed from the source on each read, and a location stamps many statements), and of the
  // one before: planning goes back and forth between a rule's or query's location and an
  // expression's. Plain fields, swapped: a plan switches location some hundred thousand times.
  private stampLoc: NodeLocation | undefined;
  /** The location fields of the statement being built (read by stmts.ts after located()). */
  stampFile = 0;
  stampRow = 0;
  stampCol = 0;
  private beforeLoc: NodeLocation | undefined;
  private beforeFile = 0;
  private beforeRow = 0;
  private beforeCol = 0;

  /** Makes `loc` the stamped location (the fields above). */
  private stamp(loc: NodeLocation | undefined): void {
    if (this.stampLoc === loc) return;
    const file = this.stampFile;
    const row = this.stampRow;
    const col = this.stampCol;
    if (this.beforeLoc === loc) {
      this.stampFile = this.beforeFile;
      this.stampRow = this.beforeRow;
      this.stampCol = this.beforeCol;
    } else if (!loc) {
      this.stampFile = this.stampRow = this.stampCol = 0;
    } else {
      const at = loc.position?.() ?? loc;
      this.stampRow = at.row ?? 0;
      this.stampCol = at.col ?? 0;
      this.stampFile = this.getFile(loc.file || "<query>");
    }
    this.beforeLoc = this.stampLoc;
    this.beforeFile = file;
    this.beforeRow = row;
    this.beforeCol = col;
    this.stampLoc = loc;
  }

  /** Counts one more statement against the budget and makes the current location the stamped
   * one (stampFile, stampCol, stampRow): what every statement built does first (stmts.ts). */
  located(): void {
    if (--this.stmtBudget < 0) {
      throw this.error(
        `policy too large to plan: more than ${STMTS_BASE + STMTS_PER_CHAR * (this.input.sourceSize ?? 0)} statements (a body that iterates over rule sets with variable keys is planned once per rule; regoc's limit)`,
      );
    }
    this.stamp(this.loc);
  }

  // The statements of the open blocks: the current block's from stmtBase to stmtTop, each
  // enclosing block's below it. A block's list is made when it is closed, at its final length:
  // most blocks hold 1 to 5 statements, and a plan keeps its blocks until the code generator is
  // done.
  private readonly stmtStack: Stmt[] = [];
  private stmtTop = 0;
  private stmtBase = 0;
  /** The blocks enclosing the current one, innermost last, and where their statements start. */
  private readonly outerBlocks: Block[] = [];
  private readonly outerBases: number[] = [];

  /** Appends a statement (built by stmts.ts) to the current block. */
  append(s: Stmt): void {
    this.stmtStack[this.stmtTop++] = s;
  }

  /** A mark that changes whenever a statement is appended to the current block (flat.ts). */
  stmtMark(): number {
    return this.stmtTop;
  }

  /** A new block, made the current one until closeBlock: its statements are what is appended in
   * the meantime (to it, not to blocks opened inside it). */
  openBlock(): Block {
    this.outerBlocks.push(this.curr);
    this.outerBases.push(this.stmtBase);
    this.stmtBase = this.stmtTop;
    return (this.curr = { stmts: NO_STMTS });
  }

  /** Ends `block`, the current one, all of it planned: gives it its statements, and makes the
   * block it was opened in current again; returns `block`. */
  closeBlock(block: Block): Block {
    if (block !== this.curr) throw this.internalError("a block closed out of order");
    const base = this.stmtBase;
    if (this.stmtTop > base) block.stmts = sealed(this.stmtStack, base, this.stmtTop);
    this.stmtTop = base;
    this.stmtBase = this.outerBases.pop()!;
    this.curr = this.outerBlocks.pop()!;
    return block;
  }

  newLocal(): Local {
    if (this.lnext >= MAX_LOCALS) {
      throw this.error(`rule body too large to plan: more than ${MAX_LOCALS} local values in one function (regoc's limit; split the rule, or move large literals to data)`);
    }
    this.names[this.lnext] = null;
    return this.lnext++;
  }

  /** A new local for var `v`, bound to it in the current scope. */
  varLocal(v: string): Local {
    const l = this.newLocal();
    this.names[l] = undefined;
    this.nameLocal(l, v);
    this.vars.put(v, l);
    return l;
  }

  /** Records that local `l` holds var `v` (null: something else) in the body being planned. */
  nameLocal(l: Local, v: string | null): void {
    const name = v === null ? null : this.regoName(v);
    const known = this.names[l];
    this.names[l] = known === undefined || known === name ? name : null;
  }

  /** The user's name of var `v`, or null for a var the compiler made. */
  private regoName(v: string): string | null {
    const name = this.queryRewritten?.get(v) ?? this.input.rewrittenVars?.get(v) ?? v;
    return isGenerated(name) || isWildcard(name) ? null : name;
  }

  /** The names of the func or plan just planned (for PlanLocalNames), and a fresh table. */
  takeNames(): Array<string | undefined> {
    const names = this.names;
    this.names = [];
    const out = new Array<string | undefined>(names.length);
    for (let i = 0; i < names.length; i++) out[i] = names[i] ?? undefined;
    return out;
  }

  newOperand(): Operand {
    return this.local(this.newLocal());
  }

  /** The leading args of every call of a user func: input, data and the generation's captures (a
   * new array: callArgs shares one where it can). */
  private defaultOperands(): Operand[] {
    const captures = this.funcs.captures();
    if (captures.length === 0) return [this.varOperand(INPUT), this.varOperand(DATA)];
    // (at its final length: a call's args stay in the plan)
    const out = new Array<Operand>(2 + captures.length);
    out[0] = this.varOperand(INPUT);
    out[1] = this.varOperand(DATA);
    for (let i = 0; i < captures.length; i++) out[2 + i] = this.varOperand(captures[i]!);
    return out;
  }

  /** The leading args of a call of a user func (all of them for a ref to rules), read and never
   * written: defaultOperands, the same array for calls with the same ones (nearly all: input and data are
   * locals 0 and 1 in every func and query): shared, since nothing writes to a plan's arrays. */
  callArgs(): Operand[] {
    if (this.funcs.captures().length > 0) return this.defaultOperands();
    const input = this.varOperand(INPUT);
    const data = this.varOperand(DATA);
    const last = this.lastCallArgs;
    if (last !== undefined && last[0] === input && last[1] === data) return last;
    return (this.lastCallArgs = [input, data]);
  }

  private lastCallArgs: Operand[] | undefined;

  /** The BreakStmt made last per index (stmts.ts's BreakStmt). */
  readonly lastBreaks: (StmtOf<"BreakStmt"> | undefined)[] = [];

  private ruleDeps: RuleDeps | undefined;

  /** What rules each rule reaches, for `with` (made when first asked). */
  deps(): RuleDeps {
    return (this.ruleDeps ??= new RuleDeps(this.input.ruleTree));
  }

  /** Counter for capture names (see FuncStack.captures). */
  captureCount = 0;

  /** A broken invariant of the planner itself (a bug, reported with the location planned). */
  internalError(message: string): RegoError {
    return this.error(`${INTERNAL_PLANNER_ERROR}: ${message}`);
  }

  error(message: string): RegoError {
    const l = this.loc;
    return new RegoError("rego_compile_error", message, l ? { file: l.file, row: l.row, col: l.col } : undefined);
  }
}

/** `xs` from `from` to `to` (all of it by default), as a new array of exactly that length: for
 * what stays in the plan (a block's statements, an else chain's blocks, a call's args). Short lists
 * (most blocks' statements) are made by array literals: every array made at these literals stays
 * in the plan, so V8 learns to allocate them in the old generation at once (allocation-site
 * pretenuring), where the scavenger need not copy them twice; arrays made by slice are always
 * young. */
export function sealed<T>(xs: readonly T[], from = 0, to = xs.length): T[] {
  switch (to - from) {
    case 1:
      return [xs[from]!];
    case 2:
      return [xs[from]!, xs[from + 1]!];
    case 3:
      return [xs[from]!, xs[from + 1]!, xs[from + 2]!];
    case 4:
      return [xs[from]!, xs[from + 1]!, xs[from + 2]!, xs[from + 3]!];
    case 5:
      return [xs[from]!, xs[from + 1]!, xs[from + 2]!, xs[from + 3]!, xs[from + 4]!];
    default:
      return xs.slice(from, to);
  }
}

/** The index of the first term after the head that is not a string, or -1. */
export function firstNonString(ref: Ref): number {
  for (let i = 1; i < ref.length; i++) if (ref[i]!.type !== "string") return i;
  return -1;
}

/** Plans the queries against the modules: OPA's plan JSON (decoded shape), and the names of its
 * locals. */
export function planProgram(input: PlanInput): { plan: Policy; localNames: PlanLocalNames } {
  const p = new Planner(input);
  return { plan: p.plan(), localNames: p.localNames };
}
