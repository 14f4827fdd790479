// Bodies and literals: queries (`;` or newline separated), `not`, `some`, `every`, and each
// statement's operands (logical.ts) and `with` modifiers.
import type { Body, Expr } from "../../ast/nodes.js";
import { tt, type TokenType } from "../token.js";
import { LogicalParser, withNotAllowed, type Operand } from "./logical.js";

export abstract class BodyParser extends LogicalParser {
  // -------------------------------------------------------------------------------------------
  // bodies

  parseBody(end: TokenType): Body | undefined {
    if (!this.enter()) return undefined;
    try {
      return this.parseQuery(false, end);
    } finally {
      this.leave();
    }
  }

  /** Literals separated by `;` or newlines, up to `end` (not consumed). With `requireSemi`
   * (top-level statements) one line is read. */
  parseQuery(requireSemi: boolean, end: TokenType): Body | undefined {
    if (this.tok === end) {
      this.error(this.loc(), "found empty body");
      return undefined;
    }
    const mark = this.lists.mark();
    try {
      for (let index = 0; ; index++) {
        const expr = this.parseLiteral();
        if (!expr) return undefined;
        expr.index = index;
        this.lists.push(expr);
        if (this.tok === tt.semicolon) {
          this.scan();
          continue;
        }
        if (this.tok === end || requireSemi) return this.lists.take<Expr>(mark);
        if (!this.skippedNL) {
          // one error per mistake: if something already failed, do not pile this one on
          if (this.errorCount === 0) this.illegal(`expected \\n or ; or ${end.label}`);
          return undefined;
        }
      }
    } finally {
      this.lists.drop(mark);
    }
  }

  // -------------------------------------------------------------------------------------------
  // literals

  parseLiteral(): Expr | undefined {
    const offset = this.start;
    const expr = this.parseLiteralInner();
    if (expr) {
      expr.location = this.locAt(offset, this.lastEnd);
      // the expressions of an implicit `not` body that a statement opens are placed with the
      // statement, at `not` (as OPA places them)
      const t = expr.terms;
      if (!Array.isArray(t) && t.type === "not" && !t.explicitBody) for (const e of t.body) e.location = expr.location;
    }
    return expr;
  }

  private parseLiteralInner(): Expr | undefined {
    // a keyword leading a ref (`not.x`, `every[0]`) is an identifier
    if (this.isAllowedRefKeyword(this.tok) && this.peekRefContinues()) {
      this.tok = tt.ident;
      return this.parseLiteralExpr(false);
    }
    let negated = false;
    if (this.tok === tt.not && !this.peekRefContinues()) {
      const start = this.start;
      const before = this.save();
      this.scan();
      // with `future.keywords.not`, what follows `not` is a body: `not (...)`, `not {...}`, and
      // `not expr` (a body of one expression)
      if (this.notGroups && this.tok !== tt.some && this.tok !== tt.every) {
        const op = this.parseNegatedOperand(start, before);
        return op ? this.finishLiteral(op) : undefined;
      }
      negated = true;
    }
    switch (this.tok) {
      case tt.some:
        if (negated) {
          this.illegal("illegal negation of 'some'");
          return undefined;
        }
        return this.parseSome();
      case tt.every:
        if (negated) {
          this.illegal("illegal negation of 'every'");
          return undefined;
        }
        return this.parseEvery();
      default:
        return this.parseLiteralExpr(negated);
    }
  }

  private parseLiteralExpr(negated: boolean): Expr | undefined {
    const s = this.v1 ? undefined : this.save();
    const first = this.parseOperand(true, true, negated);
    if (!first) return undefined;
    const expr = this.finishLiteral(first);
    if (expr && s && !this.keywords.has("every")) {
      // `every x in xs { ... }` without the import: say how to enable it
      const t = expr.terms;
      if (!Array.isArray(t) && t.type === "var" && t.value === "every" && this.futureParses(s, () => this.parseEvery()?.terms)) {
        this.hint("`import future.keywords.every` for `every x in xs { ... }` expressions");
      }
    }
    return expr;
  }

  /** After a statement's first operand: an `and`/`or` chain, then `with` modifiers. */
  protected finishLiteral(first: Operand): Expr | undefined {
    if (!this.isLogicalOp()) {
      if (!first.expr) return this.rereadAsTerm(first);
      const expr = first.expr;
      if (this.tok === tt.with) {
        const withs = this.parseWith();
        if (!withs) return undefined;
        expr.with = withs;
        if (this.isLogicalOp()) {
          this.error(withs[0]!.location, withNotAllowed(this.tok.label));
          return undefined;
        }
      }
      return expr;
    }
    const chain = this.parseLogicalChain(first);
    if (!chain) return undefined;
    const expr = chain.expr!;
    if (this.tok === tt.with) {
      const withs = this.parseWith();
      if (!withs) return undefined;
      expr.with = withs;
    }
    return expr;
  }

  /** An explicit `{ body }` that no operator follows: read it again as the term it looks like
   * (reporting that reading's errors). */
  private rereadAsTerm(op: Operand): Expr | undefined {
    this.restore(op.before);
    this.parseExpr();
    return undefined;
  }
}
