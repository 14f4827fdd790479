// Orders funcs along the call graph, which is acyclic (validate.ts refuses recursion).
import type { Func } from "../../ir/types.js";

/** The funcs in an order where every func comes after the funcs `callees` gives for it, keeping
 * the given order where the calls allow it (a depth-first post-order, without recursion: call
 * chains can be long). */
export function calleesFirst(funcs: readonly Func[], callees: (f: Func) => readonly Func[]): Func[] {
  const order: Func[] = [];
  const seen = new Set<Func>();
  for (const root of funcs) {
    if (seen.has(root)) continue;
    seen.add(root);
    const stack: Array<{ f: Func; next: readonly Func[]; i: number }> = [{ f: root, next: callees(root), i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i < top.next.length) {
        const g = top.next[top.i++]!;
        if (!seen.has(g)) {
          seen.add(g);
          stack.push({ f: g, next: callees(g), i: 0 });
        }
        continue;
      }
      order.push(top.f);
      stack.pop();
    }
  }
  return order;
}
