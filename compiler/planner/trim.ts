// Giving back the spare room of a finished func's or plan's arrays. The planner builds blocks
// (and call arguments) by push, and V8 grows an array by half plus 16 slots: a block of two
// statements keeps room for 16. A plan holds some tens of thousands of blocks, all kept until the
// code generator is done, and the garbage collector copies that room with them (about 7 MB for
// the 1 MB policy set). An exact copy, made while the arrays are still young, costs less than
// carrying the room through every copy. Only the arrays' capacity changes: the plan's contents
// and order stay the same.
import type { Block, Stmt } from "../ir/types.js";

/** Replaces the arrays of `blocks`, and of everything inside them, by exactly sized copies;
 * returns the copy of `blocks` itself. */
export function trimBlocks(blocks: Block[]): Block[] {
  for (let i = 0; i < blocks.length; i++) trimBlock(blocks[i]!);
  return blocks.slice();
}

function trimBlock(block: Block): void {
  const stmts = block.stmts;
  for (let i = 0; i < stmts.length; i++) trimStmt(stmts[i]!);
  block.stmts = stmts.slice();
}

function trimStmt(s: Stmt): void {
  switch (s.type) {
    case "BlockStmt":
      s.stmt.blocks = trimBlocks(s.stmt.blocks);
      return;
    case "NotStmt":
    case "ScanStmt":
    case "WithStmt":
      trimBlock(s.stmt.block);
      return;
    case "CallStmt":
      s.stmt.args = s.stmt.args.slice();
      return;
  }
}
