// Node locations. A location keeps the source, the offset its row/col point at and the span of
// its text; row, col and text are computed when asked for.
import type { NodeLocation } from "../ast/nodes.js";
import type { Location } from "../../runtime/errors.js";
import type { Source } from "./source.js";

export class SourceLocation implements NodeLocation {
  constructor(
    readonly source: Source,
    /** Where row and col point, and where the node's text starts (but see SpanLocation). */
    readonly offset: number,
    /** Where the node's text ends. */
    readonly end: number,
  ) {}

  /** A location pointing at `offset` whose text spans [start, end): a SourceLocation when the
   * two starts agree (nearly always), else a SpanLocation: the rare second start is not a field of
   * every location. */
  static of(source: Source, offset: number, start: number, end: number): SourceLocation {
    return start === offset ? new SourceLocation(source, offset, end) : new SpanLocation(source, offset, start, end);
  }

  /** Where the node's text starts. */
  get start(): number {
    return this.offset;
  }

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
  position(): { readonly row: number; readonly col: number } {
    return this.source.at(this.offset);
  }
  get text(): string {
    return this.source.text.slice(this.start, this.end);
  }

  /** A plain object (what JSON.stringify and error reports see). */
  toJSON(): { file: string; row: number; col: number; offset: number; text: string } {
    return { file: this.file, row: this.row, col: this.col, offset: this.offset, text: this.text };
  }
}

/** A location whose text starts elsewhere than it points (OPA keeps some nodes' row/col at an
 * inner token: a call's at its operator, a rule's head at its name). */
class SpanLocation extends SourceLocation {
  constructor(
    source: Source,
    offset: number,
    private readonly spanStart: number,
    end: number,
  ) {
    super(source, offset, end);
  }

  override get start(): number {
    return this.spanStart;
  }
}

/** A plain location for an error report. */
export function plainLocation(loc: NodeLocation): Location {
  return { file: loc.file, row: loc.row, col: loc.col, offset: loc.offset, text: loc.text };
}
