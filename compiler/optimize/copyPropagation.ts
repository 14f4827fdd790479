// Copy propagation: `AssignVar t ← s` is dropped and the statements after it read `s` instead of
// `t`, when that cannot change what any statement sees. The planner copies a lot (`x := y`, a
// with's saved document, the entrypoint's `result = data.p`); each copy is a line of generated
// code and a local.
//
// Locals are func-scoped and reused across blocks and loop iterations, so the pass reasons about
// where a copy's value can be seen. Structured control flow gives one fact for free: the
// statements after position p of a list (with everything nested in them; "R" below) are entered
// only through p. So for a copy at p, inside its plan's or func's top-level block T:
//   - t is written nowhere else in T, and every read of t in T is in R: every read sees the copy;
//   - s is not written in R (a with replacing it, a reset, a scan's key... all count): s still
//     holds the copied value at each of those reads;
//   - no later top-level block can see t's value from T (its first mention there is a plain
//     assignment at that block's top level), and t is neither a param nor the return local.
// Then each read of t in R reads s, and the copy goes; with no read at all, the copy just goes.
// `AssignVarOnce t ← s` is a copy too when it runs at most once with t undefined: outside any
// scan, and t written nowhere else in the plan or func. A constant source is substituted only
// into operand fields; where a field needs a local, the copy stays. A copy of a part of `data`
// that reaches a lookup with a variable key stays too (it changes how a number key is looked up).
import type { Block, Func, Operand, Plan, Stmt } from "../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../ir/walk.js";
import type { Pass } from "./index.js";
import { block, bodyPass, mk, nestedBlocks, withBlocks } from "./stmts.js";
import type { NameTable } from "./names.js";
import { analyse } from "./uses.js";
import { assertNever } from "../../runtime/errors.js";

type Subst = Map<number, Operand>;

/** The operand with substitutions applied. */
function subOp(o: Operand, m: Subst): Operand {
  return o.type === "local" ? (m.get(o.value) ?? o) : o;
}

/** A bare-local field with substitutions applied, or null when the replacement is a constant. */
function subLocal(l: number, m: Subst): number | null {
  const r = m.get(l);
  if (r === undefined) return l;
  return r.type === "local" ? r.value : null;
}

/** Field lists for substituteFields. */
const NONE: readonly string[] = [];
const VALUE: readonly string[] = ["value"];
const SOURCE: readonly string[] = ["source"];
const SOURCE_KEY: readonly string[] = ["source", "key"];
const A_B: readonly string[] = ["a", "b"];
const KEY_VALUE: readonly string[] = ["key", "value"];

/** The statement with substitutions applied to its operand fields `ops` and its bare-local fields
 * `locals`, or null when a bare-local field would take a constant. */
function substituteFields(s: Stmt, m: Subst, ops: readonly string[], locals: readonly string[]): Stmt | null {
  const st = s.stmt as unknown as Record<string, unknown>;
  let out: Record<string, unknown> | undefined; // a copy, made at the first change
  for (const field of ops) {
    const o = st[field] as Operand;
    const r = subOp(o, m);
    if (r !== o) (out ??= { ...st })[field] = r;
  }
  for (const field of locals) {
    const l = st[field] as number;
    const r = subLocal(l, m);
    if (r === null) return null;
    if (r !== l) (out ??= { ...st })[field] = r;
  }
  return out ? ({ type: s.type, stmt: out } as unknown as Stmt) : s;
}

/** The statement with its reads substituted (nested blocks excluded), or null when some read
 * cannot take its replacement (a constant where the field needs a local). */
function substitute(s: Stmt, m: Subst): Stmt | null {
  if (m.size === 0) return s;
  switch (s.type) {
    case "ArrayAppendStmt":
    case "SetAddStmt":
    case "WithStmt":
      return substituteFields(s, m, VALUE, NONE);
    case "AssignVarOnceStmt":
    case "AssignVarStmt":
    case "LenStmt":
    case "IsArrayStmt":
    case "IsObjectStmt":
    case "IsSetStmt":
      return substituteFields(s, m, SOURCE, NONE);
    case "CallStmt": {
      const args = s.stmt.args.map((a) => subOp(a, m));
      return args.some((a, i) => a !== s.stmt.args[i]) ? mk("CallStmt", { ...s.stmt, args }) : s;
    }
    case "CallDynamicStmt": {
      // (A path operand stays a local: the emitter dispatches on paths with a local segment.)
      const args = s.stmt.args.map((a) => subLocal(a, m));
      const locals = s.stmt.path.map((p) => (p.type === "local" ? subLocal(p.value, m) : -1));
      if (args.includes(null) || locals.includes(null)) return null;
      const path = s.stmt.path.map((p, i): Operand => (p.type === "local" ? { type: "local", value: locals[i]! } : p));
      if (args.some((a, i) => a !== s.stmt.args[i]) || s.stmt.path.some((p, i) => p.type === "local" && locals[i] !== p.value)) {
        return mk("CallDynamicStmt", { ...s.stmt, args: args as number[], path });
      }
      return s;
    }
    case "DotStmt":
      return substituteFields(s, m, SOURCE_KEY, NONE);
    case "EqualStmt":
    case "NotEqualStmt":
      return substituteFields(s, m, A_B, NONE);
    case "ObjectInsertOnceStmt":
    case "ObjectInsertStmt":
      return substituteFields(s, m, KEY_VALUE, NONE);
    case "ObjectMergeStmt":
      return substituteFields(s, m, NONE, A_B);
    case "ScanStmt":
    case "IsDefinedStmt":
    case "IsUndefinedStmt":
    case "ReturnLocalStmt":
      return substituteFields(s, m, NONE, SOURCE);
    case "ResultSetAddStmt":
      return substituteFields(s, m, NONE, VALUE);
    case "AssignIntStmt":
    case "BlockStmt":
    case "BreakStmt":
    case "MakeArrayStmt":
    case "MakeNullStmt":
    case "MakeNumberIntStmt":
    case "MakeNumberRefStmt":
    case "MakeObjectStmt":
    case "GroupsStmt":
    case "MakeSetStmt":
    case "NopStmt":
    case "NotStmt":
    case "ResetLocalStmt":
    case "IndexStmt":
    case "IncrementStmt":
    case "GroupAddStmt":
      return s;
    default:
      assertNever(s);
  }
}

/** The locals some statement other than a copy (or a reset) writes. */
function writtenOtherwise(blocks: readonly Block[]): Set<number> {
  const out = new Set<number>();
  forEachStmt(blocks, (s) => {
    if (s.type !== "AssignVarStmt" && s.type !== "ResetLocalStmt") forEachWrite(s, (l) => out.add(l));
  });
  return out;
}

function propagateBody(blocks: Block[], body: Plan | Func, names: NameTable | undefined): Block[] {
  let otherRoles: Set<number> | undefined;
  const isFunc = "params" in body;
  const facts = analyse(blocks, isFunc ? (body.params[1] ?? -1) : 1);
  const fixed = new Set<number>(isFunc ? [...body.params, body.return] : [0, 1]);
  // The walk below visits statements in analyse's order, so `pos` is each one's position there.
  let pos = 0;
  // The substitutions in force, and the copies that stay (a read could not take the source).
  const m: Subst = new Map();
  const kept = new Set<number>();

  const copyOf = (s: Stmt, inScan: boolean): { source: Operand; target: number } | undefined => {
    if (s.type === "AssignVarStmt") return s.stmt;
    if (s.type === "AssignVarOnceStmt" && !inScan && facts.totalWrites.get(s.stmt.target) === 1) return s.stmt;
    return undefined;
  };

  /** Whether the copy `t ← src` can go, its reads being in positions [from, to] of block T. */
  const canPropagate = (t: number, src: Operand, T: number, from: number, to: number): boolean => {
    const u = facts.uses[T]!;
    if (fixed.has(t)) return false;
    if (u.writeCount(t) !== 1) return false;
    if ((facts.lastExposed.get(t) ?? -1) > T) return false;
    const lo = u.minRead(t);
    // (An AssignVarOnce reads its own target, at from - 1.)
    if (lo !== undefined && (lo < from - 1 || u.maxRead(t)! > to)) return false;
    if (src.type !== "local") return true;
    // `data.x[k]` looks a number k up as a path segment, `v := data.x; v[k]` as a value (the
    // emitter tells them apart by the copy): such a copy stays.
    const { fromData, toKeyLookup } = facts.dataFlow();
    if (fromData.has(src.value) && toKeyLookup.has(t)) return false;
    return !u.writtenIn(src.value, from, to);
  };

  /** The last position of a list's statements, the first being at position `from`. */
  const endOfList = (stmts: readonly Stmt[], from: number): number => {
    let end = from - 1;
    for (let j = 0; j < stmts.length; j++) end = facts.ends[end + 1]!;
    return end;
  };

  const rewriteStmt = (s: Stmt, T: number, inScan: boolean): Stmt => {
    let r = substitute(s, m);
    if (r === null) {
      // Kept as it is: the copies it reads stay.
      forEachRead(s, (l) => m.has(l) && kept.add(l));
      r = s;
    }
    const nb = nestedBlocks(r);
    if (nb.length === 0) return r;
    const scan = inScan || s.type === "ScanStmt";
    return withBlocks(
      r,
      nb.map((b) => block(b, rewriteList(b.stmts, T, scan))),
    );
  };

  /** Rewrites a list (its copies' substitutions hold for the rest of it, and what is nested). */
  const rewriteList = (stmts: readonly Stmt[], T: number, inScan: boolean): Stmt[] => {
    const end = endOfList(stmts, pos);
    const out: Stmt[] = [];
    // The copies taken out of this list: where each was, should a read of it fail.
    const taken: Array<{ at: number; stmt: Stmt; target: number }> = [];
    for (const s of stmts) {
      const here = pos++;
      const copy = copyOf(s, inScan);
      if (copy) {
        const src = subOp(copy.source, m);
        const t = copy.target;
        if (src.type === "local" && src.value === t) continue; // t = t
        // A copy into a Rego variable from a local of several roles stays: the code reads the name.
        // (Not when the variable's local has other roles too: the name would not say what it holds.)
        const keepsName = src.type === "local" && (facts.totalWrites.get(src.value) ?? 0) > 1 && names?.named(body, t) === true && !(otherRoles ??= writtenOtherwise(blocks)).has(t);
        if (!keepsName && canPropagate(t, src, T, here + 1, end)) {
          const u = facts.uses[T]!;
          const lo = u.minRead(t);
          // The reads of t become reads of the source.
          if (src.type === "local" && lo !== undefined) {
            u.read(src.value, lo);
            u.read(src.value, u.maxRead(t)!);
          }
          m.set(t, src);
          // A source with one role in the body (a param, or written once) takes the copy's Rego
          // name where it has none.
          if (src.type === "local" && (facts.totalWrites.get(src.value) ?? 0) <= 1) names?.inherit(body, t, src.value);
          taken.push({ at: out.length, stmt: { type: s.type, stmt: { ...s.stmt, source: src } } as Stmt, target: t });
          continue;
        }
      }
      out.push(rewriteStmt(s, T, inScan));
    }
    for (let i = taken.length - 1; i >= 0; i--) {
      const c = taken[i]!;
      m.delete(c.target);
      if (kept.has(c.target)) out.splice(c.at, 0, c.stmt);
    }
    return out;
  };

  return blocks.map((b, T) => block(b, rewriteList(b.stmts, T, false)));
}

export const copyPropagation: Pass = bodyPass("copy-propagation", propagateBody);

/** Whether a later top-level block copies the target of a lookup of the first (what shared
 * lookups makes): the only copies left for the late run, which skips other bodies. */
function copiesFirstLookups(blocks: Block[]): boolean {
  const targets = new Set<number>();
  for (const s of blocks[0]?.stmts ?? []) if (s.type === "DotStmt") targets.add(s.stmt.target);
  if (targets.size === 0) return false;
  let found = false;
  forEachStmt(blocks.slice(1), (s) => {
    if (s.type === "AssignVarStmt" && s.stmt.source.type === "local" && targets.has(s.stmt.source.value)) found = true;
  });
  return found;
}

/** The same pass run again after shared lookups, under a name of its own (for `skip`). */
export const lateCopyPropagation: Pass = bodyPass("late-copy-propagation", (blocks, body, names) =>
  copiesFirstLookups(blocks) ? propagateBody(blocks, body, names) : blocks,
);
