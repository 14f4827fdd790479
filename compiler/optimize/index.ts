// The optimiser: IR → IR passes between a decoded, validated plan and the emitter, run in the
// order of PASSES. Every pass keeps the plan's meaning exactly (values, undefinedness, conflicts,
// errors) and leaves its input untouched: it returns a policy sharing the parts it did not change.
// Each pass lives in a file of its own here, with tests of its own (before/after IR).
import type { LocalNames } from "../codegen/emit/context.js";
import type { Block, Func, Plan, Policy } from "../ir/types.js";
import { comprehensionIndex } from "./comprehensionIndex.js";
import { copyPropagation, lateCopyPropagation } from "./copyPropagation.js";
import { countForm } from "./countForm.js";
import { deadCode } from "./deadCode.js";
import { directResult } from "./directResult.js";
import { earlyExit } from "./earlyExit.js";
import { hoist } from "./hoist.js";
import { sharedLookups } from "./sharedLookups.js";
import { inline } from "./inline.js";
import { NameTable } from "./names.js";
import { ruleIndex } from "./ruleIndex.js";
import { scanFusion } from "./scanFusion.js";
import { scanMerge } from "./scanMerge.js";
import { singleAssign } from "./singleAssign.js";
import { splitConstants } from "./splitConstants.js";
import { mapBodies, sameList } from "./stmts.js";

export interface Pass {
  /** A short kebab-case name (`copy-propagation`), for tests and `OptimizeOptions.skip`. */
  name: string;
  /** `names`: the policy's local names, for a pass that replaces locals to hand them on. */
  run(policy: Policy, names?: NameTable): Policy;
  /** For a pass that rewrites each plan and func on its own (stmts.ts's bodyPass): that rewrite. */
  body?: BodyRewrite;
}

/** A plan's or func's blocks rewritten (the same list when nothing changed). */
export type BodyRewrite = (blocks: Block[], body: Plan | Func, names: NameTable | undefined) => Block[];

/** The passes, in the order they run. */
export const PASSES: readonly Pass[] = [
  // Dead code first: the planner's no-op guards and dead statements would hide copies and lookups
  // from the passes after it. Rule indexing before early exit: early exit's guards read the
  // result local, which would keep bodies from moving into the index. Early exit last: its breaks
  // and guards end the lists the others work on. (Early exit skips what a rule's later bodies
  // would do, as OPA's topdown does.) Inlining before copy propagation: the copies binding an
  // inlined func's params to constant args go there, so the constants reach the comparisons.
  // Constants split after copy propagation (whose copies may leave a local set to a constant in
  // several bodies), before the passes that move statements between blocks.
  deadCode,
  inline,
  copyPropagation,
  splitConstants,
  // Counting after the constants are split (its counter is a local set to 0, then incremented).
  countForm,
  // Comprehension indexing after counting (it groups counts too), before hoisting (which would
  // move the comprehension's reads out of it, where they would look like outer values).
  comprehensionIndex,
  // Scans merged before hoisting, which then hoists out of the one loop what it can.
  scanMerge,
  hoist,
  ruleIndex,
  earlyExit,
  // Scan fusion after early exit: it fuses scans whose bodies end in early exit's `r = c; break`.
  scanFusion,
  // Shared lookups after the passes that look for lookups (the rule index for a body's
  // `input.x == c`), which it turns into copies of earlier bodies' results.
  sharedLookups,
  // Copy propagation again: a later body's lookup that shared lookups made a copy of an earlier
  // body's result (`l4 = l22`) reads that result directly.
  lateCopyPropagation,
  // Last: the passes before read a rule's once-assignments as the rule's shape. Direct result
  // after single-assign, whose copies it folds.
  singleAssign,
  directResult,
];

export interface OptimizeOptions {
  /** Pass names not to run (for tests comparing a pass's output with its input's). */
  skip?: readonly string[];
  /** The Rego names of the plan's locals (GenerateOptions.localNames). */
  localNames?: LocalNames;
}

/** Runs every pass of PASSES (except the skipped ones) over the policy; the local names as the
 * passes leave them. */
export function optimize(policy: Policy, options: OptimizeOptions = {}): { policy: Policy; localNames: LocalNames | undefined } {
  const names = new NameTable(options.localNames);
  const passes = PASSES.filter((pass) => !options.skip?.includes(pass.name));
  let p = policy;
  for (let i = 0; i < passes.length; ) {
    // Consecutive passes that rewrite each body on its own take one body through them all before
    // the next, while its statements are in the processor's cache (hot: see bench/frontend).
    let j = i;
    while (passes[j]?.body) j++;
    if (j - i > 1) {
      const rewrites = passes.slice(i, j).map((pass) => pass.body!);
      p = mapBodies(p, (blocks, body) => rewriteBody(rewrites, blocks, body, names));
      i = j;
    } else p = passes[i++]!.run(p, names);
  }
  return { policy: p, localNames: names.result() };
}

/** The body rewritten by each rewrite in turn, each seeing the plan or func as the one before left
 * it (as the passes one after the other over the whole policy would). */
function rewriteBody(rewrites: readonly BodyRewrite[], blocks: Block[], body: Plan | Func, names: NameTable): Block[] {
  let current = body;
  let out = blocks;
  for (const rewrite of rewrites) {
    const next = rewrite(out, current, names);
    if (sameList(next, out)) continue;
    out = next;
    current = { ...current, blocks: next };
  }
  return out;
}
