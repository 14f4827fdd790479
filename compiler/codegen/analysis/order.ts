// Orders funcs along the call graph, which is acyclic (validate.ts refuses recursion).
import type { Func } from "../../ir/types.js";

/** The funcs (indexes below `count`) in an order where each comes after the funcs `callees` gives
 * for it, keeping the given order where the calls allow it (a depth-first post-order, without
 * recursion: call chains can be long). */
export function calleesFirstByIndex(funcs: readonly number[], count: number, callees: (f: number) => readonly number[]): number[] {
  const order: number[] = [];
  const seen = new Uint8Array(count);
  const stack: Array<{ f: number; next: readonly number[]; i: number }> = [];
  for (const root of funcs) {
    if (seen[root]) continue;
    seen[root] = 1;
    stack.push({ f: root, next: callees(root), i: 0 });
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i < top.next.length) {
        const g = top.next[top.i++]!;
        if (!seen[g]) {
          seen[g] = 1;
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

/** calleesFirstByIndex for funcs as objects; `callees` gives funcs among `funcs`. */
export function calleesFirst(funcs: readonly Func[], callees: (f: Func) => readonly Func[]): Func[] {
  const index = new Map<Func, number>();
  for (let i = 0; i < funcs.length; i++) index.set(funcs[i]!, i);
  const all = Array.from(funcs, (_, i) => i);
  const order = calleesFirstByIndex(all, funcs.length, (i) => callees(funcs[i]!).map((g) => index.get(g)!));
  return order.map((i) => funcs[i]!);
}
