// The lexer: Rego source → tokens, one at a time. Its whole state is `pos`, so the parser can
// save and restore it for free. A run of whitespace is one token (`nl` tells whether it held a
// line break). Lexical errors (OPA's scanner messages) are reported through `error` and make the
// token `illegal`; the parser reports them at the token's start.
import { tt, type TokenType } from "./token.js";

const enum Ch {
  tab = 9,
  nl = 10,
  cr = 13,
  space = 32,
  bang = 33,
  dquote = 34,
  hash = 35,
  dollar = 36,
  percent = 37,
  amp = 38,
  parenL = 40,
  parenR = 41,
  star = 42,
  plus = 43,
  comma = 44,
  minus = 45,
  dot = 46,
  slash = 47,
  zero = 48,
  nine = 57,
  colon = 58,
  semicolon = 59,
  lt = 60,
  eq = 61,
  gt = 62,
  upperA = 65,
  upperZ = 90,
  bracketL = 91,
  backslash = 92,
  bracketR = 93,
  underscore = 95,
  backtick = 96,
  lowerA = 97,
  lowerE = 101,
  lowerZ = 122,
  braceL = 123,
  pipe = 124,
  braceR = 125,
  bom = 0xfeff,
}

export function isLetter(c: number): boolean {
  return (c >= Ch.lowerA && c <= Ch.lowerZ) || (c >= Ch.upperA && c <= Ch.upperZ) || c === Ch.underscore;
}
function isDecimal(c: number): boolean {
  return c >= Ch.zero && c <= Ch.nine;
}
const unicodeDigit = /^\p{Nd}$/u;

/** A cache (module state on purpose) of one string per identifier name: the AST keeps a var's or ref's name, and policies
 * name the same few things over and over. Shared by all lexers, and bounded so that a
 * long-running compiler does not keep every name it ever saw: full, it starts afresh. */
const MAX_SHARED_NAMES = 16384;
let sharedNames = new Map<string, string>();

/** `name` as a string of its own. V8 makes a slice of 13 characters or more a view into the text
 * it was cut from: kept in the shared table, such a name would keep a whole policy source alive
 * after its AST is gone (with hot reload, the first version's, for as long as the table lives).
 * Only names new to the table pay for the copy. */
function ownCopy(name: string): string {
  return name.length < 13 ? name : name.split("").join("");
}

export class Lexer {
  /** Offset of the next character to read. */
  pos = 0;

  // the token just scanned
  type: TokenType = tt.eof;
  /** Its text ("" for whitespace, which nothing reads). */
  lit = "";
  start = 0;
  end = 0;
  /** For whitespace tokens: whether the run held a "\n". */
  nl = false;
  /** OPA's scanner message when the token is malformed (the token is then `illegal`). */
  error: string | undefined;

  constructor(
    readonly text: string,
    public keywords: ReadonlyMap<string, TokenType>,
  ) {
    if (text.charCodeAt(0) === Ch.bom) this.pos = 1;
  }

  /** One string per identifier name (see sharedNames). */
  private name(lit: string): string {
    const known = sharedNames.get(lit);
    if (known !== undefined) return known;
    if (sharedNames.size >= MAX_SHARED_NAMES) sharedNames = new Map();
    const name = ownCopy(lit);
    sharedNames.set(name, name);
    return name;
  }

  /** Scans the next token. */
  next(): void {
    const text = this.text;
    const start = this.pos;
    this.start = start;
    this.error = undefined;
    this.lit = "";
    this.nl = false;
    if (start >= text.length) {
      this.type = tt.eof;
      this.end = start;
      return;
    }
    const c = text.charCodeAt(start);
    if (c === Ch.space || c === Ch.tab || c === Ch.nl || c === Ch.cr) {
      let p = start;
      let nl = false;
      for (;;) {
        const d = text.charCodeAt(p);
        if (d === Ch.nl) nl = true;
        else if (d !== Ch.space && d !== Ch.tab && d !== Ch.cr) break;
        p++;
      }
      this.pos = p;
      this.nl = nl;
      this.type = tt.whitespace;
      this.end = p;
    } else if (isLetter(c)) {
      let p = start + 1;
      for (;;) {
        const d = text.charCodeAt(p);
        if (isLetter(d) || isDecimal(d)) p++;
        else if (d >= 0x80 && this.isUnicodeDigitAt(p)) p += text.codePointAt(p)! > 0xffff ? 2 : 1;
        else break;
      }
      this.pos = p;
      const lit = text.slice(start, p);
      const keyword = this.keywords.get(lit);
      this.type = keyword ?? tt.ident;
      this.lit = keyword ? lit : this.name(lit);
      this.end = p;
    } else if (isDecimal(c)) {
      this.scanNumber(start);
    } else {
      this.pos = start + 1;
      this.scanPunct(c, start);
    }
  }

  /** Continues a template string after the `}` that closed one of its expressions. */
  nextTemplatePart(raw: boolean): void {
    this.start = this.pos;
    this.error = undefined;
    this.nl = false;
    // the literal includes the `}` before it, as OPA's does
    this.scanTemplate(this.pos - 1, raw);
  }

  private finish(type: TokenType, start: number): void {
    this.type = this.error === undefined ? type : tt.illegal;
    this.end = this.pos;
    if (this.lit === "") this.lit = this.text.slice(start, this.pos);
  }

  private isUnicodeDigitAt(p: number): boolean {
    const cp = this.text.codePointAt(p);
    return cp !== undefined && unicodeDigit.test(String.fromCodePoint(cp));
  }

  private scanNumber(start: number): void {
    const text = this.text;
    let p = start;
    while (isDecimal(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) === Ch.dot) {
      p++;
      const digits = p;
      while (isDecimal(text.charCodeAt(p))) p++;
      if (p === digits) this.error = "expected fraction";
    }
    if ((text.charCodeAt(p) | 0x20) === Ch.lowerE) {
      p++;
      const s = text.charCodeAt(p);
      if (s === Ch.plus || s === Ch.minus) p++;
      const digits = p;
      while (isDecimal(text.charCodeAt(p))) p++;
      if (p === digits) this.error ??= "expected exponent";
    }
    // digits and letters stuck to a number make one illegal token ("0a2b")
    if (isLetter(text.charCodeAt(p))) {
      this.error ??= "illegal number format";
      for (;;) {
        const d = text.charCodeAt(p);
        if (isLetter(d) || isDecimal(d)) p++;
        else if (d >= 0x80 && this.isUnicodeDigitAt(p)) p += text.codePointAt(p)! > 0xffff ? 2 : 1;
        else break;
      }
    }
    this.pos = p;
    this.finish(tt.number, start);
  }

  /** `yes` when the next character is `next` (consumed), else `no`. */
  private two(start: number, next: number, yes: TokenType, no: TokenType): void {
    if (this.text.charCodeAt(this.pos) === next) {
      this.pos++;
      this.finish(yes, start);
    } else this.finish(no, start);
  }

  private scanPunct(c: number, start: number): void {
    const text = this.text;
    switch (c) {
      case Ch.hash: {
        let p = text.indexOf("\n", this.pos);
        if (p === -1) p = text.length;
        let end = p;
        if (end > start + 1 && text.charCodeAt(end - 1) === Ch.cr) end--;
        this.checkChars(this.pos, end);
        this.pos = p;
        this.lit = text.slice(start, end);
        this.type = tt.comment;
        this.end = end;
        return;
      }
      case Ch.dquote:
        return this.scanString(start);
      case Ch.backtick:
        return this.scanRawString(start);
      case Ch.bracketL:
        return this.finish(tt.bracketL, start);
      case Ch.bracketR:
        return this.finish(tt.bracketR, start);
      case Ch.braceL:
        return this.finish(tt.braceL, start);
      case Ch.braceR:
        return this.finish(tt.braceR, start);
      case Ch.parenL:
        return this.finish(tt.parenL, start);
      case Ch.parenR:
        return this.finish(tt.parenR, start);
      case Ch.comma:
        return this.finish(tt.comma, start);
      case Ch.colon:
        return this.two(start, Ch.eq, tt.assign, tt.colon);
      case Ch.plus:
        return this.finish(tt.plus, start);
      case Ch.minus:
        return this.finish(tt.minus, start);
      case Ch.star:
        return this.finish(tt.mul, start);
      case Ch.slash:
        return this.finish(tt.div, start);
      case Ch.percent:
        return this.finish(tt.rem, start);
      case Ch.amp:
        return this.finish(tt.amp, start);
      case Ch.pipe:
        return this.finish(tt.pipe, start);
      case Ch.eq:
        return this.two(start, Ch.eq, tt.equal, tt.unify);
      case Ch.gt:
        return this.two(start, Ch.eq, tt.gte, tt.gt);
      case Ch.lt:
        return this.two(start, Ch.eq, tt.lte, tt.lt);
      case Ch.bang:
        if (text.charCodeAt(this.pos) === Ch.eq) {
          this.pos++;
          return this.finish(tt.neq, start);
        }
        this.error = "illegal ! character";
        return this.finish(tt.illegal, start);
      case Ch.semicolon:
        return this.finish(tt.semicolon, start);
      case Ch.dot:
        return this.finish(tt.dot, start);
      case Ch.dollar: {
        const d = text.charCodeAt(this.pos);
        if (d === Ch.dquote || d === Ch.backtick) {
          this.pos++;
          return this.scanTemplate(start + 1, d === Ch.backtick);
        }
        this.error = "illegal $ character";
        return this.finish(tt.illegal, start);
      }
      default: {
        // any other character: one illegal token (a whole code point)
        if (c === 0) this.error = "illegal null character";
        else if (c === Ch.bom) this.error = "illegal byte-order mark";
        else if (c >= 0xd800 && c <= 0xdbff) {
          const d = text.charCodeAt(this.pos);
          if (d >= 0xdc00 && d <= 0xdfff) this.pos++;
          else this.error = "illegal utf-8 character";
        } else if (c >= 0xdc00 && c <= 0xdfff) this.error = "illegal utf-8 character";
        this.type = tt.illegal;
        this.end = this.pos;
        this.lit = text.slice(start, this.pos);
        return;
      }
    }
  }

  /** Flags characters OPA's scanner rejects anywhere (NUL, stray BOM, lone surrogates). */
  private checkChars(from: number, to: number): void {
    const text = this.text;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c < 0xd800 && c !== 0) continue;
      if (c === 0) this.error ??= "illegal null character";
      else if (c === Ch.bom) this.error ??= "illegal byte-order mark";
      else if (c >= 0xd800 && c <= 0xdbff) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
        else this.error ??= "illegal utf-8 character";
      } else if (c >= 0xdc00 && c <= 0xdfff) this.error ??= "illegal utf-8 character";
    }
  }

  private scanString(start: number): void {
    const text = this.text;
    let p = this.pos;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c === Ch.nl || p >= text.length) {
        this.error ??= "non-terminated string";
        break;
      }
      p++;
      if (c === Ch.dquote) break;
      if (c === Ch.backslash) {
        const e = text.charCodeAt(p);
        if (isSimpleEscape(e)) p++;
        else if (e === 0x75 /* u */) p = Math.min(p + 4, text.length);
        else this.error ??= "illegal escape sequence";
      }
    }
    this.checkChars(this.pos, p);
    this.pos = p;
    this.finish(tt.string, start);
  }

  private scanRawString(start: number): void {
    const text = this.text;
    const close = text.indexOf("`", this.pos);
    const p = close === -1 ? text.length : close + 1;
    if (close === -1) this.error = "non-terminated string";
    this.checkChars(this.pos, p);
    this.pos = p;
    this.finish(tt.string, start);
  }

  /**
   * A template-string part, from `litStart` (its opening delimiter: `"`, `` ` `` or the `}`
   * that ended the previous expression) up to and including `{` (more follows) or the closing
   * quote. Escaped braces `\{` are kept as `{` in the literal.
   */
  private scanTemplate(litStart: number, raw: boolean): void {
    const text = this.text;
    const close = raw ? Ch.backtick : Ch.dquote;
    let p = this.pos;
    let type = raw ? tt.rawTemplatePart : tt.templatePart;
    let lit = "";
    let from = litStart;
    for (;;) {
      const c = text.charCodeAt(p);
      if (p >= text.length || (!raw && c === Ch.nl)) {
        this.error ??= "non-terminated string";
        break;
      }
      p++;
      if (c === close) {
        type = raw ? tt.rawTemplateEnd : tt.templateEnd;
        break;
      }
      if (c === Ch.braceL) break;
      if (c === Ch.backslash) {
        const e = text.charCodeAt(p);
        if (e === Ch.braceL) {
          lit += text.slice(from, p - 1);
          from = p;
          p++;
        } else if (raw) {
          // raw strings keep other backslashes as they are
        } else if (isSimpleEscape(e)) p++;
        else if (e === 0x75 /* u */) p = Math.min(p + 4, text.length);
        else this.error ??= "illegal escape sequence";
      }
    }
    this.checkChars(this.pos, p);
    this.lit = lit + text.slice(from, p);
    this.pos = p;
    this.type = this.error === undefined ? type : tt.illegal;
    this.end = p;
  }
}

function isSimpleEscape(c: number): boolean {
  // \\ \" \/ \b \f \n \r \t
  return c === Ch.backslash || c === Ch.dquote || c === Ch.slash || c === 98 || c === 102 || c === 110 || c === 114 || c === 116;
}
