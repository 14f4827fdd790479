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
import { operatorName } from "../ast/terms.js";
import { opaRef, plainDottedName } from "../ast/print.js";
import { isGenerated } from "../ast/visit.js";

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
export class FactCollector {
  /** The rule (or else branch) being walked. */
  rule: Rule | undefined;
  constructor(
    readonly vars: Set<string>,
    readonly facts: ModuleFacts,
  ) {}

  /** Notes a rule and its else branches: what the Walker of visit.ts visits. (Plain functions
   * over the collector rather than a Walker subclass: the walk sees every term of every module;
   * hot, see bench/frontend.bench.ts.) */
  addRule(top: Rule): void {
    for (let r: Rule | undefined = top; r; r = r.else) {
      this.rule = r;
      const h = r.head;
      for (const t of h.reference) factsOfTerm(this, t);
      if (h.args) for (const a of h.args) factsOfTerm(this, a);
      if (h.key && h.key !== h.reference[h.reference.length - 1]) factsOfTerm(this, h.key);
      if (h.value) factsOfTerm(this, h.value);
      for (const e of r.body) factsOfExpr(this, e);
    }
  }
}

function factsOfExpr(c: FactCollector, e: Expr): void {
  const ts = e.terms;
  if (Array.isArray(ts)) {
    c.facts.calls.add(operatorName(e as Expr & { terms: Term[] }));
    for (const t of ts) factsOfTerm(c, t);
  } else if (ts.type === "some") {
    for (const t of ts.symbols) factsOfTerm(c, t);
  } else if (ts.type === "every") {
    if (ts.key) factsOfTerm(c, ts.key);
    factsOfTerm(c, ts.value);
    factsOfTerm(c, ts.domain);
    for (const x of ts.body) factsOfExpr(c, x);
  } else if (ts.type === "and" || ts.type === "or") {
    for (const x of ts.lhs) factsOfExpr(c, x);
    for (const x of ts.rhs) factsOfExpr(c, x);
  } else if (ts.type === "not") {
    for (const x of ts.body) factsOfExpr(c, x);
  } else {
    factsOfTerm(c, ts as Term);
  }
  if (e.with.length > 0) {
    c.facts.withs = true;
    for (const w of e.with) {
      factsOfTerm(c, w.target);
      factsOfTerm(c, w.value);
    }
  }
}

function factsOfTerm(c: FactCollector, t: Term): void {
  switch (t.type) {
    case "var":
      if (isGenerated(t.value)) c.vars.add(t.value);
      if (t.value === "input" || t.value === "data") c.facts.bareRoots = true;
      return;
    case "ref": {
      const ref = t.value;
      const head = ref[0]!;
      // `input.x`: its head is not a root of its own (a one-term ref `input` is)
      if (head.type !== "var" || ref.length === 1) factsOfTerm(c, head);
      else if (isGenerated(head.value)) c.vars.add(head.value);
      for (let i = 1; i < ref.length; i++) factsOfTerm(c, ref[i]!);
      return;
    }
    case "call":
      noteCall(c.facts.calls, t.value[0]!);
      for (const x of t.value) factsOfTerm(c, x);
      return;
    case "array":
    case "set":
      for (const x of t.value) factsOfTerm(c, x);
      return;
    case "object":
      for (const [k, v] of t.value) {
        factsOfTerm(c, k);
        factsOfTerm(c, v);
      }
      return;
    case "arraycomprehension":
    case "setcomprehension":
      c.facts.closureTerms.add(c.rule!);
      factsOfTerm(c, t.value.term);
      for (const e of t.value.body) factsOfExpr(c, e);
      return;
    case "objectcomprehension":
      c.facts.closureTerms.add(c.rule!);
      factsOfTerm(c, t.value.key);
      factsOfTerm(c, t.value.value);
      for (const e of t.value.body) factsOfExpr(c, e);
      return;
    case "templatestring":
      c.facts.templates = true;
      c.facts.closureTerms.add(c.rule!);
      for (const p of t.value.parts) {
        if ((p as { type: string }).type === "expr") factsOfExpr(c, p as Expr);
        else factsOfTerm(c, p as Term);
      }
      return;
    default:
      return;
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
