// Trimming a finished func's or plan's arrays (trim.ts): every block, nested block list and call
// argument list is replaced by a copy of itself; nothing else changes.
import assert from "node:assert/strict";
import { trimBlocks } from "../../../../compiler/planner/trim.js";
import type { Block, Stmt } from "../../../../compiler/ir/types.js";

const at = { file: 0, col: 1, row: 2 };

describe("planner: trimming a finished plan's arrays", () => {
  it("copies every array of blocks, statements and call args, keeping contents and order", () => {
    const call: Stmt = { type: "CallStmt", stmt: { func: "g0.data.p", args: [{ type: "local", value: 0 }, { type: "local", value: 1 }], result: 3, ...at } };
    const scanBody: Block = { stmts: [call] };
    const notBody: Block = { stmts: [{ type: "IsDefinedStmt", stmt: { source: 3, ...at } }] };
    const withBody: Block = { stmts: [{ type: "NotStmt", stmt: { block: notBody, ...at } }] };
    const inner: Block = {
      stmts: [
        { type: "ScanStmt", stmt: { source: 0, key: 4, value: 5, block: scanBody, ...at } },
        { type: "WithStmt", stmt: { local: 0, path: [1], value: { type: "local", value: 5 }, block: withBody, ...at } },
      ],
    };
    const innerBlocks = [inner];
    const top: Block = { stmts: [{ type: "BlockStmt", stmt: { blocks: innerBlocks, ...at } }, { type: "BreakStmt", stmt: { index: 0, ...at } }] };
    const blocks = [top];
    const before = JSON.stringify(blocks);
    const olds = [top.stmts, inner.stmts, scanBody.stmts, notBody.stmts, withBody.stmts, call.stmt.args as unknown[]];

    const out = trimBlocks(blocks);

    assert.equal(JSON.stringify(out), before);
    assert.notEqual(out, blocks);
    assert.equal(out[0], top, "the blocks themselves stay");
    const news = [top.stmts, inner.stmts, scanBody.stmts, notBody.stmts, withBody.stmts, call.stmt.args as unknown[]];
    for (let i = 0; i < olds.length; i++) assert.notEqual(news[i], olds[i], `array ${i} copied`);
    assert.notEqual((top.stmts[0]!.stmt as { blocks: Block[] }).blocks, innerBlocks);
  });

  it("leaves an empty list of blocks empty", () => {
    assert.deepEqual(trimBlocks([]), []);
  });
});
