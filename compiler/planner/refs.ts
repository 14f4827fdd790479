// Planning references. `input.a.b` and local refs are dots and scans; refs into `data` follow the
// rule trie: a prefix naming rules becomes a call of their func, base data a dot on the data
// local, a variable over rules one block per rule key plus a scan of base data, a bound variable
// a CallDynamic, and a whole subtree its "extent" (virtual documents merged over base data).
import type { Ref, Term } from "../ast/nodes.js";
import type { Block, Local, Operand } from "../ir/types.js";
import { varsOf } from "../ast/visit.js";
import { isFlatTerm, planSeqOf, type Seq } from "./flat.js";
import { DATA, INPUT, type Iter, type Planner } from "./planner.js";
import * as S from "./stmts.js";
import { planNodeRules, planRules } from "./rules.js";
import { planDot, planScan, planSet, planTerm, planUnifyLocal } from "./terms.js";
import type { RuleTrie } from "./trie.js";
import { hasVars } from "./vars.js";
import { assertNever } from "../../runtime/errors.js";

export function planRef(p: Planner, ref: Ref, iter: Iter): void {
  const head = ref[0]!;
  if (head.type !== "var") throw p.error("illegal ref: non-var head");
  if (head.value === DATA) {
    const virtual = p.rules.get(head);
    return planRefData(p, virtual, p.vars.getOrEmpty(DATA), 1, ref, 1, iter);
  }
  if (head.value === INPUT && ref.length === 1) p.append(S.IsDefinedStmt(p, p.vars.getOrEmpty(INPUT)));
  const l = p.vars.get(head.value);
  if (l === undefined) throw p.error(`illegal ref: unsafe head ${head.value}`);
  p.ltarget = p.local(l);
  planRefRec(p, ref, 1, iter);
}

/** The terms of `ref` from `index` on, from the current target: a dot for each term whose vars
 * are bound, a scan for the others. */
export function planRefRec(p: Planner, ref: Ref, index: number, iter: Iter): void {
  if (index >= ref.length) return iter(); // (often: a call of the rules the whole ref names)
  planSeqOf(p, new RefSeq(ref, iter), index);
}

/** The terms of a ref, as a sequence (flat.ts): a dot for each term whose vars are bound, a scan
 * for the others. */
class RefSeq implements Seq {
  readonly n: number;

  constructor(
    private readonly ref: Ref,
    private readonly iter: Iter,
  ) {
    this.n = ref.length;
  }

  flat(p: Planner, i: number): boolean {
    const t = this.ref[i]!;
    return !unseenVars(p, t) && isFlatTerm(p, t);
  }

  step(p: Planner, i: number, next: Iter): void {
    const t = this.ref[i]!;
    if (!unseenVars(p, t)) planDot(p, t, next);
    else planScan(p, t, next);
  }

  done(): void {
    this.iter();
  }
}

function unseenVars(p: Planner, t: Term): boolean {
  switch (t.type) {
    case "string":
    case "number":
    case "boolean":
    case "null":
      return false;
    case "var":
      return p.vars.get(t.value) === undefined;
    case "object":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      for (const v of varsOf(t)) if (p.vars.get(v) === undefined) return true;
      return false;
    default:
      assertNever(t);
  }
}

/** Plans `ref` from `index` on, below the trie node `virtual` (undefined: base data only). The
 * base document read so far is `ref[from..index)` below the local `base` (a slice made only
 * where base data is read: most refs into data name rules). */
function planRefData(p: Planner, virtual: RuleTrie | undefined, base: Local, from: number, ref: Ref, index: number, iter: Iter): void {
  // terms without vars (not even a ref's head) below no rules only extend the base path: a loop,
  // not a recursion per term
  while (index < ref.length && (index > 1 || !virtual) && !hasVars(ref[index]!)) {
    const child = virtual?.get(ref[index]!);
    if (child !== undefined && child.rulesOf().length > 0) break;
    virtual = child;
    index++;
  }
  if (index >= ref.length) return planRefDataExtent(p, virtual, base, ref.slice(from, index), iter);

  if (index === 1 && virtual) {
    const opt = optimizeLookup(p, virtual, ref);
    if (opt) {
      if (opt.ruleNodes.length === 0) return planRefData(p, undefined, base, from, ref, 1, iter);
      return planRefDataDynamic(p, opt, ref, iter);
    }
  }

  const term = ref[index]!;
  if (!hasVars(term)) {
    const vchild = virtual?.get(term);
    if (vchild !== undefined && vchild.rulesOf().length > 0) {
      const target = p.newLocal();
      p.ltarget = p.local(target);
      const name = planNodeRules(p, vchild);
      p.append(S.CallStmt(p, name, p.callArgs(), target));
      return planRefRec(p, ref, index + 1, iter);
    }
    return planRefData(p, vchild, base, from, ref, index + 1, iter);
  }
  planRefDataVar(p, virtual, base, from, ref, index, iter);
}

// The branches of planRefData that plan through continuations are functions of their own: V8
// gives a function whose closures capture its parameters a context object at every call, and
// planRefData is called for every ref into data (mostly down the plain path above).

/** OPA's CallDynamic optimisation (see optimizeLookup): the funcs the ref may name, called by
 * path, or else the ref planned as dots on data. */
function planRefDataDynamic(p: Planner, opt: DynamicLookup, ref: Ref, iter: Iter): void {
  for (const node of opt.ruleNodes) planNodeRules(p, node);
  const target = p.newLocal();
  const callDyn: Block = {
    stmts: [S.CallDynamicStmt(p, [p.vars.getOrEmpty(INPUT), p.vars.getOrEmpty(DATA)], opt.path, target), S.BreakStmt(p, 1)],
  };
  const dotBlock = p.openBlock();
  p.ltarget = p.varOperand(DATA);
  // (the terms up to opt.index are strings and bound vars: dots, planned in dotBlock itself)
  planRefRec(p, ref.slice(0, opt.index + 1), 1, () => {
    p.append(S.AssignVarStmt(p, p.ltarget, target));
    p.append(S.BreakStmt(p, 1));
    p.closeBlock(dotBlock);
    p.ltarget = p.local(target);
    const lookup = S.BlockStmt(p, [{ stmts: [S.BlockStmt(p, [callDyn, dotBlock]), S.BreakStmt(p, 2)] }]);
    const outer = p.openBlock();
    p.append(lookup);
    planRefRec(p, ref, opt.index + 1, iter);
    p.closeBlock(outer);
    p.append(S.BlockStmt(p, [outer]));
  });
}

/** A term with vars at `index`: one block per rule key that unifies with it, then a scan of the
 * base data at the keys no rule has. */
function planRefDataVar(p: Planner, virtual: RuleTrie | undefined, base: Local, from: number, ref: Ref, index: number, iter: Iter): void {
  const term = ref[index]!;
  const exclude: Term[] = [];
  if (virtual) {
    const keys = virtual.childKeys();
    // (at its final length: it stays in the plan)
    const blocks = new Array<Block>(keys.length);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const block = p.openBlock();
      exclude.push(key);
      p.vars.push();
      planTerm(p, key, () =>
        planUnifyLocal(p, p.ltarget, term, () => {
          const cpy = [...ref];
          cpy[index] = key;
          planRefData(p, virtual, base, from, cpy, index, iter);
        }),
      );
      p.vars.pop();
      blocks[k] = p.closeBlock(block);
    }
    p.append(S.BlockStmt(p, blocks));
  }

  if (exclude.length > 0) {
    let lexclude: Operand | undefined;
    planSet(p, exclude, () => {
      lexclude = p.ltarget;
    });
    p.ltarget = p.local(base);
    planRefRec(p, ref.slice(from, index), 0, () =>
      planScan(p, term, (lkey) => {
        const ignore = p.newLocal();
        p.append(S.NotStmt(p, { stmts: [S.DotStmt(p, lexclude!, p.local(lkey), ignore)] }));
        planRefData(p, undefined, (p.ltarget as { value: Local }).value, index + 1, ref, index + 1, iter);
      }),
    );
    return;
  }

  p.ltarget = p.local(base);
  planRefRec(p, ref.slice(from, index + 1), 0, () => planRefData(p, undefined, (p.ltarget as { value: Local }).value, index + 1, ref, index + 1, iter));
}

/** The whole document at the trie node `virtual` (rules' values merged over the base data at
 * `path` below the local `base`; base undefined: the rules' only). */
function planRefDataExtent(p: Planner, virtual: RuleTrie | undefined, base: Local | undefined, path: Term[], iter: Iter): void {
  const vtarget = p.newLocal();
  if (virtual) {
    p.append(S.MakeObjectStmt(p, vtarget));
    const keys = virtual.childKeys();
    if (keys.some(hasVars)) {
      const rules = keys.flatMap((k) => virtual.get(k)?.rulesOf() ?? []);
      const refs = keys.flatMap((k) => virtual.get(k)?.refsOf() ?? []);
      const name = planRules(p, rules, refs);
      const b: Block = { stmts: [S.CallStmt(p, name, p.callArgs(), vtarget)] };
      p.append(S.BlockStmt(p, [b]));
    } else {
      for (const key of keys) {
        const child = virtual.get(key)!;
        if (child.arity() > 0) continue;
        const rules = child.rulesOf();
        planTerm(p, key, () => {
          const lkey = p.ltarget;
          if (rules.length === 0) {
            planRefDataExtent(p, child, undefined, NO_PATH, () => {
              p.append(S.ObjectInsertStmt(p, vtarget, lkey, p.ltarget));
            });
            return;
          }
          const lvalue = p.newLocal();
          const name = planNodeRules(p, child);
          const b: Block = { stmts: [S.CallStmt(p, name, p.callArgs(), lvalue), S.ObjectInsertStmt(p, vtarget, lkey, p.local(lvalue))] };
          p.append(S.BlockStmt(p, [b]));
        });
      }
    }
    if (base === undefined) {
      p.ltarget = p.local(vtarget);
      return iter();
    }
  }
  const inner = p.openBlock();
  p.ltarget = p.local(base!);
  let target = p.newLocal();
  planRefRec(p, path, 0, () => {
    if (!virtual) target = (p.ltarget as { value: Local }).value;
    else p.append(S.ObjectMergeStmt(p, (p.ltarget as { value: Local }).value, vtarget, target));
    p.append(S.BreakStmt(p, 1));
  });
  p.closeBlock(inner);
  const outer: Block = { stmts: [S.BlockStmt(p, [inner]), virtual ? S.AssignVarStmt(p, p.local(vtarget), target) : S.BreakStmt(p, 1)] };
  p.append(S.BlockStmt(p, [outer]));
  p.ltarget = p.local(target);
  iter();
}

const NO_PATH: Term[] = [];

function hasVarTerm(ref: Ref): boolean {
  for (let i = 1; i < ref.length; i++) if (ref[i]!.type === "var") return true;
  return false;
}

/** OPA's CallDynamic optimisation: possible when every var of the ref is already bound and the
 * trie below it leads only to rule sets (no rules met on the way down). */
interface DynamicLookup {
  /** The trie nodes whose rule sets the ref may name. */
  ruleNodes: RuleTrie[];
  path: Operand[];
  index: number;
}

function optimizeLookup(p: Planner, t: RuleTrie, ref: Ref): DynamicLookup | undefined {
  // only a var makes the lookup dynamic (most refs into data have none: then nothing to look at)
  if (!hasVarTerm(ref)) return undefined;
  return dynamicLookup(p, t, ref);
}

function dynamicLookup(p: Planner, t: RuleTrie, ref: Ref): DynamicLookup | undefined {
  let nodes: RuleTrie[] = [t];
  let opt = false;
  let index = 0;
  outer: for (let i = 1; i < ref.length; i++) {
    index = i;
    const r = ref[i]!;
    if (r.type === "var") {
      if (p.vars.get(r.value) === undefined) return undefined;
      opt = true;
      const next: RuleTrie[] = [];
      for (const n of nodes) {
        if (n.rulesOf().length > 0) return undefined;
        for (const k of n.childKeys()) next.push(n.get(k)!);
      }
      nodes = next;
    } else if (r.type === "string") {
      // each node goes to its child at `r`, if any: in place, not a new list per string term
      let kept = 0;
      for (let j = 0; j < nodes.length; j++) {
        const n = nodes[j]!;
        if (n.rulesOf().length > 0) return undefined;
        const c = n.get(r);
        if (c) nodes[kept++] = c;
      }
      nodes.length = kept;
    } else {
      return undefined;
    }
    // stop when no node has a child relevant to the next term
    let relevant = 0;
    if (i < ref.length - 1) {
      const nt = ref[i + 1]!;
      for (const n of nodes) relevant += nt.type === "var" ? n.childCount() : n.get(nt) ? 1 : 0;
    }
    if (relevant === 0) break;
    // at the penultimate term, rules with vars in their refs end the descent
    if (index === ref.length - 2) {
      for (const n of nodes) if (n.refsOf().some((ruleRef) => !ruleRef.every((x, j) => j === 0 || !hasVars(x)))) break outer;
    }
  }
  if (!opt) return undefined;
  const ruleNodes: RuleTrie[] = [];
  for (const n of nodes) {
    if (index === ref.length - 1 && n.rulesOf().length === 0 && n.childCount() > 0) return undefined;
    if (n.rulesOf().length > 0) ruleNodes.push(n);
  }
  if (ruleNodes.length === 0) return { ruleNodes, path: [], index };
  // (at its final length, the terms up to `index` being vars and strings: it stays in the plan)
  const path = new Array<Operand>(index + 1);
  path[0] = p.stringOperand(`g${p.funcs.gen()}`);
  for (let i = 1; i <= index; i++) {
    const r = ref[i]!;
    path[i] = r.type === "var" ? p.local(p.vars.get(r.value)!) : p.stringOperand((r as { value: string }).value);
  }
  return { ruleNodes, path, index };
}
