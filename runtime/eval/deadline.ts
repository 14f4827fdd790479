// Deadlines of evaluations: `timeoutMs` and `signal` in the evaluation options. A synchronous loop
// cannot be interrupted from outside, so generated loops and the builtins that iterate or allocate
// call `tick` with the iteration's index (generated loops through `tickTo`, before each stretch of
// TICKS iterations): every TICKS iterations of a loop, and every ENTRIES loops started (shared by
// all evaluations, so that nested short loops are counted too), it looks at the clock and the
// signal. Inside a stretch an iteration costs nothing. Past the deadline, or once the signal is
// aborted, the evaluation fails with OPA's eval_cancel_error.
import { cancelError } from "../errors.js";

/** What an evaluation's options say of its deadline. */
export interface DeadlineOptions {
  /** Milliseconds the evaluation may run; past them it fails with eval_cancel_error. */
  timeoutMs?: number;
  /** Aborting it cancels the evaluation (eval_cancel_error) at its next check. */
  signal?: AbortSignal;
}

/** Iterations of one loop between two looks at the clock (a power of two): generated loops run in
 * stretches of it (tickTo). */
export const TICKS = 1024;
/** Loops started between two looks at the clock. */
const ENTRIES = 256;
let entries = ENTRIES;

/** An evaluation's deadline (performance.now() time, Infinity: none) and abort signal. */
export class Deadline {
  at = Infinity;
  signal: AbortSignal | undefined = undefined;

  /** Starts the deadline of an evaluation with these options; an aborted signal fails now. */
  start(options: DeadlineOptions | undefined): void {
    if (options === undefined) {
      this.at = Infinity;
      this.signal = undefined;
      return;
    }
    const ms = options.timeoutMs;
    this.at = ms === undefined ? Infinity : performance.now() + ms;
    this.signal = options.signal;
    checkSignal(options);
  }

  /** Throws eval_cancel_error when the deadline has passed or the signal is aborted. */
  check(): void {
    if ((this.signal !== undefined && this.signal.aborted) || (this.at !== Infinity && performance.now() >= this.at)) throw cancelError();
  }
}

/** A deadline that never passes (frozen: nothing evaluates against it but checks). */
export const NO_DEADLINE: Deadline = Object.freeze(new Deadline());

/** Iteration `i` of a loop: checks the deadline every TICKS iterations and every ENTRIES loops. */
export function tick(d: Deadline, i: number): void {
  if ((i & (TICKS - 1)) === 0) tickTo(d, i, i);
}

/** Iteration `i` (a multiple of TICKS) of a loop of `length` iterations: ticks, and returns the
 * index to run to before the next call. Generated loops run in such stretches, with no call inside
 * one. */
export function tickTo(d: Deadline, i: number, length: number): number {
  if (i !== 0) d.check();
  else if (--entries === 0) {
    entries = ENTRIES;
    d.check();
  }
  return length - i > TICKS ? i + TICKS : length;
}

/** Whether these options set a deadline. */
export function hasDeadline(options: DeadlineOptions | undefined): boolean {
  return options !== undefined && (options.timeoutMs !== undefined || options.signal !== undefined);
}

/** Fails now when the options' signal is already aborted: a plan without loops never looks at it. */
export function checkSignal(options: DeadlineOptions | undefined): void {
  if (options !== undefined && options.signal !== undefined && options.signal.aborted) throw cancelError();
}

/** An API's evaluation options with a call's deadline over them: `base` itself when the call
 * sets none (nothing allocated for a decision without one). An aborted signal fails now. */
export function optionsWithDeadline<T extends DeadlineOptions>(base: T | undefined, deadline: DeadlineOptions | undefined): T | DeadlineOptions | undefined {
  if (!hasDeadline(deadline)) return base;
  checkSignal(deadline);
  const { timeoutMs, signal } = deadline!;
  return { ...base, ...(timeoutMs !== undefined && { timeoutMs }), ...(signal !== undefined && { signal }) };
}
