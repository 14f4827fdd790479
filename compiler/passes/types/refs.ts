// The type checker's checks of references: functions used as values, and keys that cannot exist
// in a value whose shape is known ("undefined ref: ...").
import type { Expr, NodeLocation, Ref, Term } from "../../ast/nodes.js";
import { constantJson, NOT_JSON, type TypeEnv, type TypeNode } from "./env.js";
import { A, keys, select, unifies, values, type MaybeType } from "./types.js";
import { isDataRef, unify1 } from "./unify.js";
import { assertNever } from "../../../runtime/errors.js";

export interface TypeError {
  message: string;
  location: NodeLocation;
  /** Caused by an unknown (nil) type: dropped when a more specific error was reported. */
  nil: boolean;
}

/** How the checker builds its errors and prints refs as the user wrote them. */
export interface Messages {
  err(message: string, location: NodeLocation, nil?: boolean): TypeError;
  name(ref: Ref): string;
}

/** References: functions used as values, and keys that cannot exist in a value of known shape.
 * The errors are added to `errs`, made at the first (most expressions have none); returned. */
export function checkRefs(env: TypeEnv, e: Expr, m: Messages, errs?: TypeError[]): TypeError[] | undefined {
  const ts = e.terms;
  if (Array.isArray(ts)) for (let i = 1; i < ts.length; i++) errs = checkRefsIn(env, ts[i]!, m, errs);
  else if (ts.type !== "some" && ts.type !== "every" && ts.type !== "and" && ts.type !== "or" && ts.type !== "not") errs = checkRefsIn(env, ts as Term, m, errs);
  return errs;
}

// a function of its own, not a closure made per expression: it runs for every term of every body
// (returns `errs`, or the array made for the first error)
function checkRefsIn(env: TypeEnv, t: Term, m: Messages, errs: TypeError[] | undefined): TypeError[] | undefined {
  switch (t.type) {
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
      return errs;
    case "ref": {
      const ft = isDataRef(t.value) ? env.getRef(t.value) : undefined;
      if (ft?.kind === "function") {
        (errs ??= []).push(m.err(`function ${m.name(t.value)} used as reference, not called`, t.value[0]!.location));
        return errs;
      }
      const err = checkRef(m, env, env, env.tree, t.value, 0);
      if (err) (errs ??= []).push(err);
      for (const x of t.value) errs = checkRefsIn(env, x, m, errs);
      return errs;
    }
    case "array":
    case "set":
    case "call":
      for (const x of t.value) errs = checkRefsIn(env, x, m, errs);
      return errs;
    case "object":
      for (const [k, v] of t.value) {
        errs = checkRefsIn(env, k, m, errs);
        errs = checkRefsIn(env, v, m, errs);
      }
      return errs;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
    case "templatestring":
      return errs;
    default:
      assertNever(t);
  }
}

function refError(m: Messages, ref: Ref): TypeError {
  return m.err(`undefined ref: ${m.name(ref)}`, ref[0]!.location);
}

// checkRef and checkRefLeaf walk a ref term by term: loops, not a call per term (refs can be long)

function checkRef(m: Messages, env: TypeEnv, curr: TypeEnv, node: TypeNode, ref: Ref, idx: number): TypeError | undefined {
  for (;;) {
    if (idx === ref.length) return undefined;
    const head = ref[idx]!;
    if ((idx === 1 || idx === 2) && isDataRef(ref) && head.type !== "var" && head.type !== "string") return refError(m, ref);
    if (head.type === "var" && idx !== 0) {
      const kt = keys(env.extent(node)) ?? A;
      const exist = env.get(head);
      if (exist) {
        if (!unifies(kt, exist)) return refError(m, ref);
      } else env.putVar(head.value, kt);
    }
    const child = node.child(head);
    if (!child) {
      // start over in the enclosing environment; base documents are open; anything else is any
      if (curr.next) {
        curr = curr.next;
        node = curr.tree;
        idx = 0;
        continue;
      }
      const root = ref[0]!;
      if (root.type === "var" && (root.value === "input" || root.value === "data")) return idx === 0 ? checkRefLeaf(m, env, A, ref, 1) : undefined;
      return checkRefLeaf(m, env, A, ref, 0);
    }
    if (child.leaf()) {
      // rules at this path and below it (ref heads): their types are not merged, so do not judge
      if (child.hasChildren()) return undefined;
      return checkRefLeaf(m, env, child.value, ref, idx + 1);
    }
    node = child;
    idx++;
  }
}

// (one loop, no object per step: it runs for every operand that selects into a known value)
function checkRefLeaf(m: Messages, env: TypeEnv, t: MaybeType, ref: Ref, idx: number): TypeError | undefined {
  for (; idx < ref.length && t; idx++) {
    const head = ref[idx]!;
    const kt = keys(t);
    if (kt === undefined) {
      if (t.kind === "function") {
        let end = ref.length;
        while (end > idx && ref[end - 1]!.type === "var" && (ref[end - 1] as { value: string }).value.startsWith("__local")) end--;
        return m.err(`function ${m.name(ref.slice(0, end))} used as reference, not called`, ref[0]!.location);
      }
      return refError(m, ref);
    }
    if (head.type === "var") {
      const exist = env.get(head);
      if (exist) {
        if (!unifies(exist, kt)) return refError(m, ref);
      } else env.putVar(head.value, kt);
      t = values(t);
      continue;
    }
    if (head.type === "ref") {
      const exist = env.get(head);
      if (exist && !unifies(exist, kt)) return refError(m, ref);
      t = values(t);
      continue;
    }
    if (head.type === "array" || head.type === "object" || head.type === "set") {
      if (!unify1(env, head, kt, false)) return refError(m, ref);
      t = values(t);
      continue;
    }
    const kj = constantJson(head);
    if (kj === NOT_JSON) return undefined;
    const child = select(t, kj);
    if (child === undefined) return refError(m, ref);
    t = child;
  }
  return undefined;
}
