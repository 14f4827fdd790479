// The data store: a JSON tree read by policies as `data`. Writes happen in a write transaction
// (add / replace / remove at slash paths) that is committed or aborted. A commit publishes a new
// immutable root that shares every untouched subtree with the previous one, so an evaluation that
// holds a snapshot sees one consistent document, and a failed write changes nothing. Committed
// nodes are frozen: a caller that changes a value read from the store (an evaluation's result
// shares the store's objects) gets a TypeError instead of changing the data of later decisions.
import type { RegoError } from "../errors.js";
import { badIndexError, notFoundError, rootNotObjectError, transactionError } from "./errors.js";
import { newPlainObject, type PlainObject, type Value } from "../value/value.js";
import { copyJSON } from "./json.js";
import { arrayIndex, formatPath, parsePath, type StoragePath } from "./path.js";

type Listener = (root: PlainObject) => void;

const FROZEN = { freeze: true };

export class Store {
  private root: PlainObject;
  private open: Transaction | undefined;
  private readonly listeners = new Set<Listener>();

  constructor(data: unknown = {}) {
    const root = copyJSON(data, "data", FROZEN);
    if (!isObject(root)) throw rootNotObjectError();
    this.root = root;
  }

  /** The current snapshot of `data`. Treat it as immutable. */
  read(path: string | readonly string[] = "/"): Value | undefined {
    return lookup(this.root, parsePath(path));
  }

  /** Starts the one write transaction; a second one while it is open is refused. */
  begin(): Transaction {
    if (this.open) throw transactionError("a write transaction is already open");
    this.open = new Transaction(this.root, (t, root) => {
      if (this.open !== t) return;
      this.open = undefined;
      if (root !== undefined && root !== this.root) {
        this.root = root;
        for (const l of this.listeners) l(root);
      }
    });
    return this.open;
  }

  /** Runs `fn` in a write transaction: committed when it returns, aborted when it throws. */
  write<T>(fn: (txn: Transaction) => T): T {
    const txn = this.begin();
    try {
      const out = fn(txn);
      txn.commit();
      return out;
    } catch (e) {
      txn.abort();
      throw e;
    }
  }

  /** Called with the new root after each commit that changed something. Returns an unsubscribe. */
  onCommit(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class Transaction {
  private root: PlainObject;
  /** Nodes copied in this transaction: they may be mutated in place. */
  private readonly owned = new Set<object>();
  private state: "open" | "committed" | "aborted" = "open";

  constructor(
    base: PlainObject,
    private readonly finish: (t: Transaction, root: PlainObject | undefined) => void,
  ) {
    this.root = base;
  }

  read(path: string | readonly string[] = "/"): Value | undefined {
    this.check();
    return lookup(this.root, parsePath(path));
  }

  /** Adds (or overwrites) a value; the parent must exist. On arrays, inserts at the index or appends at "-". */
  add(path: string | readonly string[], value: unknown): void {
    this.check();
    const p = parsePath(path);
    const v = copyJSON(value, formatPath(p), FROZEN);
    if (p.length === 0) {
      if (!isObject(v)) throw rootNotObjectError();
      this.root = v as PlainObject;
      return;
    }
    const { parent, key } = this.parentFor(p);
    if (Array.isArray(parent)) {
      const i = key === "-" ? parent.length : arrayIndex(key);
      if (i === undefined || i > parent.length) throw badIndex(p);
      parent.splice(i, 0, v);
    } else parent[key] = v;
  }

  /** Replaces an existing value. */
  replace(path: string | readonly string[], value: unknown): void {
    this.check();
    const p = parsePath(path);
    if (p.length === 0) return this.add(p, value);
    const v = copyJSON(value, formatPath(p), FROZEN);
    const { parent, key } = this.parentFor(p);
    if (Array.isArray(parent)) {
      const i = arrayIndex(key);
      if (i === undefined || i >= parent.length) throw notFound(p);
      parent[i] = v;
    } else {
      if (!Object.hasOwn(parent, key)) throw notFound(p);
      parent[key] = v;
    }
  }

  /** Removes an existing value. */
  remove(path: string | readonly string[]): void {
    this.check();
    const p = parsePath(path);
    if (p.length === 0) {
      this.root = newPlainObject();
      return;
    }
    const { parent, key } = this.parentFor(p);
    if (Array.isArray(parent)) {
      const i = arrayIndex(key);
      if (i === undefined || i >= parent.length) throw notFound(p);
      parent.splice(i, 1);
    } else {
      if (!Object.hasOwn(parent, key)) throw notFound(p);
      delete parent[key];
    }
  }

  commit(): void {
    this.check();
    this.state = "committed";
    for (const node of this.owned) Object.freeze(node);
    Object.freeze(this.root);
    this.finish(this, this.root);
  }

  abort(): void {
    if (this.state !== "open") return;
    this.state = "aborted";
    this.finish(this, undefined);
  }

  private check(): void {
    if (this.state !== "open") throw transactionError(`transaction already ${this.state}`);
  }

  /** Copies the nodes along the path (once per transaction) and returns the writable parent. */
  private parentFor(p: StoragePath): { parent: PlainObject | Value[]; key: string } {
    let node: PlainObject | Value[] = this.own(this.root) as PlainObject;
    this.root = node;
    for (let i = 0; i < p.length - 1; i++) {
      const seg = p[i]!;
      let child: Value | undefined;
      if (Array.isArray(node)) {
        const idx = arrayIndex(seg);
        child = idx === undefined ? undefined : node[idx];
        if (child === undefined || !isContainer(child)) throw notFound(p.slice(0, i + 1));
        const copy = this.own(child);
        node[idx!] = copy;
        node = copy;
      } else {
        child = Object.hasOwn(node, seg) ? node[seg] : undefined;
        if (child === undefined || !isContainer(child)) throw notFound(p.slice(0, i + 1));
        const copy = this.own(child);
        node[seg] = copy;
        node = copy;
      }
    }
    return { parent: node, key: p[p.length - 1]! };
  }

  private own(node: PlainObject | Value[]): PlainObject | Value[] {
    if (this.owned.has(node)) return node;
    let copy: PlainObject | Value[];
    if (Array.isArray(node)) copy = node.slice();
    else {
      copy = newPlainObject();
      for (const k of Object.keys(node)) copy[k] = node[k]!;
    }
    this.owned.add(copy);
    return copy;
  }
}

function isObject(v: Value | undefined): v is PlainObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isContainer(v: Value): v is PlainObject | Value[] {
  return typeof v === "object" && v !== null;
}

function lookup(root: PlainObject, p: StoragePath): Value | undefined {
  let node: Value | undefined = root;
  for (const seg of p) {
    if (Array.isArray(node)) {
      const i = arrayIndex(seg);
      node = i === undefined ? undefined : node[i];
    } else if (isObject(node)) node = Object.hasOwn(node, seg) ? node[seg] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function notFound(p: StoragePath): RegoError {
  return notFoundError(formatPath(p));
}

function badIndex(p: StoragePath): RegoError {
  return badIndexError(formatPath(p));
}
