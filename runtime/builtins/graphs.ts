// Builtins of OPA's "graph" category: walk (a relation: it returns every [path, value] pair of a
// document, root first, children in OPA order), graph.reachable, graph.reachable_paths.
// A graph is an object from node to its neighbours (an array or a set).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { objectEntries, objectGet, isObject, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import { obj, operandTypeError } from "./args.js";

function walkInto(path: Value[], v: Value, out: Value[]): void {
  out.push([path.slice(), v]);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      walkInto(path, v[i]!, out);
      path.pop();
    }
  } else if (v instanceof RegoSet) {
    for (const x of v.sorted()) {
      path.push(x);
      walkInto(path, x, out);
      path.pop();
    }
  } else if (isObject(v)) {
    for (const [k, x] of objectEntries(v)) {
      path.push(k);
      walkInto(path, x, out);
      path.pop();
    }
  }
}

function walk(_ctx: EvalContext, v: Value): Value {
  const out: Value[] = [];
  walkInto([], v, out);
  return out;
}

/** The neighbours of a node: an array's or a set's elements; anything else has none. */
function vertices(v: Value | undefined): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  return [];
}

function initialNodes(v: Value): readonly Value[] {
  if (Array.isArray(v) || v instanceof RegoSet) return vertices(v);
  throw operandTypeError(2, v, "{array, set}");
}

function reachable(_ctx: EvalContext, g: Value, initial: Value): Value {
  const graph = obj(g, 1);
  const queue = initialNodes(initial).slice();
  const reached = new RegoSet();
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    const edges = objectGet(graph, node);
    if (edges === undefined) continue;
    for (const n of vertices(edges)) if (!reached.has(n)) queue.push(n);
    reached.add(node);
  }
  return reached;
}

// OPA's path builder: depth first, with one `reached` set shared by the whole search, so a node
// already visited on any branch ends the current path there.
function pathBuilder(graph: ObjectValue, root: Value, path: readonly Value[], out: RegoSet, reached: RegoSet): void {
  const edges = objectGet(graph, root);
  if (edges === undefined) {
    // A node that is not in the graph: the path so far, without it.
    out.add(path.slice());
    return;
  }
  const here = [...path, root];
  const neighbours = vertices(edges);
  if (neighbours.length === 0) {
    out.add(here);
    return;
  }
  // Each call collects the paths it ends into one list, as OPA does: a node whose neighbours are
  // all reached repeats its path once per neighbour in one array.
  let acc: Value[] = [];
  for (const n of neighbours) {
    if (reached.has(n)) {
      acc = acc.concat(here);
      out.add(acc.slice());
    } else {
      reached.add(root);
      pathBuilder(graph, n, here, out, reached);
    }
  }
}

function reachablePaths(_ctx: EvalContext, g: Value, initial: Value): Value {
  const graph = obj(g, 1);
  const out = new RegoSet();
  for (const node of initialNodes(initial)) {
    const edges = objectGet(graph, node);
    if (edges === undefined) continue;
    const neighbours = vertices(edges);
    if (neighbours.length === 0) out.add([node]);
    for (const n of neighbours) pathBuilder(graph, n, [node], out, new RegoSet([node]));
  }
  return out;
}

export const graphsBuiltins: BuiltinTable = {
  walk: { fn: walk },
  "graph.reachable": { fn: reachable },
  "graph.reachable_paths": { fn: reachablePaths },
};
