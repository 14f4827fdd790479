// The rule graph: its cycle search (Tarjan's algorithm over arrays by node position) finds the
// same rules, in the same order, as the search it replaced (maps and sets by rule), on random
// graphs with self-loops, long chains and many components; and the graph SetGraph makes from the
// dependency walks RewriteExprTerms recorded is the one a walk of every rule makes.
import { expect } from "chai";
import type { Expr, Module, Rule, Term } from "../../../../../compiler/ast/nodes.js";
import type { CompileContext } from "../../../../../compiler/passes/context.js";
import { buildGraph, Graph } from "../../../../../compiler/passes/analysis/graph.js";
import type { TreeNode } from "../../../../../compiler/passes/analysis/ruleTree.js";
import { compileUpTo } from "../../../../../compiler/passes/runner.js";
import { Walker } from "../../../../../compiler/ast/visit.js";
import { parseModuleResult } from "../../../../../compiler/syntax/index.js";
import { loadComplianceSources } from "../../../../support/complianceModules.js";
import { describeWithShared } from "../../../../support/shared.js";

/** Tarjan's algorithm with maps and sets, as the graph had it before. */
function referenceOnCycles(g: Graph): Rule[] {
  const out = new Set<Rule>();
  const index = new Map<Rule, number>();
  const low = new Map<Rule, number>();
  const onStack = new Set<Rule>();
  const scc: Rule[] = [];
  let next = 0;
  for (const root of g.nodes) {
    if (index.has(root)) continue;
    const stack: [Rule, Iterator<Rule>][] = [];
    const open = (u: Rule): void => {
      index.set(u, next);
      low.set(u, next++);
      scc.push(u);
      onStack.add(u);
      stack.push([u, g.dependencies(u).values()]);
    };
    open(root);
    while (stack.length > 0) {
      const [u, deps] = stack[stack.length - 1]!;
      const d = deps.next();
      if (!d.done) {
        const v = d.value;
        if (v === u) out.add(u);
        if (!index.has(v)) open(v);
        else if (onStack.has(v)) low.set(u, Math.min(low.get(u)!, index.get(v)!));
        continue;
      }
      stack.pop();
      const parent = stack[stack.length - 1]?.[0];
      if (parent) low.set(parent, Math.min(low.get(parent)!, low.get(u)!));
      if (low.get(u) === index.get(u)) {
        const members: Rule[] = [];
        for (;;) {
          const w = scc.pop()!;
          onStack.delete(w);
          members.push(w);
          if (w === u) break;
        }
        if (members.length > 1) for (const w of members) out.add(w);
      }
    }
  }
  return [...out];
}

/** The topological sort with sets by rule, as the graph had it before. */
function referenceSort(g: Graph): Rule[] | undefined {
  const sorted: Rule[] = [];
  const marked = new Set<Rule>();
  const temp = new Set<Rule>();
  for (const root of g.nodes) {
    if (marked.has(root)) continue;
    temp.add(root);
    const stack: [Rule, Iterator<Rule>][] = [[root, g.dependencies(root).values()]];
    while (stack.length > 0) {
      const [n, deps] = stack[stack.length - 1]!;
      const d = deps.next();
      if (d.done) {
        stack.pop();
        marked.add(n);
        temp.delete(n);
        sorted.push(n);
        continue;
      }
      if (temp.has(d.value)) return undefined;
      if (marked.has(d.value)) continue;
      temp.add(d.value);
      stack.push([d.value, g.dependencies(d.value).values()]);
    }
  }
  return sorted;
}

/** A deterministic pseudo-random sequence (a linear congruential generator). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const rule = (i: number): Rule => ({ type: "rule", name: `r${i}` }) as unknown as Rule;

describe("passes: rule graph cycles", () => {
  it("finds the rules on cycles as the map-based search did", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const n = 1 + Math.floor(rnd() * 40);
      const rules = Array.from({ length: n }, (_, i) => rule(i));
      const g = new Graph();
      const edges = Math.floor(rnd() * n * 2);
      for (let i = 0; i < n; i++) if (rnd() < 0.5) g.addNode(rules[i]!);
      for (let e = 0; e < edges; e++) g.addDependency(rules[Math.floor(rnd() * n)]!, rules[Math.floor(rnd() * n)]!);
      expect([...g.onCycles()], `seed ${seed}`).to.deep.equal(referenceOnCycles(g));
    }
  });

  it("sorts as the set-based sort did (dependencies first; undefined on a cycle)", () => {
    let sortedSome = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const n = 1 + Math.floor(rnd() * 40);
      const rules = Array.from({ length: n }, (_, i) => rule(i));
      const g = new Graph();
      const acyclic = seed % 2 === 0;
      for (let i = 0; i < n; i++) if (rnd() < 0.5) g.addNode(rules[i]!);
      for (let e = Math.floor(rnd() * n * 2); e > 0; e--) {
        const a = Math.floor(rnd() * n);
        const b = Math.floor(rnd() * n);
        // even seeds: edges only towards lower numbers (no cycle)
        if (acyclic && a <= b) continue;
        g.addDependency(rules[a]!, rules[b]!);
      }
      const want = referenceSort(g);
      expect(g.sort(), `seed ${seed}`).to.deep.equal(want);
      if (want) sortedSome++;
    }
    expect(sortedSome).to.be.greaterThan(150);
  });

  it("handles a chain as long as there are rules, closed into one cycle", () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => rule(i));
    const g = new Graph();
    for (let i = 0; i + 1 < rules.length; i++) g.addDependency(rules[i]!, rules[i + 1]!);
    expect(g.onCycles().size).to.equal(0);
    expect(g.sort()).to.deep.equal(referenceSort(g));
    g.addDependency(rules[rules.length - 1]!, rules[0]!);
    expect(g.onCycles().size).to.equal(rules.length);
    expect([...g.onCycles()]).to.deep.equal(referenceOnCycles(g));
  });
});

describe("passes: rule graph from RewriteExprTerms' recorded walks", () => {
  /** The graph as SetGraph builds it with nothing recorded: a walk of every rule. */
  function walkedGraph(ctx: CompileContext): Graph {
    ctx.earlyDependencies = undefined;
    return buildGraph(ctx);
  }

  /** The dependencies by the generic Walker: an edge from the rule walked to every rule (and
   * else branch) each ref under its head and body may refer to. */
  class ReferenceDeps extends Walker {
    rule: Rule | undefined;
    constructor(
      readonly g: Graph,
      readonly tree: TreeNode,
    ) {
      super();
    }
    expr(e: Expr): void {
      this.parts(e, true);
    }
    term(t: Term): void {
      if (t.type === "ref") {
        const found: Rule[] = [];
        this.tree.collectDynamic(t.value, 0, true, found);
        for (const b of found) for (let x: Rule | undefined = b; x; x = x.else) this.g.addDependency(this.rule!, x);
      }
      this.children(t);
    }
  }

  function referenceGraph(ctx: CompileContext): Graph {
    const g = new Graph();
    const w = new ReferenceDeps(g, ctx.ruleTree!);
    for (const m of ctx.modules) {
      for (const top of m.rules) {
        for (let r: Rule | undefined = top; r; r = r.else) {
          g.addNode(r);
          w.rule = r;
          w.any(r.head);
          for (const e of r.body) w.expr(e);
        }
      }
    }
    return g;
  }

  /** Each rule (else branches included) of a context by its position in module order. */
  function positions(ctx: CompileContext): Map<Rule, number> {
    const pos = new Map<Rule, number>();
    for (const m of ctx.modules) for (const top of m.rules) for (let r: Rule | undefined = top; r; r = r.else) pos.set(r, pos.size);
    return pos;
  }

  /** Two contexts compiled from the same text have the same graph, rules compared by position. */
  function expectSameGraph(a: CompileContext, ga: Graph, b: CompileContext, gb: Graph, where: string): void {
    const pa = positions(a);
    const pb = positions(b);
    expect(ga.nodes.map((r) => pa.get(r)), `${where}: nodes`).to.deep.equal(gb.nodes.map((r) => pb.get(r)));
    for (let k = 0; k < gb.nodes.length; k++) {
      const da = [...ga.dependencies(ga.nodes[k]!)].map((r) => pa.get(r));
      expect(da, `${where}: dependencies`).to.deep.equal([...gb.dependencies(gb.nodes[k]!)].map((r) => pb.get(r)));
    }
  }

  function modulesOf(texts: string[]): Module[] | undefined {
    const out: Module[] = [];
    for (const [i, text] of texts.entries()) {
      const r = parseModuleResult(text, { file: `module-${i}.rego` });
      if (!r.module) return undefined;
      out.push(r.module);
    }
    return out;
  }

  it("is the graph a walk of every rule makes (the Walker's too), metadata-calling modules walked by SetGraph", () => {
    const texts = [
      `package a
p := q + data.b.r
q := count([x | some x in data.b.s])
f(x) := g(x) if { x > 0 } else := 0
g(x) := x
m := rego.metadata.rule()
`,
      `package b
import data.a
r := 1
s := {a.q, a.f(1)}
t[k] := v if { some k, v in data.a }
`,
    ];
    // the module calling rego.metadata is left to SetGraph; the other's walk is recorded
    const upTo = compileUpTo("RewriteExprTerms", modulesOf(texts)!);
    expect(upTo.modules.map((m) => upTo.earlyDependencies?.has(m))).to.deep.equal([false, true]);
    const ctx = compileUpTo("SetGraph", modulesOf(texts)!);
    expect(ctx.errors).to.deep.equal([]);
    expect(ctx.earlyDependencies).to.equal(undefined);
    const again = compileUpTo("SetGraph", modulesOf(texts)!);
    const walked = walkedGraph(again);
    expectSameGraph(ctx, ctx.graph!, again, walked, "hand-written");
    expectSameGraph(again, walked, again, referenceGraph(again), "hand-written, by the Walker");
    expect([...ctx.graph!.adj.values()].some((d) => d.size > 0)).to.equal(true);
    expect(ctx.graph!.nodes.length).to.be.greaterThan(8);
  });

  describeWithShared("on the compliance cases", () => {
    it("is the graph a walk of every rule makes (the Walker's too)", function () {
      this.timeout(120_000);
      let checked = 0;
      for (const c of loadComplianceSources()) {
        const a = modulesOf(c.modules ?? []);
        const b = modulesOf(c.modules ?? []);
        if (!a || !b || a.length === 0) continue;
        const ctx = compileUpTo("SetGraph", a);
        if (ctx.errors.length > 0) continue;
        const again = compileUpTo("SetGraph", b);
        const walked = walkedGraph(again);
        expectSameGraph(ctx, ctx.graph!, again, walked, c.note);
        expectSameGraph(again, walked, again, referenceGraph(again), `${c.note}, by the Walker`);
        checked++;
      }
      expect(checked).to.be.greaterThan(100);
    });
  });
});
