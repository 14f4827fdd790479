// The optimiser: IR → IR passes between a decoded, validated plan and the emitter, run in the
// order of PASSES. Every pass keeps the plan's meaning exactly (values, undefinedness, conflicts,
// errors) and leaves its input untouched: it returns a policy sharing the parts it did not change.
// Each pass lives in a file of its own here, with tests of its own (before/after IR).
import type { Policy } from "../ir/types.js";
import { ruleIndex } from "./ruleIndex.js";

export interface Pass {
  /** A short kebab-case name (`copy-propagation`), for tests and `OptimizeOptions.skip`. */
  name: string;
  run(policy: Policy): Policy;
}

/** The passes, in the order they run. */
export const PASSES: readonly Pass[] = [
  ruleIndex,
];

export interface OptimizeOptions {
  /** Pass names not to run (for tests comparing a pass's output with its input's). */
  skip?: readonly string[];
}

/** Runs every pass of PASSES (except the skipped ones) over the policy. */
export function optimize(policy: Policy, options: OptimizeOptions = {}): Policy {
  let p = policy;
  for (const pass of PASSES) if (!options.skip?.includes(pass.name)) p = pass.run(p);
  return p;
}
