// The scope stack RewriteLocalVars keeps while renaming declared variables: for each scope, the
// original name → generated name, how the name occurred first (seen, argument, assigned with
// `:=`, declared with `some`/`every`), and how often it has been used since.

export const Occurrence = { New: 0, Arg: 1, Seen: 2, Assigned: 3, Declared: 4 } as const;
export type Occurrence = (typeof Occurrence)[keyof typeof Occurrence];

/** What a scope knows of a name: its generated name (undefined for a name only counted), how it
 * occurred first, and how often it has been used since. One entry per name and scope: a scope is
 * made for every rule body and closure, and one map of entries is cheaper than a map per field. */
export interface VarEntry {
  name: string | undefined;
  occurrence: Occurrence | undefined;
  count: number;
}

type Frame = Map<string, VarEntry>;

export class LocalDeclaredVars {
  private frames: Frame[] = [new Map()];
  /** Generated name → original name, for every variable ever renamed. */
  readonly rewritten: Map<string, string>;
  /** Whether `rewritten` is the stack's own map, not one shared with others. */
  private readonly ownsRewritten: boolean;
  /** Whether a `:=` was seen. */
  assignment = false;

  /**
   * @param sharedRewritten A map to record the renamings in, shared with others: the
   * compilation's record of renamed vars, which rule stacks then write into directly instead of
   * each filling a map of its own to be copied there. Without it the stack has a map of its own.
   */
  constructor(sharedRewritten?: Map<string, string>) {
    this.rewritten = sharedRewritten ?? new Map();
    this.ownsRewritten = sharedRewritten === undefined;
  }

  /** Back to one scope holding `from`'s names flattened (what a rule body starts from: its
   * arguments), each entry a copy. Its renamings stay where this stack records them: a map of its
   * own gets `from`'s. One stack is reset for every rule rather than a copy made for each. */
  startFrom(from: LocalDeclaredVars): void {
    this.clear();
    const f = this.frames[0]!;
    for (const fr of from.frames) for (const [k, e] of fr) f.set(k, { name: e.name, occurrence: e.occurrence, count: e.count });
    if (this.ownsRewritten) for (const [k, v] of from.rewritten) this.rewritten.set(k, v);
  }

  /** Back to one empty scope. A map of its own forgets the renamings too; a shared one keeps
   * them (they are others' as well). */
  clear(): void {
    // (an empty map is left as it is: clearing one still makes it a new table)
    if (this.frames.length === 1) {
      if (this.frames[0]!.size > 0) this.frames[0]!.clear();
    }
    else this.frames = [new Map()];
    if (this.ownsRewritten) this.rewritten.clear();
    this.assignment = false;
  }

  push(): void {
    this.frames.push(new Map());
  }
  pop(): void {
    this.frames.pop();
  }
  /** The innermost scope's names and what it knows of them. */
  peek(): ReadonlyMap<string, VarEntry> {
    return this.frames[this.frames.length - 1]!;
  }
  /** The generated name of a name of the innermost scope. */
  peekDeclared(x: string): string | undefined {
    return this.frames[this.frames.length - 1]!.get(x)?.name;
  }

  insert(x: string, y: string, occ: Occurrence): void {
    this.frames[this.frames.length - 1]!.set(x, { name: y, occurrence: occ, count: 1 });
    if (x !== y) this.rewritten.set(y, x);
  }

  declared(x: string): string | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const y = this.frames[i]!.get(x)?.name;
      if (y !== undefined) return y;
    }
    return undefined;
  }

  /** How x occurred in the innermost scope. */
  occurrence(x: string): Occurrence {
    return this.frames[this.frames.length - 1]!.get(x)?.occurrence ?? Occurrence.New;
  }

  globalOccurrence(x: string): Occurrence | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const o = this.frames[i]!.get(x)?.occurrence;
      if (o !== undefined) return o;
    }
    return undefined;
  }

  seen(x: string): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const e = this.frames[i]!.get(x);
      if (e !== undefined) {
        e.count++;
        return;
      }
    }
    this.frames[this.frames.length - 1]!.set(x, { name: undefined, occurrence: undefined, count: 1 });
  }

  count(x: string): number {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const e = this.frames[i]!.get(x);
      if (e !== undefined) return e.count;
    }
    return 0;
  }
}
