// The planner's variable scopes: Rego variable → IR local, innermost scope first. Rule bodies
// start from a scope holding `input` and `data` (the func's first two params); comprehensions,
// with-blocks and rule-trie alternatives push and pop scopes of their own.
import type { Local } from "../ir/types.js";

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
