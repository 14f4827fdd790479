// Planning terms into locals (scalars, collections, comprehensions), unification (`=` in both
// directions, array and object patterns), dots and scans.
import type { ArrayComprehensionTerm, Body, ObjectComprehensionTerm, SetComprehensionTerm, Term } from "../ast/nodes.js";
import type { Local, Operand } from "../ir/types.js";
import { isScalar } from "../ast/terms.js";
import { keyOf } from "../ast/compare.js";
import { opaTerm } from "../ast/print.js";
import { planQuery } from "./exprs.js";
import { type Iter, type Planner } from "./planner.js";
import * as S from "./stmts.js";
import { isFlatTerm, isFlatUnify, isFlatUnifyLocal, planFlatTerm, planSeq } from "./flat.js";
import { planRef } from "./refs.js";
import { assertNever } from "../../runtime/errors.js";

export function planTerm(p: Planner, t: Term, iter: Iter): void {
  switch (t.type) {
    case "null": {
      const target = p.newLocal();
      p.append(S.MakeNullStmt(p, target));
      p.ltarget = p.local(target);
      return iter();
    }
    case "boolean":
      p.ltarget = p.bool(t.value);
      return iter();
    case "number": {
      const target = p.newLocal();
      p.append(S.MakeNumberRefStmt(p, p.getString(t.value), target));
      p.ltarget = p.local(target);
      return iter();
    }
    case "string":
      p.ltarget = p.stringOperand(t.value);
      return iter();
    case "var": {
      let l = p.vars.get(t.value);
      if (l === undefined) l = p.varLocal(t.value);
      p.ltarget = p.local(l);
      return iter();
    }
    case "ref":
      return planRef(p, t.value, iter);
    case "array":
      return planArray(p, t.value, iter);
    case "object":
      return planObject(p, t.value, iter);
    case "set":
      return planSet(p, t.value, iter);
    case "setcomprehension":
      return planSetComprehension(p, t, iter);
    case "arraycomprehension":
      return planArrayComprehension(p, t, iter);
    case "objectcomprehension":
      return planObjectComprehension(p, t, iter);
    case "call":
    case "templatestring":
      throw p.error(`${t.type} term not implemented: ${opaTerm(t)}`);
    default:
      assertNever(t);
  }
}

/** Plans `t`, for which isFlatTerm holds, so that the caller goes on after it instead of in a
 * continuation (a closure per term): a term that plans flatly (flat.ts) calls its continuation at
 * most once, last, in the block it started in, and leaves the planner as its continuation saw it.
 * Answers whether the caller is to go on (false: `t` cannot hold, and what follows it is not
 * planned). Scalars and vars plan without a flatness check: planTerm appends a MakeNullStmt or
 * MakeNumberRefStmt at most, sets the target and calls `iter` once, as its last act. */
export function planTermInline(p: Planner, t: Term): boolean {
  if (t.type !== "var" && !isScalar(t)) return planFlatTerm(p, t);
  planTerm(p, t, NOOP);
  return true;
}

const NOOP: Iter = () => undefined;

// The terms that plan through continuations of their own are planned by functions of their own:
// V8 gives a function whose closures capture its parameters a context object at every call, and
// planTerm is called for every term planned.

function planArray(p: Planner, elems: Term[], iter: Iter): void {
  const arr = p.newLocal();
  p.append(S.MakeArrayStmt(p, elems.length, arr));
  planSeq(
    p,
    elems.length,
    (i) => isFlatTerm(p, elems[i]!),
    (i, next, flat) => planElement(p, elems[i]!, arr, next, flat),
    () => {
      p.ltarget = p.local(arr);
      iter();
    },
  );
}

/** An array's element, appended (`flat`: isFlatTerm said so). */
function planElement(p: Planner, t: Term, arr: Local, next: Iter, flat: boolean): void {
  if (!flat) return planElementThen(p, t, arr, next);
  if (!planTermInline(p, t)) return;
  p.append(S.ArrayAppendStmt(p, p.ltarget, arr));
  next();
}

function planElementThen(p: Planner, t: Term, arr: Local, next: Iter): void {
  planTerm(p, t, () => {
    p.append(S.ArrayAppendStmt(p, p.ltarget, arr));
    next();
  });
}

function planObject(p: Planner, entries: [Term, Term][], iter: Iter): void {
  const obj = p.newLocal();
  p.append(S.MakeObjectStmt(p, obj));
  planSeq(
    p,
    entries.length,
    (i) => isFlatTerm(p, entries[i]![0]) && isFlatTerm(p, entries[i]![1]),
    (i, next) => {
      const [k, v] = entries[i]!;
      planTerm(p, k, () => {
        const key = p.ltarget;
        planTerm(p, v, () => {
          p.append(S.ObjectInsertStmtObjectLast(p, key, p.ltarget, obj));
          next();
        });
      });
    },
    () => {
      p.ltarget = p.local(obj);
      iter();
    },
  );
}

function planSetComprehension(p: Planner, t: SetComprehensionTerm, iter: Iter): void {
  p.loc = t.location;
  const set = p.newLocal();
  p.append(S.MakeSetStmt(p, set));
  const c = t.value;
  planComprehension(p, c.body, () => planTerm(p, c.term, () => p.append(S.SetAddStmtValueFirst(p, p.ltarget, set))), set, iter);
}

function planArrayComprehension(p: Planner, t: ArrayComprehensionTerm, iter: Iter): void {
  p.loc = t.location;
  const arr = p.newLocal();
  p.append(S.MakeArrayStmt(p, 0, arr));
  const c = t.value;
  planComprehension(p, c.body, () => planTerm(p, c.term, () => p.append(S.ArrayAppendStmt(p, p.ltarget, arr))), arr, iter);
}

function planObjectComprehension(p: Planner, t: ObjectComprehensionTerm, iter: Iter): void {
  p.loc = t.location;
  const obj = p.newLocal();
  p.append(S.MakeObjectStmt(p, obj));
  const c = t.value;
  planComprehension(
    p,
    c.body,
    () =>
      planTerm(p, c.key, () => {
        const key = p.ltarget;
        planTerm(p, c.value, () => p.append(S.ObjectInsertOnceStmtObjectLast(p, key, p.ltarget, obj)));
      }),
    obj,
    iter,
  );
}

export function planSet(p: Planner, elems: Term[], iter: Iter): void {
  const set = p.newLocal();
  p.append(S.MakeSetStmt(p, set));
  planSeq(
    p,
    elems.length,
    (i) => isFlatTerm(p, elems[i]!),
    (i, next, flat) => planSetElement(p, elems[i]!, set, next, flat),
    () => {
      p.ltarget = p.local(set);
      iter();
    },
  );
}

/** A set's element, added (`flat`: isFlatTerm said so). */
function planSetElement(p: Planner, t: Term, set: Local, next: Iter, flat: boolean): void {
  if (!flat) return planSetElementThen(p, t, set, next);
  if (!planTermInline(p, t)) return;
  p.append(S.SetAddStmtValueFirst(p, p.ltarget, set));
  next();
}

function planSetElementThen(p: Planner, t: Term, set: Local, next: Iter): void {
  planTerm(p, t, () => {
    p.append(S.SetAddStmtValueFirst(p, p.ltarget, set));
    next();
  });
}

function planComprehension(p: Planner, body: Body, closureIter: Iter, target: Local, iter: Iter): void {
  p.vars.push();
  const block = p.openBlock();
  const ploc = p.loc;
  planQuery(p, body, 0, closureIter);
  p.closeBlock(block);
  p.loc = ploc;
  p.vars.pop();
  p.append(S.BlockStmt(p, [block]));
  p.ltarget = p.local(target);
  iter();
}

export function planTermSlice(p: Planner, terms: Term[], iter: (locals: Operand[]) => void): void {
  const out: Operand[] = [];
  planSeq(
    p,
    terms.length,
    (i) => isFlatTerm(p, terms[i]!),
    (i, next) =>
      planTerm(p, terms[i]!, () => {
        out[i] = p.ltarget;
        next();
      }),
    () => iter(out),
  );
}

// ---------------------------------------------------------------------------------------------
// unification

function isEvaluated(t: Term): boolean {
  switch (t.type) {
    case "null":
    case "boolean":
    case "number":
    case "string":
    case "ref":
    case "set":
    case "setcomprehension":
    case "arraycomprehension":
    case "objectcomprehension":
      return true;
    case "object":
    case "var":
    case "array":
    case "call":
    case "templatestring":
      return false;
    default:
      assertNever(t);
  }
}

// (As for terms, the branches that make continuations are functions of their own: unification
// is planned for most expressions.)

export function planUnify(p: Planner, a: Term, b: Term, iter: Iter): void {
  if (isEvaluated(a)) return planTermThenUnify(p, a, b, iter);
  if (a.type === "var") return planUnifyVar(p, a.value, b, iter);
  if (a.type === "array") {
    if (b.type === "var") return planUnifyVar(p, b.value, a, iter);
    if (b.type === "ref" || b.type === "arraycomprehension") return planTermThenUnifyArray(p, b, a.value, iter);
    if (b.type === "array") {
      if (a.value.length !== b.value.length) return;
      return planUnifyArrays(p, a.value, b.value, iter);
    }
  }
  if (a.type === "object") {
    if (b.type === "var") return planUnifyVar(p, b.value, a, iter);
    if (b.type === "ref") return planTermThenUnifyObject(p, b, a.value, iter);
    if (b.type === "object") return planUnifyObjects(p, a.value, b.value, iter);
  }
  throw p.error(`not implemented: unify(${opaTerm(a)}, ${opaTerm(b)})`);
}

/** `a` planned into a local, then unified with `b`. */
function planTermThenUnify(p: Planner, a: Term, b: Term, iter: Iter): void {
  if (!isFlatTerm(p, a)) return planTermThenUnifyNested(p, a, b, iter);
  if (!planTermInline(p, a)) return;
  planUnifyLocal(p, p.ltarget, b, iter);
}

function planTermThenUnifyNested(p: Planner, a: Term, b: Term, iter: Iter): void {
  planTerm(p, a, () => planUnifyLocal(p, p.ltarget, b, iter));
}

function planTermThenUnifyArray(p: Planner, b: Term, a: Term[], iter: Iter): void {
  planTerm(p, b, () => planUnifyLocalArray(p, p.ltarget, a, iter));
}

function planTermThenUnifyObject(p: Planner, b: Term, a: [Term, Term][], iter: Iter): void {
  planTerm(p, b, () => planUnifyLocalObject(p, p.ltarget, a, iter));
}

function planUnifyArrays(p: Planner, as: Term[], bs: Term[], iter: Iter): void {
  planSeq(p, as.length, (i) => isFlatUnify(p, as[i]!, bs[i]!), (i, next) => planUnify(p, as[i]!, bs[i]!, next), iter);
}

function planUnifyVar(p: Planner, a: string, b: Term, iter: Iter): void {
  const la = p.vars.get(a);
  if (la !== undefined) return planUnifyLocal(p, p.local(la), b, iter);
  planTermThenBind(p, a, b, iter);
}

/** `b` planned, then bound to the unbound var `a` (or compared, if planning `b` bound it). */
function planTermThenBind(p: Planner, a: string, b: Term, iter: Iter): void {
  if (!isFlatTerm(p, b)) return planTermThenBindNested(p, a, b, iter);
  if (!planTermInline(p, b)) return;
  bindTarget(p, a, iter);
}

function planTermThenBindNested(p: Planner, a: string, b: Term, iter: Iter): void {
  planTerm(p, b, () => bindTarget(p, a, iter));
}

/** Binds var `a` to the target (compares them, if `a` got bound meanwhile). */
function bindTarget(p: Planner, a: string, iter: Iter): void {
  const known = p.vars.get(a);
  if (known !== undefined) {
    p.append(S.EqualStmt(p, p.local(known), p.ltarget));
  } else {
    const target = p.varLocal(a);
    p.append(S.AssignVarStmt(p, p.ltarget, target));
  }
  iter();
}

export function planUnifyLocal(p: Planner, a: Operand, b: Term, iter: Iter): void {
  // constant strings and booleans are compared at plan time
  if (a.type === "string_index" && b.type === "string") {
    if (a.value !== p.getString(b.value)) p.append(S.BreakStmt(p, 0));
    return iter();
  }
  if (a.type === "bool" && b.type === "boolean") {
    if (a.value !== b.value) p.append(S.BreakStmt(p, 0));
    return iter();
  }
  if (isEvaluated(b)) return planTermThenEqual(p, a, b, iter);
  switch (b.type) {
    case "var": {
      const lv = p.vars.get(b.value);
      if (lv !== undefined) {
        p.append(S.EqualStmt(p, a, p.local(lv)));
        return iter();
      }
      const target = p.varLocal(b.value);
      p.append(S.AssignVarStmt(p, a, target));
      return iter();
    }
    case "array":
      return planUnifyLocalArray(p, a, b.value, iter);
    case "object":
      return planUnifyLocalObject(p, a, b.value, iter);
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "ref":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      throw p.error(`not implemented: unifyLocal(${opaTerm(b)})`);
    default:
      assertNever(b);
  }
}

/** `b` planned, then compared with `a`. */
function planTermThenEqual(p: Planner, a: Operand, b: Term, iter: Iter): void {
  if (!isFlatTerm(p, b)) return planTermThenEqualNested(p, a, b, iter);
  if (!planTermInline(p, b)) return;
  p.append(S.EqualStmt(p, a, p.ltarget));
  iter();
}

function planTermThenEqualNested(p: Planner, a: Operand, b: Term, iter: Iter): void {
  planTerm(p, b, () => {
    p.append(S.EqualStmt(p, a, p.ltarget));
    iter();
  });
}

function planUnifyLocalArray(p: Planner, a: Operand, b: Term[], iter: Iter): void {
  p.append(S.IsArrayStmt(p, a));
  const blen = p.newLocal();
  const alen = p.newLocal();
  p.append(S.LenStmt(p, a, alen));
  p.append(S.MakeNumberIntStmt(p, b.length, blen));
  p.append(S.EqualStmt(p, p.local(alen), p.local(blen)));
  const lkey = p.newLocal();
  p.append(S.MakeNumberIntStmt(p, 0, lkey));
  const lval = p.newLocal();
  planSeq(
    p,
    b.length,
    (i) => isFlatUnifyLocal(p, b[i]!),
    (i, next) => {
      p.append(S.AssignIntStmt(p, i, lkey));
      p.append(S.DotStmt(p, a, p.local(lkey), lval));
      planUnifyLocal(p, p.local(lval), b[i]!, next);
    },
    iter,
  );
}

function planUnifyLocalObject(p: Planner, a: Operand, b: [Term, Term][], iter: Iter): void {
  p.append(S.IsObjectStmt(p, a));
  const blen = p.newLocal();
  const alen = p.newLocal();
  p.append(S.LenStmt(p, a, alen));
  p.append(S.MakeNumberIntStmt(p, b.length, blen));
  p.append(S.EqualStmt(p, p.local(alen), p.local(blen)));
  const lval = p.newLocal();
  planSeq(
    p,
    b.length,
    (i) => isFlatTerm(p, b[i]![0]) && isFlatUnifyLocal(p, b[i]![1]),
    (i, next) => {
      const [k, v] = b[i]!;
      planTerm(p, k, () => {
        p.append(S.DotStmt(p, a, p.ltarget, lval));
        planUnifyLocal(p, p.local(lval), v, next);
      });
    },
    iter,
  );
}

function planUnifyObjects(p: Planner, a: [Term, Term][], b: [Term, Term][], iter: Iter): void {
  if (a.length !== b.length) return;
  const bValues = new Map<string, Term>();
  for (const [k, v] of b) {
    const key = keyOf(k);
    if (!bValues.has(key)) bValues.set(key, v);
  }
  const common: [Term, Term][] = [];
  const only: [Term, Term][] = [];
  for (const [k, av] of a) {
    const bv = bValues.get(keyOf(k));
    if (bv === undefined) only.push([k, av]);
    else common.push([av, bv]);
  }
  // keys that differ syntactically: compare both objects' values at a's keys
  const compareRest = (): void => {
    if (only.length === 0) return iter();
    planTerm(p, { type: "object", value: a, location: p.loc! }, () => {
      const la = p.ltarget;
      planTerm(p, { type: "object", value: b, location: p.loc! }, () => {
        const lb = p.ltarget;
        const l0 = p.newLocal();
        const l1 = p.newLocal();
        planSeq(
          p,
          only.length,
          (j) => isFlatTerm(p, only[j]![0]),
          (j, next) =>
            planTerm(p, only[j]![0], () => {
              p.append(S.DotStmt(p, la, p.ltarget, l0));
              p.append(S.DotStmt(p, lb, p.ltarget, l1));
              p.append(S.EqualStmt(p, p.local(l0), p.local(l1)));
              next();
            }),
          iter,
        );
      });
    });
  };
  planSeq(p, common.length, (i) => isFlatUnify(p, common[i]![0], common[i]![1]), (i, next) => planUnify(p, common[i]![0], common[i]![1], next), compareRest);
}

// ---------------------------------------------------------------------------------------------
// dots and scans

/** Makes sure the current target is a local (scans need one). */
function targetLocal(p: Planner): Local {
  if (p.ltarget.type === "local") return p.ltarget.value;
  const l = p.newLocal();
  p.append(S.AssignVarStmt(p, p.ltarget, l));
  return l;
}

export function planDot(p: Planner, key: Term, iter: Iter): void {
  const source = p.ltarget;
  if (!isFlatTerm(p, key)) return planDotNested(p, source, key, iter);
  if (!planTermInline(p, key)) return;
  appendDot(p, source, iter);
}

function planDotNested(p: Planner, source: Operand, key: Term, iter: Iter): void {
  planTerm(p, key, () => appendDot(p, source, iter));
}

/** `source[target key]` into a new local, the new target. */
function appendDot(p: Planner, source: Operand, iter: Iter): void {
  const target = p.newLocal();
  p.append(S.DotStmt(p, source, p.ltarget, target));
  p.ltarget = p.local(target);
  iter();
}

/** Scans the current target, unifying each key with `key`; `iter` runs in the loop body with the
 * element as the current target. */
export function planScan(p: Planner, key: Term, iter: (key: Local) => void): void {
  const source = targetLocal(p);
  const scanKey = p.newLocal();
  const value = p.newLocal();
  const block = p.openBlock();
  planUnifyLocal(p, p.local(scanKey), key, () => {
    p.ltarget = p.local(value);
    iter(scanKey);
  });
  p.closeBlock(block);
  p.append(S.ScanStmt(p, source, scanKey, value, block));
}

/** Scans the current target, unifying each value with `val` (relation results). */
export function planScanValues(p: Planner, val: Term, iter: Iter): void {
  const source = targetLocal(p);
  const scanKey = p.newLocal();
  const value = p.newLocal();
  const block = p.openBlock();
  planUnifyLocal(p, p.local(value), val, () => {
    p.ltarget = p.local(value);
    iter();
  });
  p.closeBlock(block);
  p.append(S.ScanStmt(p, source, scanKey, value, block));
}
