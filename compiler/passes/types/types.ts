// OPA's type system (v1/types), as the type checker needs it: the types of values, unions
// ("any<...>"), their printed form, reading built-in declarations, and the operations the checker
// uses (Or, Keys, Values, Select, Nil).
import type { TypeDecl } from "../../builtins/decls.js";

export type Type =
  | { kind: "any"; of: Type[] }
  | { kind: "null" }
  | { kind: "boolean" }
  | { kind: "number" }
  | { kind: "string" }
  | { kind: "array"; static: (Type | undefined)[]; dynamic?: Type }
  | { kind: "object"; static: { key: unknown; value: Type | undefined }[]; dynamic?: { key: Type; value: Type } }
  | { kind: "set"; of: Type }
  | { kind: "function"; args: Type[]; result?: Type; variadic?: Type };

/** A type that may still hold unknowns (OPA's nil type inside composites). */
export type MaybeType = Type | undefined;

export const A: Type = { kind: "any", of: [] };
export const N: Type = { kind: "number" };
export const S: Type = { kind: "string" };
export const B: Type = { kind: "boolean" };
export const NL: Type = { kind: "null" };

export function arr(stat: MaybeType[], dyn?: Type): Type {
  return dyn ? { kind: "array", static: stat, dynamic: dyn } : { kind: "array", static: stat };
}
/** An object type; `stat` is the caller's new array (kept when already in order). */
export function obj(stat: { key: unknown; value: MaybeType }[], dyn?: { key: Type; value: Type }): Type {
  const sorted = sortedByKey(stat);
  return dyn ? { kind: "object", static: sorted, dynamic: dyn } : { kind: "object", static: sorted };
}

/** Entries sorted by the keys' JSON text (worked out once per key, not once per comparison);
 * the array itself when it is in order already (most are: one key, or written in order). */
function sortedByKey(stat: { key: unknown; value: MaybeType }[]): { key: unknown; value: MaybeType }[] {
  if (stat.length < 2) return stat;
  const ks = stat.map((p) => JSON.stringify(p.key));
  let inOrder = true;
  for (let i = 1; i < ks.length && inOrder; i++) if (ks[i - 1]! > ks[i]!) inOrder = false;
  if (inOrder) return stat;
  return stat
    .map((p, i) => ({ p, k: ks[i]! }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.p);
}
export function set(of: Type): Type {
  return { kind: "set", of };
}

function isScalarKind(k: Type["kind"]): boolean {
  return k === "null" || k === "boolean" || k === "number" || k === "string";
}

const RANK: Record<Type["kind"], number> = { any: 0, null: 1, boolean: 2, number: 3, string: 4, array: 5, object: 6, set: 7, function: 8 };

export function compareTypes(a: Type, b: Type): number {
  if (a.kind !== b.kind) return RANK[a.kind] - RANK[b.kind];
  // (equal by identity, or scalars of one kind: their printed forms are equal, and printing them
  // costs a lookup each; unions are mostly built of these)
  if (a === b || isScalarKind(a.kind) || sameType(a, b)) return 0;
  const s = sprint(a);
  const t = sprint(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

/** Whether two types are built alike (then their printed forms are equal: a rule's definitions
 * mostly have one type, and the union of their types compared them by printing each). */
function sameType(a: MaybeType, b: MaybeType): boolean {
  if (a === b) return true;
  if (!a || !b || a.kind !== b.kind) return false;
  switch (a.kind) {
    case "any":
      return sameTypes(a.of, (b as typeof a).of);
    case "array": {
      const bb = b as typeof a;
      return sameTypes(a.static, bb.static) && sameType(a.dynamic, bb.dynamic);
    }
    case "object": {
      const bb = b as typeof a;
      if (a.static.length !== bb.static.length) return false;
      for (let i = 0; i < a.static.length; i++) if (a.static[i]!.key !== bb.static[i]!.key || !sameType(a.static[i]!.value, bb.static[i]!.value)) return false;
      if (!a.dynamic || !bb.dynamic) return a.dynamic === bb.dynamic;
      return sameType(a.dynamic.key, bb.dynamic.key) && sameType(a.dynamic.value, bb.dynamic.value);
    }
    case "set":
      return sameType(a.of, (b as typeof a).of);
    case "function": {
      const bb = b as typeof a;
      return sameTypes(a.args, bb.args) && sameType(a.result, bb.result) && sameType(a.variadic, bb.variadic);
    }
    default:
      return true;
  }
}

function sameTypes(as: MaybeType[], bs: MaybeType[]): boolean {
  if (as.length !== bs.length) return false;
  for (let i = 0; i < as.length; i++) if (!sameType(as[i], bs[i])) return false;
  return true;
}

/** OPA's types.Or: a union, flattened and deduplicated; `any` absorbs everything. Members are
 * kept sorted (compareTypes) and the first of equal ones wins, so adding one member to a union
 * is a binary search, not a scan (sets of many distinct shapes build unions member by member). */
export function or(a: MaybeType, b: MaybeType): MaybeType {
  if (!a) return b;
  if (!b) return a;
  if (isAny(a)) return a;
  if (isAny(b)) return b;
  // (one type with itself, e.g. the values of an array of strings: no arrays made)
  if (a === b || (a.kind === b.kind && isScalarKind(a.kind))) return a;
  const as = a.kind === "any" ? a.of : [a];
  const bs = b.kind === "any" ? b.of : [b];
  const out = as.slice();
  for (const m of bs) {
    const i = lowerBound(out, m);
    if (i < out.length && compareTypes(out[i]!, m) === 0) continue;
    out.splice(i, 0, m);
  }
  if (out.length === 1) return out[0];
  return { kind: "any", of: out };
}

/** The first index of the sorted `xs` whose member is not below `t`. */
function lowerBound(xs: Type[], t: Type): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareTypes(xs[mid]!, t) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function isAny(t: MaybeType): boolean {
  return t !== undefined && t.kind === "any" && t.of.length === 0;
}

/** Whether a type holds unknowns (an undetermined part). */
export function isNil(t: MaybeType): boolean {
  if (!t) return true;
  switch (t.kind) {
    case "array":
      return t.static.some(isNil) || (t.dynamic !== undefined && isNil(t.dynamic));
    case "object":
      return t.static.some((p) => isNil(p.value)) || (t.dynamic !== undefined && (isNil(t.dynamic.key) || isNil(t.dynamic.value)));
    case "set":
      return isNil(t.of);
    default:
      return false;
  }
}

/** The type of the keys a value of type t can be indexed with (OPA's types.Keys). */
export function keys(t: MaybeType): MaybeType {
  if (!t) return undefined;
  switch (t.kind) {
    case "any": {
      if (t.of.length === 0) return A;
      let out: MaybeType;
      for (const m of t.of) out = or(out, keys(m));
      return out;
    }
    case "array":
      return N;
    case "object": {
      let out: MaybeType;
      for (const p of t.static) out = or(out, jsonType(p.key));
      if (t.dynamic) out = or(out, t.dynamic.key);
      return out;
    }
    case "set":
      return t.of;
    default:
      return undefined;
  }
}

/** The type of the elements (OPA's types.Values). */
export function values(t: MaybeType): MaybeType {
  if (!t) return undefined;
  switch (t.kind) {
    case "any": {
      if (t.of.length === 0) return A;
      let out: MaybeType;
      for (const m of t.of) out = or(out, values(m));
      return out;
    }
    case "array": {
      let out: MaybeType;
      for (const s of t.static) out = or(out, s);
      if (t.dynamic) out = or(out, t.dynamic);
      return out;
    }
    case "object": {
      let out: MaybeType;
      for (const p of t.static) out = or(out, p.value);
      if (t.dynamic) out = or(out, t.dynamic.value);
      return out;
    }
    case "set":
      return t.of;
    default:
      return undefined;
  }
}

/** The type at a constant key (OPA's types.Select), undefined when the key cannot be there. */
export function select(t: MaybeType, key: unknown): MaybeType {
  if (!t) return undefined;
  switch (t.kind) {
    case "any": {
      if (t.of.length === 0) return A;
      let out: MaybeType;
      for (const m of t.of) out = or(out, select(m, key));
      return out;
    }
    case "array": {
      if (typeof key !== "number" || !Number.isInteger(key) || key < 0) return undefined;
      if (key < t.static.length) return t.static[key];
      return t.dynamic;
    }
    case "object": {
      const p = staticEntry(t.static, key);
      if (p) return p.value;
      if (t.dynamic && unifies(jsonType(key), t.dynamic.key)) return t.dynamic.value;
      return undefined;
    }
    case "set":
      return unifies(jsonType(key), t.of) ? t.of : undefined;
    default:
      return undefined;
  }
}

type StaticEntry = { key: unknown; value: MaybeType };
/** A cache: the index of a large object type's static entries, by key text (types never change). */
const staticIndexes = new WeakMap<StaticEntry[], Map<string, StaticEntry>>();

/** The first static entry of an object type with the key (by JSON text), indexed when large. */
function staticEntry(stat: StaticEntry[], key: unknown): StaticEntry | undefined {
  if (stat.length <= 8) {
    // a string's JSON text equals another key's only when that key is the same string: string
    // keys (nearly all) are compared without printing them (a selection per ref operand)
    if (typeof key === "string") {
      for (const x of stat) if (x.key === key) return x;
      return undefined;
    }
    const k = JSON.stringify(key);
    for (const x of stat) if (JSON.stringify(x.key) === k) return x;
    return undefined;
  }
  const k = JSON.stringify(key);
  let index = staticIndexes.get(stat);
  if (!index) {
    index = new Map();
    for (const x of stat) {
      const xk = JSON.stringify(x.key);
      if (!index.has(xk)) index.set(xk, x);
    }
    staticIndexes.set(stat, index);
  }
  return index.get(k);
}

export function jsonType(v: unknown): Type {
  if (v === null) return NL;
  if (typeof v === "boolean") return B;
  if (typeof v === "number") return N;
  if (typeof v === "string") return S;
  return A;
}

/** Whether a value could have both types (OPA's unifies). */
export function unifies(a: MaybeType, b: MaybeType): boolean {
  if (!a || !b) return false;
  if (a.kind === "any" && b.kind !== "function" && (a.of.length === 0 || someUnifies(a.of, b))) return true;
  if (b.kind === "any" && a.kind !== "function" && (b.of.length === 0 || someUnifies(b.of, a))) return true;
  if (a.kind === "any" || b.kind === "any") return false;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "array": {
      const bb = b as typeof a;
      return arrayStaticOk(a, bb) && arrayStaticOk(bb, a) && (!a.dynamic || !bb.dynamic || unifies(a.dynamic, bb.dynamic));
    }
    case "object": {
      const bb = b as typeof a;
      // a key missing on one side is fine when either side is open (has dynamic keys)
      const open = a.dynamic !== undefined || bb.dynamic !== undefined;
      return objectStaticOk(a, bb, open) && objectStaticOk(bb, a, open) && (!a.dynamic || !bb.dynamic || unifies(a.dynamic.value, bb.dynamic.value));
    }
    case "set":
      return unifies(a.of, (b as typeof a).of);
    case "function": {
      const bb = b as typeof a;
      if (a.args.length !== bb.args.length) return false;
      for (let i = 0; i < a.args.length; i++) if (!unifies(a.args[i], bb.args[i])) return false;
      return true;
    }
    default:
      return true;
  }
}

// (functions, not closures made per call: unifies runs for most operands the checker sees)
function someUnifies(members: Type[], t: Type): boolean {
  for (const m of members) if (unifies(m, t)) return true;
  return false;
}

function arrayStaticOk(x: Type & { kind: "array" }, y: Type & { kind: "array" }): boolean {
  for (let i = 0; i < x.static.length; i++) if (!unifies(selectIndex(x, i), selectIndex(y, i))) return false;
  return true;
}

function objectStaticOk(x: Type & { kind: "object" }, y: Type & { kind: "object" }, open: boolean): boolean {
  for (const p of x.static) {
    const ys = select(y, p.key);
    if (!((ys === undefined && open) || unifies(select(x, p.key), ys))) return false;
  }
  return true;
}

function selectIndex(t: Type & { kind: "array" }, i: number): MaybeType {
  return i < t.static.length ? t.static[i] : t.dynamic;
}

/** A cache: sprint's answers, by type (types never change). */
const printed = new WeakMap<Type, string>();

/** OPA's printed form of a type (types are never changed once built: worked out once each). */
export function sprint(t: MaybeType): string {
  if (!t) return "???";
  let s = printed.get(t);
  if (s === undefined) printed.set(t, (s = sprintType(t)));
  return s;
}

function sprintType(t: Type): string {
  switch (t.kind) {
    case "any":
      return t.of.length === 0 ? "any" : `any<${t.of.map(sprint).join(", ")}>`;
    case "null":
    case "boolean":
    case "number":
    case "string":
      return t.kind;
    case "array": {
      let s = "array";
      if (t.static.length > 0) s += `<${t.static.map(sprint).join(", ")}>`;
      if (t.dynamic) s += `[${sprint(t.dynamic)}]`;
      return s;
    }
    case "object": {
      let s = "object";
      if (t.static.length > 0) s += `<${t.static.map((p) => `${typeof p.key === "string" ? p.key : JSON.stringify(p.key)}: ${sprint(p.value)}`).join(", ")}>`;
      if (t.dynamic) s += `[${sprint(t.dynamic.key)}: ${sprint(t.dynamic.value)}]`;
      return s;
    }
    case "set":
      return `set[${sprint(t.of)}]`;
    case "function":
      return `(${t.args.map(sprint).join(", ")})${t.result ? ` => ${sprint(t.result)}` : ""}`;
  }
}

/** A type from a capabilities declaration. */
export function fromDecl(d: TypeDecl | undefined): Type {
  if (!d) return A;
  switch (d.type) {
    case "any": {
      const of = Array.isArray(d.of) ? d.of.map(fromDecl) : [];
      // sorted and without duplicates, as `or` keeps unions
      const members = of.sort(compareTypes).filter((t, i, xs) => i === 0 || compareTypes(xs[i - 1]!, t) !== 0);
      return members.length === 0 ? A : ({ kind: "any", of: members } as Type);
    }
    case "null":
    case "boolean":
    case "number":
    case "string":
      return { kind: d.type };
    case "array":
      return arr(((d.static as TypeDecl[] | undefined) ?? []).map(fromDecl), d.dynamic ? fromDecl(d.dynamic as TypeDecl) : undefined);
    case "object": {
      const stat = ((d.static as { key: unknown; value: TypeDecl }[] | undefined) ?? []).map((p) => ({ key: p.key, value: fromDecl(p.value) }));
      const dyn = d.dynamic as { key: TypeDecl; value: TypeDecl } | undefined;
      return obj(stat, dyn ? { key: fromDecl(dyn.key), value: fromDecl(dyn.value) } : undefined);
    }
    case "set":
      return set(fromDecl(d.of as TypeDecl | undefined));
    case "function": {
      const f: Type = { kind: "function", args: (d.args ?? []).map(fromDecl) };
      if (d.result) f.result = fromDecl(d.result);
      if (d.variadic) f.variadic = fromDecl(d.variadic);
      return f;
    }
    default:
      return A;
  }
}
