// The scope stack RewriteLocalVars keeps while renaming declared variables: for each scope, the
// original name → generated name, how the name occurred first (seen, argument, assigned with
// `:=`, declared with `some`/`every`), and how often it has been used since.

export const Occurrence = { New: 0, Arg: 1, Seen: 2, Assigned: 3, Declared: 4 } as const;
export type Occurrence = (typeof Occurrence)[keyof typeof Occurrence];

class Frame {
  readonly vs = new Map<string, string>();
  readonly occurrence = new Map<string, Occurrence>();
  readonly count = new Map<string, number>();
}

export class LocalDeclaredVars {
  private frames: Frame[] = [new Frame()];
  /** Generated name → original name, for every variable ever renamed. */
  readonly rewritten = new Map<string, string>();
  /** Whether a `:=` was seen. */
  assignment = false;

  /** A copy flattened into one scope (what a rule body starts from: its arguments). */
  copy(): LocalDeclaredVars {
    const out = new LocalDeclaredVars();
    const f = out.frames[0]!;
    for (const fr of this.frames) {
      for (const [k, v] of fr.vs) f.vs.set(k, v);
      for (const [k, v] of fr.occurrence) f.occurrence.set(k, v);
      for (const [k, v] of fr.count) f.count.set(k, v);
    }
    for (const [k, v] of this.rewritten) out.rewritten.set(k, v);
    return out;
  }

  clear(): void {
    this.frames = [new Frame()];
    this.rewritten.clear();
    this.assignment = false;
  }

  push(): void {
    this.frames.push(new Frame());
  }
  pop(): void {
    this.frames.pop();
  }
  /** The innermost scope's original → generated map. */
  peek(): ReadonlyMap<string, string> {
    return this.frames[this.frames.length - 1]!.vs;
  }
  peekOccurrences(): ReadonlyMap<string, Occurrence> {
    return this.frames[this.frames.length - 1]!.occurrence;
  }

  insert(x: string, y: string, occ: Occurrence): void {
    const f = this.frames[this.frames.length - 1]!;
    f.vs.set(x, y);
    f.occurrence.set(x, occ);
    f.count.set(x, 1);
    if (x !== y) this.rewritten.set(y, x);
  }

  declared(x: string): string | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const y = this.frames[i]!.vs.get(x);
      if (y !== undefined) return y;
    }
    return undefined;
  }

  /** How x occurred in the innermost scope. */
  occurrence(x: string): Occurrence {
    return this.frames[this.frames.length - 1]!.occurrence.get(x) ?? Occurrence.New;
  }

  globalOccurrence(x: string): Occurrence | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const o = this.frames[i]!.occurrence.get(x);
      if (o !== undefined) return o;
    }
    return undefined;
  }

  seen(x: string): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const c = this.frames[i]!.count.get(x);
      if (c !== undefined) {
        this.frames[i]!.count.set(x, c + 1);
        return;
      }
    }
    this.frames[this.frames.length - 1]!.count.set(x, 1);
  }

  count(x: string): number {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const c = this.frames[i]!.count.get(x);
      if (c !== undefined) return c;
    }
    return 0;
  }
}
