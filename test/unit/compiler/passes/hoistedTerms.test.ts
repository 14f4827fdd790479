// HoistedTerms (context.ts) answers as the Map<string, Term> it replaced does, whatever the order
// of records and reads: a name recorded again stands for its last term, also when it was read in
// between; a name never recorded has nothing.
import { expect } from "chai";
import type { Term } from "../../../../compiler/ast/nodes.js";
import { HoistedTerms } from "../../../../compiler/passes/context.js";

const loc = { file: "", row: 1, col: 1, offset: 0 } as unknown as Term["location"];
const num = (n: number): Term => ({ type: "number", value: String(n), location: loc }) as unknown as Term;

describe("HoistedTerms", () => {
  it("reads the last term recorded for a name, across interleaved records and reads", () => {
    const h = new HoistedTerms();
    const t1 = num(1);
    const t2 = num(2);
    const t3 = num(3);
    expect(h.get("a")).to.equal(undefined);
    h.set("a", t1);
    h.set("b", t2);
    expect(h.get("a")).to.equal(t1);
    h.set("a", t3);
    expect(h.get("a")).to.equal(t3);
    expect(h.get("b")).to.equal(t2);
    h.set("b", t1);
    h.set("b", t3);
    expect(h.get("b")).to.equal(t3);
    expect(h.get("c")).to.equal(undefined);
  });

  it("matches a Map on random sequences of records and reads", () => {
    // (a fixed linear congruential sequence: the same cases every run)
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const terms = Array.from({ length: 8 }, (_, i) => num(i));
    for (let run = 0; run < 200; run++) {
      const h = new HoistedTerms();
      const m = new Map<string, Term>();
      for (let step = 0; step < 60; step++) {
        const name = `__local${next(6)}__`;
        if (next(3) === 0) {
          const t = terms[next(terms.length)]!;
          h.set(name, t);
          m.set(name, t);
        } else expect(h.get(name), `run ${run} step ${step} ${name}`).to.equal(m.get(name));
      }
    }
  });
});
