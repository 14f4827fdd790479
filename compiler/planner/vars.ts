// The planner's variable scopes: Rego variable → IR local, innermost scope first. Rule bodies
// start from a scope holding `input` and `data` (the func's first two params); comprehensions,
// with-blocks and rule-trie alternatives push and pop scopes of their own.
import type { Term } from "../ast/nodes.js";
import type { Local } from "../ir/types.js";
import { varsOf } from "../ast/visit.js";
import { DATA, INPUT } from "./planner.js";
import { assertNever } from "../../runtime/errors.js";

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
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      return varsOf(t).size > 0;
    default:
      assertNever(t);
  }
}

/** Locals are below this (MAX_LOCALS, planner.ts, is far less): a binding is stored as its func
 * frame's depth times this, plus the local. */
const FRAME_SPAN = 2 ** 20;

export class VarStack {
  // One map for all scopes of all funcs planned, and an undo log: a scope (push) binds vars in the
  // map, and pop puts back what they were bound to before. Scopes are opened for every func body,
  // comprehension, negation and alternative planned; this way they allocate nothing once the map
  // and the log have grown, and a lookup is one map lookup. A func body (enterFunc) sees only its
  // params and what it binds itself: each binding records the depth of the func frame it was made
  // in, and one made in an enclosing frame reads as unbound.
  private readonly entries = new Map<string, number>();
  /** Per binding made inside a scope: the var, and its entry before (undefined: unbound). The
   * log's length is `top` (the arrays only grow: no reallocation at each scope). */
  private readonly undoVars: string[] = [];
  private readonly undoEntries: (number | undefined)[] = [];
  private top = 0;
  /** The undo log's length when each open scope was pushed. */
  private readonly marks: number[] = [];
  /** The depth of the innermost func frame, times FRAME_SPAN: entries below it are hidden. */
  private floor = 0;

  /** A stack whose outermost scope binds `base`. */
  constructor(base: ReadonlyMap<string, Local>) {
    for (const [v, l] of base) this.entries.set(v, l);
  }

  get(v: string): Local | undefined {
    const e = this.entries.get(v);
    return e === undefined || e < this.floor ? undefined : e - this.floor;
  }

  /** The local of `v`, or 0 when unbound (OPA's GetOrEmpty). */
  getOrEmpty(v: string): Local {
    return this.get(v) ?? 0;
  }

  /** Binds `v` in the innermost scope. */
  put(v: string, l: Local): void {
    if (this.marks.length > 0) {
      this.undoVars[this.top] = v;
      this.undoEntries[this.top] = this.entries.get(v);
      this.top++;
    }
    this.entries.set(v, this.floor + l);
  }

  push(): void {
    this.marks.push(this.top);
  }

  pop(): void {
    const mark = this.marks.pop();
    if (mark === undefined) throw new Error("VarStack.pop: no scope to close");
    for (let i = this.top - 1; i >= mark; i--) {
      const v = this.undoVars[i]!;
      const before = this.undoEntries[i];
      if (before === undefined) this.entries.delete(v);
      else this.entries.set(v, before);
    }
    this.top = mark;
  }

  /** Opens the scope of a func body: only its params are bound in it, input, data and the
   * generation's captures (planFunc's params, in that order). */
  enterFunc(params: readonly Local[], captures: readonly string[]): void {
    this.push();
    this.floor += FRAME_SPAN;
    this.put(INPUT, params[0]!);
    this.put(DATA, params[1]!);
    for (let i = 0; i < captures.length; i++) this.put(captures[i]!, params[2 + i]!);
  }

  /** Closes the scope of enterFunc: the enclosing func's bindings are back. */
  leaveFunc(): void {
    this.floor -= FRAME_SPAN;
    this.pop();
  }
}
