// Parser state and verbs: scanning, save/restore for backtracking, error collection (errors go
// through one function, `error`), hints, the recursion-depth guard and the parsed-term cache.
// The grammar lives in the subclasses (terms.ts → exprs.ts → rules.ts → module.ts), one concern
// per file.
import type { Comment, NodeLocation, Term } from "../../ast/nodes.js";
import { Lexer } from "../lexer.js";
import { ListStack } from "./lists.js";
import { SourceLocation } from "../location.js";
import type { Source } from "../source.js";
import { keywordsV0, keywordsV1, tt, type TokenType } from "../token.js";

export interface ParseError {
  message: string;
  location: NodeLocation;
}

/** Persistent (cons) lists make save/restore O(1). */
interface Cons<T> {
  readonly head: T;
  readonly tail: Cons<T> | null;
}

/** Everything that backtracking restores. */
export interface State {
  tok: TokenType;
  lit: string;
  start: number;
  end: number;
  /** Lexer position after the current token. */
  pos: number;
  /** End of the last non-whitespace token before the current one. */
  lastEnd: number;
  skippedNL: boolean;
  errors: Cons<ParseError> | null;
  errorCount: number;
  comments: Cons<Comment> | null;
  hints: readonly string[];
  wildcard: number;
  // Not the keywords, nor notGroups: they change between statements only (imports), where no
  // state is kept, and withKeywords puts them back itself. (A state is saved for every term
  // tried: keep it small.)
}

/** A term parsed at an offset and the state after it (see parseTerm). */
export interface CachedTerm extends State {
  term: Term | undefined;
}

export const MAX_DEPTH_MESSAGE = "max parsing recursion depth exceeded";

/** Stands for a state no path ever goes back to (see parseOperandInner): restoring it is a bug
 * of the parser, reported as such rather than leaving the parser in a made-up state. */
export const NO_RETURN: State = Object.freeze({
  tok: tt.eof,
  lit: "",
  start: 0,
  end: 0,
  pos: 0,
  lastEnd: 0,
  skippedNL: false,
  errors: null,
  errorCount: 0,
  comments: null,
  hints: [],
  wildcard: 0,
});

/** Thrown past the depth limit: it unwinds the whole parse at once (backtracking must not lose
 * it), and the entry points report it as the one parse error. */
export class DepthExceeded extends Error {
  constructor(readonly location: NodeLocation) {
    super(MAX_DEPTH_MESSAGE);
  }
}

export interface CoreOptions {
  regoVersion: "v0" | "v1";
  maxDepth: number;
}

export abstract class ParserCore {
  protected readonly lexer: Lexer;
  protected depth = 0;
  /** Terms already parsed at an offset, with the state after them (see parseTerm). */
  protected cache = new Map<number, CachedTerm>();
  /** The AST lists being built (see lists.ts). */
  protected readonly lists = new ListStack();

  // the current token and the rest of the state (see State)
  tok: TokenType = tt.eof;
  lit = "";
  start = 0;
  end = 0;
  lastEnd = 0;
  skippedNL = false;
  errors: Cons<ParseError> | null = null;
  errorCount = 0;
  comments: Cons<Comment> | null = null;
  hints: readonly string[] = [];
  wildcard = 0;
  notGroups = false;

  constructor(
    readonly source: Source,
    readonly options: CoreOptions,
    keywords: ReadonlyMap<string, TokenType>,
  ) {
    this.lexer = new Lexer(source.text, keywords);
  }

  get keywords(): ReadonlyMap<string, TokenType> {
    return this.lexer.keywords;
  }
  set keywords(k: ReadonlyMap<string, TokenType>) {
    this.lexer.keywords = k;
  }

  get v1(): boolean {
    return this.options.regoVersion === "v1";
  }

  // -------------------------------------------------------------------------------------------
  // scanning

  /** Next token, skipping whitespace and comments. */
  scan(): void {
    this.doScan(true, false);
  }

  /** Next token, stopping at whitespace (used where whitespace is significant, e.g. `f (x)`). */
  scanWS(): void {
    this.doScan(false, false);
  }

  /** Continues a template string after the `}` closing one of its expressions. */
  scanTemplatePart(raw: boolean): void {
    this.doScan(false, true, raw);
  }

  private doScan(skipws: boolean, template: boolean, raw = false): void {
    if (this.tok !== tt.whitespace) {
      this.lastEnd = this.end;
      this.skippedNL = false;
    }
    const lx = this.lexer;
    for (;;) {
      if (template) {
        lx.nextTemplatePart(raw);
        template = false;
      } else lx.next();
      this.tok = lx.type;
      this.lit = lx.lit;
      this.start = lx.start;
      this.end = lx.end;
      if (lx.error !== undefined) this.error(this.loc(), lx.error);
      if (lx.type === tt.whitespace) {
        if (lx.nl) this.skippedNL = true;
        if (skipws) continue;
        return;
      }
      if (lx.type !== tt.comment) return;
      const loc = this.loc();
      this.comments = { head: { type: "comment", text: lx.lit.slice(1), location: loc }, tail: this.comments };
    }
  }

  /** Is the token right after the current one (no whitespace between) `.` or `[`? Does not
   * move. Asked after keywords (identifier-like tokens), so the next token starts where the
   * lexer stands, and a `.` or `[` there is always a token of its own: the character tells,
   * without scanning (and saving the state to undo that). */
  peekRefContinues(): boolean {
    const c = this.source.text.charCodeAt(this.lexer.pos);
    return c === 46 /* . */ || c === 91 /* [ */;
  }

  /** Is the character right after the current token `ch` (no whitespace between)? */
  nextCharIs(ch: string): boolean {
    return this.source.text.startsWith(ch, this.end);
  }

  // -------------------------------------------------------------------------------------------
  // backtracking

  /** The state now (an object of CachedTerm's shape, term left undefined: every saved state and
   * cache entry has one shape, and restore sees only that one). */
  save(): State {
    return this.saveAfter(undefined);
  }

  /** The state now, with the term just parsed (a term cache entry: one object, not a term and
   * a state in a pair). */
  saveAfter(term: Term | undefined): CachedTerm {
    return {
      tok: this.tok,
      lit: this.lit,
      start: this.start,
      end: this.end,
      pos: this.lexer.pos,
      lastEnd: this.lastEnd,
      skippedNL: this.skippedNL,
      errors: this.errors,
      errorCount: this.errorCount,
      comments: this.comments,
      hints: this.hints,
      wildcard: this.wildcard,
      term,
    };
  }

  /** Writes the state now into `s`, a state from save() that nothing else holds: for a loop that
   * saves at every round and keeps no state past it (parseStatements: one state per module
   * rather than per statement). */
  saveInto(s: State): void {
    s.tok = this.tok;
    s.lit = this.lit;
    s.start = this.start;
    s.end = this.end;
    s.pos = this.lexer.pos;
    s.lastEnd = this.lastEnd;
    s.skippedNL = this.skippedNL;
    s.errors = this.errors;
    s.errorCount = this.errorCount;
    s.comments = this.comments;
    s.hints = this.hints;
    s.wildcard = this.wildcard;
  }

  restore(s: State): void {
    if (s === NO_RETURN) throw new Error("restored a state that was not saved");
    this.tok = s.tok;
    this.lit = s.lit;
    this.start = s.start;
    this.end = s.end;
    this.lexer.pos = s.pos;
    this.lastEnd = s.lastEnd;
    this.skippedNL = s.skippedNL;
    this.errors = s.errors;
    this.errorCount = s.errorCount;
    this.comments = s.comments;
    this.hints = s.hints;
    this.wildcard = s.wildcard;
  }

  /** Runs `fn` with another keyword set and a fresh term cache; the state it reaches is kept,
   * the keywords are put back (OPA's futureParser / presentParser). */
  withKeywords<T>(keywords: ReadonlyMap<string, TokenType>, fn: () => T): T {
    const prevKeywords = this.lexer.keywords;
    const prevCache = this.cache;
    this.lexer.keywords = keywords;
    this.cache = new Map();
    try {
      return fn();
    } finally {
      this.lexer.keywords = prevKeywords;
      this.cache = prevCache;
    }
  }

  // -------------------------------------------------------------------------------------------
  // locations

  /** Location of the current token. */
  loc(): SourceLocation {
    return new SourceLocation(this.source, this.start, this.end);
  }

  /** A location pointing where `at` points, spanning [start, end). */
  span(at: NodeLocation, start: number, end: number): SourceLocation {
    return SourceLocation.of(this.source, at.offset, start, end);
  }

  /** A location at `offset`, spanning [offset, end). */
  locAt(offset: number, end: number): SourceLocation {
    return new SourceLocation(this.source, offset, end);
  }

  text(start: number, end: number): string {
    return this.source.text.slice(start, end);
  }

  // -------------------------------------------------------------------------------------------
  // errors: every parse error goes through `error`

  error(location: NodeLocation, message: string): void {
    // past the depth limit every enclosing level fails too: one error says it all
    if (this.errors?.head.message === MAX_DEPTH_MESSAGE) return;
    if (this.hints.length === 1) message += ` (hint: ${this.hints[0]})`;
    else if (this.hints.length > 1) message += ` (hints: ${this.hints.join(", ")})`;
    this.errors = { head: { message, location }, tail: this.errors };
    this.errorCount++;
    this.hints = [];
  }

  hint(h: string): void {
    this.hints = [...this.hints, h];
  }

  /** `unexpected <tok> token|keyword[: note]` at the current token (OPA's `illegal`). */
  illegal(note = ""): void {
    if (this.tok === tt.illegal) {
      // a lexical error was reported for this very token already: "illegal token" adds nothing
      if (this.errors?.head.location.offset !== this.start) this.error(this.loc(), "illegal token");
      return;
    }
    const kind = this.tok.keyword ? "keyword" : "token";
    this.error(this.loc(), note ? `unexpected ${this.tok.label} ${kind}: ${note}` : `unexpected ${this.tok.label} ${kind}`);
  }

  errorList(): ParseError[] {
    const out: ParseError[] = [];
    for (let e = this.errors; e; e = e.tail) out.push(e.head);
    return out.reverse();
  }

  commentList(): Comment[] {
    const mark = this.lists.mark();
    for (let c = this.comments; c; c = c.tail) this.lists.push(c.head);
    return this.lists.take<Comment>(mark).reverse();
  }

  // -------------------------------------------------------------------------------------------
  // recursion guard

  /** Counts one level of nesting; past the limit the parse stops (DepthExceeded). Returns true
   * so that callers read `if (!this.enter()) return undefined`, as in OPA. */
  enter(): boolean {
    if (++this.depth > this.options.maxDepth) {
      this.depth--;
      throw new DepthExceeded(this.loc());
    }
    return true;
  }

  leave(): void {
    this.depth--;
  }

  // -------------------------------------------------------------------------------------------
  // keywords

  /** Keywords may be ref operands (`input.in`, `data.every.x`), and lead a ref (`not.x`). */
  isAllowedRefKeyword(t: TokenType): boolean {
    if (!t.keyword || t === tt.amp || t === tt.pipe) return false;
    return (this.v1 ? keywordsV1 : keywordsV0).has(t.label) || this.lexer.keywords.has(t.label);
  }

  /** The current token is an identifier, or a keyword allowed in its place (then treated as one). */
  isIdentOrAllowedRefKeyword(): boolean {
    if (this.tok === tt.ident) return true;
    if (this.isAllowedRefKeyword(this.tok)) {
      this.tok = tt.ident;
      return true;
    }
    return false;
  }

  /** A keyword followed by `.` or `[` starts a ref: treat it as an identifier. */
  scanAheadRef(): boolean {
    if (this.isAllowedRefKeyword(this.tok) && this.peekRefContinues()) {
      this.tok = tt.ident;
      return true;
    }
    return false;
  }

  /** A fresh wildcard var, `$0`, `$1`, ... */
  genWildcard(): string {
    return `$${this.wildcard++}`;
  }
}
