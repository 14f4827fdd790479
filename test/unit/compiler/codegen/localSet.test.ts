// LocalSet (the definedness flow's set of locals) must answer as a Set<number> does after the same
// operations, for small locals (bits) and large ones (beyond the bitset) alike.
import assert from "node:assert/strict";
import fc from "fast-check";
import { LocalSet } from "../../../../compiler/codegen/analysis/localSet.js";

const local = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 0x7fffffff }), fc.constantFrom(31, 32, 65535, 65536));
const op = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), l: local }),
  fc.record({ kind: fc.constant("delete" as const), l: local }),
  fc.record({ kind: fc.constant("intersect" as const), other: fc.array(local, { maxLength: 8 }), minus: fc.option(local, { nil: undefined }), plus: fc.option(local, { nil: undefined }) }),
  fc.record({ kind: fc.constant("copy" as const) }),
);

/** What the flow did with a Set: this ∩ (other − minus + plus). */
function intersectModel(set: Set<number>, other: Set<number>, minus?: number, plus?: number): void {
  for (const x of set) if (x !== plus && (x === minus || !other.has(x))) set.delete(x);
}

describe("codegen: LocalSet", () => {
  it("answers has() as a Set does", () => {
    fc.assert(
      fc.property(fc.array(local, { maxLength: 8 }), fc.array(op, { maxLength: 30 }), fc.array(local, { maxLength: 10 }), (init, ops, probes) => {
        let model = new Set(init);
        let set = LocalSet.of(init);
        const seen = new Set<number>([...init, ...probes]);
        for (const o of ops) {
          if (o.kind === "add") set.add(o.l), model.add(o.l), seen.add(o.l);
          else if (o.kind === "delete") set.delete(o.l), model.delete(o.l), seen.add(o.l);
          else if (o.kind === "copy") {
            const copy = set.copy();
            set.add(7); // the copy is independent: 7 is probed below, so a shared copy is seen
            seen.add(7);
            set = copy;
            model = new Set(model);
          } else {
            set.intersect(LocalSet.of(o.other), o.minus, o.plus);
            intersectModel(model, new Set(o.other), o.minus, o.plus);
            for (const x of [...o.other, o.minus, o.plus]) if (x !== undefined) seen.add(x);
          }
        }
        for (const x of seen) assert.equal(set.has(x), model.has(x), String(x));
      }),
    );
  });
});
