// Scan fusion: an existence check over a partial set — `some g in granted; input.a == g.a` after
// early exit — runs the test inside the set's generation instead of building the set and scanning
// it in Rego order:
//   x = P(l0, l1); ...; scan x (k, v) { B; r = c; break n }
//     →   ...; block { P's bodies, each SetAdd ret ← e replaced by B; r = c; break n' }
// P is a partial-set rule func ([MakeSet ret] bodies... [ReturnLocal ret]) whose locals are
// renamed into the consumer's (params to the call's args, the element to v, the rest fresh).
// It keeps the meaning because
//   - order and duplicates cannot be seen: B only tests (its locals are read nowhere after the
//     scan, nothing in it can fail with an error or has an effect) and its one way out of the scan
//     assigns the same constant, so the outcome is whether some element passes B;
//   - P and B raise no errors and have no effects (no builtin calls but comparisons, no func
//     calls, no conflicting assignments, no with), so evaluating P later, only in part or not at
//     all (when a statement between the call and the scan fails) changes nothing;
//   - only this call is replaced: P stays for its other callers (and its memoised value).
// A bounded size keeps the copies small (compile time stays linear, code size grows little).
import { OPERATOR_BUILTINS } from "../codegen/analysis/calls.js";
import { STMT_FIELDS } from "../ir/fields.js";
import type { Block, Func, Local, Operand, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import type { NameTable } from "./names.js";
import { at, block, everyStmt, mapBodies, mapLocals, maxLocal, mk, nestedBlocks, withBlocks } from "./stmts.js";
import { analyse } from "./uses.js";
import { assertNever } from "../../runtime/errors.js";

/** The most statements a fused copy may hold (the producer's bodies and each copy of the test). */
const MAX_FUSED = 120;

/** A producer: a partial-set rule func fit for fusion. */
interface Producer {
  func: Func;
  /** Its rule bodies (the blocks between MakeSet and ReturnLocal). */
  bodies: readonly Block[];
  /** Each SetAdd into the set, with its levels below its body block. */
  adds: Map<Stmt, number>;
  size: number;
  maxLocal: number;
}

/** Whether a statement can neither fail with an error nor have an effect (a conflict, a print). */
export function errorFree(s: Stmt): boolean {
  switch (s.type) {
    case "AssignVarStmt":
    case "AssignIntStmt":
    case "DotStmt":
    case "EqualStmt":
    case "NotEqualStmt":
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "LenStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "MakeSetStmt":
    case "NopStmt":
    case "ResetLocalStmt":
    case "ArrayAppendStmt":
    case "ObjectInsertStmt":
    case "SetAddStmt":
    case "ScanStmt":
    case "BlockStmt":
    case "NotStmt":
    case "BreakStmt":
      return true;
    case "CallStmt":
      return OPERATOR_BUILTINS.get(s.stmt.func)?.[1] === s.stmt.args.length;
    case "AssignVarOnceStmt":
    case "CallDynamicStmt":
    case "ObjectInsertOnceStmt":
    case "ObjectMergeStmt":
    case "ResultSetAddStmt":
    case "ReturnLocalStmt":
    case "WithStmt":
    case "IndexStmt":
    case "IncrementStmt":
    case "GroupAddStmt":
    case "GroupsStmt":
      return false;
    default:
      assertNever(s);
  }
}

/** The levels a statement adds for the breaks inside its nested blocks. */
function levels(s: Stmt): number {
  return s.type === "ScanStmt" ? 2 : 1;
}

/** Checks statements `depth` levels below the block they are checked for: each error-free,
 * accepted by `visit`, no break leaving that block. Returns how many there are (-1: refused). */
export function check(stmts: readonly Stmt[], depth: number, visit: (s: Stmt, depth: number) => boolean): number {
  let n = 0;
  for (const s of stmts) {
    n++;
    if (!errorFree(s) || !visit(s, depth)) return -1;
    if (s.type === "BreakStmt" && s.stmt.index > depth) return -1;
    for (const b of nestedBlocks(s)) {
      const m = check(b.stmts, depth + levels(s), visit);
      if (m < 0) return -1;
      n += m;
    }
  }
  return n;
}

/** The func as a producer, or undefined when it is not a partial set fit for fusion. */
function asProducer(f: Func): Producer | undefined {
  const ret = f.return;
  const blocks = f.blocks;
  const [make] = blocks[0]?.stmts ?? [];
  const [end] = blocks[blocks.length - 1]?.stmts ?? [];
  if (blocks.length < 3 || blocks[0]!.stmts.length !== 1 || make?.type !== "MakeSetStmt" || make.stmt.target !== ret) return undefined;
  if (blocks[blocks.length - 1]!.stmts.length !== 1 || end?.type !== "ReturnLocalStmt" || end.stmt.source !== ret) return undefined;
  const bodies = blocks.slice(1, -1);
  const adds = new Map<Stmt, number>();
  const params = new Set(f.params);
  const addsToRet = (s: Stmt): s is Stmt & { type: "SetAddStmt" } => s.type === "SetAddStmt" && s.stmt.set === ret;
  const visit = (s: Stmt, depth: number): boolean => {
    if (addsToRet(s)) {
      adds.set(s, depth);
      return !(s.stmt.value.type === "local" && s.stmt.value.value === ret);
    }
    // A SetAdd inside a not would change the not's outcome once replaced.
    if (s.type === "NotStmt" && !everyStmt(s.stmt.block.stmts, (t) => !addsToRet(t))) return false;
    let ok = true;
    forEachRead(s, (l) => (ok &&= l !== ret));
    forEachWrite(s, (l) => (ok &&= l !== ret && !params.has(l)));
    return ok;
  };
  let size = 0;
  for (const b of bodies) {
    const n = check(b.stmts, 0, visit);
    if (n < 0) return undefined;
    size += n;
  }
  if (adds.size === 0 || size > MAX_FUSED) return undefined;
  // Copied into a consumer, P's locals keep their values from an earlier run (in a loop).
  if (bodies.some((b) => readsUnassigned(b.stmts, params, (l) => l !== ret))) return undefined;
  return { func: f, bodies, adds, size, maxLocal: maxLocal(f) };
}

interface Test {
  /** B: the statements before the exit. */
  stmts: Stmt[];
  /** `r = c` and the break leaving the scan, if any. */
  exit: Stmt[];
  size: number;
}

/** The scan body as a test `B; r = c; break n` (n ≥ 1) or `B; r = c`, with B error-free, leaving
 * the scan only through that exit and not naming r; undefined for any other body. */
function asTest(body: readonly Stmt[]): Test | undefined {
  let end = body.length;
  const last = body[end - 1];
  if (last?.type === "BreakStmt") {
    if (last.stmt.index < 1) return undefined;
    end--;
  }
  const assign = body[end - 1];
  if (assign?.type !== "AssignVarStmt" || assign.stmt.source.type === "local") return undefined;
  const r = assign.stmt.target;
  const stmts = body.slice(0, end - 1);
  const n = check(stmts, 0, (s) => {
    let clean = true;
    forEachRead(s, (l) => (clean &&= l !== r));
    forEachWrite(s, (l) => (clean &&= l !== r));
    return clean;
  });
  if (n < 0) return undefined;
  return { stmts, exit: body.slice(end - 1), size: n + body.length - stmts.length };
}

/** Whether the statements read a local `watched` accepts that no statement before them (in their
 * list or an enclosing one) has assigned: its value would come from an earlier run. */
function readsUnassigned(stmts: readonly Stmt[], assigned: ReadonlySet<Local>, watched: (l: Local) => boolean): boolean {
  const mine = new Set(assigned);
  for (const s of stmts) {
    let bad = false;
    forEachRead(s, (l) => (bad ||= watched(l) && !mine.has(l)));
    if (bad) return true;
    const inner = new Set(mine);
    if (s.type === "ScanStmt") inner.add(s.stmt.key).add(s.stmt.value);
    for (const b of nestedBlocks(s)) if (readsUnassigned(b.stmts, inner, watched)) return true;
    // A scan may run no iteration; a with restores its local.
    if (s.type !== "ScanStmt" && s.type !== "WithStmt") forEachWrite(s, (l) => mine.add(l));
  }
  return false;
}

/** The statements with `by` added to each break that leaves the scan they were in (`depth`:
 * levels below its body). */
function deepened(stmts: readonly Stmt[], by: number, depth = 0): Stmt[] {
  return stmts.map((s) =>
    s.type === "BreakStmt"
      ? s.stmt.index > depth
        ? mk("BreakStmt", { ...s.stmt, index: s.stmt.index + by })
        : s
      : withBlocks(
          s,
          nestedBlocks(s).map((b) => block(b, deepened(b.stmts, by, depth + levels(s)))),
        ),
  );
}

/** The locals the statements and their nested statements read and write. */
function localsOf(stmts: readonly Stmt[]): { reads: Set<Local>; writes: Set<Local> } {
  const reads = new Set<Local>();
  const writes = new Set<Local>();
  everyStmt(stmts, (t) => {
    forEachRead(t, (l) => reads.add(l));
    forEachWrite(t, (l) => writes.add(l));
    return true;
  });
  return { reads, writes };
}

/** Each statement of the blocks by its position in analyse's numbering; undefined when a
 * statement object occurs twice or an IndexStmt (whose cases analyse does not number) is there. */
function positions(blocks: readonly Block[]): Map<Stmt, number> | undefined {
  const at = new Map<Stmt, number>();
  let pos = 0;
  const visit = (stmts: readonly Stmt[]): boolean =>
    stmts.every((s) => {
      if (at.has(s) || s.type === "IndexStmt") return false;
      at.set(s, pos++);
      return nestedBlocks(s).every((b) => visit(b.stmts));
    });
  return blocks.every((b) => visit(b.stmts)) ? at : undefined;
}

function fuseBody(blocks: Block[], body: Plan | Func, producers: ReadonlyMap<string, Producer>, names: NameTable | undefined): Block[] {
  if (blocks.every((b) => everyStmt(b.stmts, (s) => !(s.type === "CallStmt" && producers.has(s.stmt.func))))) return blocks;
  const posAt = positions(blocks);
  if (!posAt) return blocks;
  const facts = analyse(blocks, 1);
  let next = maxLocal(body) + 1;

  /** Whether the locals are read only inside the scan (at `pos`, top-level block `top`), not in
   * a later top-level block before being written there. */
  const unseen = (locals: Iterable<Local>, pos: number, top: number): boolean => {
    const uses = facts.uses[top]!;
    const end = facts.ends[pos]!;
    for (const l of locals) {
      const lo = uses.minRead(l);
      if (lo !== undefined && (lo < pos || uses.maxRead(l)! > end)) return false;
      if ((facts.lastExposed.get(l) ?? -1) > top) return false;
    }
    return true;
  };

  /** The scan at list index j fused with the call at i, or undefined when it may not be. */
  const tryFuse = (stmts: readonly Stmt[], i: number, top: number): [number, Stmt] | undefined => {
    const call = stmts[i]!;
    if (call.type !== "CallStmt") return undefined;
    const p = producers.get(call.stmt.func);
    if (!p || call.stmt.args.length !== p.func.params.length) return undefined;
    const args: Local[] = [];
    for (const a of call.stmt.args) {
      if (a.type !== "local") return undefined;
      args.push(a.value);
    }
    const x = call.stmt.result;
    for (let j = i + 1; j < stmts.length; j++) {
      const s = stmts[j]!;
      const { reads, writes } = localsOf([s]);
      if (s.type === "ScanStmt" && s.stmt.source === x) {
        const test = asTest(s.stmt.block.stmts);
        const pos = posAt.get(s)!;
        if (!test) return undefined;
        const inner = localsOf(s.stmt.block.stmts);
        // The body's reads of its own locals come after their writes (an element's test sees no
        // earlier element's values); x is not named in it, the element not assigned (P reads it).
        const { key, value } = s.stmt;
        if (inner.reads.has(x) || inner.writes.has(x) || inner.writes.has(key) || inner.writes.has(value)) return undefined;
        if (readsUnassigned(test.stmts, new Set(), (l) => inner.writes.has(l))) return undefined;
        writes.delete((test.exit[0]!.stmt as { target: Local }).target); // r: its constant is the outcome
        if (p.size + p.adds.size * test.size > MAX_FUSED || args.some((a) => writes.has(a))) return undefined;
        if (!unseen([x], pos, top) || !unseen(writes, pos, top)) return undefined;
        return [j, fuse(call, s, p, test)];
      }
      // Between the call and the scan: x untouched, the args unchanged.
      if (reads.has(x) || writes.has(x) || args.some((a) => writes.has(a))) return undefined;
    }
    return undefined;
  };

  const fuse = (call: Stmt & { type: "CallStmt" }, scan: Stmt & { type: "ScanStmt" }, p: Producer, test: Test): Stmt => {
    const offset = next;
    next += p.maxLocal + 1;
    const { key, value: v } = scan.stmt;
    const params = new Map(p.func.params.map((l, i) => [l, (call.stmt.args[i] as Operand & { type: "local" }).value]));
    // The element: the consumer's v when every SetAdd adds one local, which is no param.
    const values = new Set([...p.adds.keys()].map((s) => (s.type === "SetAddStmt" && s.stmt.value.type === "local" ? s.stmt.value.value : -1)));
    const [elem] = values.size === 1 ? [...values] : [-1];
    const rename = (l: Local): Local => params.get(l) ?? (l === elem ? v : l + offset);
    if (names) for (let l = 0; l <= p.maxLocal; l++) if (!params.has(l) && l !== elem) names.adopt(p.func, l, body, l + offset);
    const readsKey = key !== v && !everyStmt(test.stmts, (s) => {
      let no = true;
      forEachRead(s, (l) => (no &&= l !== key));
      return no;
    });
    // Leaving a body block goes on with the next body: a break to just after the scan (index 1)
    // leaves, with several bodies, a block around them all, one level more.
    const exitBreak = test.exit[1];
    const wrap = p.bodies.length > 1 && exitBreak?.type === "BreakStmt" && exitBreak.stmt.index === 1;
    const copy = (stmts: readonly Stmt[]): Stmt[] =>
      stmts.flatMap((s, i) => {
        const depth = p.adds.get(s);
        if (depth === undefined) return [mapLocals(s, rename, (b) => ({ stmts: copy(b.stmts) }))];
        const add = s as Stmt & { type: "SetAddStmt" };
        const here: Stmt[] = [];
        const value = add.stmt.value.type === "local" ? { type: "local" as const, value: rename(add.stmt.value.value) } : add.stmt.value;
        if (!(value.type === "local" && value.value === v)) here.push(mk("AssignVarStmt", { ...at(s), source: value, target: v }));
        if (readsKey) here.push(mk("AssignVarStmt", { ...at(s), source: { type: "local", value: v }, target: key }));
        // In place when the SetAdd ends its list (failing then ends the list as finishing it
        // does), else in a block of its own. A break leaving the scan leaves the copied bodies.
        const last = i === stmts.length - 1;
        here.push(...deepened([...test.stmts, ...test.exit], (last ? depth - 1 : depth) + (wrap ? 1 : 0)));
        return last ? here : [mk("BlockStmt", { ...at(s), blocks: [{ stmts: here }] })];
      });
    const fused = mk("BlockStmt", { ...at(scan), blocks: p.bodies.map((b) => ({ stmts: copy(b.stmts) })) });
    return wrap ? mk("BlockStmt", { ...at(scan), blocks: [{ stmts: [fused] }] }) : fused;
  };

  const visitList = (stmts: readonly Stmt[], top: number): Stmt[] => {
    const fused = new Map<number, Stmt>();
    const dropped = new Set<number>();
    for (let i = 0; i < stmts.length; i++) {
      const f = tryFuse(stmts, i, top);
      if (f) {
        dropped.add(i);
        fused.set(f[0], f[1]);
      }
    }
    const out: Stmt[] = [];
    stmts.forEach((s, i) => {
      if (dropped.has(i)) return;
      out.push(
        fused.get(i) ??
          withBlocks(
            s,
            nestedBlocks(s).map((b) => block(b, visitList(b.stmts, top))),
          ),
      );
    });
    return out;
  };

  return blocks.map((b, top) => block(b, visitList(b.stmts, top)));
}

export const scanFusion: Pass = {
  name: "scan-fusion",
  run(policy: Policy, names?: NameTable): Policy {
    const producers = new Map<string, Producer>();
    for (const f of policy.funcs.funcs) {
      const p = asProducer(f);
      if (p) producers.set(f.name, p);
    }
    if (producers.size === 0) return policy;
    return mapBodies(policy, (blocks, body) => fuseBody(blocks, body, producers, names));
  },
};
