// Rule indexing: the bodies of a rule set that test the same ref against constants are dispatched
// by an IndexStmt (a lookup made at load time, then a switch), so a decision runs only the bodies
// whose constants its input can match. Learnt from OPA's rule index (v1/ast/index.go), which
// indexes `ref = constant` and flat arrays of constants and vars; here, at the IR level:
//   - a unit is a top-level block of a func, with the `IsDefined r; AssignVarOnce ret ← r` block
//     that follows it when it resets r (a complete rule's body and its value);
//   - a unit's tests come from the statements its first block starts with that never raise an
//     error nor change anything but locals (lookups, data lookups, comparisons, constants, `in` on
//     a constant collection; ruleIndexUnits.ts): `ref == c`, `ref in {c1, c2}`, array patterns
//     (each constant element is a test of `ref[i]`); a ref is a param (input, data, a function's
//     argument) and constant keys;
//   - units whose locals are all their own (written before read; params and the return local
//     excepted) and that touch the return local only by accumulating into it (AssignVarOnce,
//     SetAdd, ObjectInsertOnce) commute: a run of them may be reordered and, when a test fails,
//     skipped (the skipped unit would have ended at that test, leaving locals nobody reads);
//   - of a run, the ref that leaves the fewest units to try (the units not testing it plus the
//     largest case) selects the case, if that is at most half the run; cases with many units are
//     indexed again on another ref;
//   - in a large func, the cases become funcs of their own (ruleIndexOutline.ts).
// Bodies not indexed run as before; the indexed ones run, in their order, at the place of the
// first. Values, undefinedness, conflicts and errors are kept (which of two errors is raised
// first may change, as OPA's evaluation order does). It belongs before an early-exit pass in
// PASSES: guards reading the return local make bodies unmovable.
import type { Block, Func, IndexCase, IndexValue, Local, Policy, Stmt, StmtLocation } from "../ir/types.js";
import type { Pass } from "./index.js";
import { OUTLINE_OVER, outlineCases } from "./ruleIndexOutline.js";
import { rootRefs, splitUnits, unitFlow, unitTests, type Ref, type Test, type Unit } from "./ruleIndexUnits.js";
import { maxLocal } from "./stmts.js";

/** The fewest units testing a ref for an index on it to pay (small rule sets stay as written). */
export const MIN_INDEXED = 4;

/** The pass; `outlineOver`: the size of a func whose cases are moved out (tests lower it). */
export function ruleIndexPass(outlineOver = OUTLINE_OVER): Pass {
  return { name: "rule-index", run: (policy) => indexPolicy(policy, outlineOver) };
}

export const ruleIndex: Pass = ruleIndexPass();

function indexPolicy(policy: Policy, outlineOver: number): Policy {
  let changed = false;
  // (A func of that name would be called instead of the builtin `in`.)
  const memberBuiltin = !policy.funcs.funcs.some((f) => f.name === "internal.member_2");
  const names = new Set(policy.funcs.funcs.map((f) => f.name));
  const funcs: Func[] = [];
  for (const f of policy.funcs.funcs) {
    const g = indexFunc(policy, f, memberBuiltin);
    if (g === f) {
      funcs.push(f);
      continue;
    }
    changed = true;
    const { func, added } = outlineCases(g, names, outlineOver);
    funcs.push(...added, func);
  }
  return changed ? { ...policy, funcs: { funcs } } : policy;
}

function indexFunc(policy: Policy, f: Func, memberBuiltin: boolean): Func {
  if (f.blocks.length < MIN_INDEXED) return f;
  const groups = splitUnits(f.blocks);
  const roots = rootRefs(f);
  const tests = groups.map((blocks) => unitTests(policy, f, roots, blocks[0]!, memberBuiltin));
  // Most funcs test no ref often enough: known before their bodies are walked whole.
  if (!testedBy(tests, MIN_INDEXED)) return f;
  const units: Unit[] = groups.map((blocks, i) => ({ blocks, tests: tests[i]!, ...unitFlow(f, blocks) }));
  const fresh: Fresh = { func: f, next: -1 };
  const out: Block[] = [];
  let changed = false;
  for (let i = 0; i < units.length; ) {
    if (!units[i]!.movable) {
      out.push(...units[i]!.blocks);
      i++;
      continue;
    }
    let j = i;
    while (j < units.length && units[j]!.movable) j++;
    // Skipping a unit leaves the locals it would have written before failing: only units that
    // read no local they did not write may follow.
    const run = units.slice(i, j);
    const indexed = units.slice(j).every((u) => u.selfContained) ? indexUnits(run, new Set(), fresh) : undefined;
    if (indexed) {
      out.push(...indexed);
      changed = true;
    } else for (const u of run) out.push(...u.blocks);
    i = j;
  }
  return changed ? { ...f, blocks: out } : f;
}

/** Whether some ref is tested by `n` units or more. */
function testedBy(tests: ReadonlyArray<ReadonlyMap<string, Test>>, n: number): boolean {
  const count = new Map<string, number>();
  for (const t of tests) {
    for (const id of t.keys()) {
      const c = (count.get(id) ?? 0) + 1;
      if (c >= n) return true;
      count.set(id, c);
    }
  }
  return false;
}

/** New locals of a func: after the largest it names (found when first needed). */
interface Fresh {
  func: Func;
  next: number;
}

function freshLocal(fresh: Fresh): Local {
  if (fresh.next < 0) fresh.next = maxLocal(fresh.func) + 1;
  return fresh.next++;
}

interface Choice {
  ref: Ref;
  /** Per unit of the run: its values of the ref, or undefined when it does not test it. */
  values: Array<readonly IndexValue[] | undefined>;
}

/** The ref to dispatch a run on (none used above it), if one pays. Linear in the run's tests. */
function choose(units: readonly Unit[], used: ReadonlySet<string>): Choice | undefined {
  const byRef = new Map<string, { ref: Ref; tested: number; perValue: Map<IndexValue, number> }>();
  for (const u of units) {
    for (const t of u.tests.values()) {
      if (used.has(t.ref.id)) continue;
      let r = byRef.get(t.ref.id);
      if (!r) byRef.set(t.ref.id, (r = { ref: t.ref, tested: 0, perValue: new Map() }));
      r.tested++;
      for (const v of t.values) r.perValue.set(v, (r.perValue.get(v) ?? 0) + 1);
    }
  }
  // An index pays when it at least halves the units a decision tries.
  let best: Ref | undefined;
  let bestScore = Math.floor(units.length / 2) + 1;
  for (const r of byRef.values()) {
    if (r.tested < MIN_INDEXED) continue;
    let largest = 0;
    for (const n of r.perValue.values()) largest = Math.max(largest, n);
    const score = units.length - r.tested + largest;
    if (score < bestScore) {
      best = r.ref;
      bestScore = score;
    }
  }
  return best && { ref: best, values: units.map((u) => u.tests.get(best.id)?.values) };
}

/** The blocks of a run, its units dispatched on the best ref (undefined: none pays). */
function indexUnits(units: readonly Unit[], used: ReadonlySet<string>, fresh: Fresh): Block[] | undefined {
  const choice = choose(units, used);
  if (!choice) return undefined;
  const { ref, values } = choice;
  // Values selecting the same units share a case; cases in the order of their first unit.
  const unitsOf = new Map<IndexValue, number[]>();
  values.forEach((vs, i) => {
    for (const v of vs ?? []) {
      const us = unitsOf.get(v);
      if (us) us.push(i);
      else unitsOf.set(v, [i]);
    }
  });
  const byUnits = new Map<string, { values: IndexValue[]; units: number[] }>();
  for (const [v, us] of unitsOf) {
    const k = us.join(",");
    const c = byUnits.get(k);
    if (c) c.values.push(v);
    else byUnits.set(k, { values: [v], units: us });
  }
  const inner = new Set(used).add(ref.id);
  const cases: IndexCase[] = [...byUnits.values()]
    .sort((a, b) => a.units[0]! - b.units[0]!)
    .map((c) => {
      const us = c.units.map((i) => units[i]!);
      return { values: c.values, blocks: indexUnits(us, inner, fresh) ?? us.flatMap((u) => u.blocks) };
    });
  const first = values.findIndex((vs) => vs !== undefined);
  const out: Block[] = [];
  units.forEach((u, i) => {
    if (i === first) out.push(indexBlock(ref, cases, units[first]!.blocks[0]!.stmts[0]!.stmt, fresh));
    else if (!values[i]) out.push(...u.blocks);
  });
  return out;
}

/** `key = ref; IndexStmt(key)`: the ref read as the units read it (an undefined step ends the
 * block, as no unit testing the ref can then succeed). */
function indexBlock(ref: Ref, cases: IndexCase[], at: StmtLocation, fresh: Fresh): Block {
  const loc = { file: at.file, row: at.row, col: at.col };
  const stmts: Stmt[] = [];
  let cur: Local = ref.root;
  for (const step of ref.path) {
    if (typeof step === "number") {
      const n = freshLocal(fresh);
      const target = freshLocal(fresh);
      stmts.push({ type: "MakeNumberIntStmt", stmt: { value: step, target: n, ...loc } });
      stmts.push({ type: "DotStmt", stmt: { source: { type: "local", value: cur }, key: { type: "local", value: n }, target, ...loc } });
      cur = target;
    } else {
      const target = freshLocal(fresh);
      stmts.push({ type: "DotStmt", stmt: { source: { type: "local", value: cur }, key: { type: "string_index", value: step.index }, target, ...loc } });
      cur = target;
    }
  }
  stmts.push({ type: "IndexStmt", stmt: { key: cur, cases, ref: ref.text, ...loc } });
  return { stmts };
}
