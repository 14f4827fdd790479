// Rules: heads (`p`, `p.q[r]`, `f(x)`, `p contains x`, `:=`/`=` values), `default`, `if`, bodies,
// `else` chains and multiple bodies `{...} {...}`.
import type { Body, Head, NodeLocation, Rule, Term } from "../../ast/nodes.js";
import { printTerm } from "../../ast/print.js";
import { tt } from "../token.js";
import { BodyParser } from "./body.js";
import type { State } from "./core.js";
import { newExpr } from "./exprs.js";
import { headKeywords, NO_ANNOTATIONS } from "./shared.js";
import { isGround, refIsGround } from "../../ast/ground.js";
import { assertNever } from "../../../runtime/errors.js";

export abstract class RuleParser extends BodyParser {
  /** One rule statement; several rules for `p if {...} {...}`. Undefined when the statement is
   * not a rule (the caller then tries a query), or after an error. */
  parseRules(): Rule[] | undefined {
    const loc = this.loc();
    this.scanAheadRef(); // a keyword may lead a ref head: `not.p := 1`
    let isDefault = false;
    if (this.tok === tt.default) {
      this.scan();
      isDefault = true;
      this.scanAheadRef();
    }
    if (this.tok !== tt.ident) return undefined;
    const parsed = this.parseHead(isDefault);
    if (!parsed) return undefined;
    const { head, usesContains } = parsed;
    if (usesContains) head.keywords = headKeywords(true, false);
    const rule: Rule = { type: "rule", default: isDefault, head, body: [], generatedBody: false, annotations: NO_ANNOTATIONS, location: loc };

    if (isDefault) {
      if (!this.validateDefaultRuleValue(rule)) return undefined;
      if (head.args && head.args.length > 0 && !this.validateDefaultRuleArgs(rule)) return undefined;
      rule.body = [trueExpr(loc)];
      rule.location = this.span(loc, loc.offset, this.lastEnd);
      return [rule];
    }

    const ref = head.reference;
    const hasIf = this.tok === tt.if;
    const noArgs = !head.args || head.args.length === 0;
    if (hasIf && !usesContains && ref.length === 2) {
      // `p[x] if`: a single-value rule p[x]; a non-ground (or ref) last term is also the key
      const last = ref[1]!;
      if ((!isGround(last) || last.type === "ref") && noArgs) head.key = last;
      if (!head.value) {
        head.generatedValue = true;
        head.value = { type: "boolean", value: true, location: head.location };
      } else {
        if (ref[0]!.type !== "var") return undefined;
        head.name = ref[0]!.value;
      }
    }
    if (!hasIf && !usesContains && noArgs && ref.length === 2) {
      // v0 `p[x] { ... }`: a multi-value rule p with key x (`p[x] = y`: partial object p)
      if (ref[0]!.type !== "var") return undefined;
      head.name = ref[0]!.value;
      head.key = ref[1];
      if (!head.value) head.reference = ref.slice(0, 1);
    }

    if (hasIf) {
      head.keywords = headKeywords(usesContains, true);
      this.scan();
      const s = this.save();
      const expr = this.tok === tt.braceL && this.opensBody(s) ? undefined : this.parseLiteral();
      // `p if { true }` is a body, not the set `{true}` (a set literal is never false)
      if (expr && !(isTermExpr(expr) && (expr.terms as Term).type === "set")) {
        rule.body = [expr];
      } else if (s.tok !== tt.braceL) {
        // not a `{ body }`: the literal's own errors stand
        return undefined;
      } else {
        this.restore(s);
        this.scan();
        const body = this.parseBody(tt.braceR);
        if (!body) return undefined;
        rule.body = body;
        this.scan();
      }
    } else if (this.tok === tt.braceL) {
      this.scan();
      const body = this.parseBody(tt.braceR);
      if (!body) return undefined;
      rule.body = body;
      this.scan();
    } else if (usesContains) {
      rule.body = [trueExpr(loc)];
      rule.generatedBody = true;
      rule.location = head.location;
      return [rule];
    } else {
      return undefined;
    }

    if (this.tok === tt.else && !this.scanAheadRef()) {
      if (ref.length > 1 && !refIsGround(head.reference)) {
        this.error(this.loc(), "else keyword cannot be used on rules with variables in head");
        return undefined;
      }
      if (head.key) {
        this.error(this.loc(), "else keyword cannot be used on multi-value rules");
        return undefined;
      }
      const els = this.parseElse(head);
      if (!els) return undefined;
      rule.else = els;
    }
    rule.location = this.span(loc, loc.offset, this.lastEnd);

    const rules = [rule];
    while (this.tok === tt.braceL) {
      if (rule.else) {
        this.error(this.loc(), "expected else keyword");
        return undefined;
      }
      const at = this.loc();
      this.scan();
      const body = this.parseBody(tt.braceR);
      if (!body) return undefined;
      this.scan();
      // chained bodies keep the first rule's head, located at their own body
      const bodyLoc = this.span(at, at.offset, this.lastEnd);
      const next: Rule = {
        type: "rule",
        default: false,
        head: this.copyHead(head, bodyLoc),
        body,
        generatedBody: false,
        annotations: NO_ANNOTATIONS,
        location: bodyLoc,
      };
      next.head.keywords = head.keywords;
      rules.push(next);
    }
    return rules;
  }

  /** `else [= value] [if] [{ body } | literal]`, and the chain after it. */
  private parseElse(head: Head): Rule | undefined {
    if (!this.enter()) return undefined;
    try {
      return this.parseElseInner(head);
    } finally {
      this.leave();
    }
  }

  private parseElseInner(head: Head): Rule | undefined {
    const loc = this.loc();
    const rule: Rule = {
      type: "rule",
      default: false,
      head: this.copyHead(head, loc),
      body: [],
      generatedBody: false,
      annotations: NO_ANNOTATIONS,
      location: loc,
    };
    rule.head.generatedValue = false;
    this.scan();
    switch (this.tok) {
      case tt.braceL:
      case tt.if:
        rule.head.generatedValue = true;
        rule.head.value = { type: "boolean", value: true, location: loc };
        break;
      case tt.assign:
      case tt.unify: {
        rule.head.assign = this.tok === tt.assign;
        this.scan();
        const value = this.parseTermInfixCall();
        if (!value) return undefined;
        rule.head.value = value;
        rule.head.location = this.span(loc, loc.offset, this.lastEnd);
        break;
      }
      default:
        this.illegal("expected else value term or rule body");
        return undefined;
    }
    const hasIf = this.tok === tt.if;
    if (!hasIf && this.tok !== tt.braceL) {
      rule.body = [trueExpr(loc)];
      rule.generatedBody = true;
      rule.location = this.span(loc, loc.offset, this.lastEnd);
      return rule;
    }
    if (hasIf) {
      rule.head.keywords = headKeywords(false, true);
      this.scan();
    }
    if (this.tok === tt.braceL) {
      this.scan();
      const body = this.parseBody(tt.braceR);
      if (!body) return undefined;
      rule.body = body;
      this.scan();
    } else if (this.tok !== tt.eof) {
      const expr = this.parseLiteral();
      if (!expr) return undefined;
      rule.body = [expr];
    } else {
      this.illegal("rule body expected");
      return undefined;
    }
    if (this.tok === tt.else) {
      const els = this.parseElse(head);
      if (!els) return undefined;
      rule.else = els;
    }
    rule.location = this.span(loc, loc.offset, this.lastEnd);
    return rule;
  }

  /** Does the current `{` (state `s`) open a body for certain: is `some` or `every` next, or a
   * var and `:=`? A set or object cannot start with them (the keywords unless they lead a ref; a
   * var is an element, and `:=` is no operator: the element ends there, unterminated), so
   * parseLiteral would fail there, only to have its errors dropped. Not so with the logical
   * keywords: a literal may then be a body. */
  private opensBody(s: State): boolean {
    if (this.logicalActive()) return false;
    this.scan();
    let yes: boolean;
    if (this.tok === tt.ident) {
      this.scan();
      yes = this.tok === tt.assign;
    } else {
      yes = (this.tok === tt.some || this.tok === tt.every) && !this.peekRefContinues();
    }
    this.restore(s);
    return yes;
  }

  /** The head: a name or ref, optional arguments, then `contains key`, `= value` or `:= value`. */
  private parseHead(isDefault: boolean): { head: Head; usesContains: boolean } | undefined {
    const v = this.parseVar();
    // (the name's location is the head's first location too: one object fewer per rule)
    const loc = v.location;
    const term = this.parseHeadFinish(v);
    if (!term) {
      this.illegal("expected rule head name");
      return undefined;
    }
    const head: Head = { type: "head", reference: [], assign: false, generatedValue: false, keywords: headKeywords(false, false), location: loc };
    switch (term.type) {
      case "var":
        head.name = term.value;
        head.reference = [term];
        break;
      case "ref":
        head.reference = term.value;
        if (term.value.length < 2 && term.value[0]!.type === "var") head.name = term.value[0]!.value;
        break;
      case "call": {
        const op = term.value[0];
        if (op!.type === "var") head.reference = [op!];
        else if (op!.type === "ref") {
          if (op!.value[0]!.type !== "var") {
            this.illegal(`rule head ref ${printTerm(op!)} invalid`);
            return undefined;
          }
          head.reference = op!.value;
        }
        if (head.reference.length === 1) head.name = (head.reference[0] as { value: string }).value;
        head.args = term.value.slice(1);
        break;
      }
      case "string":
      case "number":
      case "boolean":
      case "object":
      case "null":
      case "array":
      case "set":
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
      case "templatestring":
        return undefined;
      default:
        assertNever(term);
    }
    switch (this.tok) {
      case tt.contains: {
        if (head.args) this.illegal(`the contains keyword can only be used with multi-value rule definitions (e.g., ${headName(head)} contains <VALUE> { ... })`);
        this.scan();
        const key = this.parseTermInfixCall();
        if (key) head.key = key;
        else this.illegal(`expected rule key term (e.g., ${headName(head)} contains <VALUE> { ... })`);
        head.location = this.span(loc, loc.offset, this.lastEnd);
        return { head, usesContains: true };
      }
      case tt.unify: {
        this.scan();
        const value = this.parseTermInfixCall();
        if (value) head.value = value;
        else this.illegal(`expected rule value term (e.g., ${headName(head)} = <VALUE> { ... })`);
        break;
      }
      case tt.assign: {
        this.scan();
        head.assign = true;
        const value = this.parseTermInfixCall();
        if (value) head.value = value;
        else if (head.args && head.args.length > 0) this.illegal(`expected function value term (e.g., ${headName(head)}(...) := <VALUE> { ... })`);
        else if (head.key) this.illegal(`expected partial rule value term (e.g., ${headName(head)}[...] := <VALUE> { ... })`);
        else if (isDefault) this.illegal(`expected default rule value term (e.g., default ${headName(head)} := <VALUE>)`);
        else this.illegal(`expected rule value term (e.g., ${headName(head)} := <VALUE> { ... })`);
        break;
      }
    }
    if (!head.value && !head.key && (head.reference.length !== 2 || (head.args && head.args.length > 0))) {
      head.generatedValue = true;
      head.value = { type: "boolean", value: true, location: loc };
    }
    head.location = this.span(loc, loc.offset, this.lastEnd);
    return { head, usesContains: false };
  }

  /** After the head's name: its ref/call suffix. Infix operators cannot follow a rule name. */
  private parseHeadFinish(head: Term): Term | undefined {
    const offset = this.start;
    this.scanWS();
    switch (this.tok) {
      case tt.plus:
      case tt.minus:
      case tt.mul:
      case tt.div:
      case tt.rem:
      case tt.amp:
      case tt.pipe:
      case tt.equal:
      case tt.neq:
      case tt.gt:
      case tt.gte:
      case tt.lt:
      case tt.lte:
        this.illegal();
        break;
      case tt.whitespace:
        this.scan();
    }
    return this.parseRefSuffix(head, offset);
  }

  /** A copy of a head for an else branch or a chained body: wildcard arguments get fresh names,
   * and every location is `loc`. */
  private copyHead(head: Head, loc: NodeLocation): Head {
    const relocate = (t: Term): Term => relocateTerm(t, loc);
    const copy: Head = {
      type: "head",
      reference: head.reference.map(relocate),
      assign: head.assign,
      generatedValue: head.generatedValue,
      keywords: headKeywords(false, false),
      location: loc,
    };
    if (head.name !== undefined) copy.name = head.name;
    if (head.args) {
      copy.args = head.args.map((a) =>
        a.type === "var" && a.value.startsWith("$") ? { type: "var", value: this.genWildcard(), location: loc } : relocate(a),
      );
    }
    if (head.key) copy.key = relocate(head.key);
    if (head.value) copy.value = relocate(head.value);
    return copy;
  }

  private validateDefaultRuleValue(rule: Rule): boolean {
    const value = rule.head.value;
    if (!value) {
      this.error(rule.location, "illegal default rule (must have a value)");
      return false;
    }
    let valid = true;
    const visit = (t: Term): void => {
      switch (t.type) {
        case "arraycomprehension":
        case "setcomprehension":
        case "objectcomprehension":
          return; // closures may hold anything
        case "ref":
        case "var":
        case "call":
          this.error(rule.location, `illegal default rule (value cannot contain ${t.type})`);
          valid = false;
          return;
        case "array":
        case "set":
          t.value.forEach(visit);
          return;
        case "object":
          for (const [k, v] of t.value) {
            visit(k);
            visit(v);
          }
          return;
        case "templatestring":
          for (const p of t.value.parts) if (p.type !== "expr") visit(p);
          return;
        case "string":
        case "number":
        case "boolean":
        case "null":
          break;
        default:
          assertNever(t);
      }
    };
    visit(value);
    return valid;
  }

  private validateDefaultRuleArgs(rule: Rule): boolean {
    let valid = true;
    const seen = new Set<string>();
    for (const arg of rule.head.args ?? []) {
      if (arg.type !== "var") {
        this.error(rule.location, `illegal default rule (arguments cannot contain ${arg.type})`);
        valid = false;
        continue;
      }
      if (seen.has(arg.value)) {
        this.error(rule.location, `illegal default rule (arguments cannot be repeated ${arg.value})`);
        valid = false;
        continue;
      }
      seen.add(arg.value);
    }
    return valid;
  }
}

export function trueExpr(loc: NodeLocation): Body[number] {
  return newExpr({ type: "boolean", value: true, location: loc }, loc);
}

function isTermExpr(e: Body[number]): boolean {
  return !Array.isArray(e.terms) && "value" in e.terms;
}

/** A deep copy of a term with every location replaced. */
function relocateTerm(t: Term, loc: NodeLocation): Term {
  switch (t.type) {
    case "ref":
    case "array":
    case "set":
    case "call":
      return { type: t.type, value: t.value.map((x) => relocateTerm(x, loc)), location: loc } as Term;
    case "object":
      return { type: "object", value: t.value.map(([k, v]) => [relocateTerm(k, loc), relocateTerm(v, loc)] as [Term, Term]), location: loc };
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      return { ...t, location: loc };
    default:
      assertNever(t);
  }
}

/** The head's name, for errors about the head only. (A function, not a closure in parseHead: hot,
 * see bench/parser.bench.ts.) */
function headName(head: Head): string {
  return printTerm({ type: "ref", value: head.reference, location: head.location });
}
