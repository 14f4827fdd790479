// `--timeout` of `regoc test` and `regoc eval`: a Go duration, and OPA's error for an evaluation
// cut off by its deadline. Generated code runs synchronously and cannot be interrupted: an
// asynchronous evaluation (http.send & co) is abandoned at the deadline, a synchronous one is
// reported as cancelled once it ends past it.
import { parseDuration } from "../../runtime/builtins/time/duration.js";
import { RegoError } from "../../runtime/errors.js";
import { flagError } from "../cli/errors.js";

/** A Go duration ("5s", "1m30s", "0") in milliseconds; anything else is a usage error. */
export function parseTimeout(text: string): number {
  try {
    return Number(parseDuration(text)) / 1e6;
  } catch (e) {
    throw flagError("--timeout", (e as Error).message);
  }
}

/** What OPA reports for an evaluation past its deadline. */
function cancelledError(): RegoError {
  return new RegoError("eval_cancel_error", "caller cancelled query execution");
}

/** Runs `evaluate` under a deadline of `ms` milliseconds (0: none). */
export async function withDeadline<T>(evaluate: () => T | Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return evaluate();
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const out = evaluate();
    const value = out instanceof Promise ? await Promise.race([out, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(cancelledError()), ms)))]) : out;
    if (performance.now() - t0 > ms) throw cancelledError();
    return value;
  } finally {
    clearTimeout(timer);
  }
}
