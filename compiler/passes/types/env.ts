// The type environment (OPA's TypeEnv): a tree of types keyed by ref terms (`data.pkg.p`,
// built-ins like `count`, local variables), chained to an enclosing environment.
import type { Ref, Term } from "../../ast/nodes.js";
import { keyOf } from "../ruleTree.js";
import { isConstant } from "../terms.js";
import { A, arr, B, keys, N, NL, obj, or, S, select, set, values, type MaybeType, type Type } from "./types.js";

export class TypeNode {
  value: MaybeType;
  readonly children = new Map<string, { key: Term; node: TypeNode }>();

  leaf(): boolean {
    return this.value !== undefined;
  }
  child(k: Term): TypeNode | undefined {
    return this.children.get(keyOf(k))?.node;
  }
  /** The child at a key made by keyOf. */
  childAt(key: string): TypeNode | undefined {
    return this.children.get(key)?.node;
  }
  getOrAdd(k: Term): TypeNode {
    const key = keyOf(k);
    let e = this.children.get(key);
    if (!e) this.children.set(key, (e = { key: k, node: new TypeNode() }));
    return e.node;
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

  /** Adds a rule's type at its path (several rules at one path: the union). */
  insert(path: Ref, t: Type): void {
    let node = this.tree;
    for (const k of path) node = node.getOrAdd(k);
    node.value = node.value ? or(node.value, t) : t;
  }

  putVar(name: string, t: MaybeType): void {
    this.tree.getOrAdd({ type: "var", value: name } as Term).value = t;
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
      case "array": {
        const stat = t.value.map((x) => this.get(x));
        return arr(stat, stat.length === 0 ? A : undefined);
      }
      case "object": {
        const stat: { key: unknown; value: MaybeType }[] = [];
        let dyn: { key: Type; value: Type } | undefined;
        for (const [k, v] of t.value) {
          const kj = constantJson(k);
          if (kj !== NOT_JSON) stat.push({ key: kj, value: this.get(v) });
          else dyn = { key: this.get(k) ?? A, value: this.get(v) ?? A };
        }
        if (stat.length === 0 && !dyn) dyn = { key: A, value: A };
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
        // down the chain of environments with the key made once (variables are looked up often)
        const key = keyOf(t);
        for (let env: TypeEnv | undefined = this; env; env = env.next) {
          const node = env.tree.childAt(key);
          if (node) return node.value;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  getRef(ref: Ref): MaybeType {
    // the first environment with the head, up the chain (the head's key made once)
    const key = keyOf(ref[0]!);
    for (let env: TypeEnv | undefined = this; env; env = env.next) {
      const node = env.tree.childAt(key);
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
      if (i === ref.length) return node.leaf() && node.children.size > 0 ? A : this.extent(node);
      if (node.leaf()) {
        const c = node.children.size > 0 ? node.child(ref[i]!) : undefined;
        if (!c) return this.selectRef(node.value, ref.slice(i));
        node = c;
        i++;
        continue;
      }
      if (!isConstant(ref[i]!)) return this.selectRef(this.extent(node), ref.slice(i));
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
    for (const { key, node: child } of node.children.values()) {
      const k = constantJson(key);
      if (k !== NOT_JSON) stat.push({ key: k, value: this.extent(child) });
    }
    return obj(stat, { key: S, value: A });
  }

  selectRef(t: MaybeType, tail: Ref): MaybeType {
    let cur = t;
    for (const k of tail) {
      if (!cur) return undefined;
      const kj = constantJson(k);
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
    default:
      return NOT_JSON;
  }
}
