// Node locations. A location keeps the source, the offset its row/col point at and the span of
// its text; row, col and text are computed when asked for.
import type { NodeLocation } from "../ast/nodes.js";
import type { Location } from "../../runtime/errors.js";
import type { Source } from "./source.js";

export class SourceLocation implements NodeLocation {
  constructor(
    readonly source: Source,
    /** Where row and col point (OPA keeps some nodes' row/col at an inner token). */
    readonly offset: number,
    /** The span of the node's text. */
    readonly start: number,
    readonly end: number,
  ) {}

  get file(): string {
    return this.source.file;
  }
  // row and col are worked out on demand (rarely needed; not stored, to keep nodes small)
  get row(): number {
    return this.source.at(this.offset).row;
  }
  get col(): number {
    return this.source.at(this.offset).col;
  }
  get text(): string {
    return this.source.text.slice(this.start, this.end);
  }

  /** The same point with another text span. */
  withSpan(start: number, end: number): SourceLocation {
    return new SourceLocation(this.source, this.offset, start, end);
  }

  /** A plain object (what JSON.stringify and error reports see). */
  toJSON(): { file: string; row: number; col: number; offset: number; text: string } {
    return { file: this.file, row: this.row, col: this.col, offset: this.offset, text: this.text };
  }
}

/** A plain location for an error report. */
export function plainLocation(loc: NodeLocation): Location {
  return { file: loc.file, row: loc.row, col: loc.col, offset: loc.offset, text: loc.text };
}
