// A total order on terms, as OPA's v1/ast/compare.go defines it (locations ignored): by kind
// first (null < boolean < number < string < var < ref < array < object < set < comprehensions <
// call), then by value. Numbers compare by their exact decimal value, strings by code point.
import type { Body, Expr, ExprTerms, Term } from "./nodes.js";
import { opaTerm } from "./print.js";
import { assertNever } from "../../runtime/errors.js";

const KIND_ORDER: Record<Term["type"], number> = {
  null: 0,
  boolean: 1,
  number: 2,
  string: 3,
  var: 4,
  ref: 5,
  array: 6,
  object: 7,
  set: 8,
  arraycomprehension: 9,
  objectcomprehension: 10,
  setcomprehension: 11,
  call: 12,
  templatestring: 13,
};

export function compareTerms(a: Term, b: Term): number {
  const ka = KIND_ORDER[a.type];
  const kb = KIND_ORDER[b.type];
  if (ka !== kb) return ka < kb ? -1 : 1;
  switch (a.type) {
    case "null":
      return 0;
    case "boolean":
      return a.value === (b as typeof a).value ? 0 : a.value ? 1 : -1;
    case "number":
      return a.value === (b as typeof a).value ? 0 : compareDecimal(a.value, (b as typeof a).value);
    case "string":
    case "var":
      return compareStrings(a.value, (b as typeof a).value);
    case "ref":
    case "array":
    case "call":
      return compareTermLists(a.value, (b as typeof a).value);
    case "set":
      return compareTermLists(sortedUnique(a.value), sortedUnique((b as typeof a).value));
    case "object": {
      const x = sortedPairs(a.value);
      const y = sortedPairs((b as typeof a).value);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareTerms(x[i]![0], y[i]![0]) || compareTerms(x[i]![1], y[i]![1]);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    case "arraycomprehension":
    case "setcomprehension": {
      const o = (b as typeof a).value;
      return compareTerms(a.value.term, o.term) || compareBodies(a.value.body, o.body);
    }
    case "objectcomprehension": {
      const o = (b as typeof a).value;
      return compareTerms(a.value.key, o.key) || compareTerms(a.value.value, o.value) || compareBodies(a.value.body, o.body);
    }
    case "templatestring": {
      const o = (b as typeof a).value;
      if (a.value.multiLine !== o.multiLine) return a.value.multiLine ? 1 : -1;
      const n = Math.min(a.value.parts.length, o.parts.length);
      for (let i = 0; i < n; i++) {
        const p = a.value.parts[i]!;
        const q = o.parts[i]!;
        const c = p.type === "expr" || q.type === "expr" ? compareExprTerms(p, q) : compareTerms(p, q);
        if (c !== 0) return c;
      }
      return a.value.parts.length - o.parts.length;
    }
    default:
      assertNever(a);
  }
}

export function termsEqual(a: Term, b: Term): boolean {
  return compareTerms(a, b) === 0;
}

/** A string that equal keys (of the rule tree, the planner's trie, the type environment) share. */
export function keyOf(t: Term): string {
  if (t.type === "var") return cachedKey(varKeys, "var:", t.value);
  if (t.type === "string") return cachedKey(stringKeys, "string:", t.value);
  return `${t.type}:${opaTerm(t)}`;
}

// A cache (module state on purpose; a key depends only on the name): every lookup in the rule tree
// and the type environment goes through keyOf, so the keys of vars and strings (nearly all keys)
// are made once per name. Cleared when it grows large, so that a long-lived process does not keep
// every name it saw.
const varKeys = new Map<string, string>();
const stringKeys = new Map<string, string>();
const MAX_CACHED_KEYS = 100_000;

function cachedKey(cache: Map<string, string>, prefix: string, value: string): string {
  let k = cache.get(value);
  if (k === undefined) {
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(value, (k = prefix + value));
  }
  return k;
}

export function compareTermLists(a: readonly Term[], b: readonly Term[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareTerms(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Bodies compare expression by expression (OPA's Body.Compare). */
export function compareBodies(a: Body, b: Body): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareExprs(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function exprOrder(t: ExprTerms): number {
  if (Array.isArray(t)) return 2;
  switch (t.type) {
    case "some":
      return 0;
    case "every":
      return 3;
    case "and":
    case "or":
    case "not":
      return 4;
    case "string":
    case "number":
    case "boolean":
    case "object":
    case "null":
    case "var":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return 1;
    default:
      assertNever(t);
  }
}

export function compareExprs(a: Expr, b: Expr): number {
  const o = exprOrder(a.terms) - exprOrder(b.terms);
  if (o !== 0) return o;
  if (a.index !== b.index) return a.index - b.index;
  if (a.negated !== b.negated) return a.negated ? 1 : -1;
  const c = compareExprTerms(a, b);
  if (c !== 0) return c;
  for (let i = 0; i < Math.min(a.with.length, b.with.length); i++) {
    const w = compareTerms(a.with[i]!.target, b.with[i]!.target) || compareTerms(a.with[i]!.value, b.with[i]!.value);
    if (w !== 0) return w;
  }
  return a.with.length - b.with.length;
}

function compareExprTerms(a: Term | Expr, b: Term | Expr): number {
  if (a.type !== "expr" || b.type !== "expr") {
    if (a.type === "expr") return 1;
    if (b.type === "expr") return -1;
    return compareTerms(a, b);
  }
  const x = a.terms;
  const y = b.terms;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (Array.isArray(x) && Array.isArray(y)) return compareTermLists(x, y);
    return Array.isArray(x) ? 1 : -1;
  }
  if (x.type === "some" && y.type === "some") return compareTermLists(x.symbols, y.symbols);
  if (x.type === "every" && y.type === "every") {
    const k = x.key && y.key ? compareTerms(x.key, y.key) : x.key ? 1 : y.key ? -1 : 0;
    return k || compareTerms(x.value, y.value) || compareTerms(x.domain, y.domain) || compareBodies(x.body, y.body);
  }
  if ((x.type === "and" || x.type === "or") && (y.type === "and" || y.type === "or")) {
    if (x.type !== y.type) return x.type < y.type ? -1 : 1;
    return compareBodies(x.lhs, y.lhs) || compareBodies(x.rhs, y.rhs);
  }
  if (x.type === "not" && y.type === "not") return compareBodies(x.body, y.body);
  if ("location" in x && "location" in y && isTermLike(x) && isTermLike(y)) return compareTerms(x, y);
  return compareStrings(x.type, y.type);
}

function isTermLike(x: ExprTerms): x is Term {
  return !Array.isArray(x) && x.type in KIND_ORDER;
}

/** Elements sorted by compareTerms, duplicates removed (what a set holds). */
export function sortedUnique(terms: readonly Term[]): Term[] {
  const sorted = terms.slice().sort(compareTerms);
  return sorted.filter((t, i) => i === 0 || compareTerms(sorted[i - 1]!, t) !== 0);
}

/** Pairs sorted by key; of equal keys the last one wins (as inserting into OPA's object). */
export function sortedPairs(pairs: readonly [Term, Term][]): [Term, Term][] {
  const sorted = pairs.map((p, i) => [p, i] as const).sort((x, y) => compareTerms(x[0][0], y[0][0]) || y[1] - x[1]);
  return sorted.filter((p, i) => i === 0 || compareTerms(sorted[i - 1]![0][0], p[0][0]) !== 0).map((p) => p[0]);
}

/** Code point order (UTF-8 byte order, as Go compares strings). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Compares two decimal numbers given as text (any JSON/Rego number syntax), exactly. */
export function compareDecimal(a: string, b: string): number {
  const x = normalizeDecimal(a);
  const y = normalizeDecimal(b);
  if (x.sign !== y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign === 0) return 0;
  let c: number;
  if (x.exp !== y.exp) c = x.exp < y.exp ? -1 : 1;
  else c = x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0;
  return x.sign * c;
}

/** sign, significant digits (no leading/trailing zeros) and the exponent of the first digit. */
function normalizeDecimal(text: string): { sign: number; digits: string; exp: number } {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return { sign: 0, digits: "", exp: 0 };
  const int = m[2] ?? "";
  const frac = m[3] ?? "";
  const all = int + frac;
  const first = all.search(/[1-9]/);
  if (first === -1) return { sign: 0, digits: "", exp: 0 };
  const digits = all.slice(first).replace(/0+$/, "");
  const exp = int.length - first + (m[4] ? Number(m[4]) : 0);
  return { sign: m[1] === "-" ? -1 : 1, digits, exp };
}
