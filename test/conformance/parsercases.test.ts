// OPA's parser cases (../shared/opa/parsercases), one test each: a case expecting an AST must
// give exactly OPA's AST JSON; a case expecting errors must give each with OPA's code, row, col
// and message. Failures we accept are listed in known-failures/parsercases.json as
// `{note: "<file>#<note>", reason}`; an unlisted failure fails, and so does a listed case that
// passes (the list only shrinks). The closing test checks the corpus-wide rates.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describeWithShared, sharedDir } from "../support/shared.js";
import { loadParserCases, runParserCase, type ParserCase } from "./parsercasesRunner.js";

interface KnownFailure {
  note: string;
  reason: string;
}

const known: KnownFailure[] = JSON.parse(readFileSync(new URL("./known-failures/parsercases.json", import.meta.url), "utf8"));
const knownById = new Map(known.map((k) => [k.note, k]));

describeWithShared("OPA parser cases", function () {
  const cases: ParserCase[] = loadParserCases(join(sharedDir, "opa", "parsercases"));
  const tally = { ast: 0, astPass: 0, errors: 0, errorsPass: 0, messages: 0 };

  it("loads the corpus", () => {
    expect(cases.length).to.equal(1965);
    for (const k of known) expect(k.reason, `reason for ${k.note}`).to.match(/\S/);
    const ids = new Set(cases.map((c) => c.id));
    for (const k of known) expect(ids.has(k.note), `known failure ${k.note} names no case`).to.equal(true);
  });

  for (const tc of cases) {
    it(`${tc.version} ${tc.note}`, () => {
      const r = runParserCase(tc);
      const ok = r.pass && r.messagesMatch;
      if (tc.wantAst !== undefined) {
        tally.ast++;
        if (r.pass) tally.astPass++;
      } else {
        tally.errors++;
        if (r.pass) tally.errorsPass++;
        if (r.messagesMatch) tally.messages++;
      }
      const listed = knownById.get(tc.id);
      if (listed) expect(ok, `${tc.id} passes now: remove it from known-failures/parsercases.json`).to.equal(false);
      else expect(ok, `${tc.id}\n${r.detail}`).to.equal(true);
    });
  }

  it("meets the corpus-wide rates (≥ 85% of ASTs, ≥ 90% of error positions)", function () {
    const pct = (n: number, d: number) => (d === 0 ? 100 : (100 * n) / d);
    const line =
      `parser cases: want_ast ${tally.astPass}/${tally.ast} (${pct(tally.astPass, tally.ast).toFixed(1)}%), ` +
      `want_errors code/row/col ${tally.errorsPass}/${tally.errors} (${pct(tally.errorsPass, tally.errors).toFixed(1)}%), ` +
      `messages ${tally.messages}/${tally.errors}`;
    if (process.env.REGOC_VERBOSE) process.stdout.write(`${line}\n`);
    expect(tally.ast + tally.errors, "every case ran").to.equal(cases.length);
    expect(pct(tally.astPass, tally.ast), line).to.be.at.least(85);
    expect(pct(tally.errorsPass, tally.errors), line).to.be.at.least(90);
  });
});
