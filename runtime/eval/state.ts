// Per-evaluation state of generated code, and the builtin call path.
// One EvalState is made per evaluation (generated modules keep no module-level mutable state):
// it holds the memo frame of input/data-only rule funcs (swapped for a fresh one inside every
// WithStmt) and, created on the first builtin call only, the EvalContext builtins receive.
// Builtins are called through the registry's single invoke policy (`builtinFailed`): an error is
// undefined unless strict mode is on; nondeterministic builtins go through `invokeBuiltin`, which
// caches their result for the evaluation.
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
import type { MaybeValue } from "../value/value.js";

type V = MaybeValue;

/** Results of memoised rule funcs, keyed by func number; undefined = a fresh, empty frame. */
export type MemoFrame = Map<number, V> | undefined;

export class EvalState {
  memo: MemoFrame = undefined;
  private ctx: EvalContext | undefined = undefined;
  readonly options: EvalOptions | undefined;

  constructor(options?: EvalOptions) {
    this.options = options;
  }

  /** The builtins' context, made on first use. */
  context(): EvalContext {
    return (this.ctx ??= new EvalContext(this.options));
  }

  /** WithStmt: starts a fresh memo frame and returns the current one (for `popMemo`). */
  pushMemo(): MemoFrame {
    const m = this.memo;
    this.memo = undefined;
    return m;
  }

  /** WithStmt's `finally`: puts the saved frame back. */
  popMemo(saved: MemoFrame): void {
    this.memo = saved;
  }

  /** Records a memoised func's result (undefined included) in the current frame and returns it. */
  memoize(id: number, value: V): V {
    (this.memo ??= new Map()).set(id, value);
    return value;
  }
}

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
    throw new RegoError("eval_internal_error", `${s.name} is async: this plan must be evaluated with evaluateAsync`, s.location);
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
  return invokeBuiltinAsync($.context(), s.def, s, args as never);
}
