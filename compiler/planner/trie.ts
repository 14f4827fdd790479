// The planner's view of the rules: a trie keyed by rule refs (cut at their first non-string
// term, so `p.q[r].s` lives at `data.pkg.p.q`), with OPA's "shadowing" for `with data...`
// (a shadowed node reads as base data, and its rules are re-planned in a new generation); the
// stack of planned funcs per generation; and the stack of function mocks (`with f as g`).
import type { Ref, Rule, Term } from "../ast/nodes.js";
import { compareTerms, keyOf } from "../ast/compare.js";
import type { Override } from "./deps.js";
import type { RuleSet } from "./rules.js";

/** What rulesOf answers for a node without rules (asked at every step down the trie: one array
 * for all). Frozen: it must stay empty. */
const NO_RULES: Rule[] = Object.freeze([]) as unknown as Rule[];
const NO_REFS: Ref[] = Object.freeze([]) as unknown as Ref[];

/** The nodes of one key: a stack (a null on top shadows the key). */
type Entry = { key: Term; nodes: (RuleTrie | null)[] };

export class RuleTrie {
  /** The entries of the children's keys, in insertion order; undefined until the first child
   * (most nodes are rules' nodes, which have none). */
  private entries: Entry[] | undefined;
  /** The entries by key: string and var keys by their text (nearly all keys: no key string
   * built), others by keyOf. Each map is made with its first key (most nodes never hold a key of
   * each kind). */
  private strings: Map<string, Entry> | undefined;
  private vars: Map<string, Entry> | undefined;
  private others: Map<string, Entry> | undefined;
  /** The rules (rulesOf), set only by addRule, which keeps ruleRefs in step. */
  private rules: Rule[] | undefined;
  /** The full ref of each rule (`data.pkg.p.q`), at the same index: made once per rule, where the
   * rule is added (kept here rather than in a map by rule: hot, see bench/frontend.bench.ts). */
  private ruleRefs: Ref[] | undefined;
  /** The rules made ready for planning (rules.ts's planNodeRules), once asked for. */
  ruleSet: RuleSet | undefined;
  /** At the root: the refs shadowed (push) and not yet restored (pop), in order. */
  private shadowed: Ref[] | undefined;

  arity(): number {
    const rules = this.rulesOf();
    return rules.length > 0 ? (rules[0]!.head.args?.length ?? 0) : 0;
  }

  /** The rules to plan for this node (a node with rules holds every rule below it too). */
  rulesOf(): Rule[] {
    return this.rules ?? NO_RULES;
  }

  /** The full refs of rulesOf's rules, in the same order. */
  refsOf(): Ref[] {
    return this.ruleRefs ?? NO_REFS;
  }

  /** Adds rule `r`, whose full ref is `ref`, to this node, which then holds the rules of every
   * node below it too (OPA's functrie collapse). */
  addRule(r: Rule, ref: Ref): void {
    // nearly always a leaf (a rule's node) with no rules yet: a list of one, at its final length
    // (a list grown by push from empty keeps spare room)
    if (this.entries !== undefined && this.entries.length > 0) {
      const rules: Rule[] = [];
      const refs: Ref[] = [];
      this.descendantRules(rules, refs);
      this.rules = rules;
      this.ruleRefs = refs;
      this.entries = this.strings = this.vars = this.others = undefined;
    }
    if (this.rules === undefined || this.rules.length === 0) {
      this.rules = [r];
      this.ruleRefs = [ref];
    } else {
      this.rules.push(r);
      this.ruleRefs!.push(ref);
    }
  }

  /** Appends the rules of this node and every node below it to `rules`, their refs to `refs`. */
  private descendantRules(rules: Rule[], refs: Ref[]): void {
    if (this.rules !== undefined) {
      rules.push(...this.rules);
      refs.push(...this.ruleRefs!);
    }
    if (this.entries === undefined) return;
    for (const { nodes } of this.entries) {
      const top = nodes[nodes.length - 1];
      if (top) top.descendantRules(rules, refs);
    }
  }

  private entry(k: Term): Entry | undefined {
    if (this.entries === undefined) return undefined;
    if (k.type === "string") return this.strings?.get(k.value);
    if (k.type === "var") return this.vars?.get(k.value);
    return this.others?.get(keyOf(k));
  }

  private addEntry(k: Term, e: Entry): void {
    if (this.entries === undefined) this.entries = [e];
    else this.entries.push(e);
    if (k.type === "string") (this.strings ??= new Map()).set(k.value, e);
    else if (k.type === "var") (this.vars ??= new Map()).set(k.value, e);
    else (this.others ??= new Map()).set(keyOf(k), e);
  }

  get(k: Term): RuleTrie | undefined {
    const e = this.entry(k);
    if (!e || e.nodes.length === 0) return undefined;
    return e.nodes[e.nodes.length - 1] ?? undefined;
  }

  /** Children keys (not shadowed), in value order. */
  childKeys(): Term[] {
    if (this.entries === undefined) return [];
    return this.entries
      .filter((e) => e.nodes.length > 0 && e.nodes[e.nodes.length - 1])
      .map((e) => e.key)
      .sort(compareTerms);
  }

  childCount(): number {
    return this.entries?.length ?? 0;
  }

  /** The node at `ref[from..to)` below this one, inserted if missing. */
  insert(ref: Ref, from = 0, to = ref.length): RuleTrie {
    let node: RuleTrie = this;
    for (let i = from; i < to; i++) {
      const t = ref[i]!;
      let child = node.get(t);
      if (!child) {
        child = new RuleTrie();
        const e = node.entry(t);
        if (e) e.nodes.push(child);
        else node.addEntry(t, { key: t, nodes: [child] });
      }
      node = child;
    }
    return node;
  }

  lookup(ref: Ref): RuleTrie | undefined {
    let node: RuleTrie | undefined = this;
    for (const t of ref) {
      node = node.get(t);
      if (!node) return undefined;
    }
    return node;
  }

  /** The refs shadowed now, in order. */
  shadows(): Ref[] {
    return this.shadowed?.slice() ?? [];
  }

  /** The first node along `ref[from..to)` below this one that has rules, else the node at its
   * end, inserted if missing (one walk down). */
  lookupOrInsert(ref: Ref, from = 0, to = ref.length): RuleTrie {
    let node: RuleTrie = this;
    for (let i = from; i < to; i++) {
      const child = node.get(ref[i]!);
      if (!child) return node.insert(ref, i, to);
      node = child;
      if (node.rules && node.rules.length > 0) return node;
    }
    return node;
  }

  /** Shadows the node at `ref` (if the path exists). */
  push(ref: Ref): void {
    (this.shadowed ??= []).push(ref);
    const parent = this.lookup(ref.slice(0, -1));
    if (!parent) return;
    const last = ref[ref.length - 1]!;
    const e = parent.entry(last);
    if (e) e.nodes.push(null);
    else parent.addEntry(last, { key: last, nodes: [null] });
  }

  pop(ref: Ref): void {
    this.shadowed?.pop();
    const parent = this.lookup(ref.slice(0, -1));
    if (!parent) return;
    parent.entry(ref[ref.length - 1]!)?.nodes.pop();
  }
}

/** The planner's scoping state, to plan a rule set later as it would have been planned now (see
 * planRules): the shadowed refs, the func generations and the mocks in effect. */
export interface PlanScope {
  shadowed: Ref[];
  funcs: FuncFrame[];
  mocks: Map<string, Term>[][];
}

/** Replaces the trie's shadows (undone in reverse, the new ones applied in order). */
export function swapShadows(trie: RuleTrie, next: readonly Ref[]): Ref[] {
  const prev = trie.shadows();
  for (let i = prev.length - 1; i >= 0; i--) trie.pop(prev[i]!);
  for (const r of next) trie.push(r);
  return prev;
}

/** A generation: its funcs by path, the captures they take, and the overrides in effect (every
 * enclosing `with`'s). A shared generation is the one of its overrides (FuncStack.shared): the
 * overrides alone make its funcs, so a rule set can be planned in it from anywhere. */
export type FuncFrame = { pairs: Map<string, string>; gen: number; captures: string[]; overrides: Override[]; shared: boolean };

/** Planned funcs per generation: rule path → func name. `with` that shadows rules or mocks a
 * function pushes a generation (g1, g2, ...; one per distinct set of overrides), in which the
 * rules it affects are planned again (rules.ts planInGeneration). */
export class FuncStack {
  private stack: FuncFrame[] = [{ pairs: new Map(), gen: 0, captures: [], overrides: [], shared: true }];
  private next = 1;
  /** The shared generations by their overrides' ids. */
  private readonly byOverrides = new Map<string, FuncFrame>([["", this.stack[0]!]]);

  /** The generations in effect (the frames themselves: funcs planned later land in them). */
  frames(): FuncFrame[] {
    return this.stack.slice();
  }
  /** Puts `frames` in effect; returns those it replaced. */
  swap(frames: FuncFrame[]): FuncFrame[] {
    const prev = this.stack;
    this.stack = frames.slice();
    return prev;
  }

  /** Names of the caller's values a mock refers to: funcs of this generation take them as extra
   * params after input and data (regoc's way to let `with f as x` use a local `x`). */
  captures(): readonly string[] {
    return this.stack[this.stack.length - 1]!.captures;
  }

  /** The generation in effect (an identity: see RuleSet.frame). */
  top(): object {
    return this.stack[this.stack.length - 1]!;
  }
  get(path: string): string | undefined {
    return this.stack[this.stack.length - 1]!.pairs.get(path);
  }
  add(path: string, name: string): void {
    this.stack[this.stack.length - 1]!.pairs.set(path, name);
  }
  /** Enters the generation of a `with`: the shared one of all overrides in effect, or (with
   * captures, or `own`) a new one. */
  push(captures: readonly string[] = [], overrides: readonly Override[] = [], own = false): void {
    const outer = this.stack[this.stack.length - 1]!;
    const all = [...outer.overrides, ...overrides];
    const caps = [...outer.captures, ...captures];
    this.stack.push(caps.length === 0 && !own && outer.shared ? this.shared(all) : { pairs: new Map(), gen: this.next++, captures: caps, overrides: all, shared: false });
  }
  /** The shared generation of `overrides` (generation 0 for none). */
  shared(overrides: readonly Override[]): FuncFrame {
    const key = overrides.map((o) => o.id).join("\0");
    let f = this.byOverrides.get(key);
    if (!f) this.byOverrides.set(key, (f = { pairs: new Map(), gen: this.next++, captures: [], overrides: overrides.slice(), shared: true }));
    return f;
  }
  /** The generation in effect. */
  current(): FuncFrame {
    return this.stack[this.stack.length - 1]!;
  }
  pop(): void {
    this.stack.pop();
  }
  gen(): number {
    return this.stack[this.stack.length - 1]!.gen;
  }
}

/** Function mocks in effect: frames of target name → replacement term. A replacement function
 * is planned in a new (empty) scope, so mocks do not apply inside it. */
export class MocksStack {
  private stack: Map<string, Term>[][] = [[]];

  /** The mocks in effect (a copy). */
  frames(): Map<string, Term>[][] {
    return this.stack.map((f) => f.slice());
  }
  /** Puts `frames` in effect; returns those it replaced. */
  swap(frames: Map<string, Term>[][]): Map<string, Term>[][] {
    const prev = this.stack;
    this.stack = frames.map((f) => f.slice());
    return prev;
  }

  push(): void {
    this.stack.push([]);
  }
  /** Within a replacement function (where the mocks of the `with`s around are not in effect). */
  nested(): boolean {
    return this.stack.length > 1;
  }
  pop(): void {
    this.stack.pop();
  }
  pushFrame(f: Map<string, Term>): void {
    this.stack[this.stack.length - 1]!.push(f);
  }
  popFrame(): void {
    this.stack[this.stack.length - 1]!.pop();
  }
  lookup(name: string): Term | undefined {
    const cur = this.stack[this.stack.length - 1]!;
    for (let i = cur.length - 1; i >= 0; i--) {
      const t = cur[i]!.get(name);
      if (t) return t;
    }
    return undefined;
  }
}
