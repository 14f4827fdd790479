// Builtins of OPA's "graph" category: walk (a relation: it returns every [path, value] pair of a
// document, root first, children in OPA order), graph.reachable, graph.reachable_paths.
// A graph is an object from node to its neighbours (an array or a set).
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";
import { objectEntries, objectGet, isObject, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import { CYCLE_CHECK_DEPTH, openCollection } from "../value/cycles.js";
import { tick } from "../eval/deadline.js";
import { obj, operandTypeError } from "./args.js";

/** The children of a value as [key, child] pairs, in OPA's order; none for a scalar. */
function children(v: Value): readonly (readonly [Value, Value])[] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x] as const);
  if (v instanceof RegoSet) return v.sorted().map((x) => [x, x] as const);
  if (isObject(v)) return objectEntries(v);
  return [];
}

// Depth first with an explicit stack (the input's depth must not bound the JS call stack): each
// frame is a value's children and the next one to visit; `path` holds the keys down to it.
function walk(ctx: EvalContext, v: Value): Value {
  const out: Value[] = [[[], v]];
  const path: Value[] = [];
  const stack: { of: Value; kids: readonly (readonly [Value, Value])[]; next: number }[] = [{ of: v, kids: children(v), next: 0 }];
  let open: Set<unknown> | undefined; // the collections on the stack, once it is deep (cycles.ts)
  while (stack.length > 0) {
    tick(ctx.deadline, out.length);
    const top = stack[stack.length - 1]!;
    if (top.next === top.kids.length) {
      stack.pop();
      path.pop();
      if (open !== undefined) open.delete(top.of);
      continue;
    }
    const [k, x] = top.kids[top.next++]!;
    path.push(k);
    out.push([path.slice(), x]);
    const kids = children(x);
    if (kids.length > 0 && (open !== undefined || stack.length >= CYCLE_CHECK_DEPTH)) open = openCollection(open, x, () => stack.map((f) => f.of));
    stack.push({ of: x, kids, next: 0 });
  }
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
