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
  // One map for all scopes, and an undo log: a scope (push) binds vars in the map, and pop puts
  // back what they were bound to before. Scopes are opened for every comprehension, negation and
  // alternative planned; this way they allocate nothing, and a lookup is one map lookup.
  private readonly locals: Map<string, Local>;
  /** Per binding made inside a scope: the var, and its local before (undefined: unbound). */
  private readonly undoVars: string[] = [];
  private readonly undoLocals: (Local | undefined)[] = [];
  /** The undo log's length when each open scope was pushed. */
  private readonly marks: number[] = [];

  /** A stack whose outermost scope is `base` (taken over, not copied). */
  constructor(base: Map<string, Local>) {
    this.locals = base;
  }

  get(v: string): Local | undefined {
    return this.locals.get(v);
  }

  /** The local of `v`, or 0 when unbound (OPA's GetOrEmpty). */
  getOrEmpty(v: string): Local {
    return this.locals.get(v) ?? 0;
  }

  /** Binds `v` in the innermost scope. */
  put(v: string, l: Local): void {
    if (this.marks.length > 0) {
      this.undoVars.push(v);
      this.undoLocals.push(this.locals.get(v));
    }
    this.locals.set(v, l);
  }

  push(): void {
    this.marks.push(this.undoVars.length);
  }

  pop(): void {
    const mark = this.marks.pop();
    if (mark === undefined) throw new Error("VarStack.pop: no scope to close");
    for (let i = this.undoVars.length - 1; i >= mark; i--) {
      const v = this.undoVars[i]!;
      const before = this.undoLocals[i];
      if (before === undefined) this.locals.delete(v);
      else this.locals.set(v, before);
    }
    this.undoVars.length = mark;
    this.undoLocals.length = mark;
  }
}
