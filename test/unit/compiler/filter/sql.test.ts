// SQL per dialect: string literals, LIKE patterns, identifiers, booleans and NULL-faithful
// comparisons, as each database reads them (PostgreSQL and SQLite also run them: the property
// test in test/property/filter-db.test.ts).
import { expect } from "chai";
import { translate } from "../../../../compiler/filter/index.js";
import { parseQuery } from "../../../../compiler/syntax/index.js";

function sql(residual: string, dialect: string, tableMappings?: Record<string, unknown>): string {
  const body = translate({ queries: [parseQuery(residual)] }, { target: dialect, ...(tableMappings ? { tableMappings } : {}) });
  return (body.result as { query: string }).query;
}

const NASTY = JSON.stringify(`it's a "q" \\ line\nend\t`);

describe("data filters: SQL per dialect", () => {
  it("string literals", () => {
    expect(sql(`input.t.s = ${NASTY}`, "postgresql")).to.equal(`WHERE t.s = E'it\\'s a \\"q\\" \\\\ line\\nend\\t'`);
    expect(sql(`input.t.s = ${NASTY}`, "mysql")).to.equal(`WHERE t.s = 'it\\'s a \\"q\\" \\\\ line\\nend\\t'`);
    expect(sql(`input.t.s = ${NASTY}`, "sqlserver")).to.equal(`WHERE t.s = N'it''s a "q" \\ line\nend\t'`);
    expect(sql(`input.t.s = ${NASTY}`, "sqlite")).to.equal(`WHERE t.s = 'it''s a "q" \\ line\nend\t'`);
  });

  it("LIKE patterns: %, _ and the escape character escaped (SQL Server: also [, with ESCAPE)", () => {
    const r = `startswith(input.t.s, "5%_[a]\\\\")`;
    expect(sql(r, "postgresql")).to.equal(`WHERE t.s LIKE E'5\\\\%\\\\_[a]\\\\\\\\%'`);
    expect(sql(r, "mysql")).to.equal(`WHERE t.s LIKE '5\\\\%\\\\_[a]\\\\\\\\%'`);
    expect(sql(r, "sqlserver")).to.equal(`WHERE t.s LIKE N'5\\%\\_\\[a]\\\\%' ESCAPE N'\\'`);
    expect(sql(`not endswith(input.t.s, "x")`, "postgresql")).to.equal(`WHERE (t.s NOT LIKE E'%x' OR t.s IS NULL)`);
  });

  it("identifiers: plain ones as they are, others quoted the dialect's way", () => {
    const m = { t: { $self: "my table", s: "order" } };
    expect(sql(`input.t.s = 1`, "postgresql", m)).to.equal(`WHERE "my table"."order" = 1`);
    expect(sql(`input.t.s = 1`, "sqlite", m)).to.equal(`WHERE "my table"."order" = 1`);
    expect(sql(`input.t.s = 1`, "mysql", m)).to.equal("WHERE `my table`.`order` = 1");
    expect(sql(`input.t.s = 1`, "sqlserver", m)).to.equal("WHERE [my table].[order] = 1");
    expect(sql(`input.t.s = 1`, "postgresql", { t: { $self: "app.docs" } })).to.equal("WHERE app.docs.s = 1");
  });

  it("booleans: TRUE/FALSE, and 1/0 on SQL Server", () => {
    expect(sql(`input.t.b = true`, "postgresql")).to.equal("WHERE t.b = TRUE");
    expect(sql(`input.t.b = false`, "sqlserver")).to.equal("WHERE t.b = 0");
  });

  it("NULL-faithful comparisons: != and < pass NULL, a negation is the complement", () => {
    expect(sql(`input.t.a != "x"`, "postgresql")).to.equal(`WHERE (t.a <> E'x' OR t.a IS NULL)`);
    expect(sql(`input.t.n < 3`, "sqlite")).to.equal(`WHERE (t.n < 3 OR t.n IS NULL)`);
    expect(sql(`input.t.n >= 3`, "sqlite")).to.equal(`WHERE t.n >= 3`);
    expect(sql(`not input.t.n >= 3`, "sqlite")).to.equal(`WHERE (t.n < 3 OR t.n IS NULL)`);
    expect(sql(`not input.t.a = "x"`, "mysql")).to.equal(`WHERE (t.a <> 'x' OR t.a IS NULL)`);
    expect(sql(`not input.t.a = null`, "mysql")).to.equal(`WHERE t.a IS NOT NULL`);
    expect(sql(`input.t.a in ["x", null]`, "sqlite")).to.equal(`WHERE (t.a IN ('x') OR t.a IS NULL)`);
    expect(sql(`not input.t.a in ["x"]`, "sqlite")).to.equal(`WHERE (t.a NOT IN ('x') OR t.a IS NULL)`);
    expect(sql(`input.t.a in []`, "sqlite")).to.equal(`WHERE 1 = 0`);
    expect(sql(`input.t.a = input.t.b`, "postgresql")).to.equal(`WHERE (t.a = t.b OR (t.a IS NULL AND t.b IS NULL))`);
  });
});
