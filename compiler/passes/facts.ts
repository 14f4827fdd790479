// What a module can contain, collected in one walk when InitLocalVarGen runs (after ResolveRefs:
// names are final), so that the stages looking for something rare — print calls, template
// strings, `with`, rego.metadata calls, deprecated or void built-ins, `==`, `input`/`data` as
// values — skip the modules that cannot contain it instead of each paying a walk of every module.
//
// The facts are per module and an over-approximation: later stages move terms and expressions
// around within a module, rename vars to generated names, or drop calls, none of which can make a
// fact false that was true of what the module now holds. The calls that stages make anew are
// accounted for: `eq` is assumed everywhere, and RewritePrintCalls and RewriteTemplateStrings
// record the calls they introduce (`noteCall`).
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";
import { operatorName, refString } from "./terms.js";

export class ModuleFacts {
  /** The names of the operators called in the module: of call expressions (`operatorName`) and
   * of call terms (`refString` of the operator, and the operator's values joined by dots, the
   * two spellings the stages look built-ins up by). */
  readonly calls = new Set<string>(["eq"]);
  /** Template strings. */
  templates = false;
  /** Expressions with `with` modifiers. */
  withs = false;
  /** `input` or `data` as a term of its own (a var or a one-term ref), which a keyword override
   * such as `input := 1` needs. */
  bareRoots = false;

  /** Whether the module may call any of the names `pred` accepts. */
  mayCall(pred: (name: string) => boolean): boolean {
    for (const n of this.calls) if (pred(n)) return true;
    return false;
  }
}

/** The facts of a module, adding its vars to `vars` (one walk for both: InitLocalVarGen needs
 * every var of the modules). */
export function collectFacts(m: Module, vars: Set<string>): ModuleFacts {
  const c = new FactCollector(vars);
  for (const r of m.rules) for (let x: Rule | undefined = r; x; x = x.else) c.rule(x);
  return c.facts;
}

// A walk of everything that holds terms (heads, bodies, `with`, declarations, closures, template
// parts); plain recursive methods without callbacks, as it visits every node of every module.
class FactCollector {
  readonly facts = new ModuleFacts();
  constructor(readonly vars: Set<string>) {}

  rule(r: Rule): void {
    const h = r.head;
    this.terms(h.reference);
    if (h.key) this.term(h.key);
    if (h.args) this.terms(h.args);
    if (h.value) this.term(h.value);
    this.body(r.body);
  }

  body(b: Body): void {
    for (let i = 0; i < b.length; i++) this.expr(b[i]!);
  }

  expr(e: Expr): void {
    const ts = e.terms;
    if (Array.isArray(ts)) {
      this.facts.calls.add(operatorName(e as Expr & { terms: Term[] }));
      this.terms(ts);
    } else {
      switch (ts.type) {
        case "some":
          this.terms(ts.symbols);
          break;
        case "every":
          if (ts.key) this.term(ts.key);
          this.term(ts.value);
          this.term(ts.domain);
          this.body(ts.body);
          break;
        case "and":
        case "or":
          this.body(ts.lhs);
          this.body(ts.rhs);
          break;
        case "not":
          this.body(ts.body);
          break;
        default:
          this.term(ts);
      }
    }
    if (e.with.length > 0) {
      this.facts.withs = true;
      for (const w of e.with) {
        this.term(w.target);
        this.term(w.value);
      }
    }
  }

  terms(ts: readonly Term[]): void {
    for (let i = 0; i < ts.length; i++) this.term(ts[i]!);
  }

  term(t: Term): void {
    switch (t.type) {
      case "var":
        this.vars.add(t.value);
        if (t.value === "input" || t.value === "data") this.facts.bareRoots = true;
        return;
      case "ref": {
        const head = t.value[0]!;
        if (head.type !== "var") this.term(head);
        else if (t.value.length > 1) this.vars.add(head.value); // `input.x`: not a root of its own
        else this.term(head); // `input`: a one-term ref is the root itself
        for (let i = 1; i < t.value.length; i++) this.term(t.value[i]!);
        return;
      }
      case "call":
        this.call(t.value);
        this.terms(t.value);
        return;
      case "array":
      case "set":
        this.terms(t.value);
        return;
      case "object":
        for (const [k, v] of t.value) {
          this.term(k);
          this.term(v);
        }
        return;
      case "arraycomprehension":
      case "setcomprehension":
        this.term(t.value.term);
        this.body(t.value.body);
        return;
      case "objectcomprehension":
        this.term(t.value.key);
        this.term(t.value.value);
        this.body(t.value.body);
        return;
      case "templatestring":
        this.facts.templates = true;
        for (const p of t.value.parts) {
          if ((p as { type: string }).type === "expr") this.expr(p as Expr);
          else this.term(p as Term);
        }
        return;
      default:
        return;
    }
  }

  private call(value: Term[]): void {
    const op = value[0]!;
    if (op.type !== "ref") return;
    this.facts.calls.add(refString(op.value));
    this.facts.calls.add(op.value.map((x) => (x as { value: string }).value).join("."));
  }
}
