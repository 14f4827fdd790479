// The keyword logic of OPA's newest syntax, active once `future.keywords.and` / `.or` / `.not`
// are imported: `a and b`, `a or b` (`and` binds tighter; both associate to the left), operands
// written as `{ body }`, parenthesized groups `(a or b)` and `(a with input as x)`, and
// `not (...)` / `not {...}` / `not x` (a body of one expression).
import type { Body, Expr, ExprTerms, With } from "../../ast/nodes.js";
import { tt, type TokenType } from "../token.js";
import { NO_RETURN, type State } from "./core.js";
import { ExprParser, newExpr } from "./exprs.js";

/** One operand of `and` / `or`: a single expression, or an explicit `{ body }`. */
export interface Operand {
  expr?: Expr;
  body?: Body;
  /** Source span of the operand. */
  start: number;
  end: number;
  /** The state before the operand (to re-read a brace-led operand as a body). */
  before: State;
}

const BACKTRACK = Symbol("backtrack");

export abstract class LogicalParser extends ExprParser {
  protected isLogicalOp(): boolean {
    return this.tok === tt.and || this.tok === tt.or;
  }

  /** Operands may be groups or bodies: `and`, `or` or the `not` groups are imported. */
  protected logicalActive(): boolean {
    return this.notGroups || this.keywords.has("and") || this.keywords.has("or");
  }

  // -------------------------------------------------------------------------------------------
  // `and` / `or` (`and` binds tighter; both associate to the left)

  protected parseLogicalChain(first: Operand): Operand | undefined {
    const checked = this.checkFirstOperand(first, this.tok);
    if (!checked) return undefined;
    let left = this.parseAndChain(checked);
    while (left && this.tok === tt.or) {
      this.scan();
      const rhs = this.parseOperand(false, false, false, tt.or);
      const right = rhs && this.parseAndChain(rhs);
      if (!right) return undefined;
      left = this.combine("or", left, right);
    }
    return left;
  }

  private parseAndChain(first: Operand): Operand | undefined {
    let left = first;
    while (this.tok === tt.and) {
      this.scan();
      const right = this.parseOperand(false, false, false, tt.and);
      if (!right) return undefined;
      left = this.combine("and", left, right);
    }
    return left;
  }

  private combine(type: "and" | "or", l: Operand, r: Operand): Operand {
    const location = this.locAt(l.start, r.end);
    const terms: ExprTerms = {
      type,
      lhs: operandBody(l),
      rhs: operandBody(r),
      explicitLhs: l.body !== undefined,
      explicitRhs: r.body !== undefined,
      location,
    };
    return { expr: newExpr(terms, location), start: l.start, end: r.end, before: l.before };
  }

  /** The operand before the first operator was read as an ordinary expression; one that begins
   * with `{` must be a body (`{a} or b`), or the user wanted a value and must say so. */
  private checkFirstOperand(op: Operand, operator: TokenType): Operand | undefined {
    const expr = op.expr;
    if (!expr || this.text(op.start, op.start + 1) !== "{") return op;
    const t = expr.terms;
    const bare =
      !expr.negated &&
      !Array.isArray(t) &&
      (t.type === "object" || t.type === "set" || t.type === "setcomprehension" || t.type === "objectcomprehension") &&
      t.location.offset === op.start &&
      t.location.text.length === op.end - op.start;
    if (bare && t.type === "object" && t.value.length === 0) {
      this.error(t.location, "found empty body");
      return undefined;
    }
    if (bare) {
      const after = this.save();
      this.restore(op.before);
      const body = this.parseExplicitBody();
      if (body && this.start === after.start) {
        if (this.ambiguousUnion(body, op.start, "")) return undefined;
        return { body, start: op.start, end: op.end, before: op.before };
      }
      this.restore(after);
    }
    this.error(this.locAt(op.start, op.end), operandBraceError(operator.label, this.text(op.start, op.end)));
    return undefined;
  }

  /**
   * One operand. `first`: the operand before any operator (a `{` there is read as a term first);
   * `stmtStart`: at the start of a statement (an empty `()` there is the term `()`, reported as
   * such). After an operator, `some`/`every` cannot stand and `{` must open a body.
   */
  protected parseOperand(first: boolean, stmtStart: boolean, negated: boolean, operator?: TokenType): Operand | undefined {
    if (!this.enter()) return undefined;
    try {
      return this.parseOperandInner(first, stmtStart, negated, operator);
    } finally {
      this.leave();
    }
  }

  private parseOperandInner(first: boolean, stmtStart: boolean, negated: boolean, operator?: TokenType): Operand | undefined {
    // The state before the operand is gone back to only by the logical forms (operators, groups
    // and body operands, all imported) and by v0's future-keyword hints: without those, nothing
    // reads it, and an expression saves no state (an operand is parsed for every expression).
    const before = this.v1 && !this.logicalActive() ? NO_RETURN : this.save();
    const start = this.start;
    if (!stmtStart) {
      if (this.tok === tt.some || this.tok === tt.every) {
        this.illegal();
        return undefined;
      }
      if (this.tok === tt.not && !this.peekRefContinues()) {
        this.scan();
        if (this.tok === tt.some || this.tok === tt.every) {
          this.illegal();
          return undefined;
        }
        return this.parseNegatedOperand(start, before);
      }
    }
    if (this.logicalActive()) {
      if (this.tok === tt.parenL && !negated) {
        const g = this.parseGroup(first && stmtStart);
        if (g === undefined) return undefined;
        if (g !== BACKTRACK) return { ...g, start, before };
      } else if (this.tok === tt.braceL && !negated) {
        if (!first) return this.parseBraceOperand(operator ?? tt.and, start, before);
        // read as a term first; if that fails, as a body
        const expr = this.parseExpr();
        if (expr && this.errorCount === before.errorCount) return this.exprOperand(expr, start, before);
        this.restore(before);
        const body = this.parseExplicitBody();
        if (body && this.errorCount === before.errorCount) return { body, start, end: this.lastEnd, before };
        this.restore(before);
      }
    }
    const expr = this.parseExpr();
    if (!expr) return undefined;
    expr.negated = negated;
    this.membershipHint(before);
    return this.exprOperand(expr, start, before);
  }

  private exprOperand(expr: Expr, start: number, before: State): Operand {
    expr.location = this.locAt(start, this.lastEnd);
    return { expr, start, end: this.lastEnd, before };
  }

  /** After `not`: `not (group)` and `not {body}` (with `future.keywords.not`), else a negated
   * expression; with `future.keywords.not` that expression is the implicit body of a `not`
   * (OPA's Not). An operand's expression is placed at its own start, after `not` (parseLiteral
   * moves a statement's to `not`). */
  protected parseNegatedOperand(start: number, before: State): Operand | undefined {
    if (this.notGroups && this.tok === tt.parenL) {
      const g = this.parseGroup(false, "not ");
      if (g === undefined) return undefined;
      if (g !== BACKTRACK) return this.notOperand([g.expr!], false, start, g.end, before);
    } else if (this.notGroups && this.tok === tt.braceL) {
      const body = this.parseBraceBody((got, text) => notBraceError(got, text), "not ");
      if (!body) return undefined;
      return this.notOperand(body, true, start, this.lastEnd, before);
    }
    const op = this.parseOperand(false, true, true);
    if (!op?.expr) return op && { ...op, start, before };
    const expr = op.expr;
    expr.location = this.locAt(op.start, op.end);
    if (!this.notGroups) return { ...op, start, before };
    expr.negated = false;
    return this.notOperand([expr], false, start, op.end, before);
  }

  private notOperand(body: Body, explicitBody: boolean, start: number, end: number, before: State): Operand {
    const location = this.locAt(start, end);
    const terms: ExprTerms = { type: "not", body, explicitBody, location };
    return { expr: newExpr(terms, location), start, end, before };
  }

  /** After an operator, `{` opens a body: `x and {y; z}`. */
  private parseBraceOperand(operator: TokenType, start: number, before: State): Operand | undefined {
    const body = this.parseBraceBody((_got, text) => operandBraceError(operator.label, text));
    return body && { body, start, end: this.lastEnd, before };
  }

  /**
   * `{ body }` where an operand must be a body. When the braces do not hold a body but do read
   * as a value (`{1, 2}`, `{"a": 1}["a"]`), the error (from `message(kind of that value, text of
   * the expression)`) says how to write the value; otherwise the body's own errors stand.
   * `prefix`: what precedes the braces in the operand (`not `), for the hints.
   */
  private parseBraceBody(message: (got: string, text: string) => string, prefix = ""): Body | undefined {
    const brace = this.save();
    const body = this.parseExplicitBody();
    if (body) return this.ambiguousUnion(body, brace.start, prefix) ? undefined : body;
    if (this.tokAfter(brace) === tt.braceR) return undefined; // `{}`: "found empty body"
    const failed = this.save();
    this.restore(brace);
    const term = this.parseTerm();
    if (!term || this.errorCount !== brace.errorCount) {
      this.restore(failed);
      return undefined;
    }
    this.restore(brace);
    this.parseExpr();
    const text = this.text(brace.start, this.lastEnd);
    this.restore(brace);
    this.error(this.loc(), message(term.type, text));
    return undefined;
  }

  /**
   * A body of braces starting at `braceStart` (just read) whose first expression is a bare infix
   * union, `{a | b}`, reads as a set comprehension too: OPA rejects it, with both ways to say it
   * (`(a | b)` or the call `or(a, b)` are not ambiguous).
   */
  private ambiguousUnion(body: Body, braceStart: number, prefix: string): boolean {
    const e = body[0]!;
    const t = e.terms;
    if (!Array.isArray(t)) return false;
    const op = t[0]!;
    const name = op.type === "ref" && op.value.length === 1 && op.value[0]!.type === "var" ? op.value[0]!.value : "";
    if (name !== "or" || op.location.text !== "|" || e.location.text.trimStart().startsWith("(")) return false;
    const braces = this.text(braceStart, this.lastEnd);
    const rel = e.location.offset - braceStart;
    const text = e.location.text;
    const union = rel > 0 && rel + text.length <= braces.length ? `${braces.slice(0, rel)}(${text})${braces.slice(rel + text.length)}` : braces;
    this.hint(`write \`${prefix}(${braces})\` for the comprehension, or \`${prefix}${union}\` for the set union`);
    this.error(this.locAt(braceStart, this.lastEnd), "ambiguous `{ ... | ... }` operand: read as a body holding a set-union expression, not as a comprehension");
    return true;
  }

  /** `{ body }` at the current `{`; on success the `}` is consumed. */
  private parseExplicitBody(): Body | undefined {
    this.scan();
    const body = this.parseBody(tt.braceR);
    if (!body || this.tok !== tt.braceR) return undefined;
    this.scan();
    return body;
  }

  /** The token after the one `s` was at. */
  private tokAfter(s: State): TokenType {
    const now = this.save();
    this.restore(s);
    this.scan();
    const t = this.tok;
    this.restore(now);
    return t;
  }

  /** `( a or b )`: a group with at least one operator. Anything else in parentheses is a
   * parenthesized term (BACKTRACK), except an empty `()` after an operator or `not`. */
  private parseGroup(stmtStart: boolean, prefix = ""): Operand | typeof BACKTRACK | undefined {
    if (!this.enter()) return undefined;
    try {
      return this.parseGroupInner(stmtStart, prefix);
    } finally {
      this.leave();
    }
  }

  /** `prefix`: what precedes the group in the operand (`not `), for the hints. */
  private parseGroupInner(stmtStart: boolean, prefix: string): Operand | typeof BACKTRACK | undefined {
    const s = this.save();
    const paren = this.loc();
    this.scan();
    if (this.tok === tt.parenR) {
      if (stmtStart) {
        this.restore(s);
        return BACKTRACK;
      }
      this.error(paren, "empty parenthesized group");
      return undefined;
    }
    const first = this.parseOperand(true, false, false);
    if (!first) {
      this.restore(s);
      return BACKTRACK;
    }
    let withs: With[] | undefined;
    if (this.tok === tt.with) {
      withs = this.parseWith();
      if (!withs) {
        this.restore(s);
        return BACKTRACK;
      }
    }
    if (!this.isLogicalOp() && first.expr && this.tok === tt.parenR && (withs || isLogical(first))) {
      // `((a or b))`, `(not a)`: a group holding a group or a negation; `(a with input as x)`:
      // an operand with its own `with` modifiers (at the start of a statement, only when an
      // operator follows: on its own it is no operand, and no term either)
      const end = this.end;
      this.scan();
      if (withs && stmtStart && !this.isLogicalOp()) {
        this.restore(s);
        return BACKTRACK;
      }
      if (withs) first.expr.with = [...first.expr.with, ...withs];
      return { expr: first.expr, start: paren.offset, end, before: s };
    }
    if (!this.isLogicalOp()) {
      if (first.body && this.tok === tt.parenR && !withs) {
        this.error(paren, `\`(...)\` in an operand position cannot contain a body (hint: drop the parens to keep the body: \`${prefix}${this.text(first.start, first.end)}\`)`);
        return undefined;
      }
      this.restore(s);
      return BACKTRACK;
    }
    if (withs) {
      this.error(withs[0]!.location, withNotAllowed(this.tok.label));
      return undefined;
    }
    const chain = this.parseLogicalChain(first);
    if (!chain) return undefined;
    const expr = chain.expr!;
    if (this.tok === tt.with) {
      const w = this.parseWith();
      if (!w) return undefined;
      expr.with = w;
    }
    if (this.tok !== tt.parenR) {
      this.error(this.loc(), "expected ) to close parenthesized group");
      return undefined;
    }
    // the expression keeps its own position (the first operand's), as OPA's does; a statement
    // that is a group is placed at the parenthesis by parseLiteral
    const end = this.end;
    this.scan();
    return { expr, start: paren.offset, end, before: s };
  }
}

/** An operand that is itself an `and`/`or` expression, a `not` (group) or a negated expression. */
function isLogical(op: Operand): boolean {
  const t = op.expr?.terms;
  if (t === undefined) return false;
  return op.expr!.negated || (!Array.isArray(t) && (t.type === "and" || t.type === "or" || t.type === "not"));
}

function operandBody(op: Operand): Body {
  if (op.body) return op.body;
  const expr = op.expr!;
  expr.index = 0;
  return [expr];
}

export function withNotAllowed(op: string): string {
  return (
    `\`with\` modifier is not allowed on operand of \`${op}\` (hint: Wrap the operand in \`(...)\` or \`{...}\` to scope, ` +
    `or move \`with\` after the \`${op}\` expression to apply it to the whole expression)`
  );
}

function operandBraceError(op: string, text: string): string {
  return `operand of \`${op}\` cannot begin with \`{\` unless the braces hold a body (hint: wrap the operand to keep the value: \`(${text}) ${op} ...\`)`;
}

function notBraceError(got: string, text: string): string {
  return `\`{...}\` in an operand position must contain expression(s), got: ${got} (hint: write \`not (${text})\` to negate the value, or \`not {${text}}\` for a body holding it)`;
}
