// Expressions: `term`, `a := b`, `a = b`, `with` modifiers, `some`, `every`, and the hints
// for v0 modules that use future keywords without importing them.
import type { Every, Expr, ExprTerms, Term, With } from "../../ast/nodes.js";
import { futureKeywordsLogical, futureKeywordsV0, tt } from "../token.js";
import { CollectionParser } from "./collections.js";
import type { State } from "./core.js";
import { NO_WITH } from "./shared.js";
import { isMemberCall, isRefNamed, MEMBER_2, MEMBER_3 } from "./terms.js";

export function newExpr(terms: ExprTerms, location: Expr["location"]): Expr {
  return { type: "expr", index: 0, terms, negated: false, with: NO_WITH, generated: false, location };
}

export abstract class ExprParser extends CollectionParser {
  // -------------------------------------------------------------------------------------------
  // hints for v0 modules that use future keywords without importing them

  /** Parses with all future keywords from `s`; true when `check` finds what it looks for. */
  futureParses(s: State, parse: () => unknown): boolean {
    const now = this.save();
    this.restore(s);
    const all = new Map([...this.keywords, ...futureKeywordsV0, ...futureKeywordsLogical]);
    const found = this.withKeywords(all, () => {
      const r = parse();
      return r !== undefined && r !== null && r !== false;
    });
    this.restore(now);
    return found;
  }

  /** `x in xs` in v0 without `import future.keywords.in`: hint at the import. */
  protected membershipHint(s: State): void {
    if (this.v1 || this.keywords.has("in")) return;
    if (!((this.tok === tt.ident && this.lit === "in") || this.tok === tt.comma)) return;
    const found = this.futureParses(s, () => {
      const e = this.parseExpr();
      return e !== undefined && containsMember(e.terms);
    });
    if (found) this.hint("`import future.keywords.in` for `x in xs` expressions");
  }

  // -------------------------------------------------------------------------------------------
  // expressions

  /** `term`, `term := term`, `term = term`; a call at the top becomes an operator expr. */
  parseExpr(): Expr | undefined {
    const offset = this.start;
    const lhs = this.parseTermInfixCall();
    if (!lhs) return undefined;
    if (this.tok === tt.assign || this.tok === tt.unify) {
      const op = this.parseTermOp();
      const rhs = this.parseTermInfixCall();
      if (!rhs) return undefined;
      return newExpr([op, lhs, rhs], this.locAt(offset, this.lastEnd));
    }
    if (lhs.type === "call") return newExpr(lhs.value, lhs.location);
    return newExpr(lhs, lhs.location);
  }

  parseWith(): With[] | undefined {
    const mark = this.lists.mark();
    try {
      for (;;) {
        const loc = this.loc();
        this.scan();
        if (this.tok !== tt.ident) {
          this.illegal("expected ident");
          return undefined;
        }
        const target = this.parseTerm();
        if (!target) return undefined;
        if (target.type !== "ref" && target.type !== "var") this.illegal("expected with target path");
        if (this.tok !== tt.as) {
          this.illegal("expected as keyword");
          return undefined;
        }
        this.scan();
        const value = this.parseTermInfixCall();
        if (!value) return undefined;
        this.lists.push({ type: "with", target, value, location: this.span(loc, loc.offset, this.lastEnd) });
        if (this.tok !== tt.with) return this.lists.take<With>(mark);
      }
    } finally {
      this.lists.drop(mark);
    }
  }

  protected parseSome(): Expr | undefined {
    const loc = this.loc();
    // `some x in xs` / `some k, v in xs`: one member call
    const s = this.save();
    this.scan();
    const term = this.parseTermInfixCall();
    if (term && term.type === "call") {
      const n = term.value.length;
      if (isMemberCall(term, MEMBER_2) ? n !== 3 : isMemberCall(term, MEMBER_3) ? n !== 4 : true) {
        this.illegal(isMemberCall(term, MEMBER_2) || isMemberCall(term, MEMBER_3) ? "illegal domain" : "expected `x in xs` or `x, y in xs` expression");
        return undefined;
      }
      const expr = newExpr({ type: "some", symbols: [term], location: loc }, loc);
      if (this.tok === tt.with) {
        const withs = this.parseWith();
        if (!withs) return undefined;
        expr.with = withs;
      }
      return expr;
    }
    this.restore(s);
    if (!this.v1 && !this.keywords.has("in")) {
      const hint = this.futureParses(s, () => {
        this.scan();
        const t = this.parseTermInfixCall();
        return t !== undefined && (isMemberCall(t, MEMBER_2) || isMemberCall(t, MEMBER_3));
      });
      if (hint) this.hint("`import future.keywords.in` for `some x in xs` expressions");
    }
    // `some x, y`: declared vars
    const mark = this.lists.mark();
    try {
      for (;;) {
        this.scan();
        if (this.tok !== tt.ident) {
          this.illegal("expected var");
          return undefined;
        }
        this.lists.push(this.parseVar());
        this.scan();
        if (this.tok !== tt.comma) break;
      }
      return newExpr({ type: "some", symbols: this.lists.take<Term>(mark), location: loc }, loc);
    } finally {
      this.lists.drop(mark);
    }
  }

  parseEvery(): Expr | undefined {
    const loc = this.loc();
    this.scan();
    const term = this.parseTermInfixCall();
    if (!term) return undefined;
    let every: Every;
    if (term.type === "call" && isMemberCall(term, MEMBER_2)) {
      if (term.value.length !== 3) {
        this.illegal("illegal domain");
        return undefined;
      }
      every = { type: "every", value: term.value[1]!, domain: term.value[2]!, body: [], location: loc };
    } else if (term.type === "call" && isMemberCall(term, MEMBER_3)) {
      if (term.value.length !== 4) {
        this.illegal("illegal domain");
        return undefined;
      }
      every = { type: "every", key: term.value[1]!, value: term.value[2]!, domain: term.value[3]!, body: [], location: loc };
      if (every.key!.type !== "var") {
        this.illegal("expected key to be a variable");
        return undefined;
      }
    } else {
      this.illegal("expected `x[, y] in xs { ... }` expression");
      return undefined;
    }
    if (every.value.type !== "var") {
      this.illegal("expected value to be a variable");
      return undefined;
    }
    if (this.tok !== tt.braceL) {
      this.illegal("missing body");
      return undefined;
    }
    this.scan();
    const body = this.parseBody(tt.braceR);
    if (!body) return undefined;
    this.scan();
    every.body = body;
    every.location = this.span(loc, loc.offset, this.lastEnd);
    const expr = newExpr(every, loc);
    if (this.tok === tt.with) {
      const withs = this.parseWith();
      if (!withs) return undefined;
      expr.with = withs;
    }
    return expr;
  }
}

function containsMember(t: ExprTerms): boolean {
  if (Array.isArray(t)) {
    const op = t[0];
    if (op && (isRefNamed(op, MEMBER_2) || isRefNamed(op, MEMBER_3))) return true;
    return t.some((x) => containsMember(x));
  }
  if (t.type === "call") return isMemberCall(t, MEMBER_2) || isMemberCall(t, MEMBER_3) || t.value.some((x) => containsMember(x));
  if (t.type === "ref" && t.value.length > 0) return t.value.some((x) => containsMember(x));
  return false;
}
