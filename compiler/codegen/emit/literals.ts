// Runs of statements written as one expression (emit/blocks.ts tries them at a MakeArrayStmt or
// MakeObjectStmt):
//   - an array and the appends after it into the same local: `l3 = ["a", x];`
//   - an object and the inserts of constant string keys after it: `l4 = { "msg": m };` (an object
//     with Object.prototype, as parsed JSON is; `__proto__` is never such a key);
//   - concat with a constant delimiter, or sprintf with a constant format of `%s` and `%v` verbs,
//     of such an array, right after it: a template literal when its elements are strings, else the
//     builtin's call with the array (the same value or error):
//     `r = typeof x === "string" ? `a${x}` : call2($, concat, "", ["a", x]);`
// An array of constants that is only scanned or tested for membership is a module constant, made
// once and frozen (ArrayFacts.constant): `l5 = a0;`.
// Between the appends (inserts) may stand statements that neither fail nor read the collection
// nor write a local an element before them read (the constants and nested collections of the
// elements): they are emitted first, then the literal, which reads what they wrote. Either literal
// is a pending write (FuncEmitter.write): left out when nothing reads it.
import type { Block, CallStmt, Operand, Stmt } from "../../ir/types.js";
import { forEachRead, forEachStmt, forEachWrite } from "../../ir/walk.js";
import { nestedBlocks } from "../../optimize/stmts.js";
import { _, comment, join, lit, template, type Code } from "../code.js";
import type { FuncEmitter } from "./context.js";
import { knownConstant } from "./values.js";

/** Emits statement `j` of a list as emitStmts would (a run not past `end`, the constants it sets
 * known after it); the number of statements it stood for. */
export type EmitOne = (j: number, end: number) => number;

/** Statements that may stand between a run's appends or inserts: they write a local and never
 * fail or jump. */
const BETWEEN = new Set<Stmt["type"]>([
  "MakeNumberIntStmt",
  "MakeNumberRefStmt",
  "MakeNullStmt",
  "AssignIntStmt",
  "AssignVarStmt",
  "MakeArrayStmt",
  "MakeObjectStmt",
  "MakeSetStmt",
  "ArrayAppendStmt",
  "ObjectInsertStmt",
  "SetAddStmt",
]);

interface Run {
  /** The appended values, or the inserted keys and values. */
  elems: Array<[string, Operand]>;
  /** The indexes of the statements standing between them, in order. */
  between: number[];
  /** The same, as a set. */
  betweenSet: Set<number>;
  /** The index after the last append or insert. */
  end: number;
}

/** The run of the MakeArrayStmt or MakeObjectStmt at `stmts[i]`, not past `limit`. */
function runAt(fe: FuncEmitter, stmts: readonly Stmt[], i: number, limit: number): Run {
  const make = stmts[i]!;
  const target = (make.stmt as { target: number }).target;
  const object = make.type === "MakeObjectStmt";
  const direct = object && fe.result && "direct" in fe.result ? fe.result.direct : undefined;
  const run: Run = { elems: [], between: [], betweenSet: new Set(), end: i + 1 };
  if (direct?.make === make.stmt) return run;
  const between: number[] = [];
  const read = new Set<number>();
  const keys = new Set<string>();
  let ok = true;
  for (let j = i + 1; j < limit; j++) {
    const s = stmts[j]!;
    let value: Operand | undefined;
    let key = "";
    if (s.type === "ArrayAppendStmt" && !object && s.stmt.array === target) value = s.stmt.value;
    else if (s.type === "ObjectInsertStmt" && object && s.stmt.object === target) {
      if (s.stmt.key.type !== "string_index" || direct?.insert === s.stmt) break;
      key = fe.mod.string(s.stmt.key.value);
      if (key === "__proto__" || keys.has(key)) break;
      keys.add(key);
      value = s.stmt.value;
    }
    if (value !== undefined) {
      if (value.type === "local") {
        if (value.value === target) break;
        read.add(value.value);
      }
      run.elems.push([key, value]);
      for (const b of between) {
        run.between.push(b);
        run.betweenSet.add(b);
      }
      between.length = 0;
      run.end = j + 1;
      continue;
    }
    if (!BETWEEN.has(s.type)) break;
    forEachRead(s, (l) => (ok &&= l !== target));
    forEachWrite(s, (l) => (ok &&= l !== target && !read.has(l)));
    if (!ok) break;
    between.push(j);
  }
  return run;
}

/** Emits the run starting at `stmts[i]` (a MakeArrayStmt or MakeObjectStmt) if there is one, not
 * past `limit`; the number of statements it stood for, 0 if none (the statement is then emitted on
 * its own). */
export function literalRun(fe: FuncEmitter, stmts: readonly Stmt[], i: number, limit: number, emitOne: EmitOne): number {
  const s = stmts[i]!;
  if (s.type !== "MakeArrayStmt" && s.type !== "MakeObjectStmt") return 0;
  const run = runAt(fe, stmts, i, limit);
  const next = stmts[run.end];
  const texts = s.type === "MakeArrayStmt" && run.end < limit && next?.type === "CallStmt" ? stringCallShape(fe, next.stmt, s.stmt.target, run.elems.length) : undefined;
  const call = texts !== undefined ? (next!.stmt as CallStmt) : undefined;
  if (run.elems.length === 0 && call === undefined) return 0;
  // The statements between first, in order; a run among them ends before the next element.
  for (let k = 0; k < run.between.length; ) {
    const j = run.between[k]!;
    let end = j;
    for (let m = k; m < run.between.length && run.between[m] === end; m++) end++;
    const n = emitOne(j, end);
    while (k < run.between.length && run.between[k]! < j + n) k++;
  }
  const target = s.stmt.target;
  const values = run.elems.map(([, v]) => v);
  const sources = values.flatMap((v) => (v.type === "local" ? [v.value] : []));
  const array = (): Code => fe.mod.cast(_`[${join(values.map((v) => fe.operand(v)))}]`, _`${fe.mod.rtType("Value")}[]`);
  if (s.type === "MakeObjectStmt") {
    fe.write(target, sources, (t) => {
      const body = join(run.elems.map(([k, v]) => _`${lit(k)}: ${fe.operand(v)}`));
      return _`${t} = ${fe.mod.cast(_`{ ${body} }`, fe.mod.rtType("ObjectValue"))};`;
    });
  } else if (fe.arrays.constant.get(s.stmt) === run.end) {
    fe.write(target, sources, (t) => {
      const init = _`${fe.mod.rt("constantArray")}([${join(values.map((v) => fe.operand(v)))}])`;
      return _`${t} = ${fe.mod.moduleConst("a", init, comment("an array of constants, made once and frozen"))};`;
    });
  } else if (call === undefined || !fe.arrays.unread.has(call)) fe.write(target, sources, (t) => _`${t} = ${array()};`);
  if (call !== undefined) stringOfLiteral(fe, call, values, texts!, array);
  const end = call !== undefined ? run.end + 1 : run.end;
  for (let j = i; j < end; j++) if (!run.betweenSet.has(j)) knownConstant(fe, stmts[j]!);
  return end - i;
}

/** A call of concat or sprintf, right after the run of array `target` (of `n` elements), that is a
 * template literal when the elements are strings: the texts around the elements (n + 1 of them),
 * or undefined. concat needs a constant delimiter; sprintf a constant format of `%s`, `%v` and `%%`
 * alone, with as many verbs as elements (what Go prints for a string either way). */
function stringCallShape(fe: FuncEmitter, s: CallStmt, target: number, n: number): string[] | undefined {
  const [text, arr] = s.args;
  if (s.args.length !== 2 || text?.type !== "string_index" || arr?.type !== "local" || arr.value !== target || fe.mod.funcIndex.has(s.func)) return undefined;
  const t = fe.mod.string(text.value);
  if (s.func === "concat") return Array.from({ length: n + 1 }, (_, k) => (k === 0 || k === n ? "" : t));
  if (s.func !== "sprintf") return undefined;
  const texts = [""];
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c !== "%") texts[texts.length - 1] += c;
    else if (t[i + 1] === "%") texts[texts.length - 1] += t[++i]!;
    else if (t[i + 1] === "s" || t[i + 1] === "v") {
      texts.push("");
      i++;
    } else return undefined;
  }
  return texts.length === n + 1 ? texts : undefined;
}

/** concat or sprintf of the run's array (stringCallShape's `texts` around the elements). */
function stringOfLiteral(fe: FuncEmitter, s: CallStmt, elems: readonly Operand[], texts: readonly string[], array: () => Code): void {
  const mod = fe.mod;
  const r = fe.local(s.result);
  // A boolean element is no string: the builtin's call says what it makes of it.
  let strings = elems.every((e) => e.type !== "bool");
  const parts: (string | Code)[] = [texts[0]!];
  const tests: Code[] = [];
  const tested = new Set<number>();
  elems.forEach((e, k) => {
    if (e.type === "string_index") parts.push(mod.string(e.value));
    else if (e.type === "local") {
      // (a local known to hold a number or null here is never a string)
      if (fe.constants.has(e.value)) strings = false;
      const x = fe.operand(e);
      parts.push(x);
      if (!tested.has(e.value)) {
        tested.add(e.value);
        tests.push(_`typeof ${x} === "string"`);
      }
    }
    parts.push(texts[k + 1]!);
  });
  const call = (): Code => _`${mod.rt("call2")}(${fe.state}, ${mod.builtinSite(s.func, s)}, ${fe.operand(s.args[0]!)}, ${array()})`;
  if (!strings) {
    fe.out.line`${r} = ${call()}; if (${r} === undefined) ${fe.jump(0)}`;
    return;
  }
  if (tests.length === 0) {
    fe.out.line`${r} = ${lit(parts.join(""))};`;
    return;
  }
  fe.out.line`${r} = ${join(tests, _` && `)} ? ${template(parts)} : ${call()}; if (${r} === undefined) ${fe.jump(0)}`;
}

/** The local a membership test (`x in coll`) looks in, unless it is also the value looked for. */
function membershipCollection(s: CallStmt): number | undefined {
  const [x, coll] = s.args;
  return coll?.type === "local" && !(x?.type === "local" && x.value === coll.value) ? coll.value : undefined;
}

/** What the emitter knows of a body's array runs before emitting it (FuncEmitter.arrays). */
export interface ArrayFacts {
  /** The concat and sprintf calls of runs whose array nothing else reads: those runs write no
   * array (the call's fallback has the literal). */
  unread: ReadonlySet<CallStmt>;
  /** Runs of constants whose array is only ever scanned or tested for membership, and appended
   * to by no other statement: the array is a module constant (runtime's constantArray), by its
   * MakeArrayStmt, with where its run ends (the same run at emission, or no constant). */
  constant: ReadonlyMap<object, number>;
}

const NO_FACTS: ArrayFacts = { unread: new Set(), constant: new Map() };

/** The body's ArrayFacts. Its top-level blocks run once each, in order: what a run makes is seen by
 * the statements of its block (loops included) and of the later blocks alone. An array is unread
 * after its run when none of those reads it but the appends and string calls of runs; it is only
 * scanned or tested when none of those reads it otherwise. */
export function arrayFacts(fe: FuncEmitter, blocks: readonly Block[]): ArrayFacts {
  const unread = new Set<CallStmt>();
  const constant = new Map<object, number>();
  const later = new Set<number>();
  /** Locals read otherwise than by a scan or membership test (or appended to outside a run). */
  const escaping = new Set<number>();
  // The runs of each block first: the reads need walking only from the first block with one.
  const found = blocks.map((top) => {
    const ownHere = new Set<object>();
    const runs: Array<[CallStmt, number]> = [];
    const candidates: Array<[object, number, number]> = []; // MakeArrayStmt, target, end
    const lists = (bs: readonly Block[]): void => {
      for (const b of bs) {
        b.stmts.forEach((s, i) => {
          if (s.type === "MakeArrayStmt") {
            const run = runAt(fe, b.stmts, i, b.stmts.length);
            const next = b.stmts[run.end];
            const call = next?.type === "CallStmt" && stringCallShape(fe, next.stmt, s.stmt.target, run.elems.length) ? next.stmt : undefined;
            const end = call !== undefined ? run.end + 1 : run.end;
            for (let j = i + 1; j < end; j++) if (!run.betweenSet.has(j)) ownHere.add(b.stmts[j]!.stmt);
            if (call !== undefined) runs.push([call, s.stmt.target]);
            if (run.elems.length > 0 && run.elems.every(([, v]) => v.type !== "local")) candidates.push([s.stmt, s.stmt.target, run.end]);
          }
          lists(nestedBlocks(s));
          if (s.type === "IndexStmt") for (const c of s.stmt.cases) lists(c.blocks);
        });
      }
    };
    lists([top]);
    return { ownHere, runs, candidates };
  });
  const first = found.findIndex((f) => f.runs.length > 0 || f.candidates.length > 0);
  if (first < 0) return NO_FACTS;
  for (let k = blocks.length - 1; k >= first; k--) {
    const { ownHere, runs, candidates } = found[k]!;
    const reads = new Set<number>();
    forEachStmt([blocks[k]!], (s) => {
      if (ownHere.has(s.stmt)) {
        // (an element of the run may be another array: that is a read)
        if (s.type === "ArrayAppendStmt" && s.stmt.value.type === "local") {
          reads.add(s.stmt.value.value);
          escaping.add(s.stmt.value.value);
        }
        return;
      }
      forEachRead(s, (l) => reads.add(l));
      if (s.type === "ScanStmt") return;
      const tested = s.type === "CallStmt" && s.stmt.func === "internal.member_2" ? membershipCollection(s.stmt) : undefined;
      forEachRead(s, (l) => l === tested || escaping.add(l));
    });
    for (const [call, t] of runs) if (!reads.has(t) && !later.has(t)) unread.add(call);
    for (const l of reads) later.add(l);
    for (const [make, t, end] of candidates) if (!escaping.has(t)) constant.set(make, end);
  }
  return unread.size === 0 && constant.size === 0 ? NO_FACTS : { unread, constant };
}
