// The conformance table (cases.ts): each case's residual queries and support modules, printed.
import { expect } from "chai";
import { printModule } from "../../../../compiler/ast/print.js";
import { partialEval, printQuery, printResidual, type PartialOptions } from "../../../../compiler/partial/index.js";
import { cases } from "./cases.js";

describe("partial evaluation: the conformance table", () => {
  it("holds at least 30 cases", () => expect(cases.length).to.be.at.least(30));
  for (const c of cases) {
    it(c.note, async () => {
      const options: PartialOptions = { modules: c.modules ?? {}, query: c.query, unknowns: c.unknowns };
      if (c.input !== undefined) options.input = c.input;
      if (c.data !== undefined) options.data = c.data;
      if (c.disableInlining) options.disableInlining = c.disableInlining;
      const r = await partialEval(options);
      const got = r.queries.map(printQuery);
      expect([...got].sort(), printResidual(r)).to.deep.equal([...c.want].sort());
      expect(r.support.map((m) => printModule(m))).to.deep.equal(c.support ?? []);
    });
  }
});
