// Coverage of code generated with GenerateOptions.coverage (`regoc test --coverage`): a statement
// whose source row differs from the statement before it calls `cover(file, row)` (file: an index
// into the plan's static.files). The rows land in the recorder `recordCoverage` installed; with
// none installed, `cover` does nothing.

/** Rows reached, by file index; a row a block opened with is recorded negated (see `cover`). */
export type CoverageHits = Set<number>[];

let recorder: CoverageHits | undefined;

/** Records that generated code reached a row of a file. `opening`: the row of the statement a
 * block opens with — a rule head's row there is the rule's entry, not its success, which the
 * report (knowing where heads are) does not count. */
export function cover(file: number, row: number, opening?: boolean): void {
  if (recorder !== undefined) (recorder[file] ??= new Set()).add(opening === true ? -row : row);
}

/** Starts recording into `hits` (undefined: stops). */
export function recordCoverage(hits: CoverageHits | undefined): void {
  recorder = hits;
}
