// The planner's variable scopes: Rego variable → IR local, innermost scope first. Rule bodies
// start from a scope holding `input` and `data` (the func's first two params); comprehensions,
// with-blocks and rule-trie alternatives push and pop scopes of their own.
import type { Term } from "../ast/nodes.js";
import type { Local } from "../ir/types.js";
import { varsOf } from "../passes/visit.js";

/** Whether `t` has a variable (`varsOf(t).size > 0`: a ref's head counts), answered without
 * collecting them into a set; closures (rare where the planner asks) are left to varsOf. */
export function hasVars(t: Term): boolean {
  switch (t.type) {
    case "null":
    case "boolean":
    case "number":
    case "string":
      return false;
    case "var":
      return true;
    case "ref":
    case "array":
    case "set":
    case "call":
      for (const x of t.value) if (hasVars(x)) return true;
      return false;
    case "object":
      for (const [k, v] of t.value) if (hasVars(k) || hasVars(v)) return true;
      return false;
    default:
      return varsOf(t).size > 0;
  }
}

export class VarStack {
  private readonly frames: Map<string, Local>[] = [];

  constructor(...frames: Map<string, Local>[]) {
    for (const f of frames) this.frames.push(f);
  }

  get(v: string): Local | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const l = this.frames[i]!.get(v);
      if (l !== undefined) return l;
    }
    return undefined;
  }

  /** The local of `v`, or 0 when unbound (OPA's GetOrEmpty). */
  getOrEmpty(v: string): Local {
    return this.get(v) ?? 0;
  }

  getOrElse(v: string, orElse: () => Local): Local {
    let l = this.get(v);
    if (l === undefined) {
      l = orElse();
      this.put(v, l);
    }
    return l;
  }

  put(v: string, l: Local): void {
    this.frames[this.frames.length - 1]!.set(v, l);
  }

  push(frame: Map<string, Local> = new Map()): void {
    this.frames.push(frame);
  }

  pop(): void {
    this.frames.pop();
  }
}
