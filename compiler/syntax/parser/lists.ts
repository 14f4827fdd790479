// The lists the AST keeps (bodies, refs, call arguments, collection elements) are collected here
// and copied out at their exact length: an array grown by `push` keeps spare capacity, and most
// AST lists hold 1–3 items. One shared stack serves every list being built at once (a list inside
// a list is pushed above its parent's items and taken off before the parent goes on). Hot: see
// bench/parser.bench.ts.

export class ListStack {
  private readonly items: unknown[] = [];
  private top = 0;

  /** Where a new list starts: pass it to `take` (or `drop`) when the list is done. */
  mark(): number {
    return this.top;
  }

  push(item: unknown): void {
    this.items[this.top++] = item;
  }

  /** The items pushed since `mark`, as an array of exactly their length; they leave the stack. */
  take<T>(mark: number): T[] {
    const list = this.items.slice(mark, this.top) as T[];
    this.top = mark;
    return list;
  }

  /** Forgets the items pushed since `mark` (a list given up: an error, a backtrack). */
  drop(mark: number): void {
    this.top = mark;
  }
}
