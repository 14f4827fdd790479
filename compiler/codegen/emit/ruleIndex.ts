// IndexStmt, the optimiser's rule index (compiler/optimize/ruleIndex.ts): a module-level Map from
// each case's constants to the case's number, made once at load, and a `switch` on the number
// whose cases run their blocks as a BlockStmt runs its children (one level each).
import type { IndexStmt } from "../../ir/types.js";
import { _, comment, join, lit } from "../code.js";
import { labelledBlock } from "./blocks.js";
import type { Emit } from "./context.js";

export const indexStmt: Emit<IndexStmt> = (fe, s) => {
  const mod = fe.mod;
  const entries = s.cases.flatMap((c, i) => c.values.map((v) => _`[${lit(v)}, ${i}]`));
  const map = mod.typed ? _`new Map<${mod.fixed.V}, number>` : _`new Map`;
  const table = mod.moduleConst("ix", _`${map}([${join(entries)}])`, comment(`rule index: ${s.ref} → case`));
  fe.out.open(_`switch (${table}.get(${fe.local(s.key)}))`, null);
  for (let i = 0; i < s.cases.length; i++) {
    fe.out.open(_`case ${i}:`, null);
    for (const b of s.cases[i]!.blocks) labelledBlock(fe, b);
    fe.out.line`break;`;
    fe.out.close();
  }
  fe.out.close();
  return false;
};
