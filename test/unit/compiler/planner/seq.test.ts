// Sequences planned in a loop (flat.ts): flat items share the planner's one continuation probe,
// whose state each sequence saves and puts back, so sequences planned inside an item (an array
// inside a call's operands, say) continue the item they are part of exactly once, in order.
import assert from "node:assert/strict";
import { planSeq } from "../../../../compiler/planner/flat.js";
import { Planner } from "../../../../compiler/planner/planner.js";
import * as S from "../../../../compiler/planner/stmts.js";

function planner(): Planner {
  return new Planner({ modules: [], ruleRef: () => [], ruleTree: { values: [], children: new Map() }, builtins: new Map(), queries: [] });
}

/** A flat item: appends a statement (`name`), then continues. */
function item(p: Planner, log: string[], name: string, next: () => void): void {
  log.push(name);
  p.append(S.NopStmt(p));
  next();
}

describe("planner: sequences", () => {
  it("plans flat items in a loop, a sequence inside an item continuing it once", () => {
    const p = planner();
    const block = p.openBlock();
    const log: string[] = [];
    let outerDone = 0;
    planSeq(
      p,
      3,
      () => true,
      (i, next) => {
        if (i !== 1) return item(p, log, `outer${i}`, next);
        // item 1 is itself a sequence of two flat items, then continues the outer one
        planSeq(
          p,
          2,
          () => true,
          (j, inner) => item(p, log, `inner${j}`, inner),
          () => {
            log.push("inner done");
            next();
          },
        );
      },
      () => {
        outerDone++;
        log.push("outer done");
      },
    );
    assert.deepEqual(log, ["outer0", "inner0", "inner1", "inner done", "outer2", "outer done"]);
    assert.equal(outerDone, 1);
    assert.equal(p.closeBlock(block).stmts.length, 4);
  });

  it("nests the rest after an item that is not flat, and ends at an item that cannot hold", () => {
    const p = planner();
    const log: string[] = [];
    planSeq(
      p,
      4,
      (i) => i !== 1,
      (i, next, flat) => {
        log.push(`${i}${flat ? "" : " nested"}`);
        if (i === 1) {
          // not flat: continues twice (say, once per block), the rest planned each time
          next();
          next();
        } else if (i !== 3) next();
      },
      () => log.push("done"),
    );
    // item 3 never continues: the sequence ends there, unplanned
    assert.deepEqual(log, ["0", "1 nested", "2", "3", "2", "3"]);
  });

  it("refuses a flat item that continues twice (a planner bug)", () => {
    const p = planner();
    assert.throws(
      () =>
        planSeq(
          p,
          1,
          () => true,
          (_i, next) => {
            next();
            next();
          },
          () => undefined,
        ),
      /internal error in the planner: a flat planning step nested its continuation/,
    );
  });
});
