// What a module can contain, collected in one walk when InitLocalVarGen runs (after ResolveRefs:
// names are final), so that the stages looking for something rare — print calls, template
// strings, `with`, rego.metadata calls, deprecated or void built-ins, `==`, `input`/`data` as
// values — skip the modules that cannot contain it instead of each paying a walk of every module.
//
// The facts are per module and an over-approximation: later stages move terms and expressions
// around within a module, rename vars to generated names, or drop calls, none of which can make a
// fact false that was true of what the module now holds. The calls that stages make anew are
// accounted for: `eq` is assumed everywhere, and RewritePrintCalls and RewriteTemplateStrings
// record the calls they introduce (and RewritePrintCalls the comprehensions). Terms move only
// within a rule (head and body), never from one rule or else branch to another.
import type { Expr, Module, Rule, Term } from "../ast/nodes.js";
import { operatorName, refString } from "./terms.js";
import { isGenerated, Walker } from "./visit.js";

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
  /** The rules (each else branch on its own) holding comprehensions or template strings, the
   * terms with bodies of their own; RewritePrintCalls adds the rules it gives comprehensions. */
  readonly closureTerms = new Set<Rule>();

  /** Whether the module may call any of the names `pred` accepts. */
  mayCall(pred: (name: string) => boolean): boolean {
    for (const n of this.calls) if (pred(n)) return true;
    return false;
  }
}

/** The facts of a module, adding to `vars` its vars that look like generated ones (one walk for
 * both: InitLocalVarGen's names must not clash with a var of the modules, and only a var named
 * `__local...` can clash with one). */
export function collectFacts(m: Module, vars: Set<string>): ModuleFacts {
  const c = new FactCollector(vars);
  // the walk of a module (visit.ts), rule by rule
  for (const top of m.rules) {
    for (let r: Rule | undefined = top; r; r = r.else) {
      c.rule = r;
      c.any(r.head);
      for (const e of r.body) c.expr(e);
    }
  }
  return c.facts;
}

// The walk of visit.ts (heads, bodies, `with`, declarations, closures, template parts), with
// the facts noted on the way.
class FactCollector extends Walker {
  readonly facts = new ModuleFacts();
  rule: Rule | undefined;
  constructor(readonly vars: Set<string>) {
    super();
  }

  expr(e: Expr): void {
    if (Array.isArray(e.terms)) this.facts.calls.add(operatorName(e as Expr & { terms: Term[] }));
    if (e.with.length > 0) this.facts.withs = true;
    this.parts(e, true);
  }

  term(t: Term): void {
    switch (t.type) {
      case "var":
        if (isGenerated(t.value)) this.vars.add(t.value);
        if (t.value === "input" || t.value === "data") this.facts.bareRoots = true;
        return;
      case "ref": {
        const head = t.value[0]!;
        // `input.x`: its head is not a root of its own (a one-term ref `input` is)
        if (head.type !== "var" || t.value.length === 1) return this.children(t);
        if (isGenerated(head.value)) this.vars.add(head.value);
        for (let i = 1; i < t.value.length; i++) this.term(t.value[i]!);
        return;
      }
      case "call":
        this.call(t.value);
        return this.children(t);
      case "templatestring":
        this.facts.templates = true;
        this.facts.closureTerms.add(this.rule!);
        return this.children(t);
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        this.facts.closureTerms.add(this.rule!);
        return this.children(t);
      default:
        return this.children(t);
    }
  }

  private call(value: Term[]): void {
    const op = value[0]!;
    if (op.type !== "ref") return;
    this.facts.calls.add(refString(op.value));
    this.facts.calls.add(op.value.map((x) => (x as { value: string }).value).join("."));
  }
}
