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
//   - the comprehension reads nothing that changes while the function runs but K: its other free
//     locals are params no statement writes (no `with` either), and K is read only by the
//     equality (OPA: no unsafe vars, no ref or nested closure reading a key);
//   - grouping by X with Rego equality (the runtime's object keys: 1 and 1.0 are one key) selects
//     the elements the equality selects, in the same order;
//   - what runs before the equality runs the same in both forms (errors included, at the same
//     first iteration); what runs after it, now for every element rather than for those equal to
//     K, can neither fail with an error nor have an effect;
//   - its locals are read nowhere outside it, and no break leaves it.
// Only array and set comprehensions and counts (countForm's): an object comprehension's conflicts
// would be raised for groups no iteration looks up. One key only (OPA indexes by every outer var
// the body binds).
import type { Block, Func, Local, Plan, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite, namesLocal } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { errorFree } from "./scanFusion.js";
import { at, block, mapBodies, maxLocal, mk, nestedBlocks, withBlocks } from "./stmts.js";

type Kind = "array" | "set" | "count";

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

/** Whether a break or dynamic call inside the statements leaves them (`depth` levels up to them). */
function leaves(stmts: readonly Stmt[], depth: number): boolean {
  return stmts.some((s) => {
    switch (s.type) {
      case "BreakStmt":
        return s.stmt.index >= depth;
      case "CallDynamicStmt":
        return true;
      case "ScanStmt":
        return leaves(s.stmt.block.stmts, depth + 2);
      default:
        return nestedBlocks(s).some((b) => leaves(b.stmts, depth + 1));
    }
  });
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
  next: number;
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
  const keyReaders: Stmt[] = [];
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
  // One free local that is not invariant: the key K.
  const free = [...reads].filter((l) => !writes.has(l) && !body.invariant.has(l));
  if (free.length !== 1) return undefined;
  const k = free[0]!;
  // Its one reader, an equality with a local X the comprehension sets.
  forEachStmt(blocks, (s) => {
    if (namesLocal(s, k)) keyReaders.push(s);
  });
  const e = keyReaders[0];
  if (keyReaders.length !== 1 || e?.type !== "EqualStmt") return undefined;
  const { a, b } = e.stmt;
  if (a.type !== "local" || b.type !== "local") return undefined;
  const x = a.value === k ? b.value : a.value;
  if (x === k || x === c || !writes.has(x)) return undefined;
  // Its locals (but c) are named nowhere else.
  for (const l of writes) if (l !== c && inside.get(l) !== body.uses.get(l)) return undefined;
  // After the equality: every addition, nothing that can fail with an error or has an effect, no
  // write of X.
  const at_ = findList(blocks, e);
  if (at_ === undefined) return undefined;
  const after = at_.list.slice(at_.i + 1);
  let accsAfter = 0;
  forEachStmt([{ stmts: after }], (s) => {
    if (accumulates(s, c, kind)) accsAfter++;
    else if (!errorFree(s)) bad = true;
    forEachWrite(s, (l) => l === x && (bad = true));
  });
  if (bad || accsAfter !== accs) return undefined;

  const groups = body.next++;
  const found = body.next++;
  const rewrite = (stmts: readonly Stmt[]): Stmt[] =>
    stmts.flatMap((s): Stmt[] => {
      if (s === e) return [];
      if (accumulates(s, c, kind)) {
        const value = s.type === "ArrayAppendStmt" || s.type === "SetAddStmt" ? { value: s.stmt.value } : {};
        return [mk("GroupAddStmt", { ...at(s), groups, key: x, kind, ...value })];
      }
      const nb = nestedBlocks(s);
      return nb.length === 0 ? [s] : [withBlocks(s, nb.map((b) => block(b, rewrite(b.stmts))))];
    });
  const loc = at(comp);
  const build = mk("BlockStmt", {
    ...loc,
    blocks: [{ stmts: [mk("IsUndefinedStmt", { ...loc, source: groups }), mk("MakeObjectStmt", { ...loc, target: groups }), mk("BlockStmt", { ...comp.stmt, blocks: blocks.map((bl) => block(bl, rewrite(bl.stmts))) })] }],
  });
  const lookup = mk("BlockStmt", {
    ...loc,
    blocks: [{ stmts: [mk("DotStmt", { ...loc, source: { type: "local", value: groups }, key: { type: "local", value: k }, target: found }), mk("AssignVarStmt", { ...loc, source: { type: "local", value: found }, target: c })] }],
  });
  return [init, build, lookup];
}

function indexBody(blocks: Block[], fn: Plan | Func): Block[] {
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
  const body: Body = { uses, invariant: new Set(params.filter((p) => !written.has(p))), next: -1 };

  const rewriteList = (stmts: readonly Stmt[], inScan: boolean): Stmt[] => {
    const out: Stmt[] = [];
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      const next = stmts[i + 1];
      if (inScan && next?.type === "BlockStmt" && start(s) !== undefined) {
        if (body.next < 0) body.next = maxLocal(fn) + 1;
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
  run: (policy: Policy) => mapBodies(policy, indexBody),
};
