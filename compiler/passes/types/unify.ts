// The type checker's unification of terms with types (one side known) and of two terms whose
// types may be partly unknown, plus small helpers on types shared by the checker's parts.
import type { Ref, Term } from "../../ast/nodes.js";
import { keyOf } from "../../ast/compare.js";
import { constantJson, NOT_JSON, type TypeEnv } from "./env.js";
import { A, isNil, obj, or, select, set, unifies, type MaybeType, type Type } from "./types.js";
import { assertNever } from "../../../runtime/errors.js";

// (composites are copied even when they hold no unknowns: a schema's object type is known by its
// identity (requiredKeys, schema.ts), and a copy has no required keys — the types the code
// generator is given depend on that)
export function fillNil(t: MaybeType): Type {
  if (!t) return A;
  switch (t.kind) {
    case "array": {
      const stat = t.static.map(fillNil);
      return t.dynamic ? { kind: "array", static: stat, dynamic: fillNil(t.dynamic) } : { kind: "array", static: stat };
    }
    case "object": {
      const stat = t.static.map(fillNilEntry);
      return t.dynamic
        ? { kind: "object", static: stat, dynamic: { key: fillNil(t.dynamic.key), value: fillNil(t.dynamic.value) } }
        : { kind: "object", static: stat };
    }
    case "set":
      return set(fillNil(t.of));
    default:
      return t;
  }
}

// (no closure per object type copied; no object spread made per copy)
function fillNilEntry(p: { key: unknown; value: MaybeType }): { key: unknown; value: Type } {
  return { key: p.key, value: fillNil(p.value) };
}

export function isDataRef(ref: Ref): boolean {
  return ref[0]?.type === "var" && ref[0].value === "data";
}

export function hasVars(t: Term): boolean {
  return t.type === "var" || ((t.type === "ref" || t.type === "array" || t.type === "set") && t.value.some(hasVars));
}

/** The object type of a rule whose ref continues with `path` below its ground prefix. */
export function nested(env: TypeEnv, path: Ref, leaf: MaybeType): MaybeType {
  if (path.length === 0) return leaf;
  const v = nested(env, path.slice(1), leaf);
  if (!v) return undefined;
  const k = env.get(path[0]!);
  if (!k) return undefined;
  return obj([], { key: fillNil(k), value: v });
}

// (loops, not closures made per call: unify1 runs for most operands the checker sees; each
// loop stops where `every` did)
export function unify1(env: TypeEnv, t: Term, tpe: Type, union: boolean): boolean {
  switch (t.type) {
    case "array":
      if (tpe.kind === "array") {
        if (t.value.length !== tpe.static.length && !tpe.dynamic) return false;
        for (let i = 0; i < t.value.length; i++) {
          const s = i < tpe.static.length ? tpe.static[i] : tpe.dynamic;
          if (s === undefined || !unify1(env, t.value[i]!, s, union)) return false;
        }
        return true;
      }
      if (tpe.kind === "any") {
        if (tpe.of.length === 0) {
          for (const x of t.value) unify1(env, x, A, true);
          return true;
        }
        let ok = false;
        for (const m of tpe.of) ok = unify1(env, t, m, true) || ok;
        return ok;
      }
      return false;
    case "object":
      if (tpe.kind === "object") {
        if (t.value.length !== tpe.static.length && !tpe.dynamic) return false;
        for (const [k, v] of t.value) {
          const kj = constantJson(k);
          if (kj === NOT_JSON) {
            unify1(env, v, A, union);
            continue;
          }
          const child = select(tpe, kj);
          if (child === undefined || !unify1(env, v, child, union)) return false;
        }
        return true;
      }
      if (tpe.kind === "any") {
        if (tpe.of.length === 0) {
          for (const [k, v] of t.value) {
            unify1(env, k, A, true);
            unify1(env, v, A, true);
          }
          return true;
        }
        let ok = false;
        for (const m of tpe.of) ok = unify1(env, t, m, true) || ok;
        return ok;
      }
      return false;
    case "set":
      if (tpe.kind === "set") {
        for (const x of t.value) if (!unify1(env, x, tpe.of, union)) return false;
        return true;
      }
      if (tpe.kind === "any") {
        if (tpe.of.length === 0) {
          for (const x of t.value) unify1(env, x, A, true);
          return true;
        }
        let ok = false;
        for (const m of tpe.of) ok = unify1(env, t, m, true) || ok;
        return ok;
      }
      return false;
    case "ref":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
      return unifies(env.get(t), tpe);
    case "var": {
      const exist = env.get(t);
      if (!union) {
        if (exist) return unifies(exist, tpe);
        env.putVar(t.value, tpe);
      } else {
        if (exist && !isNil(exist) && !unifies(exist, tpe)) return false;
        env.putVar(t.value, or(exist, tpe));
      }
      return true;
    }
    case "call":
    case "templatestring":
      return true;
    case "string":
    case "number":
    case "boolean":
    case "null":
      return unifies(env.get(t), tpe);
    default:
      assertNever(t);
  }
}

export function unify2(env: TypeEnv, a: Term, ta: MaybeType, b: Term, tb: MaybeType): boolean {
  const nilA = isNil(ta);
  const nilB = isNil(tb);
  if (nilA && !nilB) return unify1(env, a, tb!, false);
  if (nilB && !nilA) return unify1(env, b, ta!, false);
  if (!nilA && !nilB) return unifies(ta, tb);
  if (a.type === "array") return unify2Array(env, a, b);
  if (a.type === "object") return unify2Object(env, a, b);
  if (a.type === "var") {
    if (b.type === "var") return unify1(env, a, A, false) && unify1(env, b, env.get(a) ?? A, false);
    if (b.type === "array") return unify2Array(env, b, a);
    if (b.type === "object") return unify2Object(env, b, a);
  }
  // both sides partly unknown and not composites: nothing to conclude
  return true;
}

function unify2Array(env: TypeEnv, a: Term & { type: "array" }, b: Term): boolean {
  if (b.type === "array") {
    if (a.value.length !== b.value.length) return false;
    // (a loop, not a closure: hot, see bench/frontend.bench.ts)
    for (let i = 0; i < a.value.length; i++) {
      const x = a.value[i]!;
      const y = b.value[i]!;
      if (!unify2(env, x, env.get(x), y, env.get(y))) return false;
    }
    return true;
  }
  if (b.type === "var") return unify1(env, a, A, false) && unify1(env, b, env.get(a) ?? A, false);
  return false;
}

function unify2Object(env: TypeEnv, a: Term & { type: "object" }, b: Term): boolean {
  if (b.type === "object") {
    if (a.value.length !== b.value.length) return false;
    for (const [k, v] of a.value) {
      const other = b.value.find(([k2]) => keyOf(k2) === keyOf(k));
      if (!other) return false;
      if (!unify2(env, v, env.get(v), other[1], env.get(other[1]))) return false;
    }
    return true;
  }
  if (b.type === "var") return unify1(env, a, A, false) && unify1(env, b, env.get(a) ?? A, false);
  return false;
}
