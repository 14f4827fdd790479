// The rule dependency graph (an edge u → v when rule u refers to the document v defines), OPA's
// topological sort over it, and the DFS path search the recursion check reports.
import type { Expr, Ref, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import type { TreeNode } from "./ruleTree.js";
import { Walker } from "./visit.js";

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

  // The searches below are depth-first with explicit stacks: dependency chains can be as long
  // as there are rules.

  /** Rules ordered so that dependencies come first; undefined when there is a cycle. */
  sort(): Rule[] | undefined {
    const sorted: Rule[] = [];
    const marked = new Set<Rule>();
    const temp = new Set<Rule>();
    for (const root of this.nodes) {
      if (marked.has(root)) continue;
      temp.add(root);
      const stack: [Rule, Iterator<Rule>][] = [[root, this.dependencies(root).values()]];
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
        stack.push([d.value, this.dependencies(d.value).values()]);
      }
    }
    return sorted;
  }

  /** A path a → ... → z along dependencies (OPA's DFSPath), or [] when there is none. */
  dfsPath(a: Rule, z: Rule): Rule[] {
    const visited = new Set<Rule>([a]);
    const stack: [Rule, Iterator<Rule>][] = [[a, this.dependencies(a).values()]];
    while (stack.length > 0) {
      const [, deps] = stack[stack.length - 1]!;
      const d = deps.next();
      if (d.done) {
        stack.pop();
        continue;
      }
      const v = d.value;
      if (v === z) return [...stack.map(([u]) => u), z];
      if (visited.has(v)) continue;
      visited.add(v);
      stack.push([v, this.dependencies(v).values()]);
    }
    return [];
  }

  /** The rules on a cycle (in a strongly connected component of more than one rule, or
   * depending on themselves): Tarjan's algorithm, iteratively. */
  onCycles(): Set<Rule> {
    const out = new Set<Rule>();
    const index = new Map<Rule, number>();
    const low = new Map<Rule, number>();
    const onStack = new Set<Rule>();
    const scc: Rule[] = [];
    let next = 0;
    for (const root of this.nodes) {
      if (index.has(root)) continue;
      const stack: [Rule, Iterator<Rule>][] = [];
      const open = (u: Rule): void => {
        index.set(u, next);
        low.set(u, next++);
        scc.push(u);
        onStack.add(u);
        stack.push([u, this.dependencies(u).values()]);
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
    return out;
  }
}

const EMPTY: ReadonlySet<Rule> = new Set();

export function buildGraph(ctx: CompileContext): Graph {
  const deps = new DependencyWalker(new Graph(), ctx.ruleTree!);
  for (const m of ctx.modules) {
    for (const top of m.rules) {
      for (let a: Rule | undefined = top; a; a = a.else) {
        deps.g.addNode(a);
        deps.rule = a;
        deps.any(a.head);
        deps.any(a.body);
      }
    }
  }
  return deps.g;
}

/** Adds an edge from the rule being walked to every rule each of its refs may refer to. */
class DependencyWalker extends Walker {
  rule: Rule | undefined;
  /** The rules one ref finds (reused: the walk visits every ref of every rule). */
  private readonly found: Rule[] = [];
  constructor(
    readonly g: Graph,
    private readonly tree: TreeNode,
  ) {
    super();
  }

  expr(e: Expr): void {
    this.parts(e, true);
  }

  term(t: Term): void {
    if (t.type === "ref") this.ref(t.value);
    this.children(t);
  }

  private ref(ref: Ref): void {
    const found = this.found;
    found.length = 0;
    this.tree.collectDynamic(ref, 0, true, found);
    for (const b of found) for (let x: Rule | undefined = b; x; x = x.else) this.g.addDependency(this.rule!, x);
  }
}
