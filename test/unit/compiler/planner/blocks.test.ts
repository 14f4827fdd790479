// Blocks opened inside one another (Planner.openBlock/closeBlock): each gets exactly the
// statements appended while it was the current block, in order, whatever was planned inside it.
import assert from "node:assert/strict";
import { INTERNAL_PLANNER_ERROR, Planner } from "../../../../compiler/planner/planner.js";
import * as S from "../../../../compiler/planner/stmts.js";

function planner(): Planner {
  return new Planner({ modules: [], ruleRef: () => [], ruleTree: { values: [], children: new Map() }, builtins: new Map(), queries: [] });
}

describe("planner: blocks", () => {
  it("gives each block the statements appended while it was current", () => {
    const p = planner();
    const outer = p.openBlock();
    p.append(S.ResetLocalStmt(p, 1));
    const inner = p.openBlock();
    p.append(S.ResetLocalStmt(p, 2));
    p.append(S.ResetLocalStmt(p, 3));
    assert.equal(p.closeBlock(inner), inner);
    const empty = p.openBlock();
    p.closeBlock(empty);
    p.append(S.BlockStmt(p, [inner, empty]));
    p.closeBlock(outer);
    const targets = (b: typeof outer) => b.stmts.map((s) => ("target" in s.stmt ? s.stmt.target : s.type));
    assert.deepEqual(targets(inner), [2, 3]);
    assert.deepEqual(targets(outer), [1, "BlockStmt"]);
    assert.deepEqual(empty.stmts, []);
    // the block current before is current again
    const after = p.openBlock();
    for (let i = 0; i < 7; i++) p.append(S.ResetLocalStmt(p, i));
    assert.deepEqual(targets(p.closeBlock(after)), [0, 1, 2, 3, 4, 5, 6]);
  });

  it("refuses to close a block that is not the current one (a planner bug)", () => {
    const p = planner();
    const outer = p.openBlock();
    p.openBlock();
    assert.throws(() => p.closeBlock(outer), (e: Error) => e.message.includes(INTERNAL_PLANNER_ERROR));
  });
});
