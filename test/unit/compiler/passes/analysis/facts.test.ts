// The module facts (facts.ts) ResolveRefs collects on its way and InitLocalVarGen takes over must
// be what a walk of its own over the resolved modules finds: the walk of visit.ts (the Walker),
// noting the same facts, is the reference here. Checked on hand-written modules and on every
// module set of the compliance cases.
import { expect } from "chai";
import type { Expr, Module, Rule, Term } from "../../../../../compiler/ast/nodes.js";
import { LocalVarGen, type CompileContext } from "../../../../../compiler/passes/context.js";
import { collectFacts } from "../../../../../compiler/passes/analysis/facts.js";
import { compileUpTo } from "../../../../../compiler/passes/runner.js";
import { operatorName } from "../../../../../compiler/ast/terms.js";
import { opaRef } from "../../../../../compiler/ast/print.js";
import { isGenerated, Walker } from "../../../../../compiler/ast/visit.js";
import { parseModuleResult } from "../../../../../compiler/syntax/index.js";
import { complianceModules, loadComplianceSources } from "../../../../support/complianceModules.js";
import { describeWithShared } from "../../../../support/shared.js";

interface ReferenceFacts {
  calls: string[];
  templates: boolean;
  withs: boolean;
  bareRoots: boolean;
  closureRules: Set<Rule>;
}

/** The facts of a module by the generic Walker, as the InitLocalVarGen stage collected them in
 * a walk of its own. */
class ReferenceCollector extends Walker {
  readonly calls = new Set<string>(["eq"]);
  templates = false;
  withs = false;
  bareRoots = false;
  readonly closureRules = new Set<Rule>();
  rule: Rule | undefined;
  constructor(readonly vars: Set<string>) {
    super();
  }
  expr(e: Expr): void {
    if (Array.isArray(e.terms)) this.calls.add(operatorName(e as Expr & { terms: Term[] }));
    if (e.with.length > 0) this.withs = true;
    this.parts(e, true);
  }
  term(t: Term): void {
    switch (t.type) {
      case "var":
        if (isGenerated(t.value)) this.vars.add(t.value);
        if (t.value === "input" || t.value === "data") this.bareRoots = true;
        return;
      case "ref": {
        const head = t.value[0]!;
        if (head.type !== "var" || t.value.length === 1) return this.children(t);
        if (isGenerated(head.value)) this.vars.add(head.value);
        for (let i = 1; i < t.value.length; i++) this.term(t.value[i]!);
        return;
      }
      case "call": {
        const op = t.value[0]!;
        if (op.type === "ref") {
          this.calls.add(opaRef(op.value));
          this.calls.add(op.value.map((x) => (x as { value: string }).value).join("."));
        }
        return this.children(t);
      }
      case "templatestring":
        this.templates = true;
        this.closureRules.add(this.rule!);
        return this.children(t);
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        this.closureRules.add(this.rule!);
        return this.children(t);
      default:
        return this.children(t);
    }
  }
}

function referenceFacts(m: Module, vars: Set<string>): ReferenceFacts {
  const c = new ReferenceCollector(vars);
  for (const top of m.rules) {
    for (let r: Rule | undefined = top; r; r = r.else) {
      c.rule = r;
      c.any(r.head);
      for (const e of r.body) c.expr(e);
    }
  }
  return { calls: [...c.calls], templates: c.templates, withs: c.withs, bareRoots: c.bareRoots, closureRules: c.closureRules };
}

function names(gen: LocalVarGen, n: number): string[] {
  return Array.from({ length: n }, () => gen.generate());
}

/** Checks the facts of a context stopped after InitLocalVarGen against the reference walk. */
function expectReferenceFacts(ctx: CompileContext, where: string): void {
  const vars = new Set<string>();
  for (const m of ctx.modules) {
    const want = referenceFacts(m, vars);
    const got = ctx.facts.get(m);
    expect(got, `${where}: facts of ${m.package.location.file}`).to.not.equal(undefined);
    expect([...got!.calls], `${where}: calls`).to.deep.equal(want.calls);
    expect({ templates: got!.templates, withs: got!.withs, bareRoots: got!.bareRoots }, where).to.deep.equal({
      templates: want.templates,
      withs: want.withs,
      bareRoots: want.bareRoots,
    });
    // the same walk, over the resolved module, by collectFacts itself
    const again = collectFacts(m, new Set());
    expect([...again.calls], `${where}: collectFacts calls`).to.deep.equal(want.calls);
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        expect(ctx.mayHoldClosureTerms(r), `${where}: closure terms of the rule at ${r.location.row}`).to.equal(want.closureRules.has(r));
        expect(again.closureTerms.has(r), `${where}: collectFacts closure terms`).to.equal(want.closureRules.has(r));
      }
    }
  }
  // generated names skip exactly the generated-looking vars of the modules
  expect(names(ctx.gen, 12), `${where}: generated names`).to.deep.equal(names(new LocalVarGen(vars), 12));
}

function compileText(texts: string[]): CompileContext {
  const modules = texts.map((text, i) => {
    const r = parseModuleResult(text, { file: `m${i}.rego` });
    if (!r.module) throw new Error(r.errors.map((e) => e.message).join("; "));
    return r.module;
  });
  return compileUpTo("InitLocalVarGen", modules);
}

describe("passes: module facts", () => {
  it("are collected during ResolveRefs as a walk of the resolved modules finds them", () => {
    const ctx = compileText([
      `package a
import input.req as print
import data.b.f as g
p := print.user
q if { x := g(1); __local1__ := x; y := __local3__ }
r contains x if { some x in input.xs; x with input as {"k": 1} }
s := [v | some v in [1, 2]; v > 1]
t := $"n={count(input.xs)}"
u := count(data.b.xs) if { true } else := 0 if { {w | w := 1} }
every_ok if { every k, v in input.m { k != v; __local7__ } }
h(__local0__) := y if { y := [__local0__] }
root := input
weird := data.b["f-x"](1)
cond if { x := 1; x > 0; not __local2__ }
`,
      `package b
import future.keywords
f(x) := x + 1
xs := [1, 2, 3]
v := data
z[k] := 1 if { some k in {"a", "b"}; k != "c" }
`,
    ]);
    expect(ctx.errors).to.deep.equal([]);
    expectReferenceFacts(ctx, "hand-written");
  });

  it("fall back to a walk of their own when ResolveRefs did not collect them", () => {
    const ctx = compileText([`package a\np := [x | x := input.y[_]]\nq if { __local0__ := 1 }\n`]);
    const m = ctx.modules[0]!;
    ctx.facts.clear();
    ctx.initLocalVarGen();
    const want = referenceFacts(m, new Set());
    expect([...ctx.facts.get(m)!.calls]).to.deep.equal(want.calls);
    expect(ctx.mayHoldClosureTerms(m.rules[0]!)).to.equal(true);
    expect(ctx.mayHoldClosureTerms(m.rules[1]!)).to.equal(false);
    expect(ctx.gen.generate()).to.equal("__local1__");
  });

  describeWithShared("on the compliance cases", () => {
    it("are those of a walk of the resolved modules", function () {
      this.timeout(120_000);
      let checked = 0;
      for (const c of loadComplianceSources()) {
        const modules: Module[] = [];
        let ok = true;
        (c.modules ?? []).forEach((text, i) => {
          const r = parseModuleResult(text, { file: `module-${i}.rego` });
          if (r.module) modules.push(r.module);
          else ok = false;
        });
        if (!ok || modules.length === 0) continue;
        const ctx = compileUpTo("InitLocalVarGen", modules);
        if (ctx.errors.length > 0) continue;
        expectReferenceFacts(ctx, c.note);
        checked++;
      }
      expect(checked).to.be.greaterThan(100);
      expect(complianceModules().length).to.be.greaterThan(0);
    });
  });
});
