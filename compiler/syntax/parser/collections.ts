// Collections: arrays, sets, objects and their comprehensions. As in OPA, a single term is read
// first so that `[x | ...]` and `{x | ...}` are comprehensions rather than `|` calls, then the
// parser backtracks to read the elements as full terms.
import type { NodeLocation, Term } from "../../ast/nodes.js";
import { tt, type TokenType } from "../token.js";
import type { State } from "./core.js";
import { TermParser } from "./terms.js";

export abstract class CollectionParser extends TermParser {
  // -------------------------------------------------------------------------------------------
  // collections

  protected parseArray(): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      const loc = this.loc();
      const term = this.parseArrayInner();
      if (term) term.location = this.span(loc, loc.offset, this.end);
      return term;
    } finally {
      this.leave();
    }
  }

  private parseArrayInner(): Term | undefined {
    const loc = this.loc();
    this.scan();
    if (this.tok === tt.bracketR) return { type: "array", value: [], location: loc };
    let potentialComprehension = true;
    // a leading comma is accepted (and rules out a comprehension), as in OPA
    if (this.tok === tt.comma) {
      potentialComprehension = false;
      this.scan();
    }
    const s = this.save();
    // a single term first: `[x | ...]` is a comprehension, not `[x | y]` (an `or` call)
    const head = this.parseTerm();
    if (!head) return undefined;
    switch (this.tok) {
      case tt.bracketR:
        return { type: "array", value: [head], location: loc };
      case tt.comma: {
        this.scan();
        const terms = this.parseTermList(tt.bracketR, head);
        return terms ? { type: "array", value: terms, location: loc } : undefined;
      }
      case tt.pipe:
        if (potentialComprehension) {
          this.scan();
          const body = this.parseBody(tt.bracketR);
          if (body) return { type: "arraycomprehension", value: { term: head, body }, location: loc };
          if (this.tok !== tt.comma) return undefined;
        }
    }
    this.restore(s);
    const terms = this.parseTermList(tt.bracketR);
    return terms ? { type: "array", value: terms, location: loc } : undefined;
  }

  protected parseSetOrObject(): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      const loc = this.loc();
      const term = this.parseSetOrObjectInner(loc);
      if (term) term.location = this.span(loc, loc.offset, this.end);
      return term;
    } finally {
      this.leave();
    }
  }

  private parseSetOrObjectInner(loc: NodeLocation): Term | undefined {
    this.scan();
    if (this.tok === tt.braceR) return { type: "object", value: [], location: loc };
    let potentialComprehension = true;
    if (this.tok === tt.comma) {
      potentialComprehension = false;
      this.scan();
    }
    const s = this.save();
    // a single term first, so that `{ a | b }` is a set comprehension, not a set of `a | b`
    let head = this.parseTerm();
    if (!head) return undefined;
    switch (this.tok) {
      case tt.pipe:
        if (potentialComprehension) return this.parseSet(s, head, true, loc);
        break;
      case tt.braceR:
      case tt.comma:
        return this.parseSet(s, head, potentialComprehension, loc);
      case tt.colon:
        return this.parseObject(head, potentialComprehension, loc);
    }
    this.restore(s);
    head = this.parseTermInfixCallInList();
    if (!head) return undefined;
    switch (this.tok) {
      case tt.braceR:
      case tt.comma:
        return this.parseSet(s, head, false, loc);
      case tt.colon:
        // still maybe an object comprehension: { a+1: b | ... }
        return this.parseObject(head, potentialComprehension, loc);
    }
    this.illegal("non-terminated set");
    return undefined;
  }

  private parseSet(s: State, head: Term, potentialComprehension: boolean, loc: NodeLocation): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      switch (this.tok) {
        case tt.braceR:
          return { type: "set", value: [head], location: loc };
        case tt.comma: {
          this.scan();
          const terms = this.parseTermList(tt.braceR, head);
          return terms ? { type: "set", value: terms, location: loc } : undefined;
        }
        case tt.pipe: {
          if (potentialComprehension) {
            this.scan();
            const body = this.parseBody(tt.braceR);
            if (body) return { type: "setcomprehension", value: { term: head, body }, location: loc };
            if (this.tok !== tt.comma) return undefined;
          }
          this.restore(s);
          const terms = this.parseTermList(tt.braceR);
          return terms ? { type: "set", value: terms, location: loc } : undefined;
        }
      }
      return undefined;
    } finally {
      this.leave();
    }
  }

  private parseObject(key: Term, potentialComprehension: boolean, loc: NodeLocation): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      this.scan(); // the colon
      const s = this.save();
      // the value as a single term first, to see whether `{k: v | ...}` is a comprehension
      const v = this.parseTerm();
      if (!v) return undefined;
      let potentialRelation = true;
      if (potentialComprehension) {
        if (this.tok === tt.braceR || this.tok === tt.comma) potentialRelation = false;
        if (this.tok === tt.braceR || this.tok === tt.comma || this.tok === tt.pipe) {
          const term = this.parseObjectFinish(key, v, true, loc);
          if (term) return term;
        }
      }
      this.restore(s);
      if (potentialRelation) {
        const value = this.parseTermInfixCallInList();
        if (!value) return undefined;
        if (this.tok === tt.braceR || this.tok === tt.comma) return this.parseObjectFinish(key, value, false, loc);
      }
      this.illegal("non-terminated object");
      return undefined;
    } finally {
      this.leave();
    }
  }

  private parseObjectFinish(key: Term, value: Term, potentialComprehension: boolean, loc: NodeLocation): Term | undefined {
    if (!this.enter()) return undefined;
    try {
      switch (this.tok) {
        case tt.braceR:
          return { type: "object", value: [[key, value]], location: loc };
        case tt.pipe:
          if (potentialComprehension) {
            this.scan();
            const body = this.parseBody(tt.braceR);
            if (body) return { type: "objectcomprehension", value: { key, value, body }, location: loc };
          } else {
            this.illegal("non-terminated object");
          }
          return undefined;
        case tt.comma: {
          this.scan();
          const pairs = this.parseTermPairList(tt.braceR, [key, value]);
          return pairs ? { type: "object", value: pairs, location: loc } : undefined;
        }
      }
      return undefined;
    } finally {
      this.leave();
    }
  }

  /** `key: value` pairs after `first`, comma-separated up to `end`, as parseTermList. */
  private parseTermPairList(end: TokenType, first: [Term, Term]): [Term, Term][] | undefined {
    const mark = this.lists.mark();
    try {
      this.lists.push(first);
      if (this.tok === end) return this.lists.take<[Term, Term]>(mark);
      for (;;) {
        const key = this.parseTermInfixCallInList();
        if (!key) return undefined;
        if (this.tok !== tt.colon) {
          this.illegal(`expected ":"`);
          return undefined;
        }
        this.scan();
        const value = this.parseTermInfixCallInList();
        if (!value) return undefined;
        this.lists.push([key, value]);
        if (this.tok === end) return this.lists.take<[Term, Term]>(mark);
        if (this.tok !== tt.comma) {
          this.illegal(`expected "," or "${end.label}"`);
          return undefined;
        }
        this.scan();
        if (this.tok === end) return this.lists.take<[Term, Term]>(mark);
      }
    } finally {
      this.lists.drop(mark);
    }
  }
}
