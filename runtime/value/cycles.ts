// A value that contains itself can only come from a caller's JavaScript object given as input
// (Rego values never do, and the store refuses cycles). Walkers that keep their own stack find
// one this way: nothing is tracked until a walk is CYCLE_CHECK_DEPTH collections deep, from there
// on the open collections are kept in a set, so a cycle is an error instead of a walk without end.
import { RegoError } from "../errors.js";

/** How deep a walk goes before it tracks its open collections. */
export const CYCLE_CHECK_DEPTH = 256;

/** The error for a value that contains itself (in every mode: never an undefined builtin call). */
export function cyclicValueError(): RegoError {
  return new RegoError("eval_internal_error", "value contains itself (a cyclic input)");
}

/** Adds a collection about to be opened to the open set, made from `ancestors` on first use;
 * throws when it is already open. Returns the set. */
export function openCollection(open: Set<unknown> | undefined, v: unknown, ancestors: () => unknown[]): Set<unknown> {
  const set = open ?? new Set(ancestors());
  if (set.has(v)) throw cyclicValueError();
  set.add(v);
  return set;
}
