// What the rule index (ruleIndex.ts) knows of a func's units: which blocks go together, whether
// a unit may be reordered and skipped, and the constants its first statements test refs against.
import type { Block, Func, IndexValue, Local, Operand, Policy, Stmt } from "../ir/types.js";
import { forEachRead, forEachWrite } from "../ir/walk.js";
import { nestedBlocks } from "./stmts.js";
import { assertNever } from "../../runtime/errors.js";

/** A key of a ref: an integer, or a string with its index in `static.strings`. */
export type Step = number | { index: number; value: string };

/** A param and constant keys (`input.path[1]`). */
export interface Ref {
  root: Local;
  path: Step[];
  /** Equal for equal refs. */
  id: string;
  /** For a reader: `input.path[1]`. */
  text: string;
}

export interface Test {
  ref: Ref;
  /** The unit succeeds only when the ref's value is one of these. */
  values: IndexValue[];
}

export interface Unit {
  blocks: Block[];
  /** By ref id. */
  tests: Map<string, Test>;
  /** Reads no local it has not written first, but params and the return local. */
  selfContained: boolean;
  /** Self-contained and touching the return local only by accumulating into it: commutes with
   * other movable units. */
  movable: boolean;
}

/** The func's top-level blocks, grouped into units: a block resetting r goes with the block
 * after it when that one is `IsDefined r; AssignVarOnce ret ← r` (a rule body and its value). */
export function splitUnits(blocks: readonly Block[]): Block[][] {
  const out: Block[][] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const next = blocks[i + 1];
    const first = b.stmts[0];
    if (first?.type === "ResetLocalStmt" && next && isValueBlock(next, first.stmt.target)) {
      out.push([b, next]);
      i++;
    } else out.push([b]);
  }
  return out;
}

function isValueBlock(b: Block, r: Local): boolean {
  const [a, c] = b.stmts;
  return (
    b.stmts.length === 2 &&
    a!.type === "IsDefinedStmt" &&
    a.stmt.source === r &&
    c!.type === "AssignVarOnceStmt" &&
    c.stmt.source.type === "local" &&
    c.stmt.source.value === r
  );
}

/** Statements that read the local they write (a collection they add to, AssignVarOnce's target, a
 * with's local): forEachRead reports it; the rest of forEachWrite's locals are only written. */
const IN_PLACE: ReadonlySet<Stmt["type"]> = new Set<Stmt["type"]>(["ArrayAppendStmt", "SetAddStmt", "ObjectInsertStmt", "ObjectInsertOnceStmt", "AssignVarOnceStmt", "WithStmt", "IncrementStmt"]);

/** Calls `f` on each local a statement only writes (nested blocks excluded). */
function forEachPureWrite(s: Stmt, f: (local: Local) => void): void {
  if (!IN_PLACE.has(s.type)) forEachWrite(s, f);
}

/** The local a statement accumulates into (the return local of a rule: a value, a set element, an
 * object key), if it is one that does. */
function accumulator(s: Stmt): Local | undefined {
  if (s.type === "AssignVarOnceStmt") return s.stmt.target;
  if (s.type === "SetAddStmt") return s.stmt.set;
  if (s.type === "ObjectInsertOnceStmt") return s.stmt.object;
  return undefined;
}

/**
 * The statements of a lookup that ends its enclosing block when one of them fails, as a data ref
 * is planned: `BlockStmt[[BlockStmt[[...stmts; Break 1]]; Break 1]]` (a failing statement leaves
 * the inner block, whose parent's Break 1 then ends the enclosing one; the last statement's
 * Break 1 continues after the whole). They run as if written in the enclosing block.
 */
function lookupStmts(s: Stmt): readonly Stmt[] | undefined {
  if (s.type !== "BlockStmt" || s.stmt.blocks.length !== 1) return undefined;
  const [inner, brk] = s.stmt.blocks[0]!.stmts;
  if (s.stmt.blocks[0]!.stmts.length !== 2 || inner?.type !== "BlockStmt" || brk?.type !== "BreakStmt" || brk.stmt.index !== 1) return undefined;
  if (inner.stmt.blocks.length !== 1) return undefined;
  const ys = inner.stmt.blocks[0]!.stmts;
  const last = ys[ys.length - 1];
  if (last?.type !== "BreakStmt" || last.stmt.index !== 1) return undefined;
  const body = ys.slice(0, -1);
  const plain = (t: Stmt) => nestedBlocks(t).length === 0 && t.type !== "BreakStmt" && t.type !== "CallDynamicStmt" && t.type !== "ReturnLocalStmt";
  return body.every(plain) ? body : undefined;
}

/** A block's statements, lookups inlined (lookupStmts). */
function* inlined(stmts: readonly Stmt[]): Generator<Stmt> {
  for (const s of stmts) {
    const inline = lookupStmts(s);
    if (inline) yield* inline;
    else yield s;
  }
}

/** Whether a unit is self-contained and movable (see Unit). */
export function unitFlow(f: Func, blocks: readonly Block[]): { selfContained: boolean; movable: boolean } {
  const params = new Set(f.params);
  let movable = true;
  // Locals written before, for certain: by a statement of the same list or of an enclosing one
  // (one that fails ends the list); a nested list's writes are forgotten after it (it may not
  // run), and a scan's key and value are written only inside it (it may run zero times).
  const written = new Set<Local>();
  const write = (l: Local, added: Local[]) => {
    if (l !== f.return && !written.has(l)) {
      written.add(l);
      added.push(l);
    }
  };
  const visit = (stmts: readonly Stmt[], added: Local[]): boolean => {
    for (const s of stmts) {
      const inline = lookupStmts(s);
      if (inline) {
        if (!visit(inline, added)) return false;
        continue;
      }
      // (the rule index reads the planner's funcs, which have no IndexStmt)
      if (s.type === "IndexStmt") throw new Error("unitFlow: an IndexStmt");
      let ok = true;
      // the return local may be read once, where the statement accumulates into it
      let accumulates = accumulator(s) === f.return ? 1 : 0;
      forEachRead(s, (l) => {
        if (l === f.return) {
          if (accumulates > 0) accumulates--;
          else movable = false;
        } else if (!written.has(l) && !params.has(l)) ok = false;
      });
      forEachPureWrite(s, (l) => {
        if (l === f.return) movable = false;
        else if (params.has(l)) ok = false;
      });
      if (!ok) return false;
      if (s.type !== "ScanStmt") forEachPureWrite(s, (l) => write(l, added));
      for (const b of nestedBlocks(s)) {
        const inner: Local[] = [];
        if (s.type === "ScanStmt") {
          write(s.stmt.key, inner);
          write(s.stmt.value, inner);
        }
        const done = visit(b.stmts, inner);
        for (const l of inner) written.delete(l);
        if (!done) return false;
      }
    }
    return true;
  };
  // The value block after a body reads the body's r, which the body resets first.
  const reset = blocks[0]!.stmts[0];
  const selfContained = blocks.every((b, i) => {
    written.clear();
    if (i > 0 && reset?.type === "ResetLocalStmt") written.add(reset.stmt.target);
    return visit(b.stmts, []);
  });
  return { selfContained, movable: movable && selfContained };
}

/** What a local holds at a point of a unit's pure prefix. */
type Sym =
  | { k: "ref"; ref: Ref }
  | { k: "const"; v: IndexValue; step?: Step }
  /** A collection of these constants (null: some element is not one). */
  | { k: "coll"; vs: IndexValue[] | null }
  /** `internal.member_2(ref, coll)`'s result. */
  | { k: "member"; ref: Ref; vs: IndexValue[] };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The refs of a func's params: input, data, then its arguments. */
export function rootRefs(f: Func): Map<Local, Ref> {
  return new Map(
    f.params.map((local, i) => {
      const text = i === 0 ? "input" : i === 1 ? "data" : `arg${i - 1}`;
      return [local, { root: local, path: [], id: JSON.stringify([local]), text }];
    }),
  );
}

function extend(ref: Ref, step: Step): Ref {
  const path = [...ref.path, step];
  const id = JSON.stringify([ref.root, ...path.map((p) => (typeof p === "number" ? p : p.value))]);
  const text = typeof step === "number" ? `${ref.text}[${step}]` : IDENT.test(step.value) ? `${ref.text}.${step.value}` : `${ref.text}[${JSON.stringify(step.value)}]`;
  return { root: ref.root, path, id, text };
}

/** A number constant from its text, when it is a double exactly (a BigNum never equals one). */
function numberConst(text: string): Sym | undefined {
  const d = Number(text);
  if (!Number.isFinite(d) || String(d) !== text) return undefined;
  return Number.isSafeInteger(d) ? { k: "const", v: d, step: d } : { k: "const", v: d };
}

/** The tests of a unit: read off the statements its first block starts with that neither raise
 * errors nor write anything but locals, following what each local holds. */
export function unitTests(policy: Policy, f: Func, roots: ReadonlyMap<Local, Ref>, block: Block, memberBuiltin: boolean): Map<string, Test> {
  const strings = policy.static.strings;
  const sym = new Map<Local, Sym>();
  for (const [l, ref] of roots) sym.set(l, { k: "ref", ref });
  const tests = new Map<string, Test>();
  const test = (ref: Ref, vs: readonly IndexValue[]) => {
    const t = tests.get(ref.id);
    if (t) t.values = t.values.filter((v) => vs.includes(v));
    else tests.set(ref.id, { ref, values: [...new Set(vs)] });
  };
  const of = (op: Operand): Sym | undefined => {
    switch (op.type) {
      case "local":
        return sym.get(op.value);
      case "bool":
        return { k: "const", v: op.value };
      case "string_index":
        return { k: "const", v: strings[op.value]!.value, step: { index: op.value, value: strings[op.value]!.value } };
    }
  };
  const set = (l: Local, s: Sym | undefined) => (s ? sym.set(l, s) : sym.delete(l));
  for (const s of inlined(block.stmts)) {
    switch (s.type) {
      case "ResetLocalStmt":
      case "LenStmt":
      case "MakeObjectStmt":
      case "GroupsStmt":
      case "IncrementStmt":
        sym.delete(s.stmt.target);
        continue;
      case "IsArrayStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
      case "IsDefinedStmt":
      case "IsUndefinedStmt":
      case "NopStmt":
        continue;
      case "MakeNullStmt":
        set(s.stmt.target, { k: "const", v: null });
        continue;
      case "MakeNumberIntStmt":
      case "AssignIntStmt":
        set(s.stmt.target, numberConst(String(s.stmt.value)));
        continue;
      case "MakeNumberRefStmt":
        set(s.stmt.target, numberConst(strings[s.stmt.index]!.value));
        continue;
      case "MakeSetStmt":
      case "MakeArrayStmt":
        set(s.stmt.target, { k: "coll", vs: [] });
        continue;
      case "SetAddStmt":
      case "ArrayAppendStmt": {
        const c = sym.get(s.type === "SetAddStmt" ? s.stmt.set : s.stmt.array);
        if (c?.k !== "coll") break; // a collection not made here: the body proper
        const v = of(s.stmt.value);
        set(s.type === "SetAddStmt" ? s.stmt.set : s.stmt.array, { k: "coll", vs: c.vs && v?.k === "const" ? [...c.vs, v.v] : null });
        continue;
      }
      case "AssignVarStmt":
        set(s.stmt.target, of(s.stmt.source));
        continue;
      case "DotStmt": {
        const src = of(s.stmt.source);
        const key = of(s.stmt.key);
        // (A number key under data reads a storage path, `dotData`, when not read through a copy:
        // not followed.)
        const ok = src?.k === "ref" && key?.k === "const" && key.step !== undefined && !(typeof key.step === "number" && src.ref.root === f.params[1]);
        set(s.stmt.target, ok ? { k: "ref", ref: extend(src.ref, key.step!) } : undefined);
        continue;
      }
      case "EqualStmt": {
        const a = of(s.stmt.a);
        const b = of(s.stmt.b);
        if (a?.k === "ref" && b?.k === "const") test(a.ref, [b.v]);
        else if (b?.k === "ref" && a?.k === "const") test(b.ref, [a.v]);
        continue;
      }
      case "NotEqualStmt": {
        const a = of(s.stmt.a);
        const b = of(s.stmt.b);
        if (a?.k === "member" && b?.k === "const" && b.v === false) test(a.ref, a.vs);
        continue;
      }
      case "CallStmt": {
        if (s.stmt.func !== "internal.member_2" || s.stmt.args.length !== 2 || !memberBuiltin) break;
        const x = of(s.stmt.args[0]!);
        const xs = of(s.stmt.args[1]!);
        set(s.stmt.result, x?.k === "ref" && xs?.k === "coll" && xs.vs ? { k: "member", ref: x.ref, vs: xs.vs } : undefined);
        continue;
      }
      case "AssignVarOnceStmt":
      case "BlockStmt":
      case "BreakStmt":
      case "CallDynamicStmt":
      case "NotStmt":
      case "ObjectInsertOnceStmt":
      case "ObjectInsertStmt":
      case "ObjectMergeStmt":
      case "ResultSetAddStmt":
      case "ReturnLocalStmt":
      case "ScanStmt":
      case "WithStmt":
      case "IndexStmt":
      case "GroupAddStmt":
        break;
      default:
        assertNever(s);
    }
    break;
  }
  return tests;
}
