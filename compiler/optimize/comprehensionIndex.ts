// Comprehension indexing, as OPA's topdown does it (ast/compile.go buildComprehensionIndices,
// topdown/eval.go buildComprehensionCache): a comprehension inside a loop that filters its
// elements by an equality with one outer value K — `{d: count([u | some u in users; u.dept == d])
// | some d in departments}` — is evaluated once, its results grouped by the other side of the
// equality, and each outer iteration looks its group up (O(D+U) instead of O(D·U)):
//   c = [] | {} (set) | 0;  block { ...; X = ...; Equal(X, K); ...; ArrayAppend|SetAdd|Increment c }
//     →  c = ...;  block { IsUndefined g; g = {}; block { ...; X = ...; ...; GroupAdd(g, X, ...) } }
//                  block { t = g[K]; c = t }
// g is built at the first outer iteration that reaches the comprehension, as OPA builds its cache
// at the first lookup; a key with no group leaves c as the empty comprehension.
// It keeps the meaning because
//   - the comprehension reads nothing that changes while the function runs but the Ks: its other
//     free locals are params no statement writes (no `with` either), and each K is read only by
//     its equality (OPA: no unsafe vars, no ref or nested closure reading a key);
//   - grouping by X with Rego equality (the runtime's object keys: 1 and 1.0 are one key) selects
//     the elements the equality selects, in the same order;
//   - what runs before the (first) equality runs the same in both forms (errors included, at the
//     same first iteration); what runs after it, now for every element rather than for those
//     equal to K, can neither fail with an error nor have an effect;
//   - its locals are read nowhere outside it, and no break leaves it.
// Several outer values, each in an equality of its own in one list, key the groups by the array of
// their Xs (OPA indexes by every outer var the body binds). Only array and set comprehensions and
// counts (countForm's): an object comprehension's conflicts would be raised for groups no
// iteration looks up. Within one run of the function only (OPA's cache lasts the query, so it also
// serves a function called once per outer value).
import type { Block, Func, Local, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite, namesLocal } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { errorFree } from "./scanFusion.js";
import { at, block, leaves, mapBodies, maxLocal, mk, nestedBlocks, withBlocks } from "./stmts.js";

type Kind = "array" | "set" | "count";

/** The most keys a comprehension is indexed by (a group key of several is an array of them). */
const MAX_KEYS = 4;

/** The comprehension a statement starts (its result local and kind), if it makes an empty one. */
function start(s: Stmt): { c: Local; kind: Kind } | undefined {
  if (s.type === "MakeArrayStmt") return { c: s.stmt.target, kind: "array" };
  if (s.type === "MakeSetStmt") return { c: s.stmt.target, kind: "set" };
  if (s.type === "AssignIntStmt" && s.stmt.value === 0) return { c: s.stmt.target, kind: "count" };
  return undefined;
}

/** Whether `s` adds to comprehension `c` of the kind (and not `c` itself). */
function accumulates(s: Stmt, c: Local, kind: Kind): boolean {
  switch (s.type) {
    case "ArrayAppendStmt":
      return kind === "array" && s.stmt.array === c && !(s.stmt.value.type === "local" && s.stmt.value.value === c);
    case "SetAddStmt":
      return kind === "set" && s.stmt.set === c && !(s.stmt.value.type === "local" && s.stmt.value.value === c);
    case "IncrementStmt":
      return kind === "count" && s.stmt.target === c;
    default:
      return false;
  }
}

/** The list holding statement `e` (inside the blocks), and its position there. */
function findList(blocks: readonly Block[], e: Stmt): { list: readonly Stmt[]; i: number } | undefined {
  for (const b of blocks) {
    const i = b.stmts.indexOf(e);
    if (i >= 0) return { list: b.stmts, i };
    for (const s of b.stmts) {
      const found = findList(nestedBlocks(s), e);
      if (found) return found;
    }
  }
  return undefined;
}

interface Body {
  /** Statements naming each local, over the whole plan or func. */
  uses: Map<Local, number>;
  /** Params no statement writes: the same value throughout. */
  invariant: Set<Local>;
  /** A function's arguments (its invariant params but input and data). */
  args: Set<Local>;
  /** Whether the comprehension looked at is in a loop. */
  inScan: boolean;
  next: number;
  /** The policy's next groups slot (GroupsStmt). */
  slots: { next: number };
}

/** The statements replacing `init; comp` (comp a BlockStmt), or undefined when it cannot be indexed. */
function index(body: Body, init: Stmt, comp: Stmt & { type: "BlockStmt" }): Stmt[] | undefined {
  const started = start(init);
  if (started === undefined) return undefined;
  const { c, kind } = started;
  const blocks = comp.stmt.blocks;
  if (leaves(blocks.flatMap((b) => b.stmts), 1)) return undefined;

  // What the comprehension reads and writes, and how often it names each local.
  const reads = new Set<Local>();
  const writes = new Set<Local>();
  const inside = new Map<Local, number>();
  let accs = 0;
  let bad = false;
  forEachStmt(blocks, (s) => {
    const named = new Set<Local>();
    forEachRead(s, (l) => (reads.add(l), named.add(l)));
    forEachWrite(s, (l) => (writes.add(l), named.add(l)));
    for (const l of named) inside.set(l, (inside.get(l) ?? 0) + 1);
    if (named.has(c)) {
      if (accumulates(s, c, kind)) accs++;
      else bad = true;
    }
  });
  if (bad || accs === 0) return undefined;
  // The free locals that are not invariant: the keys K (in local order, the same for the build
  // and the lookups); else, in a function, the arguments it reads (its groups then last the
  // evaluation, as OPA's cache does, and serve every call).
  const free = [...reads].filter((l) => !writes.has(l)).sort((p, q) => p - q);
  let keys = free.filter((l) => !body.invariant.has(l));
  const byArgs = keys.length === 0;
  if (byArgs) keys = free.filter((l) => body.args.has(l));
  if (keys.length === 0 || keys.length > MAX_KEYS || (!byArgs && !body.inScan)) return undefined;
  // Each K's one reader: an equality with a local X the comprehension sets, all in one list.
  const eqs: Array<{ e: Stmt; x: Local; i: number }> = [];
  let list: readonly Stmt[] | undefined;
  for (const k of keys) {
    const readers: Stmt[] = [];
    forEachStmt(blocks, (s) => void (namesLocal(s, k) && readers.push(s)));
    const e = readers[0];
    if (readers.length !== 1 || e?.type !== "EqualStmt" || e.stmt.a.type !== "local" || e.stmt.b.type !== "local") return undefined;
    const x = e.stmt.a.value === k ? e.stmt.b.value : e.stmt.a.value;
    if (keys.includes(x) || x === c || !writes.has(x)) return undefined;
    const found = findList(blocks, e);
    if (found === undefined || (list !== undefined && found.list !== list)) return undefined;
    list = found.list;
    eqs.push({ e, x, i: found.i });
  }
  // The comprehension's locals (but c) are named nowhere else.
  for (const l of writes) if (l !== c && inside.get(l) !== body.uses.get(l)) return undefined;
  // After the first equality: nothing that can fail with an error or has an effect (but the other
  // equalities), no write of an X after its equality, and every addition after the last one.
  const first = Math.min(...eqs.map((q) => q.i));
  const last = Math.max(...eqs.map((q) => q.i));
  const removed = new Set(eqs.map((q) => q.e));
  list!.slice(first + 1).forEach((t, j) =>
    forEachStmt([{ stmts: [t] }], (s) => {
      if (accumulates(s, c, kind)) return void (first + 1 + j <= last && (bad = true));
      if (!removed.has(s) && !errorFree(s)) bad = true;
      forEachWrite(s, (l) => eqs.some((q) => q.x === l && q.i < first + 1 + j) && (bad = true));
    }),
  );
  if (bad) return undefined;
  let accsAfter = 0;
  forEachStmt([{ stmts: list!.slice(last + 1) }], (s) => void (accumulates(s, c, kind) && accsAfter++));
  if (accsAfter !== accs) return undefined;

  const loc = at(comp);
  const groups = body.next++;
  const found = body.next++;
  // One key: X itself; several: the array of the Xs, made where the last equality was.
  const key = keys.length === 1 ? eqs[0]!.x : body.next++;
  const tuple = (target: Local, of: readonly Local[]): Stmt[] => [
    mk("MakeArrayStmt", { ...loc, capacity: of.length, target }),
    ...of.map((l) => mk("ArrayAppendStmt", { ...loc, array: target, value: { type: "local", value: l } })),
  ];
  const lastEq = eqs.find((q) => q.i === last)!.e;
  const rewrite = (stmts: readonly Stmt[]): Stmt[] =>
    stmts.flatMap((s): Stmt[] => {
      if (s === lastEq && keys.length > 1) return tuple(key, eqs.map((q) => q.x));
      if (removed.has(s)) return [];
      if (accumulates(s, c, kind)) {
        const value = s.type === "ArrayAppendStmt" || s.type === "SetAddStmt" ? { value: s.stmt.value } : {};
        return [mk("GroupAddStmt", { ...at(s), groups, key, kind, ...value })];
      }
      const nb = nestedBlocks(s);
      return nb.length === 0 ? [s] : [withBlocks(s, nb.map((b) => block(b, rewrite(b.stmts))))];
    });
  const built = mk("BlockStmt", { ...comp.stmt, blocks: blocks.map((bl) => block(bl, rewrite(bl.stmts))) });
  let build: Stmt[];
  if (byArgs) {
    // The evaluation's groups, built when empty.
    const [size, zero] = [body.next++, body.next++];
    const test = [mk("LenStmt", { ...loc, source: { type: "local", value: groups }, target: size }), mk("MakeNumberIntStmt", { ...loc, value: 0, target: zero }), mk("EqualStmt", { ...loc, a: { type: "local", value: size }, b: { type: "local", value: zero } })];
    build = [mk("GroupsStmt", { ...loc, slot: body.slots.next++, target: groups }), mk("BlockStmt", { ...loc, blocks: [{ stmts: [...test, built] }] })];
  } else {
    build = [mk("BlockStmt", { ...loc, blocks: [{ stmts: [mk("IsUndefinedStmt", { ...loc, source: groups }), mk("MakeObjectStmt", { ...loc, target: groups }), built] }] })];
  }
  // The lookup (an undefined K: no group, as its equality fails).
  const lookupKey = keys.length === 1 ? keys[0]! : body.next++;
  const made = keys.length === 1 ? [] : [...keys.map((k) => mk("IsDefinedStmt", { ...loc, source: k })), ...tuple(lookupKey, keys)];
  const lookup = mk("BlockStmt", {
    ...loc,
    blocks: [{ stmts: [...made, mk("DotStmt", { ...loc, source: { type: "local", value: groups }, key: { type: "local", value: lookupKey }, target: found }), mk("AssignVarStmt", { ...loc, source: { type: "local", value: found }, target: c })] }],
  });
  return [init, ...build, lookup];
}

/** Whether some comprehension of the blocks could be indexed: one in a loop, or any in a function
 * of arguments (which it could be keyed by). */
function hasCandidate(blocks: readonly Block[], args: boolean): boolean {
  const list = (stmts: readonly Stmt[], inScan: boolean): boolean => {
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      if ((inScan || args) && stmts[i + 1]?.type === "BlockStmt" && start(s) !== undefined) return true;
      const scan = inScan || s.type === "ScanStmt";
      for (const b of nestedBlocks(s)) if (list(b.stmts, scan)) return true;
    }
    return false;
  };
  return blocks.some((b) => list(b.stmts, false));
}

function indexBody(blocks: Block[], fn: Plan | Func, slots: { next: number }): Block[] {
  if (!hasCandidate(blocks, "params" in fn && fn.params.length > 2)) return blocks;
  const uses = new Map<Local, number>();
  const written = new Set<Local>();
  forEachStmt(blocks, (s) => {
    const named = new Set<Local>();
    forEachRead(s, (l) => named.add(l));
    forEachWrite(s, (l) => (named.add(l), written.add(l)));
    for (const l of named) uses.set(l, (uses.get(l) ?? 0) + 1);
  });
  // (a plan's input and data are locals 0 and 1)
  const params = "params" in fn ? fn.params : [0, 1];
  const invariant = new Set(params.filter((p) => !written.has(p)));
  const body: Body = { uses, invariant, args: new Set(params.slice(2).filter((p) => invariant.has(p))), inScan: false, next: -1, slots };

  const rewriteList = (stmts: readonly Stmt[], inScan: boolean): Stmt[] => {
    const out: Stmt[] = [];
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      const next = stmts[i + 1];
      if (next?.type === "BlockStmt" && start(s) !== undefined) {
        if (body.next < 0) body.next = maxLocal(fn) + 1;
        body.inScan = inScan;
        const indexed = index(body, s, next);
        if (indexed) {
          out.push(...indexed);
          i++;
          continue;
        }
      }
      const nb = nestedBlocks(s);
      const scan = inScan || s.type === "ScanStmt";
      out.push(nb.length === 0 ? s : withBlocks(s, nb.map((b) => block(b, rewriteList(b.stmts, scan)))));
    }
    return out;
  };
  return blocks.map((b) => block(b, rewriteList(b.stmts, false)));
}

export const comprehensionIndex: Pass = {
  name: "comprehension-index",
  run: (policy: Policy) => {
    const slots = { next: 0 };
    return mapBodies(policy, (blocks, fn) => indexBody(blocks, fn, slots));
  },
};
