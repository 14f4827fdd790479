// OPA's module tree (modules by package path) and rule tree (rules by the ground prefix of their
// ref: `data.pkg.p` for `p[x]`, `data.pkg.a.b` for `a.b[x].c`), with the lookups the stages use.
import type { Module, Ref, Rule, Term } from "../../ast/nodes.js";
import type { CompileContext } from "../context.js";
import { isConstant, isGround, stringTerm } from "../../ast/terms.js";
import { compareTerms, keyOf } from "../../ast/compare.js";

export class ModuleTreeNode {
  readonly modules: Module[] = [];
  readonly children = new Map<string, ModuleTreeNode>();
  constructor(
    readonly key: string,
    readonly hide = false,
  ) {}

  /** The node at exactly `ref` below this one, or undefined (a var counts as the string of its
   * name, as the package's `data` and a rule's first name are). */
  at(ref: Ref): ModuleTreeNode | undefined {
    let node: ModuleTreeNode = this;
    for (const t of ref) {
      if (t.type !== "string" && t.type !== "var") return undefined;
      const next = node.children.get(t.value);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  depthFirst(f: (n: ModuleTreeNode) => boolean): void {
    if (f(this)) return;
    for (const c of this.children.values()) c.depthFirst(f);
  }
}

export function buildModuleTree(modules: readonly Module[]): ModuleTreeNode {
  const root = new ModuleTreeNode("");
  for (const m of modules) {
    let node = root;
    m.package.path.forEach((t, i) => {
      const k = (t as { value: string }).value;
      let c = node.children.get(k);
      if (!c) {
        c = new ModuleTreeNode(k, i === 1 && k === "system");
        node.children.set(k, c);
      }
      node = c;
    });
    node.modules.push(m);
  }
  return root;
}

// Nearly every node of the rule tree is a leaf holding one rule: a leaf shares this empty map, and
// its rules are an array literal of its first rule (an array grown by push keeps spare room).
const NO_CHILDREN: ReadonlyMap<string, TreeNode> = new Map();
const NO_RULES: readonly Rule[] = [];

export class TreeNode {
  /** The rules at this node (only addRule adds to it). */
  values: readonly Rule[] = NO_RULES;
  private kids: Map<string, TreeNode> | undefined;
  // the children keyed by vars and strings again, by name: lookups (every ref of every rule
  // in SetGraph, every call's arity) then make no key string
  private vars: Map<string, TreeNode> | undefined;
  private strings: Map<string, TreeNode> | undefined;
  hide = false;
  constructor(readonly key: Term | undefined) {}

  /** Children by keyOf their key, in the order they were added (the order of the walks). */
  get children(): ReadonlyMap<string, TreeNode> {
    return this.kids ?? NO_CHILDREN;
  }

  private addRule(rule: Rule): void {
    if (this.values.length === 0) this.values = [rule];
    else (this.values as Rule[]).push(rule);
  }

  child(k: Term): TreeNode | undefined {
    if (k.type === "var") return this.vars?.get(k.value);
    if (k.type === "string") return this.strings?.get(k.value);
    if (k.type === "ref" || k.type === "call") return undefined;
    return this.children.get(keyOf(k));
  }

  private addChild(k: Term): TreeNode {
    const c = new TreeNode(k);
    (this.kids ??= new Map()).set(keyOf(k), c);
    if (k.type === "var") (this.vars ??= new Map()).set(k.value, c);
    else if (k.type === "string") (this.strings ??= new Map()).set(k.value, c);
    return c;
  }

  /** Children in OPA's value order (the order extents and trie walks use). */
  sortedChildren(): TreeNode[] {
    return [...this.children.values()].sort((a, b) => compareTerms(a.key!, b.key!));
  }

  find(ref: Ref): { node: TreeNode; tail: Ref } {
    let node: TreeNode = this;
    for (let i = 0; i < ref.length; i++) {
      const next = node.child(ref[i]!);
      if (!next) return { node, tail: ref.slice(i) };
      node = next;
    }
    return { node, tail: [] };
  }

  /** The node at exactly `ref`, if any. */
  lookup(ref: Ref): TreeNode | undefined {
    let node: TreeNode | undefined = this;
    for (let i = 0; i < ref.length && node; i++) node = node.child(ref[i]!);
    return node;
  }

  /** Adds a rule at the ground prefix of its full ref, `pkg` followed by `head` (whose first
   * term is given as `first`, the key it takes): what add(groundPrefix(ref), rule) does, without
   * making the ref, the prefix or the lookup's leftover arrays for every rule. */
  addAtGroundPrefix(pkg: Ref, first: Term, head: Ref, rule: Rule): void {
    let n: TreeNode = this;
    const len = pkg.length + head.length;
    for (let j = 0; j < len; j++) {
      const t = j < pkg.length ? pkg[j]! : j === pkg.length ? first : head[j - pkg.length]!;
      if (j > 0 && !isGround(t)) break;
      // (below a node just added there is nothing to find: child() then adds the rest)
      n = n.child(t) ?? n.addChild(t);
    }
    n.addRule(rule);
  }

  add(path: Ref, rule: Rule | undefined): void {
    const { node, tail } = this.find(path);
    let n = node;
    for (const t of tail) n = n.addChild(t);
    if (rule) n.addRule(rule);
  }

  depthFirst(f: (n: TreeNode) => boolean): void {
    if (f(this)) return;
    for (const c of this.children.values()) c.depthFirst(f);
  }

  /** The rules at exactly `ref` (OPA's GetRulesExact). */
  findRules(ref: Ref): readonly Rule[] {
    return this.lookup(ref)?.values ?? [];
  }

  /** The rules producing the document at `ref` (the first node on the way that has rules). */
  rulesForVirtualDocument(ref: Ref): readonly Rule[] {
    let node: TreeNode | undefined = this;
    for (const t of ref) {
      node = node.child(t);
      if (!node) return [];
      if (node.values.length > 0) return node.values;
    }
    return node.values;
  }

  /** Every rule at or below `ref`. */
  rulesWithPrefix(ref: Ref): Rule[] {
    const node = this.lookup(ref);
    if (!node) return [];
    const out: Rule[] = [];
    const acc = (n: TreeNode): void => {
      out.push(...n.values);
      for (const c of n.children.values()) if (!c.hide) acc(c);
    };
    acc(node);
    return out;
  }

  /** The rules of this node and every node below it, depth first (a hidden node's children
   * only with `includeHidden`), appended to `found` without repeats. */
  private collectBelow(includeHidden: boolean, found: Rule[]): void {
    addAll(found, this.values);
    if (this.hide && !includeHidden) return;
    for (const c of this.children.values()) c.collectBelow(includeHidden, found);
  }

  /** Every rule a ref with vars could refer to (OPA's GetRulesDynamic), appended to `found` in
   * the order first found, without repeats. The caller (SetGraph) asks this of every ref of every
   * rule; most refs (locals, input) end at the first lookup. */
  collectDynamic(ref: Ref, i: number, includeHidden: boolean, found: Rule[]): void {
    if (i >= ref.length) {
      this.collectBelow(includeHidden, found);
    } else if (i === 0 || isConstant(ref[i]!)) {
      const c = this.child(ref[i]!);
      if (!c) return;
      addAll(found, c.values);
      c.collectDynamic(ref, i + 1, includeHidden, found);
    } else {
      for (const c of this.children.values()) {
        if (c.hide && !includeHidden) continue;
        addAll(found, c.values);
        c.collectDynamic(ref, i + 1, includeHidden, found);
      }
    }
  }
}

/** Appends the rules not in `found` yet (a ref finds few rules: a scan beats a set). */
function addAll(found: Rule[], rules: readonly Rule[]): void {
  for (const r of rules) if (!found.includes(r)) found.push(r);
}

export function buildRuleTree(ctx: CompileContext): TreeNode {
  const root = new TreeNode(undefined);
  // modules in package-tree order (a package before the packages below it), as OPA adds them
  const ordered: Module[] = [];
  const visit = (n: ModuleTreeNode): void => {
    ordered.push(...n.modules);
    for (const k of [...n.children.keys()].sort()) visit(n.children.get(k)!);
  };
  visit(ctx.moduleTree ?? buildModuleTree(ctx.modules));
  for (const m of ordered) {
    if (m.rules.length === 0) root.add(m.package.path, undefined);
    for (const r of m.rules) {
      // the rule's full ref is its package path, then its head ref with a var head as a string
      // (ctx.ruleRef)
      const href = r.head.reference;
      const h = href[0]!;
      root.addAtGroundPrefix(m.package.path, h.type === "var" ? stringTerm(h.value, h.location) : h, href, r);
    }
  }
  const sys = root.children.get("var:data")?.children.get("string:system");
  if (sys) sys.hide = true;
  return root;
}

