// The rule dependency graph (an edge u → v when rule u refers to the document v defines), OPA's
// topological sort over it, and the DFS path search the recursion check reports.
import type { Expr, Ref, Rule, Term } from "../../ast/nodes.js";
import { Walker } from "../../ast/visit.js";
import type { CompileContext } from "../context.js";
import type { TreeNode } from "./ruleTree.js";

export class Graph {
  readonly adj = new Map<Rule, Set<Rule>>();
  readonly nodes: Rule[] = [];
  /** Each node's position in `nodes` (the searches keep their marks in arrays by it). */
  private readonly ids = new Map<Rule, number>();

  addNode(r: Rule): void {
    if (this.ids.has(r)) return;
    this.ids.set(r, this.nodes.length);
    this.nodes.push(r);
  }

  addDependency(u: Rule, v: Rule): void {
    this.addNode(u);
    this.addNode(v);
    let s = this.adj.get(u);
    if (!s) this.adj.set(u, (s = new Set()));
    s.add(v);
  }

  /** A node's position in `nodes`, -1 for a rule not in the graph. */
  position(r: Rule): number {
    return this.ids.get(r) ?? -1;
  }

  dependencies(r: Rule): ReadonlySet<Rule> {
    return this.adj.get(r) ?? EMPTY;
  }

  // The searches below are depth-first with explicit stacks: dependency chains can be as long
  // as there are rules.

  /** Rules ordered so that dependencies come first; undefined when there is a cycle. The marks
   * and the stack are arrays by node position (as in onCycles): it visits every rule. */
  sort(): Rule[] | undefined {
    const sorted: Rule[] = [];
    const n = this.nodes.length;
    const marked = new Uint8Array(n);
    const temp = new Uint8Array(n);
    const stackNode = new Int32Array(n);
    const stackDeps: (Iterator<Rule> | undefined)[] = [];
    let top = 0;
    for (let root = 0; root < n; root++) {
      if (marked[root] === 1) continue;
      temp[root] = 1;
      stackNode[top] = root;
      stackDeps[top++] = this.adj.get(this.nodes[root]!)?.values();
      while (top > 0) {
        const u = stackNode[top - 1]!;
        const d = stackDeps[top - 1]?.next();
        if (!d || d.done) {
          stackDeps[--top] = undefined;
          marked[u] = 1;
          temp[u] = 0;
          sorted.push(this.nodes[u]!);
          continue;
        }
        const v = this.ids.get(d.value)!;
        if (temp[v] === 1) return undefined;
        if (marked[v] === 1) continue;
        temp[v] = 1;
        stackNode[top] = v;
        stackDeps[top++] = this.adj.get(d.value)?.values();
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
   * depending on themselves): Tarjan's algorithm, iteratively. Its marks (index, low link, on
   * the component stack) and both stacks are arrays by node position: it visits every rule. */
  onCycles(): Set<Rule> {
    const out = new Set<Rule>();
    const n = this.nodes.length;
    const index = new Int32Array(n).fill(-1);
    const low = new Int32Array(n);
    const onStack = new Uint8Array(n);
    const scc = new Int32Array(n);
    let sccTop = 0;
    // the depth-first stack: a node and what is left of its dependencies (none: no iterator)
    const stackNode = new Int32Array(n);
    const stackDeps: (Iterator<Rule> | undefined)[] = [];
    let top = 0;
    let next = 0;
    for (let root = 0; root < n; root++) {
      if (index[root] !== -1) continue;
      let open = root;
      for (;;) {
        if (open !== -1) {
          index[open] = next;
          low[open] = next++;
          scc[sccTop++] = open;
          onStack[open] = 1;
          stackNode[top] = open;
          stackDeps[top++] = this.adj.get(this.nodes[open]!)?.values();
          open = -1;
        }
        if (top === 0) break;
        const u = stackNode[top - 1]!;
        const d = stackDeps[top - 1]?.next();
        if (d && !d.done) {
          const v = this.ids.get(d.value)!;
          if (v === u) out.add(this.nodes[u]!);
          if (index[v] === -1) open = v;
          else if (onStack[v] === 1) low[u] = Math.min(low[u]!, index[v]!);
          continue;
        }
        stackDeps[--top] = undefined;
        if (top > 0) {
          const parent = stackNode[top - 1]!;
          low[parent] = Math.min(low[parent]!, low[u]!);
        }
        if (low[u] === index[u]) {
          // pop u's component; more than one member: all are on a cycle
          let first = sccTop - 1;
          while (scc[first] !== u) first--;
          for (let i = first; i < sccTop; i++) onStack[scc[i]!] = 0;
          if (sccTop - first > 1) for (let i = sccTop - 1; i >= first; i--) out.add(this.nodes[scc[i]!]!);
          sccTop = first;
        }
      }
    }
    return out;
  }
}

const EMPTY: ReadonlySet<Rule> = new Set();

/** Where a dependency walk reports: the graph itself, or a record of the steps to replay into
 * it later. */
export interface DependencySink {
  addNode(r: Rule): void;
  addDependency(u: Rule, v: Rule): void;
}

/** The steps a dependency walk took, in order, as pairs (u, v): a node u when v is undefined,
 * else the edge u → v. RewriteExprTerms walks each rule for its dependencies right after
 * rewriting it (while the rule is in the processor's caches); SetGraph replays the steps. */
export class DependencyRecord implements DependencySink {
  private readonly steps: (Rule | undefined)[] = [];
  addNode(r: Rule): void {
    this.steps.push(r, undefined);
  }
  addDependency(u: Rule, v: Rule): void {
    this.steps.push(u, v);
  }
  replay(g: Graph): void {
    const s = this.steps;
    for (let i = 0; i < s.length; i += 2) {
      const v = s[i + 1];
      if (v === undefined) g.addNode(s[i]!);
      else g.addDependency(s[i]!, v);
    }
  }
}

/** The rule graph: the modules' recorded dependency walks replayed (see DependencyRecord), the
 * others walked now, in module and rule order either way. */
export function buildGraph(ctx: CompileContext): Graph {
  const g = new Graph();
  const early = ctx.earlyDependencies;
  ctx.earlyDependencies = undefined;
  const deps = new DependencyWalker(g, ctx.ruleTree!);
  for (const m of ctx.modules) {
    const rec = early?.get(m);
    if (rec) rec.replay(g);
    else for (const top of m.rules) deps.addRule(top);
  }
  return g;
}

/** Adds an edge from the rule being walked to every rule each of its refs may refer to (the refs
 * of heads, bodies, `with`, declarations, closures and template parts). */
export class DependencyWalker extends Walker {
  rule: Rule | undefined;
  /** The rules one ref finds (reused: the walk visits every ref of every rule). */
  readonly found: Rule[] = [];
  constructor(
    /** Where the nodes and edges go (settable: one walker serves every module). */
    public sink: DependencySink,
    readonly tree: TreeNode,
  ) {
    super();
  }

  /** A rule and its else branches: each a node, with an edge to what its head and body use. */
  addRule(top: Rule): void {
    for (let a: Rule | undefined = top; a; a = a.else) {
      this.sink.addNode(a);
      this.rule = a;
      this.any(a.head);
      this.body(a.body);
    }
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
    for (const b of found) for (let x: Rule | undefined = b; x; x = x.else) this.sink.addDependency(this.rule!, x);
  }
}
