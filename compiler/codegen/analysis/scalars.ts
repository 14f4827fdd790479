// Which locals of a body only ever hold scalars that JavaScript's `===` compares exactly as Rego's
// equality does, and which hold one constant only — for the emitter's specialisations (emit/values.ts):
// an EqualStmt with such a local on either side is `===`, and an AssignVarOnce of the one constant
// a local ever holds cannot conflict. Also which locals only ever hold an array or a set the body
// makes (MakeArray/MakeSet), which emit/collections.ts appends to with the collection's own method,
// and which hold the groups of a comprehension index (GroupAddStmt's), made as a RegoObject at once.
// Exact scalars are null, booleans, strings, and JS numbers no other representation can equal: a
// BigNum is never a value a double holds exactly (runtime/value/number.ts's canonical form), so a
// safe integer or a double that is its own shortest text equals exactly the JS numbers `===` to it.
// Flow-insensitive, like kinds.ts: a local's state is the join of everything assigned to it
// anywhere in the body (but a rule's final default: see finalDefault).
import type { Block, BuiltinFunc, Operand, Stmt } from "../../ir/types.js";
import { forEachStmt } from "../../ir/walk.js";
import { declKinds, forEachDefinition, K, type Definition, type FuncFacts } from "./kinds.js";
import { numberFromText } from "../../../runtime/value/number.js";
import { assertNever } from "../../../runtime/errors.js";

/** A constant a local may hold: a string, boolean, null or exact number. */
export type Scalar = string | boolean | null | number;

/** Kinds whose values `===` compares exactly (numbers may be BigNums: not in it). */
const EXACT_KINDS = K.null | K.boolean | K.string;

/** The JS number a number literal's text stands for, when the runtime's value model holds it as a
 * double (numberFromText), which `===` compares as Rego does; else undefined (a BigNum). */
export function exactDouble(text: string): number | undefined {
  const n = numberFromText(text);
  return typeof n === "number" ? n : undefined;
}

/** A local's state: what is known of its defined values. */
const enum S {
  /** Holds only the one constant recorded for it. */
  Constant = 1,
  /** Exact scalars, several values. */
  Exact = 2,
  /** Anything. */
  Any = 3,
}

export class Scalars {
  private readonly state = new Map<number, S>();
  private readonly constants = new Map<number, Scalar>();
  /** The collection a local's every definition makes, or null (any other definition). */
  private readonly makes = new Map<number, "array" | "set" | null>();

  /** True when every defined value of the local is an exact scalar. */
  exact(local: number): boolean {
    return this.state.get(local) !== S.Any;
  }

  /** The one constant the local ever holds (when defined), or undefined. */
  constant(local: number): { value: Scalar } | undefined {
    return this.state.get(local) === S.Constant ? { value: this.constants.get(local)! } : undefined;
  }

  /** The locals GroupAddStmts add to. */
  readonly groups = new Set<number>();

  /** "array" ("set") when every definition of the local is a MakeArrayStmt (MakeSetStmt). */
  made(local: number): "array" | "set" | undefined {
    return this.makes.get(local) ?? undefined;
  }

  /** Records a definition of the local: making an array or a set, or (null) anything else. */
  define(local: number, made: "array" | "set" | null): void {
    const old = this.makes.get(local);
    this.makes.set(local, old === undefined || old === made ? made : null);
  }

  /** Joins `s` (with its constant) into the local's state; true when it changed. */
  join(local: number, s: S, c?: Scalar): boolean {
    const old = this.state.get(local);
    let next: S;
    if (old === undefined) next = s;
    else if (old === S.Constant && s === S.Constant) next = this.constants.get(local) === c ? S.Constant : S.Exact;
    else next = Math.max(old, s, S.Exact);
    if (next === old) return false;
    this.state.set(local, next);
    if (next === S.Constant) this.constants.set(local, c!);
    return true;
  }

  /** Joins the whole state of local `from` into `to`. */
  joinFrom(to: number, from: number): boolean {
    const s = this.state.get(from);
    if (s === undefined) return false;
    return this.join(to, s, this.constants.get(from));
  }
}

/**
 * The scalars of one body: `params` hold anything; `facts` gives funcs' return kinds, `builtins`
 * builtins' declared results; `str` resolves a string index (a MakeNumberRefStmt's text, a string
 * operand). Copies
 * between locals are followed through a worklist: each local changes state at most three times.
 */
export function analyseScalars(
  blocks: readonly Block[],
  params: readonly number[],
  facts: ReadonlyMap<string, FuncFacts>,
  builtins: ReadonlyMap<string, BuiltinFunc>,
  str: (index: number) => string,
): Scalars {
  const out = new Scalars();
  /** Copies: source local → the locals assigned from it. */
  const copies = new Map<number, number[]>();
  const changed: number[] = [];
  const set = (local: number, s: S, c?: Scalar) => {
    if (out.join(local, s, c)) changed.push(local);
  };
  for (const p of params) {
    set(p, S.Any);
    out.define(p, null);
  }
  const assign = (target: number, source: Operand) => {
    if (source.type === "local") {
      let to = copies.get(source.value);
      if (!to) copies.set(source.value, (to = []));
      to.push(target);
      if (out.joinFrom(target, source.value)) changed.push(target);
    } else set(target, S.Constant, source.type === "bool" ? source.value : str(source.value));
  };
  const number = (target: number, d: number | undefined) => (d === undefined ? set(target, S.Any) : set(target, S.Constant, d));
  const define = (local: number, d: Definition): void => {
    out.define(local, d.type === "array" || d.type === "set" ? d.type : null);
    switch (d.type) {
      case "operand":
        return assign(local, d.operand);
      case "int":
        return number(local, Number.isSafeInteger(d.value) ? d.value : undefined);
      case "numberRef":
        return number(local, exactDouble(str(d.index)));
      case "null":
        return set(local, S.Constant, null);
      case "len":
        return set(local, S.Exact);
      case "call": {
        const f = facts.get(d.func);
        const kinds = f ? f.returns : declKinds(builtins.get(d.func)?.decl.result);
        return set(local, (kinds & ~EXACT_KINDS) === 0 ? S.Exact : S.Any);
      }
      case "array":
      case "object":
      case "set":
      case "merge":
      case "any":
        return set(local, S.Any);
      default:
        assertNever(d);
    }
  };
  const skip = finalDefault(blocks);
  forEachStmt(blocks, (s: Stmt) => {
    if (s.type === "GroupAddStmt") out.groups.add(s.stmt.groups);
    // (The final default still counts against a local's only making an array or a set.)
    if (s !== skip) forEachDefinition(s, define);
    else forEachDefinition(s, (local) => out.define(local, null));
  });
  while (changed.length > 0) {
    const from = changed.pop()!;
    for (const to of copies.get(from) ?? []) if (out.joinFrom(to, from)) changed.push(to);
  }
  return out;
}

/**
 * A rule's default, when it is the body's last work: a top-level block `IsUndefined t;
 * AssignVarOnce t <- v` followed only by blocks that return. Nothing after it reads `t` but the
 * return, so what it assigns is never seen by a statement the emitter asks about: the analysis
 * leaves it out (it cannot conflict: `t` is undefined there), and `t` keeps the one constant its
 * rule bodies assign, if they assign one.
 */
function finalDefault(blocks: readonly Block[]): Stmt | undefined {
  let last = blocks.length - 1;
  while (last >= 0 && blocks[last]!.stmts.every((s) => s.type === "ReturnLocalStmt")) last--;
  const stmts = last >= 0 ? blocks[last]!.stmts : [];
  if (stmts.length !== 2) return undefined;
  const [test, assign] = stmts as [Stmt, Stmt];
  if (test.type !== "IsUndefinedStmt" || assign.type !== "AssignVarOnceStmt" || assign.stmt.target !== test.stmt.source) return undefined;
  return assign;
}
