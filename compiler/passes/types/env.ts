// The type environment (OPA's TypeEnv): a tree of types keyed by ref terms (`data.pkg.p`,
// built-ins like `count`, local variables), chained to an enclosing environment.
import type { NodeLocation, Ref, Term } from "../../ast/nodes.js";
import { keyOf } from "../../ast/compare.js";
import { isConstant, stringTerm } from "../../ast/terms.js";
import { A, arr, B, keys, N, NL, obj, or, S, select, set, values, type MaybeType, type Type } from "./types.js";
import { assertNever } from "../../../runtime/errors.js";

export class TypeNode {
  value: MaybeType;
  // Children by the kind of their key: vars (locals, `data`, `input`, built-in heads) and
  // strings (the segments of `data` paths) are looked up by name, with no key made; any other
  // key term goes by keyOf. Vars and strings are nearly every lookup, and make no key string.
  private vars: Map<string, TypeNode> | undefined;
  private strings: Map<string, { key: Term; node: TypeNode }> | undefined;
  private others: Map<string, { key: Term; node: TypeNode }> | undefined;

  leaf(): boolean {
    return this.value !== undefined;
  }
  hasChildren(): boolean {
    return (this.vars?.size ?? 0) > 0 || (this.strings?.size ?? 0) > 0 || (this.others?.size ?? 0) > 0;
  }
  child(k: Term): TypeNode | undefined {
    if (k.type === "var") return this.vars?.get(k.value);
    if (k.type === "string") return this.strings?.get(k.value)?.node;
    return this.others?.get(keyOf(k))?.node;
  }
  /** The child at a var key. */
  varChild(name: string): TypeNode | undefined {
    return this.vars?.get(name);
  }
  getOrAdd(k: Term): TypeNode {
    if (k.type === "var") return this.varChildOrAdd(k.value);
    const map = k.type === "string" ? (this.strings ??= new Map()) : (this.others ??= new Map());
    const key = k.type === "string" ? k.value : keyOf(k);
    let e = map.get(key);
    if (!e) map.set(key, (e = { key: k, node: new TypeNode() }));
    return e.node;
  }
  /** The child at the string key `value`, made (keyed by a string term at `location`) when
   * missing. */
  stringChildOrAdd(value: string, location: NodeLocation): TypeNode {
    const map = (this.strings ??= new Map());
    let e = map.get(value);
    if (!e) map.set(value, (e = { key: stringTerm(value, location), node: new TypeNode() }));
    return e.node;
  }
  varChildOrAdd(name: string): TypeNode {
    let n = (this.vars ??= new Map()).get(name);
    if (!n) this.vars.set(name, (n = new TypeNode()));
    return n;
  }
  /** Removes the child at a var key (returned, to be put back with restoreVar). */
  detachVar(name: string): TypeNode | undefined {
    const n = this.vars?.get(name);
    this.vars?.delete(name);
    return n;
  }
  restoreVar(name: string, n: TypeNode | undefined): void {
    this.vars?.delete(name);
    if (n) (this.vars ??= new Map()).set(name, n);
  }
  /** The children whose keys are not vars (strings first, then the others, each in insertion
   * order): vars are never keys of an extent, and the extent's object orders its keys itself. */
  *constantKeyed(): Generator<{ key: Term; node: TypeNode }> {
    if (this.strings) yield* this.strings.values();
    if (this.others) yield* this.others.values();
  }
}

/** Computes the type of a comprehension by checking its body in a child environment. */
export type ClosureTyper = (env: TypeEnv, body: Term & { type: "arraycomprehension" | "setcomprehension" | "objectcomprehension" }) => MaybeType;

export class TypeEnv {
  readonly tree = new TypeNode();
  constructor(
    readonly next: TypeEnv | undefined,
    readonly closures: ClosureTyper,
  ) {}

  wrap(): TypeEnv {
    return new TypeEnv(this, this.closures);
  }

  /** Puts a type at a path, replacing what was there. */
  put(path: Ref, t: MaybeType): void {
    let node = this.tree;
    for (const k of path) node = node.getOrAdd(k);
    node.value = t;
  }

  /** Adds a rule's type (several rules at one path: the union) at its package's path followed
   * by its head ref's terms before `end`; the head's first term, a var, is keyed as a string (as
   * the rule's full ref has it). The full ref is not made: this runs for every rule. */
  insertRule(pkg: Ref, href: Ref, end: number, t: Type): void {
    let node = this.tree;
    for (const k of pkg) node = node.getOrAdd(k);
    const h = href[0]!;
    node = h.type === "var" ? node.stringChildOrAdd(h.value, h.location) : node.getOrAdd(h);
    for (let i = 1; i < end; i++) node = node.getOrAdd(href[i]!);
    node.value = node.value ? or(node.value, t) : t;
  }

  putVar(name: string, t: MaybeType): void {
    this.tree.varChildOrAdd(name).value = t;
  }

  /** The type of a term, or undefined when unknown. */
  get(t: Term): MaybeType {
    switch (t.type) {
      case "null":
        return NL;
      case "boolean":
        return B;
      case "number":
        return N;
      case "string":
        return S;
      // (arrays made at their size: composite operands are typed for most expressions)
      case "array": {
        const stat: MaybeType[] = new Array(t.value.length);
        for (let i = 0; i < stat.length; i++) stat[i] = this.get(t.value[i]!);
        return arr(stat, stat.length === 0 ? A : undefined);
      }
      case "object": {
        const stat: { key: unknown; value: MaybeType }[] = new Array(t.value.length);
        let n = 0;
        let dyn: { key: Type; value: Type } | undefined;
        for (const [k, v] of t.value) {
          const kj = constantJson(k);
          if (kj !== NOT_JSON) stat[n++] = { key: kj, value: this.get(v) };
          else dyn = { key: this.get(k) ?? A, value: this.get(v) ?? A };
        }
        stat.length = n;
        if (n === 0 && !dyn) dyn = { key: A, value: A };
        return obj(stat, dyn);
      }
      case "set": {
        let of: MaybeType;
        for (const x of t.value) of = or(of, this.get(x));
        return set(of ?? A);
      }
      case "arraycomprehension":
      case "setcomprehension":
      case "objectcomprehension":
        return this.closures(this, t);
      case "ref":
        return this.getRef(t.value);
      case "var": {
        // down the chain of environments (variables are looked up often)
        const name = t.value;
        for (let env: TypeEnv | undefined = this; env; env = env.next) {
          const node = env.tree.varChild(name);
          if (node) return node.value;
        }
        return undefined;
      }
      case "call":
      case "templatestring":
        return undefined;
      default:
        assertNever(t);
    }
  }

  getRef(ref: Ref): MaybeType {
    // the first environment with the head, up the chain
    const head = ref[0]!;
    for (let env: TypeEnv | undefined = this; env; env = env.next) {
      const node = env.tree.child(head);
      if (node) return env.getRefFrom(node, ref, 1);
      if (!env.next) return env.getRefFallback(ref);
    }
    return undefined;
  }

  private getRefFallback(ref: Ref): MaybeType {
    if (this.next) return this.next.getRef(ref);
    const h = ref[0]!;
    if (h.type === "var" && (h.value === "input" || h.value === "data")) return A;
    return undefined;
  }

  /** The type at ref[i:] below `node` (a loop down the tree: refs can be long). */
  private getRefFrom(node: TypeNode, ref: Ref, i: number): MaybeType {
    for (;;) {
      if (i === ref.length) return node.leaf() && node.hasChildren() ? A : this.extent(node);
      if (node.leaf()) {
        const c = node.child(ref[i]!);
        if (!c) return this.selectRef(node.value, ref, i);
        node = c;
        i++;
        continue;
      }
      if (!isConstant(ref[i]!)) return this.selectRef(this.extent(node), ref, i);
      const c = node.child(ref[i]!);
      if (!c) return this.getRefFallback(ref);
      node = c;
      i++;
    }
  }

  /** The type of a whole subtree: an object of its children (open to other string keys). */
  extent(node: TypeNode): MaybeType {
    if (node.leaf()) return node.value;
    const stat: { key: unknown; value: MaybeType }[] = [];
    for (const { key, node: child } of node.constantKeyed()) {
      const k = constantJson(key);
      if (k !== NOT_JSON) stat.push({ key: k, value: this.extent(child) });
    }
    return obj(stat, { key: S, value: A });
  }

  /** The type at ref[from:] within t (the ref is not copied: most refs the checker sees end
   * below a rule's value). */
  selectRef(t: MaybeType, ref: Ref, from: number): MaybeType {
    let cur = t;
    for (let i = from; i < ref.length; i++) {
      if (!cur) return undefined;
      const kj = constantJson(ref[i]!);
      cur = kj !== NOT_JSON ? select(cur, kj) : values(cur);
      if (cur === undefined && keys(t) === undefined) return undefined;
    }
    return cur;
  }
}

export const NOT_JSON = Symbol("not json");

/** The JSON value of a scalar constant term (object keys, ref operands), or NOT_JSON. */
export function constantJson(t: Term): unknown {
  switch (t.type) {
    case "null":
      return null;
    case "boolean":
    case "string":
      return t.value;
    case "number":
      return Number(t.value);
    case "object":
    case "var":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return NOT_JSON;
    default:
      assertNever(t);
  }
}
