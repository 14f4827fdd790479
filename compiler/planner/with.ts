// Planning `with`: replacements of input and data paths become WithStmts (the originals saved
// first and restored around the rest of the query, as OPA's planner does), replacements of
// functions and built-ins become mocks, under which the affected funcs are planned anew (once per
// distinct set of the overrides that affect them: deps.ts).
import type { Expr, Ref, Term } from "../ast/nodes.js";
import type { Local, Operand } from "../ir/types.js";
import { userNames } from "../ast/terms.js";
import { opaRef, opaTerm } from "../ast/print.js";
import { varsOf } from "../ast/visit.js";
import { refKeys, type Override } from "./deps.js";
import { isFunction, planExpr } from "./exprs.js";
import { DATA, INPUT, type Iter, type Planner } from "./planner.js";
import * as S from "./stmts.js";
import { planTermSlice } from "./terms.js";

export function isRoot(ref: Ref, root: string): boolean {
  return ref[0]?.type === "var" && ref[0].value === root;
}

export function planWith(p: Planner, e: Expr, iter: Iter): void {
  const values: Term[] = [];
  const targets: Ref[] = [];
  const mocks = new Map<string, Term>();
  const captures: string[] = [];
  const mocked: Override[] = [];
  for (const w of e.with) {
    if (w.target.type !== "ref") throw p.error(`invalid with target ${opaTerm(w.target)}`);
    const v = w.target.value;
    if (!isFunction(p, v) && (isRoot(v, DATA) || isRoot(v, INPUT))) {
      values.push(w.value);
      targets.push(v);
      continue;
    }
    const name = opaRef(v);
    const term = captureLocals(p, w.value, captures);
    mocks.set(name, term);
    const fn = term.type === "ref" && isRoot(term.value, DATA) ? p.deps().functionText(term.value) : undefined;
    mocked.push({ id: `m:${name}=${fn ?? opaTerm(term)}`, keys: refKeys(v), mock: { name, term } });
  }
  planTermSlice(p, values, (locals) => {
    p.mocks.pushFrame(mocks);
    const paths: number[][] = [];
    const saveVars = new Set<string>();
    const dataRefs: Ref[] = [];
    for (const target of targets) {
      // (at its final length: it stays in the plan)
      const path = new Array<number>(target.length - 1);
      for (let i = 1; i < target.length; i++) {
        const t = target[i]!;
        if (t.type !== "string") throw p.error("invalid with target");
        path[i - 1] = p.getString(t.value);
      }
      paths.push(path);
      const head = (target[0] as { value: string }).value;
      saveVars.add(head);
      if (head === DATA) dataRefs.push(target);
    }
    const restore: [Local, Local][] = [];
    for (const v of [...saveVars].sort()) {
      const orig = p.vars.getOrEmpty(v);
      const save = p.newLocal();
      p.append(S.AssignVarStmt(p, p.local(orig), save));
      restore.push([orig, save]);
    }
    const shadowing = dataRefs.some((r) => p.rules.lookup(r) !== undefined) || mocks.size > 0;
    // what the generation's rules are planned anew for (deps.ts): the data over rules, the mocks
    const overrides: Override[] = [];
    if (shadowing) {
      for (const r of dataRefs) {
        const keys = refKeys(r);
        if (p.deps().hasRules(keys)) overrides.push({ id: `d:${opaRef(r)}`, keys, shadow: r });
      }
      overrides.push(...mocked);
    }
    const own = p.mocks.nested();
    const shadow = (): void => {
      if (!shadowing) return;
      p.funcs.push(captures, overrides, own);
      for (const r of dataRefs) p.rules.push(r);
    };
    const unshadow = (): void => {
      if (!shadowing) return;
      p.funcs.pop();
      for (let i = dataRefs.length - 1; i >= 0; i--) p.rules.pop(dataRefs[i]!);
    };
    shadow();
    planWithRec(p, e, targets, paths, locals, 0, () => {
      p.mocks.popFrame();
      unshadow();
      planWithUndoRec(p, restore, 0, () => {
        iter();
        p.mocks.pushFrame(mocks);
        shadow();
      });
    });
    p.mocks.popFrame();
    unshadow();
  });
}

function planWithRec(p: Planner, e: Expr, targets: Ref[], paths: number[][], values: Operand[], index: number, iter: Iter): void {
  if (index >= targets.length) {
    planExpr(p, { ...e, with: [] }, iter);
    return;
  }
  const block = p.openBlock();
  p.enter();
  planWithRec(p, e, targets, paths, values, index + 1, iter);
  p.leave();
  p.closeBlock(block);
  const head = (targets[index]![0] as { value: string }).value;
  p.append(S.WithStmt(p, p.vars.getOrEmpty(head), paths[index]!, values[index]!, block));
}

function planWithUndoRec(p: Planner, restore: [Local, Local][], index: number, iter: Iter): void {
  if (index >= restore.length) {
    iter();
    return;
  }
  const block = p.openBlock();
  planWithUndoRec(p, restore, index + 1, iter);
  p.closeBlock(block);
  const [orig, save] = restore[index]!;
  // The undo statement's path is empty. OPA's JSON has null there (Go's nil slice), which decodes
  // to the same []; written as [] the plan is in the decoded shape the code generator takes as it
  // is (a null would make prepare.ts copy the plan through the decoder), and its type holds.
  p.append(S.WithStmt(p, orig, [], p.local(save), block));
}

/** A mock replacement that refers to the caller's variables: each such variable gets a capture
 * name bound to its local here; funcs planned under the mock receive it as a param. */
function captureLocals(p: Planner, t: Term, captures: string[]): Term {
  const rename = new Map<string, string>();
  for (const v of varsOf(t)) {
    const l = p.vars.get(v);
    if (l === undefined || v === INPUT || v === DATA) continue;
    const c = `$capture${p.captureCount++}`;
    p.vars.put(c, l);
    rename.set(v, c);
    captures.push(c);
  }
  if (rename.size === 0) return t;
  return userNames([rename])(t);
}
