// Statements that build collections: MakeArray/MakeObject/MakeSet, ArrayAppend, SetAdd,
// ObjectInsert[Once] (the object local is reassigned: it becomes a RegoObject when a key is not a
// string), ObjectMerge, and ResultSetAdd (into the plan's result set, or — for a direct-value
// entrypoint — the binding object is never built: its one value is returned).
import type { GroupAddStmt, GroupsStmt, ScanStmt, Stmt, StmtMap } from "../../ir/types.js";
import { forEachStmt, namesLocal } from "../../ir/walk.js";
import { leaves, nestedBlocks } from "../../optimize/stmts.js";
import { _, join, type Code, type Name } from "../code.js";
import type { Emit, FuncEmitter } from "./context.js";
import { NO_LOCALS } from "./values.js";

type E<T extends keyof StmtMap> = Emit<StmtMap[T]>;

function direct(fe: FuncEmitter) {
  return fe.result && "direct" in fe.result ? fe.result.direct : undefined;
}

export const makeArrayStmt: E<"MakeArrayStmt"> = (fe, s) => fe.write(s.target, NO_LOCALS, (t) => _`${t} = [];`);

// The groups of a comprehension index are a RegoObject from the start: the GroupAddStmts in the
// loop then see one kind of object (made plain, the first addition would replace it).
export const makeObjectStmt: E<"MakeObjectStmt"> = (fe, s) => {
  if (direct(fe)?.make === s) return false;
  if (fe.scalars.groups.has(s.target)) return fe.write(s.target, NO_LOCALS, (t) => _`${t} = new ${fe.mod.rt("RegoObject")}();`);
  return fe.write(s.target, NO_LOCALS, (t) => _`${t} = ${fe.mod.rt("newObject")}();`);
};

export const makeSetStmt: E<"MakeSetStmt"> = (fe, s) => fe.write(s.target, NO_LOCALS, (t) => _`${t} = new ${fe.mod.rt("RegoSet")}();`);

// A local that only ever holds an array (a set) the body makes is appended to (added to) with the
// collection's own method: each call site keeps its own inline cache, where the runtime's shared
// push/addTo sees every collection of the process.
export const arrayAppendStmt: E<"ArrayAppendStmt"> = (fe, s) => {
  const a = fe.local(s.array);
  const at = fe.reserved.get(s.array);
  if (at !== undefined) return fe.out.line`${fe.mod.typedAs(a, _`${fe.mod.fixed.V}[]`)}[${at}++] = ${fe.operand(s.value)};`;
  if (fe.scalars.made(s.array) === "array") return fe.out.line`${fe.mod.typedAs(a, _`${fe.mod.fixed.V}[]`)}.push(${fe.operand(s.value)});`;
  return fe.out.line`${fe.mod.rt("push")}(${a}, ${fe.operand(s.value)});`;
};

// An array the body of a scan appends to (a comprehension's), and that nothing else in the body
// reads or writes, is sized once for the scan's elements: `reserve` makes room when the loop
// starts, the appends write by index (its counter), and the length reached is set after the last
// stretch. Not when a break may leave the loop, which would skip that; an append in a nested scan
// counts with the outer scan's counter.

/** The arrays scan `s` sizes, each with its counter (named here, declared in the loop's head). */
export function reservedArrays(fe: FuncEmitter, s: ScanStmt): Array<[number, Name]> {
  const appended = new Set<number>();
  const direct = (stmts: readonly Stmt[]): void => {
    for (const t of stmts) {
      if (t.type === "ArrayAppendStmt") appended.add(t.stmt.array);
      else if (t.type !== "ScanStmt") for (const b of nestedBlocks(t)) direct(b.stmts);
    }
  };
  direct(s.block.stmts);
  const sized = [...appended].filter((a) => fe.scalars.made(a) === "array" && !fe.reserved.has(a) && onlyAppended(s, a));
  if (sized.length === 0 || leaves(s.block.stmts, 1)) return [];
  return sized.map((a) => [a, fe.scope.name("n")]);
}

/** Whether the scan's body names `array` only to append to it (another value than itself). */
function onlyAppended(s: ScanStmt, array: number): boolean {
  let ok = true;
  forEachStmt([s.block], (t) => {
    if (ok && namesLocal(t, array)) ok = t.type === "ArrayAppendStmt" && t.stmt.array === array && !(t.stmt.value.type === "local" && t.stmt.value.value === array);
  });
  return ok;
}

/** The loop head's declarations of the counters: each the index `reserve` gives. */
export function reserveCounters(fe: FuncEmitter, sized: ReadonlyArray<[number, Name]>, length: Code): Code {
  return join(sized.map(([a, n]) => _`, ${n} = ${fe.mod.rt("reserve")}(${fe.local(a)}, ${length})`), _``);
}

/** After a stretch: once the last is done, each array's length is the count its appends reached. */
export function trimReserved(fe: FuncEmitter, sized: ReadonlyArray<[number, Name]>, done: Code): void {
  for (const [a, n] of sized) fe.out.line`if (${done}) ${fe.mod.typedAs(fe.local(a), _`${fe.mod.fixed.V}[]`)}.length = ${n};`;
}

export const setAddStmt: E<"SetAddStmt"> = (fe, s) => {
  const set = fe.local(s.set);
  if (fe.scalars.made(s.set) === "set") {
    // (`!`: a value added is defined; the type of a local is not.)
    const value = s.value.type === "local" && fe.mod.typed ? _`${fe.operand(s.value)}!` : fe.operand(s.value);
    return fe.out.line`${fe.mod.typedAs(set, fe.mod.rt("RegoSet"))}.add(${value});`;
  }
  return fe.out.line`${fe.mod.rt("addTo")}(${set}, ${fe.operand(s.value)});`;
};


export const objectInsertStmt: E<"ObjectInsertStmt"> = (fe, s) => {
  // Direct value: the binding object's only key; keep its value in the object's local (unless the
  // ResultSetAdd right after returns the value itself).
  const d = direct(fe);
  if (d?.insert === s && d.adjacent) return false;
  const o = fe.local(s.object);
  if (d?.insert === s) return fe.out.line`${o} = ${fe.operand(s.value)};`;
  return fe.out.line`${o} = ${fe.mod.rt("insert")}(${o}, ${fe.operand(s.key)}, ${fe.operand(s.value)});`;
};

const GROUP_ADD = { count: "groupCount", array: "groupPush", set: "groupAddTo" } as const;

export const groupAddStmt: Emit<GroupAddStmt> = (fe, s) => {
  const g = fe.local(s.groups);
  const value = s.value === undefined ? _`` : _`, ${fe.operand(s.value)}`;
  return fe.out.line`${g} = ${fe.mod.rt(GROUP_ADD[s.kind])}(${g}, ${fe.local(s.key)}${value});`;
};

/** A memo id of its own for each groups slot: after the funcs' (a memoised func's id is its index). */
export const groupsStmt: Emit<GroupsStmt> = (fe, s) =>
  fe.out.line`${fe.local(s.target)} = ${fe.state}.groups(${fe.mod.policy.funcs.funcs.length + s.slot});`;

export const objectInsertOnceStmt: E<"ObjectInsertOnceStmt"> = (fe, s) => {
  const o = fe.local(s.object);
  const site = fe.mod.conflictSite("object", s);
  return fe.out.line`${o} = ${fe.mod.rt("insertOnce")}(${o}, ${fe.operand(s.key)}, ${fe.operand(s.value)}, ${site});`;
};

export const objectMergeStmt: E<"ObjectMergeStmt"> = (fe, s) =>
  fe.write(s.target, [s.a, s.b], (t) => _`${t} = ${fe.mod.rt("merge")}(${fe.local(s.a)}, ${fe.local(s.b)});`);

export const resultSetAddStmt: E<"ResultSetAddStmt"> = (fe, s) => {
  const d = direct(fe);
  if (d?.add === s) return fe.out.codeLast(fe.returnValue(d.adjacent ? fe.operand(d.value) : fe.local(s.value)));
  if (!fe.result || !("resultSet" in fe.result)) throw new Error("codegen: ResultSetAddStmt outside a plan");
  return fe.out.line`${fe.result.resultSet}.add(${fe.local(s.value)});`;
};
