// A source file: its name and text. Offsets are UTF-16 indexes into `text`; rows and columns are
// worked out only when asked for (acorn's habit: the hot path deals in offsets).
// OPA counts rows by "\n" and columns in code points (runes), both 1-based; so do we.

export class Source {
  private lineStarts: number[] | undefined;
  /** Offsets of the surrogate pairs (their first half), in order: columns count each once. */
  private pairStarts: number[] | undefined;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

  /** The result of `at`, one per source: filled in at each call. */
  private readonly point = { row: 0, col: 0 };

  /**
   * Row and column (1-based) of a UTF-16 offset, as OPA's scanner numbers them: a line break
   * belongs to the next row, at column 0; the end of the input is where the last character
   * is (or column 0 of the next row after a final line break). Into an object of this source's
   * that the next call overwrites (read it at once): no object per look-up.
   */
  at(offset: number): { readonly row: number; readonly col: number } {
    const text = this.text;
    const point = this.point;
    if (offset >= text.length) {
      if (text.length === 0) {
        point.row = 1;
        point.col = 0;
        return point;
      }
      return this.at(text.length - 1);
    }
    if (text.charCodeAt(offset) === 10) {
      this.rowCol(offset);
      point.row++;
      point.col = 0;
      return point;
    }
    this.rowCol(offset);
    return point;
  }

  /** Row and column of `offset` (not at a line break) into `point`. */
  private rowCol(offset: number): void {
    const starts = (this.lineStarts ??= computeLineStarts(this.text));
    // binary search for the last line start <= offset
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const start = starts[lo]!;
    // code points from the line start: UTF-16 units less the pairs in between (not a scan of
    // the line: every location of a long one-line policy would cost the line's length)
    const pairs = (this.pairStarts ??= computePairStarts(this.text));
    const col = offset - start - (pairs.length === 0 ? 0 : countBelow(pairs, offset - 1) - countBelow(pairs, start));
    this.point.row = lo + 1;
    this.point.col = col + 1;
  }

  /** The text of the line holding `offset`, without its line break. */
  lineAt(offset: number): string {
    this.rowCol(Math.min(offset, this.text.length));
    const row = this.point.row;
    const starts = this.lineStarts!;
    const start = starts[row - 1]!;
    let end = row < starts.length ? starts[row]! - 1 : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf("\n");
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf("\n", i + 1);
  }
  return starts;
}

/** Where the surrogate pairs of `text` start (a high surrogate followed by a low one). */
function computePairStarts(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(i);
        i++;
      }
    }
  }
  return out;
}

/** How many of the sorted `xs` are below `limit`. */
export function countBelow(xs: readonly number[], limit: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
