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
import type { Expr, Module, Rule, Term } from "../../ast/nodes.js";
import { operatorName } from "../../ast/terms.js";
import { opaRef, plainDottedName } from "../../ast/print.js";
import { isGenerated, Walker } from "../../ast/visit.js";
import { assertNever } from "../../../runtime/errors.js";

export class ModuleFacts {
  /** The names of the operators called in the module: of call expressions (`operatorName`) and
   * of call terms (`opaRef` of the operator, and the operator's values joined by dots, the
   * two spellings the stages look built-ins up by). */
  readonly calls = new Set<string>(["eq"]);
  /** Template strings. */
  templates = false;
  /** Expressions with `with` modifiers. */
  withs = false;
  /** `input` or `data` as a term of its own (a var or a one-term ref), which a keyword override
   * such as `input := 1` needs. */
  bareRoots = false;

  /**
   * @param closureTerms The rules (each else branch on its own) holding comprehensions or
   * template strings, the terms with bodies of their own; RewritePrintCalls adds the rules it
   * gives comprehensions. One set may serve every module of a compilation (rules are distinct
   * objects): the context then answers for a rule with one lookup.
   */
  constructor(readonly closureTerms: Set<Rule> = new Set()) {}

  /** Whether the module may call any of the names `pred` accepts. */
  mayCall(pred: (name: string) => boolean): boolean {
    for (const n of this.calls) if (pred(n)) return true;
    return false;
  }
}

/** The facts of a module, adding to `vars` its vars that look like generated ones (one walk for
 * both: InitLocalVarGen's names must not clash with a var of the modules, and only a var named
 * `__local...` can clash with one). `closureRules`: the set to note closure-holding rules in. */
export function collectFacts(m: Module, vars: Set<string>, closureRules?: Set<Rule>): ModuleFacts {
  const c = new FactCollector(vars, new ModuleFacts(closureRules));
  for (const r of m.rules) c.addRule(r);
  return c.facts;
}

/** Collects a module's facts rule by rule (ResolveRefs notes each rule as soon as it has
 * resolved it, while the rule's nodes are still in the processor's caches). */
export class FactCollector extends Walker {
  /** The rule (or else branch) being walked. */
  rule: Rule | undefined;
  constructor(
    readonly vars: Set<string>,
    readonly facts: ModuleFacts,
  ) {
    super();
  }

  /** Notes a rule and its else branches. */
  addRule(top: Rule): void {
    for (let r: Rule | undefined = top; r; r = r.else) {
      this.rule = r;
      this.any(r.head);
      this.body(r.body);
    }
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
        const ref = t.value;
        const head = ref[0]!;
        // `input.x`: its head is not a root of its own (a one-term ref `input` is)
        if (head.type !== "var" || ref.length === 1) this.term(head);
        else if (isGenerated(head.value)) this.vars.add(head.value);
        for (let i = 1; i < ref.length; i++) this.term(ref[i]!);
        return;
      }
      case "call":
        noteCall(this.facts.calls, t.value[0]!);
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
      case "string":
      case "number":
      case "boolean":
      case "object":
      case "null":
      case "array":
      case "set":
        return this.children(t);
      default:
        assertNever(t);
    }
  }
}

/** Notes a call term's operator in both spellings (see ModuleFacts.calls). */
function noteCall(calls: Set<string>, op: Term): void {
  if (op.type !== "ref") return;
  const ref = op.value;
  const head = ref[0]!;
  // a one-var operator (`count`) is its own name in both spellings: nothing to build
  if (ref.length === 1 && head.type === "var" && !head.value.startsWith("$")) {
    calls.add(head.value);
    return;
  }
  // most operators print as their values joined by dots: one name then
  const plain = plainDottedName(ref);
  if (plain !== undefined) {
    calls.add(plain);
    return;
  }
  const dotted = ref.map((x) => (x as { value: string }).value).join(".");
  const printed = opaRef(ref);
  calls.add(printed);
  if (dotted !== printed) calls.add(dotted);
}
