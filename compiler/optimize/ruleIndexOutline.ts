// The cases of a large rule index moved to funcs of their own. A func of hundreds of rule bodies
// is one very large JS function, which engines leave unoptimised (V8 optimises none beyond a
// bytecode size limit): each case becomes a small func, called from its case, that a decision
// runs only when the index selects it.
//   case k: <bodies assigning ret once>   →   case k: CallStmt f#k(params) → t; AssignVarOnce ret ← t
// f#k has f's params and return local and the case's blocks, then returns ret: its bodies assign
// it as they assigned f's, from undefined, and the AssignVarOnce after the call merges that value
// into f's as each body's would have (a conflict between two values is raised either way). Only
// cases whose bodies touch ret by AssignVarOnce alone are moved (rules and functions with a value,
// not partial sets or objects).
import type { Block, Func, IndexCase, Local, Stmt, StmtLocation } from "../ir/types.js";
import { allStmts, forEachStmt, namesLocal } from "../ir/walk.js";
import { maxLocal } from "./stmts.js";

/** Funcs with more statements than this have their index cases moved out. */
export const OUTLINE_OVER = 2000;

/** The func with its IndexStmts' cases moved out when it is large, and the funcs made for them
 * (to be placed before it: callees come first). `names`: the policy's func names, extended. */
export function outlineCases(f: Func, names: Set<string>, over = OUTLINE_OVER): { func: Func; added: Func[] } {
  const added: Func[] = [];
  if (allStmts(f.blocks).length <= over) return { func: f, added };
  let next = maxLocal(f) + 1;
  const outline = (c: IndexCase): IndexCase => {
    const at = valueOnly(c.blocks, f.return);
    if (!at) return c;
    let name = `${f.name}#${added.length}`;
    for (let k = added.length; names.has(name); k++) name = `${f.name}#${k}`;
    names.add(name);
    const loc = { file: at.file, row: at.row, col: at.col };
    // path []: no CallDynamicStmt reaches it (its paths start with a generation tag).
    added.push({ name, params: f.params, return: f.return, blocks: [...c.blocks, { stmts: [{ type: "ReturnLocalStmt", stmt: { source: f.return, ...loc } }] }], path: [] });
    const t = next++;
    const call: Stmt = { type: "CallStmt", stmt: { func: name, args: f.params.map((p) => ({ type: "local", value: p })), result: t, ...loc } };
    const assign: Stmt = { type: "AssignVarOnceStmt", stmt: { source: { type: "local", value: t }, target: f.return, ...loc } };
    return { values: c.values, blocks: [{ stmts: [call, assign] }] };
  };
  const blocks = f.blocks.map((b) => ({
    stmts: b.stmts.map((s): Stmt => (s.type === "IndexStmt" ? { type: "IndexStmt", stmt: { ...s.stmt, cases: s.stmt.cases.map(outline) } } : s)),
  }));
  return { func: added.length > 0 ? { ...f, blocks } : f, added };
}

/** The location of the first AssignVarOnce to ret, if the blocks name ret in nothing else. */
function valueOnly(blocks: readonly Block[], ret: Local): StmtLocation | undefined {
  let at: StmtLocation | undefined;
  let other = false;
  forEachStmt(blocks, (s) => {
    if (!namesLocal(s, ret)) return;
    if (s.type === "AssignVarOnceStmt" && s.stmt.target === ret && !(s.stmt.source.type === "local" && s.stmt.source.value === ret)) at ??= s.stmt;
    else other = true;
  });
  return other ? undefined : at;
}
