// State shared while emitting one module (ModuleEmitter: runtime imports used, module-level
// constants — the site tables and number literals —, names of funcs) and one function
// (FuncEmitter: its locals, its label stack for breaks, whether it is async, memoised, a plan).
import type { Block, Func, Operand, Policy, Stmt, StmtLocation } from "../../ir/types.js";
import { forEachRead, forEachStmt } from "../../ir/walk.js";
import type { CallGraph } from "../analysis/calls.js";
import type { FuncFacts } from "../analysis/kinds.js";
import type { DirectEntry } from "../analysis/entry.js";
import { analyseScalars, exactDouble, type Scalars } from "../analysis/scalars.js";
import { Label, Lines, Name, PieceBuffer, _, comment, join, lineComment, lit, type Code } from "../code.js";
import { CATEGORIES, builtinCategory } from "../../../runtime/builtins/catalog.js";
import { FIXED, RT, Scope, type RuntimeName } from "../names.js";
import { BUILTINS_MODULE, type ModuleConst, type ModuleParts } from "../module.js";
import { SiteTable } from "./sites.js";
import { arrayFacts, type ArrayFacts } from "./literals.js";

export class ModuleEmitter {
  readonly scope = new Scope();
  readonly used = new Set<RuntimeName>();
  /** Runtime exports named in types only so far (see rtType). */
  readonly usedAsType = new Set<RuntimeName>();
  /** Module-level `const` declarations of numbers, in order (`constants` adds the site tables). */
  private readonly consts: ModuleConst[] = [];
  /** Funcs' names by their index in the policy's funcs. */
  private readonly funcNames: Name[] = [];
  /** Funcs' indices by name (the call graph's). */
  readonly funcIndex: ReadonlyMap<string, number>;
  /** The builtin call sites and conflict sites its functions use (the tables `C` and `K`). */
  private readonly builtinTable: SiteTable;
  /** The builtin sites' constants, by their index in the table. */
  private readonly builtinNames: Name[] = [];
  private readonly conflictTable: SiteTable;
  private readonly numbers = new Map<string, Code>();
  /** Field readers by string index (input's own: -1 - index), and their one declaration (fieldReader). */
  private readonly readers = new Map<number, Name>();
  private readerConst: (ModuleConst & { more: Array<{ name: Name; init: Code }> }) | undefined;
  private readonly breaks = new Map<Name, Code>();
  private readonly continues = new Map<Name, Code>();
  private readonly runtimeNames = new Map<RuntimeName, Name>();
  private readonly stringLiterals: Code[] = [];
  private readonly localNames: Name[] = [];
  /** The pieces array function bodies borrow in turn. */
  readonly pieces = new PieceBuffer();
  /** The names functions number (`b0`, `t1`, ...), shared by their scopes. */
  readonly functionNames = new Map<string, Name[]>();
  /** Functions emitted so far (numbering FuncEmitters). */
  functions = 0;
  /** By local number: the number of the function that used it last — so a function tells the
   * locals it uses from the others without a set of its own. */
  readonly localUsers: number[] = [];
  /** By local number: how often the function that used it last read it (FuncEmitter.local). */
  readonly localReads: number[] = [];
  /** static.builtin_funcs by name. */
  readonly builtinDecls: ReadonlyMap<string, Policy["static"]["builtin_funcs"][number]>;
  readonly fixed: { [K in keyof typeof FIXED]: Name };
  /** GenerateOptions.coverage: statements report the rows they run (emit/blocks.ts). */
  coverage = false;
  /** The module imports the builtin categories it calls (an ES module); a function body leaves
   * them to the registry. */
  importsBuiltins = true;
  /** The categories of the builtins called, by name (each module's table `<category>Builtins`). */
  private readonly categories = new Map<string, Name>();
  /** Every category's table name, reserved: a policy's names never take one. */
  private readonly categoryNames = new Map<string, Name>();

  constructor(
    readonly policy: Policy,
    readonly calls: CallGraph,
    readonly facts: Map<string, FuncFacts>,
    /** TypeScript (annotations, casts) or the same code as JavaScript (generate.ts). */
    readonly typed = true,
    /** The Rego names of locals, by func and plan name (GenerateOptions.localNames). */
    readonly names?: LocalNames,
  ) {
    for (const n of Object.values(RT)) this.scope.reserve(n);
    for (const c of CATEGORIES) this.categoryNames.set(c, this.scope.reserve(`${c}Builtins`));
    this.fixed = {
      V: this.scope.reserve(FIXED.V),
      state: this.scope.reserve(FIXED.state),
      entrypoints: this.scope.reserve(FIXED.entrypoints),
      dispatch: this.scope.reserve(FIXED.dispatch),
      input: this.scope.reserve(FIXED.input),
      data: this.scope.reserve(FIXED.data),
      inputValue: this.scope.reserve(FIXED.inputValue),
      dataValue: this.scope.reserve(FIXED.dataValue),
      options: this.scope.reserve(FIXED.options),
      key: this.scope.reserve(FIXED.key),
      builtinSites: this.scope.reserve(FIXED.builtinSites),
      conflictSites: this.scope.reserve(FIXED.conflictSites),
    };
    this.builtinTable = new SiteTable(policy.static.files);
    this.conflictTable = new SiteTable(policy.static.files);
    this.funcIndex = calls.funcIndex;
    this.builtinDecls = new Map(policy.static.builtin_funcs.map((b) => [b.name, b]));
  }

  /** A runtime export, recorded as imported. */
  rt(name: RuntimeName): Name {
    this.used.add(name);
    return this.runtimeName(name);
  }

  /** A runtime class named in a type only (EvalState in parameter types): imported as a type
   * unless a value use (`rt`) imports it too. */
  rtType(name: RuntimeName): Name {
    this.usedAsType.add(name);
    return this.runtimeName(name);
  }

  private runtimeName(name: RuntimeName): Name {
    let n = this.runtimeNames.get(name);
    if (!n) this.runtimeNames.set(name, (n = new Name(RT[name])));
    return n;
  }

  /** `name: type` — or, writing JavaScript, `name`. */
  annotated(name: Code, type: Code): Code {
    return this.typed ? _`${name}: ${type}` : name;
  }

  /** `expr as type` — or, writing JavaScript, `expr`. */
  cast(expr: Code, type: Code): Code {
    return this.typed ? _`${expr} as ${type}` : expr;
  }

  /** `(expr as type)`, for a member access or an operand — or, writing JavaScript, `expr`. */
  typedAs(expr: Code, type: Code): Code {
    return this.typed ? _`(${expr} as ${type})` : expr;
  }

  string(index: number): string {
    return this.policy.static.strings[index]!.value;
  }

  /** The literal of a string constant (made once: constants are used again and again). */
  stringLiteral(index: number): Code {
    return (this.stringLiterals[index] ??= lit(this.string(index)));
  }

  /** The name of local `n` (`l<n>`), the same in every function: made once. */
  localName(n: number): Name {
    return (this.localNames[n] ??= Name.numbered("l", n));
  }

  funcName(f: Func): Name {
    return this.funcNameAt(this.funcIndex.get(f.name)!);
  }

  /** funcName of the func at an index of the policy's funcs (a call site has the index already). */
  funcNameAt(index: number): Name {
    return (this.funcNames[index] ??= this.scope.ident(this.policy.funcs.funcs[index]!.name));
  }

  /** The funcs (indices) the code emitted so far calls, in the order first called: the module
   * has these and no others (generate.ts), so that it declares no function nothing calls (the
   * emitter leaves out statements it proves never run, and the calls in them). */
  readonly calledFuncs: number[] = [];
  private readonly called = new Set<number>();
  /** Whether the code emitted so far calls the dynamic dispatcher (which calls every target). */
  dispatchCalled = false;

  /** The name of the func at `index`, for a call of it. */
  callFunc(index: number): Name {
    if (!this.called.has(index)) {
      this.called.add(index);
      this.calledFuncs.push(index);
    }
    return this.funcNameAt(index);
  }

  /** The dispatcher's name, for a call of it. */
  callDispatch(): Name {
    if (!this.dispatchCalled) {
      this.dispatchCalled = true;
      for (const name of this.calls.dynamicTargets) this.callFunc(this.funcIndex.get(name)!);
    }
    return this.fixed.dispatch;
  }

  /** A builtin call site (name + location), shared by identical sites: a module constant named
   * after the builtin (`gte`, `gte2` for another site: a call reads as the builtin it calls),
   * declared with the table of call sites (`constants`), site i of it. */
  builtinSite(name: string, loc: StmtLocation): Name {
    if (this.builtinTable.size === 0) this.rt("builtinSites");
    const category = builtinCategory(name);
    if (category !== undefined && this.importsBuiltins) this.categories.set(category, this.categoryNames.get(category)!);
    const i = this.builtinTable.add(name, loc.file, loc.row, loc.col);
    return (this.builtinNames[i] ??= this.scope.ident(name));
  }

  /** The module's reader of the field named by string `index` (DotStmt with a constant key):
   * `const dotOwner = (o) => (o !== undefined && o !== null && o["owner"] !== undefined &&
   * (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("owner" in OBJECT_PROTOTYPE) : getPrototypeOf(o) ===
   * null) ? o["owner"] : dotKey(o, "owner"))` (runtime/eval/ops.ts says
   * why), one per key, declared with the numbers. The fields of `input` itself have readers of
   * their own (`inputAction(input)`): the input's one shape then never shares a load with the
   * data's objects (`dotAction(grant)`), and each load stays monomorphic. */
  fieldReader(index: number, ofInput = false): Name {
    const id = ofInput ? -1 - index : index;
    let name = this.readers.get(id);
    if (name === undefined) {
      const key = this.string(index);
      name = this.scope.ident(`${ofInput ? "input" : "dot"} ${key}`);
      this.readers.set(id, name);
      const o = _`o`;
      const V = this.fixed.V;
      const returns = this.typed ? _`: ${V}` : _``;
      const init = _`(${this.annotated(o, V)})${returns} => (${this.fieldRead(index, o)})`;
      if (this.readerConst === undefined) {
        this.readerConst = { name, init, more: [], doc: comment("field readers, one per key read (of input, of anything else): each load keeps an inline cache of its own") };
        this.consts.push(this.readerConst);
      } else this.readerConst.more.push({ name, init });
    }
    return name;
  }

  /** A field reader's body on `src`, also written in place (emit/values.ts says where: no call on
   * the hit): `src !== undefined && src !== null && obj[k] !== undefined && <prototype test> ?
   * obj[k] : dotKey(src, k)` (`obj`: `src` cast to an object type when typed: a scalar's read is
   * never taken, its prototype not being Object.prototype). */
  fieldRead(index: number, src: Code): Code {
    const k = this.stringLiteral(index);
    const proto = this.rt("OBJECT_PROTOTYPE");
    const prototypeOf = this.rt("getPrototypeOf");
    const plain = _`(${prototypeOf}(${src}) === ${proto} ? !(${k} in ${proto}) : ${prototypeOf}(${src}) === null)`;
    const read = _`${this.typedAs(src, this.rt("PlainObject"))}[${k}]`;
    return _`${src} !== undefined && ${src} !== null && ${read} !== undefined && ${plain} ? ${read} : ${this.rt("dotKey")}(${src}, ${k})`;
  }

  /** A conflict check's site (its message and location), shared by identical sites: the two
   * arguments `K, i` — the module's table of conflict sites, and the site's index in it (the
   * table is read only when a conflict is raised). */
  conflictSite(kind: "rule" | "function" | "object", loc: StmtLocation): Code {
    if (this.conflictTable.size === 0) this.rt("conflictSites");
    return _`${this.fixed.conflictSites}, ${this.conflictTable.add(kind, loc.file, loc.row, loc.col)}`;
  }

  /** The module-level constants: the site tables, then the numbers. Called once every function
   * has been emitted. Each table is one line of JSON in a string literal, not a statement per site
   * (which a large module's import would run one by one). The builtin sites are then declared in
   * the same statement, `gte = C[0], ...`: a call reads its site from a module constant, not
   * `C[i]`, which a builtin-bound loop pays for (see bench/codegen.bench.ts). (The tables'
   * comments are short: every module has them, however small.) */
  constants(): ModuleConst[] {
    const tables: ModuleConst[] = [];
    if (this.builtinTable.size > 0) {
      const table = this.fixed.builtinSites;
      tables.push({
        name: table,
        init: _`${this.rt("builtinSites")}(${join([lit(this.builtinTable.json()), ...this.sortedCategories().map(([, n]) => n)])})`,
        // (`!`: a strict noUncheckedIndexedAccess takes an array's elements as possibly undefined.)
        more: this.builtinNames.map((name, i) => ({ name, init: this.typed ? _`${table}[${i}]!` : _`${table}[${i}]` })),
        doc: comment("builtin call sites, named after their builtins (site i: sites[4i..] = name, file, row, col), resolved at load"),
      });
    }
    if (this.conflictTable.size > 0) {
      tables.push({
        name: this.fixed.conflictSites,
        init: _`${this.rt("conflictSites")}(${lit(this.conflictTable.json())})`,
        doc: comment("conflict sites (K, i) (site i: sites[4i..] = kind, file, row, col), read on a conflict"),
      });
    }
    return [...tables, ...this.consts];
  }

  private sortedCategories(): Array<[string, Name]> {
    return [...this.categories].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The imports of the builtin categories the module calls, one module each. */
  builtinImports(): ModuleParts["builtinImports"] {
    return this.sortedCategories().map(([c, n]) => ({ name: n.text, from: `${BUILTINS_MODULE}${c}` }));
  }

  /** A module-level constant `<prefix><i> = init`, declared after the site tables. */
  moduleConst(prefix: string, init: Code, doc: Code): Name {
    const name = this.scope.name(prefix);
    this.consts.push({ name, init, doc });
    return name;
  }

  /** `break label;` or `continue label;`, made once per label name and verb: functions number
   * their labels alike, sharing the Names. */
  jumpStatement(label: Name, verb: "break" | "continue"): Code {
    const made = verb === "break" ? this.breaks : this.continues;
    let c = made.get(label);
    if (c === undefined) made.set(label, (c = verb === "break" ? _`break ${label};` : _`continue ${label};`));
    return c;
  }

  /**
   * A number literal from its source text: written as a JS number when that is exactly the same
   * text (`1`, `0.5`), else a module constant `num("123456789012345678901234")`.
   */
  number(text: string): Code {
    let c = this.numbers.get(text);
    if (c) return c;
    const d = exactDouble(text);
    if (d !== undefined) c = lit(d);
    else {
      const n = this.scope.name("n");
      this.consts.push({ name: n, init: _`${this.rt("num")}(${text})` });
      c = n;
    }
    this.numbers.set(text, c);
    return c;
  }
}

/** The Rego variable behind each local of a func or plan, where there is one, by local number
 * (what `planRegoDetailed` returns as `localNames`; a plan from `opa build` has none). */
export interface LocalNames {
  funcs: ReadonlyMap<string, ReadonlyArray<string | undefined>>;
  plans: ReadonlyMap<string, ReadonlyArray<string | undefined>>;
}

/** A break target seen from inside: `break label` or, for a scan's iteration level, `continue label`. */
export class Level {
  /** The jump statement, made on first use (a block is jumped to from many places). */
  private statement: Code | undefined;
  constructor(
    readonly label: Label,
    readonly verb: "break" | "continue",
  ) {}

  /** `break label;` / `continue label;`, marking the label used. */
  jump(mod: ModuleEmitter): Code {
    this.label.used = true;
    return (this.statement ??= mod.jumpStatement(this.label.name, this.verb));
  }
}

const NO_DOTS: ReadonlySet<object> = new Set();
const TRUE = lit(true);
const FALSE = lit(false);

/** A write held by FuncEmitter.write. */
interface PendingWrite {
  at: number;
  target: number;
  sources: readonly number[];
  statement: (t: Name) => Code;
  dead: boolean;
  /** The constants its sources held where it was (FuncEmitter.constants), for `statement`. */
  constants: ReadonlyArray<[number, Code]> | undefined;
}

/** A statement's emitter: appends its code to `fe.out`; true if control never reaches the next
 * statement of the same block. */
export type Emit<S> = (fe: FuncEmitter, s: S) => boolean;

export class FuncEmitter {
  /** Its own names (labels, temporaries), numbered from 0 in every function. */
  readonly scope: Scope;
  /** The locals it uses, in the order first used (`local`). */
  readonly locals: number[] = [];
  /** This function's number in the module (see ModuleEmitter.localUsers). */
  private readonly id: number;
  /** Function-level temporaries: `let t0: <type>`. */
  readonly temps: Array<{ name: Name; type: Code }> = [];
  private readonly levels: Level[] = [];
  /** Where statements go: the function's body, appended to (no Code or node per statement). */
  readonly out: Lines;
  /** DotStmts reading base data (number keys are read as their text). */
  dataDots: ReadonlySet<object> = NO_DOTS;
  /** Coverage (GenerateOptions.coverage): the row of the statement that last called `cover` on
   * the path being emitted; row -1 at a block's opening (emitStmts keeps it). */
  coverRun = { file: -1, row: -1 };
  /** The statement emitted just before the current one in the same list (emitStmts sets it). */
  previous: Stmt | undefined = undefined;
  /** The locals known, at the statement being emitted, to hold a number or null constant (the
   * statement list's own, emit/blocks.ts): an operand reading one is that constant's literal. */
  readonly constants = new Map<number, Code>();
  /** The booleans and strings locals are set to in the list being emitted, as `constants` holds
   * (a comparison with one is decided when emitted). */
  readonly known = new Map<number, boolean | string>();
  /** The body's array runs (emit/literals.ts), set before the body is emitted. */
  arrays!: ArrayFacts;
  /** The body being emitted (set with the analyses), and its reads by local, counted when first asked. */
  private body: Func["blocks"] = [];
  private readCounts: Map<number, number> | undefined;
  /** The body's exact scalars and constants (analysis/scalars.ts), set before the body is emitted. */
  scalars!: Scalars;
  /** Writes `return v` for this function (casts, memoisation). */
  returnValue: (v: Code) => Code = (v) => _`return ${v};`;
  /** Writes that are left out if nothing reads their local (FuncEmitter.write). */
  private readonly writes: PendingWrite[] = [];
  /** Reads by those writes, by local: they count only if the write stays. */
  private readonly writeReads = new Map<number, number>();
  /** Whether the body uses the evaluation state (`state`). */
  stateUsed = false;
  /** The scans the statement being emitted is in (its loop bodies). */
  scans = 0;
  /** The arrays the scans being emitted have sized, with their counters (emit/collections.ts). */
  readonly reserved = new Map<number, Name>();
  /** The guarded blocks it is in (`if (allow === undefined) { ... }`: run only when the test holds). */
  guards = 0;
  /** The source line the last `sourceLine` comment named (file index and row). */
  private lastFile = -1;
  private lastRow = -1;
  /** Its locals' names from the policy (FuncEmitter.local), by local number. */
  private readonly regoNames: ReadonlyArray<string | undefined> | undefined;
  private readonly ownNames: Name[] = [];

  constructor(
    readonly mod: ModuleEmitter,
    readonly kind: "plan" | "func",
    /** The func's or plan's name (for its names in ModuleEmitter.names). */
    ir: { name: string },
    readonly params: readonly number[],
    readonly isAsync: boolean,
    /** Set for memoised funcs: the memo key. */
    readonly memoId: number | undefined,
    /** Plans: "resultset", or the direct-value facts (analysis/entry.ts). */
    mode: "resultset" | DirectEntry | undefined,
    /** Funcs with arguments report "functions must not produce multiple outputs". */
    readonly isFunction: boolean,
  ) {
    this.out = new Lines(mod.typed, mod.pieces); // TypeScript is indented, JavaScript is not (module.ts)
    this.scope = new Scope(mod.functionNames, mod.scope);
    this.id = mod.functions++;
    this.regoNames = (kind === "plan" ? mod.names?.plans : mod.names?.funcs)?.get(ir.name);
    // Input and data (a plan's locals 0 and 1, a func's first two params), then the params, so
    // that they get the plain names.
    const f = mod.fixed;
    if (kind === "plan") {
      this.ownNames[0] = f.inputValue;
      this.ownNames[1] = f.dataValue;
    } else if (params.length >= 2) {
      this.ownNames[params[0]!] = f.input;
      this.ownNames[params[1]!] = f.data;
    }
    for (const p of params) this.name(p);
    this.result = mode === undefined ? undefined : mode === "resultset" ? { resultSet: this.scope.name("r") } : { direct: mode };
  }

  /** Plans: the result set builder's name, or the direct-value facts. */
  readonly result: { resultSet: Name } | { direct: DirectEntry } | undefined;

  /** A plan whose evaluation needs no EvalState passes the runtime's NO_STATE to its funcs. */
  stateless = false;

  /** The evaluation state (`$`, marked as used), or NO_STATE for a stateless plan. */
  get state(): Name {
    if (this.stateless) return this.mod.rt("NO_STATE");
    this.stateUsed = true;
    return this.mod.fixed.state;
  }

  /** Local `n`, marked as used (declared) and read once more. */
  local(n: number): Name {
    const users = this.mod.localUsers;
    if (users[n] !== this.id) {
      users[n] = this.id;
      this.mod.localReads[n] = 0;
      this.locals.push(n);
    }
    this.mod.localReads[n]!++;
    return this.name(n);
  }

  /** Whether the body so far used local `n`. */
  uses(n: number): boolean {
    return this.mod.localUsers[n] === this.id;
  }

  /**
   * A statement that only writes local `target` from the locals `sources` (a copy, a constant, a
   * scan's key): its place is held, and `settleWrites` writes it (`statement(target's name)`) only
   * if the function reads `target` — counting the reads of the writes that stay, so that a chain
   * of copies nothing reads goes whole. TypeScript then sees no variable assigned and never read.
   */
  write(target: number, sources: readonly number[], statement: (t: Name) => Code): false {
    // A source known to hold a constant here is written as the constant: not a read.
    let constants: Array<[number, Code]> | undefined;
    for (const s of sources) {
      const c = this.constants.get(s);
      if (c !== undefined) (constants ??= []).push([s, c]);
      else this.writeReads.set(s, (this.writeReads.get(s) ?? 0) + 1);
    }
    if (constants) sources = sources.filter((s) => !this.constants.has(s));
    this.writes.push({ at: this.out.reserve(), target, sources, statement, dead: false, constants });
    return false;
  }

  /** Writes the `write`s whose local is read; once the body is emitted. */
  settleWrites(): void {
    const writes = this.writes;
    if (writes.length === 0) return;
    const byTarget = new Map<number, PendingWrite[]>();
    for (const w of writes) {
      const list = byTarget.get(w.target);
      if (list === undefined) byTarget.set(w.target, [w]);
      else list.push(w);
    }
    const reads = (n: number) => (this.uses(n) ? this.mod.localReads[n]! : 0) + (this.writeReads.get(n) ?? 0);
    const unread: number[] = [];
    for (const t of byTarget.keys()) if (reads(t) === 0) unread.push(t);
    while (unread.length > 0) {
      for (const w of byTarget.get(unread.pop()!)!) {
        w.dead = true;
        for (const s of w.sources) {
          const n = this.writeReads.get(s)! - 1;
          this.writeReads.set(s, n);
          if (n === 0 && reads(s) === 0 && byTarget.has(s)) unread.push(s);
        }
      }
    }
    this.constants.clear();
    for (const w of writes) {
      if (w.dead) continue;
      for (const [l, c] of w.constants ?? []) this.constants.set(l, c);
      this.out.fill(w.at, w.statement(this.local(w.target)));
      this.constants.clear();
    }
    writes.length = 0;
  }

  /** The name of local `n`: input and data, the Rego variable's where the policy names it, else
   * `l<n>`. */
  name(n: number): Name {
    const own = this.ownNames[n];
    if (own !== undefined) return own;
    const rego = this.regoNames?.[n];
    if (rego === undefined) return this.mod.localName(n);
    return (this.ownNames[n] = this.scope.ident(rego, "var"));
  }

  /** `// policies/authz.rego:14` before a top-level block (a rule body, the default, ...): the
   * source line of its first statement, unless the comment before said it already (a rule's
   * result block follows its body). TypeScript only: JavaScript is for loading, not reading. */
  sourceLine(block: Block): void {
    const first = block.stmts[0];
    if (!this.mod.typed || first === undefined || first.type === "ReturnLocalStmt") return;
    // The block's first line: the optimiser may have dropped the statement of the rule's head, but
    // a later one (the value's assignment, maybe inside a loop) carries it.
    const file = first.stmt.file;
    let row = first.stmt.row;
    forEachStmt([block], (s) => {
      if (s.stmt.file === file && s.stmt.row > 0 && s.stmt.row < row) row = s.stmt.row;
    });
    if ((file === this.lastFile && row === this.lastRow) || !(row > 0)) return;
    const name = this.mod.policy.static.files[file]?.value;
    // (no file, or the planner's own query text, `<query>`: no line to point at)
    if (!name || name.startsWith("<")) return;
    this.lastFile = file;
    this.lastRow = row;
    this.out.code(lineComment(`${name}:${row}`));
  }

  /** Analyses the body's scalars (before it is emitted). */
  analyse(blocks: Func["blocks"]): void {
    const mod = this.mod;
    this.body = blocks;
    this.readCounts = undefined;
    this.arrays = arrayFacts(this, blocks);
    this.scalars = analyseScalars(blocks, this.kind === "plan" ? [0, 1] : this.params, mod.facts, mod.builtinDecls, (i) => mod.string(i));
  }

  /** Forgets the constants known in the list (at its start, around a nested construct). */
  forgetConstants(): void {
    this.constants.clear();
    this.known.clear();
  }

  /** How many statements of the body read the local (forEachRead). */
  readsOf(local: number): number {
    if (this.readCounts === undefined) {
      const counts = (this.readCounts = new Map<number, number>());
      forEachStmt(this.body, (s) => forEachRead(s, (l) => counts.set(l, (counts.get(l) ?? 0) + 1)));
    }
    return this.readCounts.get(local) ?? 0;
  }

  temp(type: Code): Name {
    const name = this.scope.name("t");
    this.temps.push({ name, type });
    return name;
  }

  operand(op: Operand): Code {
    switch (op.type) {
      case "local":
        return this.constants.get(op.value) ?? this.local(op.value);
      case "bool":
        return op.value ? TRUE : FALSE;
      case "string_index":
        return this.mod.stringLiteral(op.value);
    }
  }

  /** A new label (b0, s1, n2, st3, ...); labels have their own namespace in JS. */
  label(prefix: "b" | "s" | "n" | "st"): Label {
    return new Label(this.scope.name(prefix));
  }

  /** Pushes `outer` as the new level 0 (and `inner` inside it), for a nested block's statements.
   * (No try/finally around them: a throw abandons the whole function.) */
  enter(outer: Level, inner?: Level): void {
    this.levels.push(outer);
    if (inner) this.levels.push(inner);
  }

  /** Pops what `enter` pushed. */
  exit(levels: 1 | 2): void {
    this.levels.length -= levels;
  }

  level(k: number): Level {
    const l = this.levels[this.levels.length - 1 - k];
    if (!l) throw new Error(`codegen: break level ${k} out of range`); // validate.ts rules this out
    return l;
  }

  /** `break`/`continue` statement leaving `k` levels (0 = the current block: "undefined"). */
  jump(k: number): Code {
    return this.level(k).jump(this.mod);
  }
}
