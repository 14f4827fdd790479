// Terms: scalars, vars, refs, calls, template strings, and the infix operators between terms
// (by precedence from the token table). Collections and comprehensions: collections.ts.
import type { Body, Expr, NodeLocation, Term } from "../../ast/nodes.js";
import { PREC_FACTOR, PREC_RELATION, tt, type TokenType } from "../token.js";
import { ParserCore } from "./core.js";
import { assertNever } from "../../../runtime/errors.js";

/** OPA's operator refs for `x in xs` and `k, v in xs`. */
export const MEMBER_2 = ["internal", "member_2"] as const;
export const MEMBER_3 = ["internal", "member_3"] as const;

export function isMemberCall(t: Term, name: readonly [string, string]): boolean {
  if (t.type !== "call") return false;
  const op = t.value[0];
  return op !== undefined && isRefNamed(op, name);
}

/** Is `t` the ref `a.b` (a var followed by a string)? */
export function isRefNamed(t: Term, name: readonly string[]): boolean {
  if (t.type !== "ref" || t.value.length !== name.length) return false;
  // (a loop, not every() with a closure: asked of every `some ... in` and operator)
  for (let i = 0; i < name.length; i++) {
    const x = t.value[i]!;
    if ((i === 0 ? x.type !== "var" : x.type !== "string") || x.value !== name[i]) return false;
  }
  return true;
}

export abstract class TermParser extends ParserCore {
  // implemented by the subclasses: collections.ts, body.ts
  protected abstract parseArray(): Term | undefined;
  protected abstract parseSetOrObject(): Term | undefined;
  abstract parseBody(end: TokenType): Body | undefined;
  abstract parseLiteral(): Expr | undefined;

  // -------------------------------------------------------------------------------------------
  // infix operators

  /** A term with infix operators, `x in xs` and `k, v in xs` included. */
  parseTermInfixCall(): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      return this.parseTermIn(undefined, true, this.start);
    } finally {
      this.leave();
    }
  }

  /** As parseTermInfixCall, but a `,` ends the term (collection elements, call arguments). */
  parseTermInfixCallInList(): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      return this.parseTermIn(undefined, false, this.start);
    } finally {
      this.leave();
    }
  }

  private parseTermIn(lhs: Term | undefined, keyVal: boolean, offset: number): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      for (;;) {
        lhs ??= this.parseBinary(PREC_RELATION, offset);
        if (!lhs) return undefined;
        if (keyVal && this.tok === tt.comma) {
          // `k, v in xs`: a second left-hand side
          const s = this.save();
          this.scan();
          const mhs = this.parseBinary(PREC_RELATION, offset);
          if (mhs && this.tok === tt.in) {
            const op = this.parseTermOpName(MEMBER_3);
            const rhs = this.parseBinary(PREC_RELATION, this.start);
            if (rhs) {
              lhs = this.call([op, lhs, mhs, rhs], lhs.location, offset);
              if (this.tok === tt.in) continue;
              return lhs;
            }
          }
          this.restore(s);
        }
        this.scanAheadRef();
        if (this.tok !== tt.in) return lhs;
        const op = this.parseTermOpName(MEMBER_2);
        const rhs = this.parseBinary(PREC_RELATION, this.start);
        if (!rhs) return lhs;
        lhs = this.call([op, lhs, rhs], lhs.location, offset);
        if (this.tok !== tt.in) return lhs;
      }
    } finally {
      this.leave();
    }
  }

  /** Left-associative infix operators of precedence `prec` and tighter (precedence climbing
   * over the levels of the token table: relations, `|`, `&`, `+ -`, `* / %`). */
  private parseBinary(prec: number, offset: number): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      let lhs = prec === PREC_FACTOR ? this.parseTerm() : this.parseBinary(prec + 1, offset);
      if (!lhs) return undefined;
      while (this.tok.binop === prec) {
        const op = this.parseTermOp();
        const rhs = prec === PREC_FACTOR ? this.parseTerm() : this.parseBinary(prec + 1, this.start);
        if (!rhs) return lhs;
        lhs = this.call([op, lhs, rhs], lhs.location, offset);
      }
      return lhs;
    } finally {
      this.leave();
    }
  }

  /** The operator ref for the current token (`plus`, `equal`, `assign`, ...); scans past it. */
  parseTermOp(): Term {
    const loc = this.loc();
    const t: Term = { type: "ref", value: [{ type: "var", value: this.tok.label, location: loc }], location: loc };
    this.scan();
    return t;
  }

  /** A multi-part operator ref (`internal.member_2`) at the current token; scans past it. */
  parseTermOpName(name: readonly [string, string]): Term {
    const loc = this.loc();
    const value: Term[] = [
      { type: "var", value: name[0], location: loc },
      { type: "string", value: name[1], location: loc },
    ];
    this.scan();
    return { type: "ref", value, location: loc };
  }

  private call(value: Term[], at: NodeLocation, offset: number): Term {
    return { type: "call", value, location: this.span(at, offset, this.lastEnd) };
  }

  // -------------------------------------------------------------------------------------------
  // single terms

  /** One term (with its ref/call suffix). Results are cached by offset, failures included, so
   * backtracking never parses the same term twice. */
  parseTerm(): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      const cached = this.cache.get(this.start);
      if (cached) {
        this.restore(cached);
        return cached.term;
      }
      const offset = this.start;
      let term: Term | undefined;
      // a keyword leading a ref (`not.x`, `null["y"]`) is an identifier there
      if (this.tok.keyword && this.isAllowedRefKeyword(this.tok) && this.peekRefContinues()) this.tok = tt.ident;
      switch (this.tok) {
        case tt.null:
          term = { type: "null", value: null, location: this.loc() };
          break;
        case tt.true:
        case tt.false:
          term = { type: "boolean", value: this.tok === tt.true, location: this.loc() };
          break;
        case tt.minus:
        case tt.dot:
        case tt.number:
          term = this.parseNumber();
          break;
        case tt.string:
          term = this.parseString();
          break;
        case tt.templatePart:
        case tt.templateEnd:
          term = this.parseTemplateString(false);
          break;
        case tt.rawTemplatePart:
        case tt.rawTemplateEnd:
          term = this.parseTemplateString(true);
          break;
        case tt.ident:
        case tt.contains: // `contains` is special in rule heads only
          term = this.parseVar();
          break;
        case tt.bracketL:
          term = this.parseArray();
          break;
        case tt.braceL:
          term = this.parseSetOrObject();
          break;
        case tt.parenL: {
          this.scan();
          const inner = this.parseTermInfixCall();
          if (inner) {
            if (this.tok === tt.parenR) term = { ...inner, location: this.span(inner.location, offset, this.end) } as Term;
            else this.error(this.loc(), "non-terminated expression");
          }
          break;
        }
        case tt.and:
        case tt.or:
          // `and(a, b)` / `or(a, b)`: the builtins, when the keyword is directly called
          if (this.nextCharIs("(")) term = this.parseVar();
          else this.illegal();
          break;
        default:
          this.illegal();
      }
      term = this.parseTermFinish(term, offset);
      // single-token terms are cheap to read again; only compound ones are worth remembering
      if (!term || isCompound(term)) this.cache.set(offset, this.saveAfter(term));
      return term;
    } finally {
      this.leave();
    }
  }

  /** After a term: a ref or call suffix (no whitespace before it), else a bare `data`/`input`
   * becomes a one-term ref. */
  private parseTermFinish(head: Term | undefined, offset: number): Term | undefined {
    if (!head) return undefined;
    this.scanWS();
    return this.parseRefSuffix(head, offset);
  }

  /** At the token after a term (whitespace not yet skipped): its ref or call suffix, else a bare
   * `data`/`input` as a one-term ref. */
  protected parseRefSuffix(head: Term, offset: number): Term | undefined {
    switch (this.tok) {
      case tt.parenL:
      case tt.dot:
      case tt.bracketL:
        return this.parseRef(head, offset);
      case tt.whitespace:
        this.scan();
    }
    if (head.type === "var" && (head.value === "data" || head.value === "input")) {
      return { type: "ref", value: [head], location: head.location };
    }
    return head;
  }

  parseVar(): Term {
    const value = this.lit === "_" ? this.genWildcard() : this.lit;
    return { type: "var", value, location: this.loc() };
  }

  private parseNumber(): Term | undefined {
    const start = this.start;
    let prefix = "";
    if (this.tok === tt.minus) {
      prefix = "-";
      this.scan();
      if (this.tok !== tt.number && this.tok !== tt.dot) {
        this.illegal("expected number");
        return undefined;
      }
    }
    if (this.tok === tt.dot) {
      prefix += ".";
      this.scan();
      if (this.tok !== tt.number) {
        this.illegal("expected number");
        return undefined;
      }
    }
    const lit = this.lit;
    if (!prefix.endsWith(".") && lit.length > 1 && lit[0] === "0") {
      const c = lit[1];
      const decimal = c === ".";
      const scientific = lit.length > 2 && (c === "e" || c === "E");
      if (!decimal && !scientific) {
        this.illegal("expected number without leading zero");
        return undefined;
      }
    }
    const text = prefix + lit;
    const exp = /[eE][+-]?(\d+)$/.exec(lit);
    if (exp && Number(exp[1]) > 2147483647) {
      // beyond what a big float's exponent can hold
      this.illegal("invalid float");
      return undefined;
    }
    if (numberTooBig(text)) {
      this.error(this.loc(), "number too big");
      return undefined;
    }
    return { type: "number", value: text, location: this.locAt(start, this.end) };
  }

  private parseString(): Term | undefined {
    const lit = this.lit;
    if (lit[0] === '"') {
      const inner = lit.slice(1, -1);
      if (!inner.includes("\\")) return { type: "string", value: inner, location: this.loc() };
      const value = unquote(lit);
      if (value === undefined) {
        this.error(this.loc(), `illegal string literal: ${lit}`);
        return undefined;
      }
      return { type: "string", value, location: this.loc() };
    }
    if (lit.length < 2) return undefined;
    return { type: "string", value: lit.slice(1, -1), location: this.loc() };
  }

  private parseTemplateString(multiLine: boolean): Term | undefined {
    const start = this.start;
    const first = this.loc();
    const mark = this.lists.mark();
    try {
      for (;;) {
        const lit = this.lit;
        let s: string | undefined = lit.slice(1, -1);
        if (!multiLine && s.includes("\\")) s = unquote(`"${s}"`);
        if (s === undefined) {
          this.error(this.loc(), `illegal template-string part: ${lit}`);
          return undefined;
        }
        if (s.length > 0) this.lists.push({ type: "string", value: s, location: this.loc() });
        if (this.tok === tt.templateEnd || this.tok === tt.rawTemplateEnd) break;
        const commentsBefore = this.comments;
        this.scan();
        const expr = this.parseLiteral();
        if (!expr) {
          this.error(this.loc(), "invalid template-string expression");
          return undefined;
        }
        const bad = templateExprProblem(expr);
        if (bad) {
          this.error(expr.location, bad);
          return undefined;
        }
        const t = expr.terms;
        const scalar =
          !Array.isArray(t) &&
          (t.type === "string" || t.type === "number" || t.type === "boolean" || t.type === "null") &&
          expr.with.length === 0 &&
          this.comments === commentsBefore;
        this.lists.push(scalar ? (t as Term) : expr);
        if (this.tok !== tt.braceR) {
          this.error(this.loc(), "expected } to end template string expression");
          return undefined;
        }
        this.scanTemplatePart(multiLine);
        if (this.tok === tt.illegal) return undefined;
      }
      const parts = this.lists.take<Term | Expr>(mark);
      return { type: "templatestring", value: { multiLine, parts }, location: this.span(first, start, this.end) };
    } finally {
      this.lists.drop(mark);
    }
  }

  /** `operator(args...)`: the current token is `(`. */
  private parseCall(operator: Term, offset: number): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      this.scan();
      let term: Term | undefined;
      let end = 0;
      if (this.tok === tt.parenR) {
        end = this.end;
        this.scanWS();
        const isSet = operator.type === "ref" && operator.value.length === 1 && operator.value[0]!.type === "var" && operator.value[0]!.value === "set";
        term = isSet ? { type: "set", value: [], location: operator.location } : { type: "call", value: [operator], location: operator.location };
      } else {
        const args = this.parseTermList(tt.parenR, operator);
        if (!args) return undefined;
        end = this.end;
        this.scanWS();
        term = { type: "call", value: args, location: operator.location };
      }
      term.location = this.span(operator.location, offset, end);
      return term;
    } finally {
      this.leave();
    }
  }

  /** A ref (or call) continuing `head`: `.name`, `[term]`, `(args)`. */
  protected parseRef(head: Term, offset: number): Term | undefined {
    if (!this.enter()) return undefined;
    const mark = this.lists.mark();
    try {
      const at = head.location;
      switch (head.type) {
        case "var":
        case "array":
        case "object":
        case "set":
        case "arraycomprehension":
        case "objectcomprehension":
        case "setcomprehension":
        case "call":
          break;
        case "string":
        case "number":
        case "boolean":
        case "null":
        case "ref":
        case "templatestring":
          this.error(at, `illegal ref (head cannot be ${head.type})`);
          break;
        default:
          assertNever(head);
      }
      this.lists.push(head);
      for (;;) {
        switch (this.tok) {
          case tt.dot:
            this.scanWS();
            if (this.tok !== tt.ident && !this.isAllowedRefKeyword(this.tok)) {
              this.illegal("expected identifier");
              return undefined;
            }
            this.lists.push({ type: "string", value: this.lit, location: this.loc() });
            this.scanWS();
            break;
          case tt.parenL: {
            const operator: Term = { type: "ref", value: this.lists.take<Term>(mark), location: this.span(at, offset, this.start) };
            let term = this.parseCall(operator, offset);
            if (term) {
              if (this.tok === tt.whitespace) {
                this.scan();
              } else if (this.tok === tt.dot || this.tok === tt.bracketL) {
                term = this.parseRef(term, offset);
              }
            }
            if (term) term.location = this.span(at, offset, this.lastEnd);
            return term;
          }
          case tt.bracketL: {
            this.scan();
            const term = this.parseTermInfixCall();
            if (!term) return undefined;
            if (this.tok !== tt.bracketR) {
              this.illegal("expected [");
              return undefined;
            }
            this.lists.push(term);
            this.scanWS();
            break;
          }
          case tt.whitespace: {
            const end = this.lastEnd;
            this.scan();
            return { type: "ref", value: this.lists.take<Term>(mark), location: this.span(at, offset, end) };
          }
          default:
            return { type: "ref", value: this.lists.take<Term>(mark), location: this.span(at, offset, this.lastEnd) };
        }
      }
    } finally {
      this.lists.drop(mark);
      this.leave();
    }
  }

  /** Comma-separated terms up to `end` (a trailing comma is allowed), after `first` if given;
   * stops at `end`. */
  parseTermList(end: TokenType, first?: Term): Term[] | undefined {
    const mark = this.lists.mark();
    try {
      if (first) this.lists.push(first);
      if (this.tok === end) return this.lists.take<Term>(mark);
      for (;;) {
        const term = this.parseTermInfixCallInList();
        if (!term) return undefined;
        this.lists.push(term);
        if (this.tok === end) return this.lists.take<Term>(mark);
        if (this.tok !== tt.comma) {
          this.illegal(`expected "," or "${end.label}"`);
          return undefined;
        }
        this.scan();
        if (this.tok === end) return this.lists.take<Term>(mark);
      }
    } finally {
      this.lists.drop(mark);
    }
  }
}

function isCompound(t: Term): boolean {
  switch (t.type) {
    case "null":
    case "boolean":
    case "number":
    case "string":
    case "var":
      return false;
    case "object":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return true;
    default:
      assertNever(t);
  }
}

/** Why an expression cannot stand inside a template string's braces, if it cannot. */
function templateExprProblem(expr: Expr): string | undefined {
  if (expr.negated) return "unexpected negation ('not') in template-string expression";
  const t = expr.terms;
  if (Array.isArray(t)) {
    const op = t[0];
    if (op && op.type === "ref" && op.value.length === 1 && op.value[0]!.type === "var") {
      if (op.value[0]!.value === "eq") return "unexpected unification ('=') in template-string expression";
      if (op.value[0]!.value === "assign") return "unexpected assignment (':=') in template-string expression";
    }
    return undefined;
  }
  if (t.type === "every") return "unexpected 'every' in template-string expression";
  if (t.type === "some") return "unexpected 'some' in template-string expression";
  return undefined;
}

/** JSON-unquotes a double-quoted literal as Go's encoding/json does (lone surrogates become
 * U+FFFD); undefined when it is not a valid JSON string. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function unquote(lit: string): string | undefined {
  try {
    const v: unknown = JSON.parse(lit);
    return typeof v === "string" ? v.replace(LONE_SURROGATE, "\uFFFD") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * OPA refuses numbers whose binary exponent passes ±100000 (big.Float would be slow to print
 * them). Works on the decimal text: the magnitude is 10^(position of the first significant
 * digit + exponent).
 */
export function numberTooBig(text: string): boolean {
  // without an exponent, only a number of ~30000 digits gets there
  if (text.length < 1000 && !/[eE]/.test(text)) return false;
  const m = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return false;
  const intPart = m[1] ?? "";
  const frac = m[2] ?? "";
  const digits = intPart + frac;
  const firstNonZero = digits.search(/[1-9]/);
  if (firstNonZero === -1) return false; // zero
  const exp = m[3] === undefined ? 0 : Number(m[3]);
  if (!Number.isFinite(exp)) return true;
  // value = 0.d... × 10^decExp
  const decExp = intPart.length - firstNonZero + exp;
  const binExp = decExp * Math.log2(10);
  return binExp > 1e5 || binExp < -1e5;
}
