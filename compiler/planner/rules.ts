// Planning the rules at one path into one func (`g0.data.pkg.p`), once per generation: complete
// rules (with else chains and a default), multi-value rules (a set), rules whose refs go deeper
// than the func's path (an object built key by key, creating nested objects and sets on demand),
// and functions (params unified with the head arguments).
import type { Ref, Rule, Term } from "../ast/nodes.js";
import type { Block, Func, Local, Operand } from "../ir/types.js";
import { opaRef } from "../ast/print.js";
import { planQuery } from "./exprs.js";
import { firstNonString, sealed, type Planner } from "./planner.js";
import * as S from "./stmts.js";
import { planTerm, planUnifyLocal } from "./terms.js";
import { isFlatTerm, isFlatUnifyLocal, planSeq } from "./flat.js";
import { swapShadows, type FuncFrame, type RuleTrie } from "./trie.js";

const NO_PARAMS: Local[] = [];

function isMultiValue(r: Rule): boolean {
  return r.head.key !== undefined && r.head.value === undefined;
}

/** A rule set, ordered and measured for planning (see ruleSetOf). */
export interface RuleSet {
  rules: Rule[];
  refs: Ref[];
  /** The terms of the func's path (the refs' common prefix of strings). */
  pieces: number;
  /** Some ref goes deeper than the path: the func builds an object. */
  buildObject: boolean;
  /** The func's path as text (`data.pkg.p`). */
  path: string;
  /** The name of the func planned for these rules in the generation `frame` (FuncStack.top):
   * a generation's names never change, and most references to rules are in generation 0, so
   * this answers them without a look-up by path. */
  frame: object | undefined;
  name: string | undefined;
}

/** Plans the rules (gathered from several trie nodes, a fresh array at each call: nothing to keep
 * their rule set by) if not planned in this generation; returns the name. */
export function planRules(p: Planner, unsorted: Rule[], unsortedRefs: Ref[]): string {
  return planRuleSetOnce(p, ruleSet(unsorted, unsortedRefs));
}

/** Plans the rules of trie node `node` if not planned in this generation, the rule set kept on the
 * node (every reference to one node's rules comes with the node); returns the name. */
export function planNodeRules(p: Planner, node: RuleTrie): string {
  return planRuleSetOnce(p, (node.ruleSet ??= ruleSet(node.rulesOf(), node.refsOf())));
}

function planRuleSetOnce(p: Planner, set: RuleSet): string {
  const frame = p.funcs.top();
  const current = p.funcs.current();
  // In a mock's replacement function the mocks around are not in effect, only the shadows: its
  // funcs are those of the shared generation of the shadows that affect them.
  if (current.shared && current.gen !== 0 && p.mocks.nested()) {
    const shadows = current.overrides.filter((o) => o.shadow !== undefined);
    return planShared(p, set, p.funcs.shared(p.deps().affecting(set.rules, shadows)));
  }
  if (set.frame === frame) return set.name!;
  const name = p.funcs.get(set.path) ?? planInGeneration(p, set);
  set.frame = frame;
  set.name = name;
  return name;
}

/** Plans a rule set not planned in the current generation. In a `with`'s generation, only the
 * overrides that affect the rules (deps.ts) matter: the func is the one of the shared generation
 * of those (generation 0 for none), planned there once. A generation of its own (captures, or a
 * `with` within a mock's replacement) shares only generation 0. */
function planInGeneration(p: Planner, set: RuleSet): string {
  const current = p.funcs.current();
  if (current.gen === 0) return planNewRuleSet(p, set);
  // (a generation with captures: its funcs' calls pass them, which generation 0's do not take)
  if (current.captures.length > 0) return planNewRuleSet(p, set);
  const affecting = p.deps().affecting(set.rules, current.overrides);
  if (!current.shared && affecting.length > 0) return planNewRuleSet(p, set);
  const target = p.funcs.shared(affecting);
  if (target === current) return planNewRuleSet(p, set);
  const name = planShared(p, set, target);
  p.funcs.add(set.path, name);
  return name;
}

/** The rule set's func in the shared generation `target`, planned in its scope (its shadows and
 * mocks alone) if not yet. */
function planShared(p: Planner, set: RuleSet, target: FuncFrame): string {
  const known = target.pairs.get(set.path);
  if (known !== undefined) return known;
  const shadows: Ref[] = [];
  const mocked = new Map<string, Term>();
  for (const o of target.overrides) {
    if (o.shadow) shadows.push(o.shadow);
    if (o.mock) mocked.set(o.mock.name, o.mock.term);
  }
  const shadowed = swapShadows(p.rules, shadows);
  const base = p.funcs.shared([]);
  const funcs = p.funcs.swap(target === base ? [base] : [base, target]);
  const mocks = p.mocks.swap([mocked.size > 0 ? [mocked] : []]);
  const name = planRuleSetOnce(p, set);
  p.mocks.swap(mocks);
  p.funcs.swap(funcs);
  swapShadows(p.rules, shadowed);
  return name;
}

/** Plans a rule set not planned in this generation (now or later, see Planner.planRuleSet);
 * returns the func's name. */
function planNewRuleSet(p: Planner, set: RuleSet): string {
  const name = `g${p.funcs.gen()}.${set.path}`;
  p.planRuleSet(set, name);
  return name;
}

/** The rule set of `unsorted`, whose full refs are `unsortedRefs` (same order). */
function ruleSet(unsorted: Rule[], unsortedRefs: Ref[]): RuleSet {
  // longer refs first: a shallower rule's value then conflicts with what deeper rules inserted
  let rules: Rule[];
  let refs: Ref[];
  if (sameLengths(unsortedRefs)) {
    // already in order (nearly always: one rule, or rules of one path): the lists themselves (a
    // node's, or made for this set: neither changes once planning starts)
    rules = unsorted;
    refs = unsortedRefs;
  } else {
    const sorted = unsorted.map((r, i) => ({ r, i, ref: unsortedRefs[i]! })).sort((a, b) => b.ref.length - a.ref.length || a.i - b.i);
    rules = sorted.map((x) => x.r);
    refs = sorted.map((x) => x.ref);
  }
  const pathRef = refs[0]!;
  let pieces = pathRef.length;
  for (const ref of refs) {
    const cut = firstNonString(ref);
    if (cut >= 0 && cut < pieces) pieces = cut;
  }
  const buildObject = refs.some((ref) => ref.length !== pieces);
  // (the ref itself when it is the path, as nearly always)
  const path = opaRef(pieces === pathRef.length ? pathRef : pathRef.slice(0, pieces));
  return { rules, refs, pieces, buildObject, path, frame: undefined, name: undefined };
}

function sameLengths(refs: Ref[]): boolean {
  for (let i = 1; i < refs.length; i++) if (refs[i]!.length !== refs[0]!.length) return false;
  return true;
}

/** Plans the func of a rule set (see planRules), named `name` (the string its callers got: one
 * string per func, compared by identity where calls are looked up). */
export function planFunc(p: Planner, set: RuleSet, name: string): void {
  const { rules, refs, pieces, buildObject, path } = set;
  const pathRef = refs[0]!;
  const savedTarget = p.ltarget;
  const savedNext = p.lnext;
  const savedLoc = p.loc;
  const savedNames = p.names;
  p.names = [];
  p.lnext = 0;
  p.loc = rules[0]!.head.location;
  const gen = p.funcs.gen();
  // (arrays made at their final length: they stay in the plan, and an array grown by push keeps
  // spare room)
  const funcPath = new Array<string>(pieces);
  funcPath[0] = `g${gen}`;
  for (let i = 1; i < pieces; i++) funcPath[i] = (pathRef[i] as { value: string }).value;
  // params: input, data, the generation's captures, the function's arguments (the return local
  // is made between data and the captures)
  const captures = p.funcs.captures();
  const nargs = rules[0]!.head.args?.length ?? 0;
  const allParams = new Array<Local>(2 + captures.length + nargs);
  allParams[0] = p.newLocal();
  allParams[1] = p.newLocal();
  const multi = isMultiValue(rules[0]!);
  // (the func's blocks at their final length: a list grown by push keeps spare room, and the
  // plan keeps every func's list)
  const fnBlocks = new Array<Block>(funcBlockCount(rules, buildObject, multi));
  let nblocks = 0;
  const fn: Func = {
    name,
    params: allParams,
    return: p.newLocal(),
    blocks: fnBlocks,
    path: funcPath,
  };
  for (let i = 2; i < allParams.length; i++) allParams[i] = p.newLocal();
  const params: Local[] = nargs > 0 ? allParams.slice(2 + captures.length) : NO_PARAMS;
  // (a function's params are named by its rules' args: planArgs; its value by the rule)
  for (const l of params) p.names[l] = undefined;
  p.names[fn.return] = funcPath[pieces - 1];
  if (buildObject) fnBlocks[nblocks++] = { stmts: [S.MakeObjectStmt(p, fn.return)] };
  else if (multi) fnBlocks[nblocks++] = { stmts: [S.MakeSetStmt(p, fn.return)] };
  const lresult = p.newLocal();
  const lnext = p.lnext;
  let defaultRule: Rule | undefined;
  const ruleLoc = p.loc;

  for (let i = 0; i < rules.length; i++) {
    const top = rules[i]!;
    if (top.default) {
      defaultRule = top;
      continue;
    }
    // an else chain's blocks go in a block of their own
    let chain: { blocks: Block[] } | undefined;
    if (top.else) {
      const stmt = S.BlockStmt(p, []);
      fnBlocks[nblocks++] = { stmts: [stmt] };
      chain = stmt.stmt;
    }
    let prev: Rule | undefined;
    for (let rule: Rule | undefined = top; rule; prev = rule, rule = rule.else) {
      p.loc = rule.head.location;
      p.lnext = lnext;
      // each body (rule, else, default) starts from the params alone
      p.vars.enterFunc(fn.params, captures);
      const curr = p.openBlock();
      if (chain) chain.blocks.push(curr);
      else fnBlocks[nblocks++] = curr;
      if (prev) p.append(S.IsUndefinedStmt(p, lresult));
      else p.append(S.ResetLocalStmt(p, lresult));
      const r = rule;
      const fullRef = refs[i]!;
      planParams(p, params, r.head.args ?? [], 0, () =>
        planQuery(p, r.body, 0, () => {
          if (buildObject) return planObjectInsert(p, fn.return, fullRef.slice(pieces), r);
          if (isMultiValue(r)) return planTerm(p, r.head.key!, () => p.append(S.SetAddStmt(p, fn.return, p.ltarget)));
          planTerm(p, r.head.value!, () => p.append(S.AssignVarOnceStmt(p, lresult, p.ltarget)));
        }),
      );
      p.vars.leaveFunc();
      p.closeBlock(curr);
    }
    if (!isMultiValue(top) && !buildObject) {
      const defined: Block = { stmts: [S.IsDefinedStmt(p, lresult), S.AssignVarOnceStmt(p, fn.return, p.local(lresult))] };
      if (chain) chain.blocks.push(defined);
      else fnBlocks[nblocks++] = defined;
    }
    // an else chain's blocks, complete: at their final length (see sealed)
    if (chain) chain.blocks = sealed(chain.blocks);
  }

  if (defaultRule) {
    const d = defaultRule;
    p.loc = d.head.location;
    p.lnext = lnext;
    p.vars.enterFunc(fn.params, captures);
    const block = p.openBlock();
    fnBlocks[nblocks++] = block;
    p.append(S.IsUndefinedStmt(p, fn.return));
    planParams(p, params, d.head.args ?? [], 0, () =>
      planQuery(p, d.body, 0, () => {
        p.loc = d.head.location;
        planTerm(p, d.head.value!, () => p.append(S.AssignVarOnceStmt(p, fn.return, p.ltarget)));
      }),
    );
    p.vars.leaveFunc();
    p.closeBlock(block);
  }

  p.loc = ruleLoc;
  fnBlocks[nblocks++] = { stmts: [S.ReturnLocalStmt(p, fn.return)] };
  if (nblocks !== fnBlocks.length) throw p.internalError("a func's blocks miscounted");
  p.funcList.push(fn);
  p.funcs.add(path, fn.name);
  p.localNames.funcs.set(fn.name, p.takeNames());
  p.names = savedNames;
  p.lnext = savedNext;
  p.ltarget = savedTarget;
  p.loc = savedLoc;
}

/** The number of blocks planFunc makes for a func of `rules`: the value's initial one (an
 * object's or a set's), per rule a block of its else chain or else its body and (for a single
 * value) its result's, the default's, and the return's. */
function funcBlockCount(rules: Rule[], buildObject: boolean, multi: boolean): number {
  let n = buildObject || multi ? 2 : 1;
  let hasDefault = false;
  for (const r of rules) {
    if (r.default) hasDefault = true;
    else n += r.else || isMultiValue(r) || buildObject ? 1 : 2;
  }
  return hasDefault ? n + 1 : n;
}

function planParams(p: Planner, params: Local[], args: Term[], idx: number, iter: () => void): void {
  if (idx >= args.length) return iter(); // (a rule, not a function: no closures to make)
  planArgs(p, params, args, idx, iter);
}

/** A function's params unified with its head's args. (Apart from planParams, which is called for
 * every rule: V8 gives a function whose closures capture its parameters a context at every call.) */
function planArgs(p: Planner, params: Local[], args: Term[], idx: number, iter: () => void): void {
  for (let i = idx; i < args.length; i++) {
    const a = args[i]!;
    p.nameLocal(params[i]!, a.type === "var" ? a.value : null);
  }
  planSeq(p, args.length, (i) => isFlatUnifyLocal(p, args[i]!), (i, next) => planUnifyLocal(p, p.local(params[i]!), args[i]!, next), iter, idx);
}

/** Inserts the rule's value at `keys` below the func's object (OPA's planNestedObjects and
 * planDotOr): intermediate objects, and the set of a multi-value rule, are looked up and created
 * when missing, then written back. */
function planObjectInsert(p: Planner, root: Local, keys: Term[], r: Rule): void {
  if (keys.length === 0) throw p.error("illegal rule: empty ref below the rule set's path");
  const lastKey = keys[keys.length - 1]!;
  if (isMultiValue(r)) {
    planNestedObjects(p, root, keys.slice(0, -1), (obj) =>
      planTerm(p, lastKey, () => {
        const key = p.ltarget;
        planTerm(p, r.head.key!, () => {
          const value = p.ltarget;
          planDotOr(p, obj, key, "MakeSetStmt", (set) => p.append(S.SetAddStmt(p, set, value)));
        });
      }),
    );
    return;
  }
  planTerm(p, r.head.value!, () => {
    const value = p.ltarget;
    planNestedObjects(p, root, keys.slice(0, -1), (obj) =>
      planTerm(p, lastKey, () => p.append(S.ObjectInsertOnceStmt(p, obj, p.ltarget, value))),
    );
  });
}

function planNestedObjects(p: Planner, obj: Local, keys: Term[], iter: (obj: Local) => void): void {
  if (!keys.every((k) => isFlatTerm(p, k))) return planNestedObjectsRec(p, obj, keys, 0, iter);
  // flat keys (the usual strings and vars): down in a loop, the write-backs in reverse after `iter`
  const path: { obj: Local; key: Operand; child: Local }[] = [];
  let parent = obj;
  for (const k of keys) {
    planTerm(p, k, () => undefined);
    const key = p.ltarget;
    const child = planDotOrOpen(p, parent, key, "MakeObjectStmt");
    path.push({ obj: parent, key, child });
    parent = child;
  }
  iter(parent);
  for (let i = path.length - 1; i >= 0; i--) {
    const { obj: o, key, child } = path[i]!;
    p.append(S.ObjectInsertStmt(p, o, key, p.local(child)));
  }
}

function planNestedObjectsRec(p: Planner, obj: Local, keys: Term[], idx: number, iter: (obj: Local) => void): void {
  if (idx === keys.length) return iter(obj);
  planTerm(p, keys[idx]!, () => {
    const key = p.ltarget;
    planDotOr(p, obj, key, "MakeObjectStmt", (child) => planNestedObjectsRec(p, child, keys, idx + 1, iter));
  });
}

/** `child = obj[key]`, or a fresh object/set when missing; `iter` fills it; then it is put back. */
function planDotOr(p: Planner, obj: Local, key: Operand, make: "MakeObjectStmt" | "MakeSetStmt", iter: (child: Local) => void): void {
  const child = planDotOrOpen(p, obj, key, make);
  iter(child);
  p.append(S.ObjectInsertStmt(p, obj, key, p.local(child)));
}

function planDotOrOpen(p: Planner, obj: Local, key: Operand, make: "MakeObjectStmt" | "MakeSetStmt"): Local {
  const child = p.newLocal();
  const lookup: Block = { stmts: [S.DotStmt(p, p.local(obj), key, child), S.BreakStmt(p, 1)] };
  const outer: Block = { stmts: [S.BlockStmt(p, [lookup]), make === "MakeObjectStmt" ? S.MakeObjectStmt(p, child) : S.MakeSetStmt(p, child)] };
  p.append(S.BlockStmt(p, [outer]));
  return child;
}
