// Planning expressions: a body is planned expression by expression, each one continuing into the
// next; negation, `with` (input/data rebinding with undo, function and built-in mocks), `every`,
// calls of built-ins, user functions and relations, and OPA's newer `and`/`or` groups.
import type { Body, Every, Expr, LogicalExpr, NodeLocation, NotGroup, Ref, Term } from "../ast/nodes.js";
import type { Block, Local, Operand, Stmt, StmtOf } from "../ir/types.js";
import { opaRef, opaTerm } from "../ast/print.js";
import { DATA, INPUT, sealed, type Iter, type Planner } from "./planner.js";
import * as S from "./stmts.js";
import { planNodeRules } from "./rules.js";
import { isRoot, planWith } from "./with.js";
import { planScan, planScanValues, planTerm, planTermInline, planUnify, planUnifyLocal } from "./terms.js";
import { isFlatExpr, isFlatTerm, planSeqOf, type Seq } from "./flat.js";
import { assertNever } from "../../runtime/errors.js";

/** The leading args of a call of a built-in: none. */
const NO_ARGS: readonly Operand[] = [];

/** Plans the expressions of `q` from `index` on, then `iter` (with the location restored). Runs
 * of flat expressions are planned in a loop (flat.ts): a body of thousands of expressions needs
 * no deeper a stack than its nesting of scans and `with`s. */
export function planQuery(p: Planner, q: Body, index: number, iter: Iter): void {
  const old = p.loc;
  p.enter();
  planSeqOf(p, new QuerySeq(q, old, iter), index);
  p.leave();
  p.loc = old;
}

/** The expressions of a body, as a sequence (flat.ts); then `iter`, at the location of before. */
class QuerySeq implements Seq {
  readonly n: number;

  constructor(
    private readonly q: Body,
    private readonly old: NodeLocation | undefined,
    private readonly iter: Iter,
  ) {
    this.n = q.length;
  }

  flat(p: Planner, i: number): boolean {
    return isFlatExpr(p, this.q[i]!);
  }

  step(p: Planner, i: number, next: Iter, flat: boolean): void {
    const e = this.q[i]!;
    p.loc = e.location;
    // a flat expression's continuation only records that it ran (flat.ts): nothing to restore
    planExpr(p, e, flat ? next : keepingLoc(p, next));
  }

  done(p: Planner): void {
    const curr = p.loc;
    p.loc = this.old;
    this.iter();
    p.loc = curr;
  }
}

/** `next`, with the location restored after it (the rest of the body sets its own). */
function keepingLoc(p: Planner, next: Iter): Iter {
  return () => {
    const curr = p.loc;
    next();
    p.loc = curr;
  };
}

export function planExpr(p: Planner, e: Expr, iter: Iter): void {
  if (e.negated) return planNot(p, e, iter);
  if (e.with.length > 0) return planWith(p, e, iter);
  const ts = e.terms;
  if (Array.isArray(ts)) return planExprCall(p, e, ts, iter);
  switch (ts.type) {
    case "every":
      return planExprEvery(p, ts, iter);
    case "and":
    case "or":
      return planExprLogical(p, ts, iter);
    case "not":
      return planNotGroup(p, ts, iter);
    case "some":
      return iter();
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
    case "templatestring": {
      const t = ts as Term;
      // `false` cannot hold; other constants always do; vars and refs are checked at run time
      if (t.type === "boolean") {
        if (!t.value) p.append(S.BreakStmt(p, 0));
        return iter();
      }
      if (t.type !== "ref" && t.type !== "var") return iter();
      return planTermIsTrue(p, t, iter);
    }
    default:
      assertNever(ts);
  }
}

/** A term as an expression: defined and not false. (A function of its own: V8 gives a function
 * whose closures capture its parameters a context at every call, and planExpr plans every
 * expression.) */
function planTermIsTrue(p: Planner, t: Term, iter: Iter): void {
  if (!isFlatTerm(p, t)) return planTermIsTrueNested(p, t, iter);
  if (!planTermInline(p, t)) return;
  p.append(S.NotEqualStmt(p, p.ltarget, p.bool(false)));
  iter();
}

function planTermIsTrueNested(p: Planner, t: Term, iter: Iter): void {
  planTerm(p, t, () => {
    p.append(S.NotEqualStmt(p, p.ltarget, p.bool(false)));
    iter();
  });
}

function planNot(p: Planner, e: Expr, iter: Iter): void {
  const positive: Expr = { ...e, negated: false };
  planNegation(p, (found) => planExpr(p, positive, found), iter);
}

function planNotGroup(p: Planner, g: NotGroup, iter: Iter): void {
  planNegation(p, (found) => planQuery(p, g.body, 0, found), iter);
}

/**
 * Succeeds when `body` has no solution (topdown's evalNot). A NotStmt fails when its block
 * completes; that is the body's success only where the body succeeds at the block's own level.
 * Where it succeeds inside a scan or a BlockStmt (`not { input.xs[_] == 1 }`, `not data.r[k]`
 * over rules), which complete whatever their bodies do, each success sets a flag instead, and the
 * flag must stay undefined (as `every` and `or` are planned). The flag is set at every success,
 * those at the block's own level too; where nothing succeeds deeper, those are taken out again.
 */
function planNegation(p: Planner, body: (found: Iter) => void, iter: Iter): void {
  const block = p.openBlock();
  let flag: Local | undefined;
  let atTop: StmtOf<"AssignVarStmt">[] | undefined;
  p.vars.push();
  body(() => {
    const set = S.AssignVarStmt(p, p.bool(true), flag ?? -1);
    p.append(set);
    if (p.curr === block) (atTop ??= []).push(set);
    else set.stmt.target = flag ??= p.newLocal();
  });
  p.vars.pop();
  p.closeBlock(block);
  if (flag === undefined) {
    if (atTop) block.stmts = withoutStmts(block.stmts, atTop);
    p.append(S.NotStmt(p, block));
    return iter();
  }
  for (const set of atTop ?? []) set.stmt.target = flag;
  p.append(S.ResetLocalStmt(p, flag));
  p.append(S.BlockStmt(p, [block]));
  p.append(S.IsUndefinedStmt(p, flag));
  iter();
}

/** `stmts` without `drop` (statements of it, in order): most often its last one, dropped in place. */
function withoutStmts(stmts: Stmt[], drop: readonly Stmt[]): Stmt[] {
  if (drop.length === 1 && stmts[stmts.length - 1] === drop[0]) {
    stmts.pop();
    return stmts;
  }
  return stmts.filter((s) => !drop.includes(s));
}

/** `a or b`: defined when either operand body is; `a and b`: when both are. */
function planExprLogical(p: Planner, l: LogicalExpr, iter: Iter): void {
  const flag = p.newLocal();
  p.append(S.ResetLocalStmt(p, flag));
  const branch = (bodies: Body[]): Block => {
    const block = p.openBlock();
    p.vars.push();
    const rec = (i: number): void => {
      if (i >= bodies.length) {
        p.append(S.AssignVarStmt(p, p.bool(true), flag));
        return;
      }
      planQuery(p, bodies[i]!, 0, () => rec(i + 1));
    };
    rec(0);
    p.vars.pop();
    return p.closeBlock(block);
  };
  const blocks = l.type === "and" ? [branch([l.lhs, l.rhs])] : [branch([l.lhs]), branch([l.rhs])];
  p.append(S.BlockStmt(p, blocks));
  p.append(S.IsDefinedStmt(p, flag));
  iter();
}

export function isFunction(p: Planner, ref: Ref): boolean {
  const node = p.rules.lookup(ref);
  return node !== undefined && node.arity() > 0;
}

function planExprEvery(p: Planner, every: Every, iter: Iter): void {
  const cond0 = p.newLocal();
  const cond1 = p.newLocal();
  p.append(S.ResetLocalStmt(p, cond0));
  planTerm(p, every.domain, () => {
    // the domain must be a collection: each check breaks out of the guard, none makes it undefined
    const d = p.ltarget;
    const checks = [S.IsArrayStmt, S.IsObjectStmt, S.IsSetStmt].map((is): Block => ({ stmts: [is(p, d), S.BreakStmt(p, 1)] }));
    const guard: Block = { stmts: [S.BlockStmt(p, checks), S.BreakStmt(p, 1)] };
    p.append(S.BlockStmt(p, [guard]));
    planScan(p, every.key!, () => {
      p.append(S.ResetLocalStmt(p, cond1));
      const inner = p.openBlock();
      planUnifyLocal(p, p.ltarget, every.value, () => {
        planQuery(p, every.body, 0, () => {
          p.append(S.AssignVarStmt(p, p.bool(true), cond1));
        });
      });
      p.closeBlock(inner);
      p.append(S.BlockStmt(p, [inner]));
      p.append(S.IsUndefinedStmt(p, cond1));
      p.append(S.AssignVarStmt(p, p.bool(true), cond0));
    });
  });
  p.append(S.IsUndefinedStmt(p, cond0));
  iter();
}

function planExprCall(p: Planner, e: Expr, terms: Term[], iter: Iter): void {
  const opTerm = terms[0]!;
  if (opTerm.type !== "ref") throw p.error(`illegal call: operator ${opaTerm(opTerm)}`);
  const operator = p.operatorName(opTerm.value);
  if (operator === "eq") {
    planUnify(p, terms[1]!, terms[2]!, iter);
    return;
  }
  const operands = terms.slice(1);
  const replacement = p.mocks.lookup(operator);
  if (replacement) {
    if (replacement.type === "ref") {
      const r = replacement.value;
      if (!isRoot(r, DATA) && !isRoot(r, INPUT)) {
        const name = opaRef(r);
        const bi = p.input.builtins.get(name);
        if (!bi) throw p.error(`illegal replacement of operator "${operator}" by ${name}`);
        p.externs.set(name, bi);
        return planExprCallFunc(p, name, bi.arity, false, operands, NO_ARGS, iter);
      }
      const node = p.rules.lookup(r);
      if (node && node.arity() > 0) {
        p.mocks.push();
        const name = planNodeRules(p, node);
        p.mocks.pop();
        return planExprCallFunc(p, name, node.arity(), false, operands, p.callArgs(), iter);
      }
    }
    const bi = p.input.builtins.get(operator);
    if (bi) return planExprCallValue(p, replacement, bi.arity, operands, iter);
    const node = p.rules.lookup(opTerm.value);
    if (node) return planExprCallValue(p, replacement, node.arity(), operands, iter);
    throw p.error(`illegal replacement of operator "${operator}" by ${opaTerm(replacement)}`);
  }

  let name: string;
  let arity: number;
  let args: readonly Operand[] = NO_ARGS;
  let relation = false;
  let isVoid = false;
  const node = p.rules.lookup(opTerm.value);
  if (node && node.rulesOf().length > 0) {
    name = planNodeRules(p, node);
    arity = node.arity();
    args = p.callArgs();
  } else {
    const decl = p.input.builtins.get(operator);
    if (!decl) throw p.error(`illegal call: unknown operator "${operator}"`);
    relation = decl.relation;
    arity = decl.arity;
    isVoid = decl.result === undefined;
    name = operator;
    p.externs.set(operator, decl);
  }
  if (operands.length < arity || operands.length > arity + 1) {
    throw p.error(`illegal call: wrong number of operands: got ${operands.length}, want ${arity}`);
  }
  if (relation) return planExprCallRelation(p, name, arity, operands, args, iter);
  return planExprCallFunc(p, name, arity, isVoid, operands, args, iter);
}

function planExprCallRelation(p: Planner, name: string, arity: number, operands: Term[], args: readonly Operand[], iter: Iter): void {
  if (operands.length === arity) {
    planCallArgs(p, operands, args, (a) => {
      const target = p.newLocal();
      p.ltarget = p.local(target);
      p.append(S.CallStmt(p, name, a, target));
      const size = p.newLocal();
      p.append(S.LenStmt(p, p.local(target), size));
      const zero = p.newLocal();
      p.append(S.MakeNumberIntStmt(p, 0, zero));
      p.append(S.NotEqualStmt(p, p.local(size), p.local(zero)));
      iter();
    });
    return;
  }
  planCallArgs(p, operands.slice(0, -1), args, (a) => {
    const target = p.newLocal();
    p.ltarget = p.local(target);
    p.append(S.CallStmt(p, name, a, target));
    planScanValues(p, operands[operands.length - 1]!, iter);
  });
}

function planExprCallFunc(p: Planner, name: string, arity: number, isVoid: boolean, operands: Term[], args: readonly Operand[], iter: Iter): void {
  if (operands.length === arity) {
    planCallArgs(p, operands, args, (a) => {
      const target = p.newLocal();
      p.ltarget = p.local(target);
      p.append(S.CallStmt(p, name, a, target));
      if (!isVoid) p.append(S.NotEqualStmt(p, p.local(target), p.bool(false)));
      iter();
    });
  } else if (operands.length === arity + 1) {
    planCallArgs(p, operands.slice(0, -1), args, (a) => {
      const result = p.newLocal();
      p.append(S.CallStmt(p, name, a, result));
      planUnifyLocal(p, p.local(result), operands[operands.length - 1]!, iter);
    });
  } else {
    throw p.error("impossible replacement, arity mismatch");
  }
}

function planExprCallValue(p: Planner, value: Term, arity: number, operands: Term[], iter: Iter): void {
  if (operands.length === arity) {
    planCallArgs(p, operands, NO_ARGS, () => {
      p.ltarget = p.newOperand();
      planTerm(p, value, () => {
        p.append(S.NotEqualStmt(p, p.ltarget, p.bool(false)));
        iter();
      });
    });
  } else if (operands.length === arity + 1) {
    planCallArgs(p, operands.slice(0, -1), NO_ARGS, () => {
      p.ltarget = p.newOperand();
      planTerm(p, value, () => planUnifyLocal(p, p.ltarget, operands[operands.length - 1]!, iter));
    });
  } else {
    throw p.error("impossible replacement, arity mismatch");
  }
}

/** Plans the operands and calls `iter` with the call's args: `args` followed by the operands. */
function planCallArgs(p: Planner, terms: Term[], args: readonly Operand[], iter: (args: Operand[]) => void): void {
  planSeqOf(p, new CallArgsSeq(terms, args, iter));
}

/** The operands of a call, as a sequence (flat.ts), into `out` after the leading args. The args
 * stay in the plan: `out` is made at its final length (not filled by index from empty, which leaves
 * spare room), and handed on as it is when every operand is flat (written once, continued once). */
class CallArgsSeq implements Seq {
  readonly n: number;
  private readonly base: number;
  private readonly out: Operand[];
  /** Whether an operand was planned nested: it may continue once per block, each time with
   * other operands in `out`, so each continuation gets a copy. */
  private nested = false;

  constructor(
    private readonly terms: Term[],
    args: readonly Operand[],
    private readonly iter: (args: Operand[]) => void,
  ) {
    this.n = terms.length;
    this.base = args.length;
    this.out = new Array<Operand>(args.length + terms.length);
    for (let i = 0; i < args.length; i++) this.out[i] = args[i]!;
  }

  flat(p: Planner, i: number): boolean {
    return isFlatTerm(p, this.terms[i]!);
  }

  step(p: Planner, i: number, next: Iter, flat: boolean): void {
    if (!flat) this.nested = true;
    planOperand(p, this.terms[i]!, this.out, this.base + i, next, flat);
  }

  done(): void {
    this.iter(this.nested ? sealed(this.out) : this.out);
  }
}

/** A call's operand, into `out[at]` (`flat`: isFlatTerm said so already). */
function planOperand(p: Planner, t: Term, out: Operand[], at: number, next: Iter, flat: boolean): void {
  if (!flat) return planOperandNested(p, t, out, at, next);
  if (!planTermInline(p, t)) return;
  out[at] = p.ltarget;
  next();
}

function planOperandNested(p: Planner, t: Term, out: Operand[], at: number, next: Iter): void {
  planTerm(p, t, () => {
    out[at] = p.ltarget;
    next();
  });
}
