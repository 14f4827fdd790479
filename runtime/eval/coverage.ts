// Coverage of code generated with GenerateOptions.coverage (`regoc test --coverage`): a statement
// whose source row differs from the statement before it calls `cover(file, row)` (file: an index
// into the plan's static.files). The rows land in the recorder `recordCoverage` installed; with
// none installed, `cover` does nothing.

/** Rows reached, by file index. */
export type CoverageHits = Set<number>[];

let recorder: CoverageHits | undefined;

/** Records that generated code reached a row of a file. */
export function cover(file: number, row: number): void {
  if (recorder !== undefined) (recorder[file] ??= new Set()).add(row);
}

/** Starts recording into `hits` (undefined: stops). */
export function recordCoverage(hits: CoverageHits | undefined): void {
  recorder = hits;
}
