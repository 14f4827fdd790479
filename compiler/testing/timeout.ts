// `--timeout` of `regoc test` and `regoc eval`: a Go duration, given to the evaluation as its
// deadline (`timeoutMs`: generated loops and heavy builtins stop past it with OPA's
// eval_cancel_error); an asynchronous evaluation waiting on I/O (http.send & co) is also abandoned
// at the deadline.
import { parseDuration } from "../../runtime/builtins/time/duration.js";
import { RegoError, cancelError } from "../../runtime/errors.js";
import type { DeadlineOptions } from "../../runtime/eval/deadline.js";
import { flagError } from "../cli/errors.js";

/** A Go duration ("5s", "1m30s", "0") in milliseconds; anything else is a usage error. */
export function parseTimeout(text: string): number {
  try {
    return Number(parseDuration(text)) / 1e6;
  } catch (e) {
    throw flagError("--timeout", (e as Error).message);
  }
}

/** Runs `evaluate` (given its deadline's options) under a deadline of `ms` milliseconds (0: none). */
export async function withDeadline<T>(evaluate: (deadline: DeadlineOptions | undefined) => T | Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return evaluate(undefined);
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const out = evaluate({ timeoutMs: ms });
    const value = out instanceof Promise ? await Promise.race([out, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(cancelError()), ms)))]) : out;
    if (performance.now() - t0 > ms) throw cancelError();
    return value;
  } finally {
    clearTimeout(timer);
  }
}
