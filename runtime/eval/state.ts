// Per-evaluation state of generated code, and the builtin call path.
// An entrypoint that needs one takes an EvalState for its evaluation (`EvalState.take(options)`) and
// gives it back as it returns (`$.done(result)`) — one that needs none passes NO_STATE: the
// runtime keeps one spare, so a run of decisions reuses it
// and allocates nothing (a nested or concurrent evaluation finds no spare and makes its own; one
// that throws just leaves its state to the collector). Generated modules keep no module-level
// mutable state. The state holds the results of input/data-only rule funcs (memoisation: slots by
// func number, stamped with the evaluation they belong to; a WithStmt's frame is a Map of its own)
// and, made on the first builtin call, the EvalContext builtins receive (reused, restarted per
// evaluation). Builtins are called through the registry's single invoke policy (`builtinFailed`):
// an error is undefined unless strict mode is on; nondeterministic builtins go through
// `invokeBuiltin`, which caches their result for the evaluation. The state is also the
// evaluation's Deadline (deadline.ts): a plan with loops but no other use of a state takes one
// (`EvalState.timed`) only when its options set a deadline, and passes NO_STATE otherwise.
import { RegoError, type Location } from "../errors.js";
import { EvalContext, type EvalOptions } from "../builtins/context.js";
import {
  builtinFailed,
  invokeBuiltin,
  invokeBuiltinAsync,
  type BuiltinDef,
  type BuiltinFn,
  type CallSite,
} from "../builtins/registry.js";
import { RegoObject } from "../value/object.js";
import type { MaybeValue } from "../value/value.js";
import { NOT_FOUND } from "./ops.js";
import { Deadline, hasDeadline } from "./deadline.js";
import { asyncBuiltinError } from "./errors.js";

type V = MaybeValue;

/** A WithStmt's memo frame (its results by func number; undefined: fresh, nothing yet), or null
 * for the evaluation's own frame. */
export type MemoFrame = Map<number, V> | undefined | null;

/** Stamps stay small integers; past this, the slots are cleared and stamps start again. */
const MAX_STAMP = 0x3fffffff;

/** The spare state (see the top of this file). */
let spare: EvalState | undefined;

export class EvalState extends Deadline {
  private ctx: EvalContext | undefined = undefined;
  options: EvalOptions | undefined;
  /** The current evaluation's stamp: a memo slot holds one of its results when stamped with it. */
  private stamp = 1;
  private readonly values: V[] = [];
  private stamps: number[] = [];
  /** The memo frame inside a WithStmt; null at the evaluation's own (the stamped slots). */
  private frame: MemoFrame = null;

  constructor(options?: EvalOptions) {
    super();
    this.options = options;
    this.start(options);
  }

  /** A state for a new evaluation: the spare one, restarted, or a new one. */
  static take(options?: EvalOptions): EvalState {
    const s = spare;
    if (s === undefined) return new EvalState(options);
    spare = undefined;
    s.start(options);
    s.options = options;
    s.frame = null;
    if (++s.stamp > MAX_STAMP) {
      s.stamp = 1;
      s.stamps = [];
      s.values.length = 0;
    }
    if (s.ctx !== undefined) s.ctx.begin(options);
    return s;
  }

  /** A state for a plan that needs one only for a deadline: NO_STATE when the options set none. */
  static timed(options?: EvalOptions): EvalState {
    return hasDeadline(options) ? EvalState.take(options) : NO_STATE;
  }

  /** A state nothing can be written to (NO_STATE): its memo slots frozen with it. */
  static frozen(): EvalState {
    const s = new EvalState();
    Object.freeze(s.values);
    Object.freeze(s.stamps);
    return Object.freeze(s) as EvalState;
  }

  /** Ends the evaluation, keeping the state as the spare; returns `result`. */
  done<T>(result: T): T {
    if (this === NO_STATE) return result;
    // (the caller's options may hold the input and data: the spare keeps nothing of them)
    this.options = undefined;
    this.signal = undefined;
    spare = this;
    return result;
  }

  /** The builtins' context, made on first use. */
  context(): EvalContext {
    return (this.ctx ??= new EvalContext(this.options, this));
  }

  /** A memoised func's result in the current frame (undefined included), or NOT_FOUND. */
  recall(id: number): V | typeof NOT_FOUND {
    const f = this.frame;
    if (f === null) return this.stamps[id] === this.stamp ? this.values[id] : NOT_FOUND;
    return f !== undefined && f.has(id) ? f.get(id) : NOT_FOUND;
  }

  /** Records a memoised func's result (undefined included) in the current frame and returns it. */
  memoize(id: number, value: V): V {
    const f = this.frame;
    if (f === null) {
      this.values[id] = value;
      this.stamps[id] = this.stamp;
    } else (this.frame = f ?? new Map()).set(id, value);
    return value;
  }

  /** GroupsStmt: groups object `id` of the current frame (comprehension indexing in a function:
   * compiler/optimize/comprehensionIndex.ts), made empty and recorded when there is none. */
  groups(id: number): RegoObject {
    const g = this.recall(id);
    if (g instanceof RegoObject) return g;
    const made = new RegoObject();
    this.memoize(id, made);
    return made;
  }

  /** WithStmt: starts a fresh memo frame and returns the current one (for `popMemo`). */
  pushMemo(): MemoFrame {
    const m = this.frame;
    this.frame = undefined;
    return m;
  }

  /** WithStmt's `finally`: puts the saved frame back. */
  popMemo(saved: MemoFrame): void {
    this.frame = saved;
  }
}

/** The state an entrypoint passes when nothing it reaches uses one (no memo, with, or builtin
 * but the comparison operators): frozen, so that any use of it fails loudly. */
export const NO_STATE: EvalState = EvalState.frozen();

/** A builtin call site of generated code: the registry's CallSite plus the resolved builtin. */
export interface BuiltinSite extends CallSite {
  readonly location: Location;
  readonly def: BuiltinDef;
  readonly fn: BuiltinFn;
  /** Nondeterministic or async: taken through `invokeSpecial` instead of the inline fast path. */
  readonly special: boolean;
}

function invokeSpecial($: EvalState, s: BuiltinSite, args: V[]): V {
  if (s.def.async) {
    throw asyncBuiltinError(s.name, s.location);
  }
  return invokeBuiltin($.context(), s.def, s, args as never);
}

function failed($: EvalState, s: BuiltinSite, e: unknown): undefined {
  return builtinFailed($.context(), s, e);
}

export function call0($: EvalState, s: BuiltinSite): V {
  const ctx = $.context();
  if (s.special) return invokeSpecial($, s, []);
  try {
    return s.fn(ctx);
  } catch (e) {
    return failed($, s, e);
  }
}

export function call1($: EvalState, s: BuiltinSite, a: V): V {
  if (a === undefined) return undefined;
  const ctx = $.context();
  if (s.special) return invokeSpecial($, s, [a]);
  try {
    return s.fn(ctx, a);
  } catch (e) {
    return failed($, s, e);
  }
}

export function call2($: EvalState, s: BuiltinSite, a: V, b: V): V {
  if (a === undefined || b === undefined) return undefined;
  const ctx = $.context();
  if (s.special) return invokeSpecial($, s, [a, b]);
  try {
    return s.fn(ctx, a, b);
  } catch (e) {
    return failed($, s, e);
  }
}

export function call3($: EvalState, s: BuiltinSite, a: V, b: V, c: V): V {
  if (a === undefined || b === undefined || c === undefined) return undefined;
  const ctx = $.context();
  if (s.special) return invokeSpecial($, s, [a, b, c]);
  try {
    return s.fn(ctx, a, b, c);
  } catch (e) {
    return failed($, s, e);
  }
}

/** Any number of arguments; undefined when one is undefined. */
export function callN($: EvalState, s: BuiltinSite, args: V[]): V {
  for (const a of args) if (a === undefined) return undefined;
  const ctx = $.context();
  if (s.special) return invokeSpecial($, s, args);
  try {
    return s.fn(ctx, ...(args as never[]));
  } catch (e) {
    return failed($, s, e);
  }
}

/** A void builtin (no result in its decl, e.g. internal.print): called for its effect, never fails. */
export function callVoid($: EvalState, s: BuiltinSite, args: V[]): void {
  for (const a of args) if (a === undefined) return;
  callN($, s, args);
}

/** An async builtin (plans calling one get async entrypoints). */
export function callAsync($: EvalState, s: BuiltinSite, args: V[]): Promise<V> {
  for (const a of args) if (a === undefined) return Promise.resolve(undefined);
  // The deadline is checked again once the builtin's I/O is over.
  return invokeBuiltinAsync($.context(), s.def, s, args as never).then((v) => {
    $.check();
    return v;
  });
}
