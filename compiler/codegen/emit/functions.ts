// IR funcs → module functions, plans → exported entrypoint functions.
//   function g0DataTestAllow($: EvalState, l0: V, l1: V): V { let l2: V, ...; b0: {...} ... }
//   export function testAllow(input: TestInput | undefined, data: TestData, options?: EvalOptions): boolean
// Locals are function-level `let`s (the IR's frames are flat). Memoised funcs look up the current
// memo frame first and record what they return. A plan's function takes the evaluation's state,
// binds locals 0/1 to input and data (data defaults to {}), and returns its result set, or its
// single binding's value directly (see analysis/entry.ts).
import type { Func, Plan, Stmt } from "../../ir/types.js";
import { ANY, blockFlow, localKinds, K, planSetElements, type Kinds } from "../analysis/kinds.js";
import { LocalSet } from "../analysis/localSet.js";
import type { DirectEntry } from "../analysis/entry.js";
import { baseDataDots } from "../analysis/shapes.js";
import { _, comment, join, Name, type Code, type Lines } from "../code.js";
import { FuncEmitter, type ModuleEmitter } from "./context.js";
import { labelledBlock } from "./blocks.js";
import { funcCall } from "./calls.js";
import { kindsType } from "./types.js";

export interface Param {
  name: Name;
  type: Code;
  optional?: boolean;
}

export interface FunctionParts {
  name: Name;
  doc: Code;
  params: Param[];
  returnType: Code;
  /** Statements: a function's body as written by its emitter. */
  body: Lines;
  isAsync: boolean;
  isExported: boolean;
}

/** Emits the top-level blocks; true if the end of the last is never reached. */
function emitBody(fe: FuncEmitter, blocks: Func["blocks"]): boolean {
  for (const b of blocks) {
    fe.sourceLine(b);
    if (labelledBlock(fe, b)) return true;
  }
  return false;
}

const NOTHING = _``;

const byNumber = (a: number, b: number): number => a - b;

/** `let l2, l3, t0;`: the function's locals but `skip` (in number order), then its temporaries. */
function declarations(fe: FuncEmitter, skip: readonly number[]): Code {
  const V = fe.mod.fixed.V;
  // (the locals come in first-use order, which the planner's numbering makes sorted or nearly so:
  // Array sort is adaptive to sorted runs)
  const numbers: number[] = [];
  for (const n of fe.locals) if (!skip.includes(n)) numbers.push(n);
  numbers.sort(byNumber);
  if (numbers.length === 0 && fe.temps.length === 0) return NOTHING;
  const decls: Code[] = [];
  for (const n of numbers) decls.push(fe.mod.annotated(fe.name(n), V));
  for (const t of fe.temps) decls.push(fe.mod.annotated(t.name, t.type));
  return _`let ${join(decls)};`;
}

export function emitFunc(mod: ModuleEmitter, f: Func): FunctionParts {
  // (By index: the graph's flags and the func's name without a lookup by name each.)
  const index = mod.funcIndex.get(f.name)!;
  const isAsync = mod.calls.isAsyncAt(index);
  const memoId = mod.calls.isMemoisedAt(index) ? index : undefined;
  const fe = new FuncEmitter(mod, "func", f, f.params, isAsync, memoId, undefined, f.params.length > 2);
  fe.dataDots = baseDataDots(mod.policy, f.blocks, f.params[1], mod.calls.readsWithLocalKey(f));
  fe.analyse(f.blocks);
  const V = mod.fixed.V;
  const body = fe.out;
  if (memoId !== undefined) {
    const $ = fe.state;
    const m = fe.scope.name("m");
    body.line`const ${m} = ${$}.recall(${memoId});`;
    body.line`if (${m} !== ${mod.rt("NOT_FOUND")}) return ${m};`;
    fe.returnValue = (v) => _`return ${$}.memoize(${memoId}, ${v});`;
  }
  // The declarations come first, but are known once the body is emitted.
  const declarationsAt = body.reserve();
  if (!emitBody(fe, f.blocks)) {
    if (memoId !== undefined) body.line`return ${fe.state}.memoize(${memoId}, undefined);`;
    else body.line`return undefined;`;
  }
  fe.settleWrites();
  body.fill(declarationsAt, declarations(fe, f.params));
  // (concat: an array of its own length; the TypeScript layout keeps it until the module is laid
  // out, and a spread into a literal would leave spare room.)
  const $ = fe.stateUsed ? fe.state : Name.unused(fe.state);
  const params: Param[] = [{ name: $, type: mod.rtType("EvalState") }].concat(f.params.map((p) => ({ name: fe.uses(p) ? fe.name(p) : Name.unused(fe.name(p)), type: V })));
  return {
    name: mod.funcNameAt(index),
    doc: comment(memoId !== undefined ? `${f.name} (memoised)` : f.name),
    params,
    returnType: isAsync ? _`Promise<${V}>` : V,
    body,
    isAsync,
    isExported: false,
  };
}

export interface EntryParts extends FunctionParts {
  kind: "value" | "resultset";
  binding: string | undefined;
}

/** Types of an entrypoint's parameters: the input and data type aliases. */
export interface EntryTypes {
  input: Name;
  data: Name;
}

function directType(mod: ModuleEmitter, plan: Plan, direct: DirectEntry): { type: Code; maybeUndefined: boolean } {
  let maybeUndefined = true;
  if (direct.topLevelPrefix) {
    const mayBeUndefinedCall = (s: Stmt) =>
      s.type !== "CallStmt" || !(mod.facts.get(s.stmt.func)?.defined ?? false);
    const flow = blockFlow({ stmts: direct.topLevelPrefix }, LocalSet.of([1]), mayBeUndefinedCall);
    const v = direct.value;
    maybeUndefined = flow.mayFail || flow.out === null || (v.type === "local" && !flow.out.has(v.value));
  }
  // Writing JavaScript, no type (kindsType would also import the runtime classes it names).
  if (!mod.typed) return { type: _``, maybeUndefined };
  let kinds: Kinds;
  if (direct.value.type === "local") kinds = localKinds(plan.blocks, [0, 1], mod.policy, mod.facts).get(direct.value.value) ?? 0;
  else kinds = direct.value.type === "bool" ? K.boolean : K.string;
  if (kinds === K.set && direct.value.type === "local") {
    // A partial set rule's value: a RegoSet of the kinds its bodies add.
    const elements = planSetElements(plan.blocks, direct.value.value, mod.facts);
    if (elements !== 0 && elements !== ANY) return { type: _`${mod.rt("RegoSet")}<${kindsType(mod, elements)}>`, maybeUndefined };
  }
  return { type: kindsType(mod, kinds), maybeUndefined };
}

/**
 * The body of an entrypoint that only calls its rule's func (`opa build -e`'s `result =
 * data.pkg.rule`, one block: the call, then the binding returned), as one would write it:
 * `return g0DataTAllow(...)` when the value may be undefined, else the value checked once (an
 * undefined value is a bug of the compiler). True if written.
 */
function emitEntryCall(fe: FuncEmitter, plan: Plan, direct: DirectEntry, maybeUndefined: boolean): boolean {
  const stmts = plan.blocks.length === 1 ? plan.blocks[0]!.stmts : [];
  const [call, make] = stmts;
  if (stmts.length !== 4 || call?.type !== "CallStmt" || make?.stmt !== direct.make || !direct.adjacent) return false;
  const index = fe.mod.funcIndex.get(call.stmt.func);
  if (index === undefined || direct.value.type !== "local" || direct.value.value !== call.stmt.result) return false;
  fe.sourceLine(plan.blocks[0]!);
  const value = funcCall(fe, index, call.stmt);
  if (maybeUndefined) return fe.out.codeLast(fe.returnValue(value));
  const r = fe.name(call.stmt.result);
  fe.out.line`const ${r} = ${value};`;
  fe.out.line`if (${r} === undefined) throw ${fe.mod.rt("internalError")}(${`entrypoint ${plan.name} produced no value`});`;
  return fe.out.codeLast(fe.returnValue(r));
}

export function emitPlan(mod: ModuleEmitter, plan: Plan, name: Name, types: EntryTypes, direct: DirectEntry | undefined): EntryParts {
  const isAsync = mod.calls.asyncPlans.has(plan.name);
  // A plan that needs a state only for its loops' deadline takes one when its options set one.
  const timed = !mod.calls.usesState(plan) && mod.calls.loops(plan);
  const stateless = !timed && !mod.calls.usesState(plan);
  const $ = mod.fixed.state;
  /** `return v` through the state's `done`, or as it is when there is no state. */
  const done = (v: Code): Code => (stateless ? v : _`${fe.state}.done(${v})`);
  const V = mod.fixed.V;
  let fe: FuncEmitter;
  let returnType: Code;
  let maybeUndefined = true;
  if (direct) {
    const t = directType(mod, plan, direct);
    maybeUndefined = t.maybeUndefined;
    fe = new FuncEmitter(mod, "plan", plan, [], isAsync, undefined, direct, false);
    // A value of no kind (a rule never defined) is undefined: the code may not know it is.
    const cast = t.type.toString() === "never" ? _`unknown as undefined` : maybeUndefined ? _`${t.type} | undefined` : t.type;
    fe.returnValue = (v) => _`return ${mod.cast(done(v), cast)};`;
    returnType = t.type;
  } else {
    fe = new FuncEmitter(mod, "plan", plan, [], isAsync, undefined, "resultset", false);
    returnType = mod.rt("ResultSet");
  }
  fe.dataDots = baseDataDots(mod.policy, plan.blocks, 1, mod.calls.readsWithLocalKey(plan));
  fe.analyse(plan.blocks);
  fe.stateless = stateless;
  const nodes = fe.out;
  // The state (taken from the runtime's spare, given back by `$.done` at each return), the
  // declarations and the input and data values, once the body says which it uses.
  const stateAt = nodes.reserve();
  const declarationsAt = nodes.reserve();
  const valuesAt = nodes.reserve();
  const rs = fe.result && "resultSet" in fe.result ? fe.result.resultSet : undefined;
  if (rs) nodes.line`const ${rs} = new ${mod.rt("ResultSetBuilder")}();`;
  const terminal = (direct !== undefined && emitEntryCall(fe, plan, direct, maybeUndefined)) || emitBody(fe, plan.blocks);
  fe.settleWrites();
  nodes.fill(declarationsAt, declarations(fe, [0, 1]));
  const values: Code[] = [];
  if (fe.uses(0)) values.push(_`${mod.annotated(fe.name(0), V)} = ${mod.cast(mod.fixed.input, _`unknown as ${V}`)}`);
  if (fe.uses(1)) values.push(_`${mod.annotated(fe.name(1), V)} = ${mod.cast(_`(${mod.fixed.data} ?? ${mod.rt("EMPTY_OBJECT")})`, _`unknown as ${V}`)}`);
  if (values.length > 0) nodes.fill(valuesAt, _`let ${join(values)};`);
  if (direct) {
    if (!terminal) {
      // The analysis proved the value is always there; should it ever not be, fail loudly.
      if (maybeUndefined) nodes.line`return ${done(_`undefined`)};`;
      else nodes.line`throw ${mod.rt("internalError")}(${`entrypoint ${plan.name} produced no value`});`;
    }
    if (maybeUndefined) returnType = _`${returnType} | undefined`;
  } else if (!terminal) nodes.line`return ${done(_`${rs!}.rows`)};`;
  if (fe.stateUsed) nodes.fill(stateAt, (timed ? _`const ${$} = ${mod.rt("EvalState")}.timed(${mod.fixed.options});` : _`const ${$} = ${mod.rt("EvalState")}.take(${mod.fixed.options});`));
  const used = (name: Name, isUsed: boolean) => (isUsed ? name : Name.unused(name));
  const params: Param[] = [
    { name: used(mod.fixed.input, fe.uses(0)), type: _`${types.input} | undefined` },
    { name: used(mod.fixed.data, fe.uses(1)), type: types.data },
    { name: used(mod.fixed.options, fe.stateUsed), type: mod.rt("EvalOptions"), optional: true },
  ];
  return {
    name,
    doc: comment(`Entrypoint ${plan.name}`),
    params,
    returnType: isAsync ? _`Promise<${returnType}>` : returnType,
    body: nodes,
    isAsync,
    isExported: true,
    kind: direct ? "value" : "resultset",
    binding: direct?.binding,
  };
}
