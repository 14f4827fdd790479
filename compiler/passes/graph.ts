// The rule dependency graph (an edge u → v when rule u refers to the document v defines), OPA's
// topological sort over it, and the DFS path search the recursion check reports.
import type { Rule } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { walkTerms } from "./visit.js";

export class Graph {
  readonly adj = new Map<Rule, Set<Rule>>();
  readonly nodes: Rule[] = [];
  private readonly known = new Set<Rule>();

  addNode(r: Rule): void {
    if (this.known.has(r)) return;
    this.known.add(r);
    this.nodes.push(r);
  }

  addDependency(u: Rule, v: Rule): void {
    this.addNode(u);
    this.addNode(v);
    let s = this.adj.get(u);
    if (!s) this.adj.set(u, (s = new Set()));
    s.add(v);
  }

  dependencies(r: Rule): ReadonlySet<Rule> {
    return this.adj.get(r) ?? EMPTY;
  }

  /** Rules ordered so that dependencies come first; undefined when there is a cycle. */
  sort(): Rule[] | undefined {
    const sorted: Rule[] = [];
    const marked = new Set<Rule>();
    const temp = new Set<Rule>();
    const visit = (n: Rule): boolean => {
      if (temp.has(n)) return false;
      if (marked.has(n)) return true;
      temp.add(n);
      for (const d of this.dependencies(n)) if (!visit(d)) return false;
      marked.add(n);
      temp.delete(n);
      sorted.push(n);
      return true;
    };
    for (const n of this.nodes) if (!visit(n)) return undefined;
    return sorted;
  }

  /** A path a → ... → z along dependencies (OPA's DFSPath), or [] when there is none. */
  dfsPath(a: Rule, z: Rule): Rule[] {
    const visited = new Set<Rule>();
    const rec = (u: Rule): Rule[] => {
      if (visited.has(u)) return [];
      visited.add(u);
      for (const v of this.dependencies(u)) {
        if (v === z) return [z, u];
        const p = rec(v);
        if (p.length > 0) return [...p, u];
      }
      return [];
    };
    return rec(a).reverse();
  }
}

const EMPTY: ReadonlySet<Rule> = new Set();

export function buildGraph(ctx: CompileContext): Graph {
  const g = new Graph();
  const tree = ctx.ruleTree!;
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let a: Rule | undefined = top; a; a = a.else) {
        g.addNode(a);
        const visit = (node: Parameters<typeof walkTerms>[0]): void =>
          walkTerms(node, (t) => {
            if (t.type !== "ref") return false;
            for (const b of tree.rulesDynamic(t.value, true)) {
              for (let x: Rule | undefined = b; x; x = x.else) g.addDependency(a, x);
            }
            return false;
          });
        visit(a.head);
        visit(a.body);
      }
    }
  }
  return g;
}
