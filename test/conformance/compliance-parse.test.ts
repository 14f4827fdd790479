// Every module, query and input term of the compliance cases (../shared/compliance) parses,
// and the ASTs hold the facts a test can check: each rule's location points at its head (or,
// for a second body `{...}`, at that brace), every node's location text is the source at its
// offset, and queries have as many expressions as they have statements.
import { expect } from "chai";
import type { Module, Node, Rule } from "../../compiler/ast/nodes.js";
import { walkExprs, walkTerms } from "../../compiler/ast/visit.js";
import { parseModuleResult, parseQueryResult, parseTermResult } from "../../compiler/syntax/index.js";
import { loadComplianceSources } from "../support/complianceModules.js";
import { describeWithShared } from "../support/shared.js";

function checkLocations(m: Module, text: string, where: string): void {
  for (const rule of m.rules) {
    const at = rule.location.offset;
    const first = rule.head.reference[0]!;
    const name = first.type === "var" ? first.value : "";
    const ok = text.startsWith("default", at) || text.startsWith(name, at) || text[at] === "{";
    expect(ok, `${where}: rule ${name} located at ${rule.location.row}:${rule.location.col}`).to.equal(true);
  }
  for (const n of nodesOf(m)) {
    if (!("location" in n) || !n.location) continue;
    const loc = n.location;
    expect(loc.row, `${where}: ${n.type} row`).to.be.at.least(1);
    expect(loc.col, `${where}: ${n.type} col`).to.be.at.least(0);
    if (loc.text !== "") expect(text.includes(loc.text), `${where}: ${n.type} text ${JSON.stringify(loc.text)}`).to.equal(true);
  }
}

/** Every node of a module that has a location. */
function nodesOf(m: Module): Node[] {
  const out: Node[] = [m.package, ...m.package.path];
  for (const i of m.imports) out.push(i, i.path);
  for (const rule of m.rules) for (let r: Rule | undefined = rule; r; r = r.else) out.push(r, r.head);
  walkTerms(m, (t) => {
    out.push(t);
  });
  walkExprs(m, (e) => {
    out.push(e, ...e.with);
    if (!Array.isArray(e.terms)) out.push(e.terms);
  });
  return out;
}

describeWithShared("compliance modules, queries and input terms parse", function () {
  const cases = loadComplianceSources();
  const counts = { modules: 0, queries: 0, inputTerms: 0 };

  it("loads the corpus", () => {
    expect(cases.length).to.equal(2067);
  });

  for (const c of cases) {
    it(c.note, () => {
      (c.modules ?? []).forEach((text, i) => {
        const file = `${c.note}#${i}`;
        const { module, errors } = parseModuleResult(text, { file });
        expect(errors.map(String), file).to.deep.equal([]);
        checkLocations(module!, text, file);
        counts.modules++;
      });
      if (c.query !== undefined) {
        const { body, errors } = parseQueryResult(c.query);
        expect(errors.map(String), c.query).to.deep.equal([]);
        expect(body!.length).to.be.at.least(1);
        body!.forEach((e, i) => expect(e.index).to.equal(i));
        counts.queries++;
      }
      if (c.input_term !== undefined) {
        const { term, errors } = parseTermResult(c.input_term);
        expect(errors.map(String)).to.deep.equal([]);
        expect(term).to.not.equal(undefined);
        counts.inputTerms++;
      }
    });
  }

  it("parsed every module, query and input term", () => {
    if (process.env.REGOC_VERBOSE) process.stdout.write(`compliance: ${counts.modules} modules, ${counts.queries} queries, ${counts.inputTerms} input terms parsed\n`);
    expect(counts).to.deep.equal({ modules: 2465, queries: 2067, inputTerms: 86 });
  });
});
