// The rule graph's cycle search (Tarjan's algorithm over arrays by node position) finds the same
// rules, in the same order, as the search it replaced (maps and sets by rule), on random graphs
// with self-loops, long chains and many components.
import { expect } from "chai";
import type { Rule } from "../../../../compiler/ast/nodes.js";
import { Graph } from "../../../../compiler/passes/graph.js";

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

  it("handles a chain as long as there are rules, closed into one cycle", () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => rule(i));
    const g = new Graph();
    for (let i = 0; i + 1 < rules.length; i++) g.addDependency(rules[i]!, rules[i + 1]!);
    expect(g.onCycles().size).to.equal(0);
    g.addDependency(rules[rules.length - 1]!, rules[0]!);
    expect(g.onCycles().size).to.equal(rules.length);
    expect([...g.onCycles()]).to.deep.equal(referenceOnCycles(g));
  });
});
