// Data filters: Engine.compileFilter warm (partial evaluation + translation) for OPA's tickets
// policy (test/fixtures/filter, the size of the seed's policies), and listing the rows a user may
// read from a 10 000-row PGlite table: the SQL route (compileFilter, then SELECT ... WHERE) against
// loading every row and deciding per row with an Authorizer (goals: ≤ 1 ms warm; ≥ 20×).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { Authorizer, Engine } from "regoc";
import { usPerCall, type Bench } from "./util.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = (name: string) => readFileSync(`${root}test/fixtures/filter/${name}`, "utf8");

const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(0)} µs`);

const DOCS_POLICY = `package docs

# METADATA
# compile:
#   unknowns: [input.docs]
include if {
  input.docs.tenant == input.tenant
  input.docs.owner == input.user
}

include if {
  input.docs.tenant == input.tenant
  input.docs.owner in data.teams[input.team]
  not input.docs.archived == true
}
`;
const ROWS = 10_000;

async function compileSection(): Promise<string> {
  const engine = await Engine.create({ modules: { "filters.rego": fixture("tickets.rego") } });
  engine.loadData("/roles", JSON.parse(fixture("roles.json")));
  const input = { user: "caesar", tenant: { id: 2, name: "acmecorp" } };
  const lines = ["| compileFilter (tickets policy, warm) | µs per call |", "|---|---:|"];
  for (const target of ["postgresql", "ucast.prisma", "application/vnd.opa.multitarget+json"]) {
    const options = { input, target, targetDialects: ["sql+postgresql", "sql+mysql", "ucast+prisma"] };
    const us = await usPerCall(() => engine.compileFilter("filters/include", options), 500);
    lines.push(`| ${target === "application/vnd.opa.multitarget+json" ? "multi-target (postgresql, mysql, prisma)" : target} | ${us.toFixed(0)} |`);
  }
  return lines.join("\n");
}

async function sqlSection(): Promise<string> {
  const pg = await PGlite.create();
  await pg.exec("CREATE TABLE docs (id INTEGER PRIMARY KEY, tenant TEXT, owner TEXT, title TEXT, archived BOOLEAN)");
  const values: string[] = [];
  for (let i = 0; i < ROWS; i++) values.push(`(${i}, 't${i % 10}', 'u${i % 200}', 'document ${i}', ${i % 7 === 0 ? "TRUE" : i % 11 === 0 ? "NULL" : "FALSE"})`);
  await pg.exec(`INSERT INTO docs VALUES ${values.join(", ")}`);
  const data = { teams: { red: ["u1", "u2", "u3"], blue: ["u4"] } };
  const engine = await Engine.create({ modules: { "docs.rego": DOCS_POLICY } });
  engine.loadData("/", data);
  const authz = await Authorizer.create({ policy: DOCS_POLICY, query: "data.docs.include", data });
  const input = { user: "u1", tenant: "t1", team: "red" };

  const sqlRoute = async () => {
    const f = await engine.compileFilter("docs/include", { input, target: "postgresql" });
    const where = (f.result as { query: string } | undefined)?.query;
    if (where === undefined) return [];
    return (await pg.query(`SELECT * FROM docs ${where}`)).rows;
  };
  const perRow = async () => {
    const rows = (await pg.query<Record<string, unknown>>("SELECT * FROM docs")).rows;
    return rows.filter((docs) => authz.authorizeSync({ ...input, docs }));
  };
  const a = (await sqlRoute()).length;
  const b = (await perRow()).length;
  if (a !== b) throw new Error(`routes disagree: ${a} rows against ${b}`);
  const lines = [
    `${ROWS} rows, ${a} readable by the caller (policy: tenant and owner, or a team member's and not archived).`,
    "",
    "| listing the readable rows | per request | speed-up |",
    "|---|---:|---:|",
  ];
  const perRowUs = await usPerCall(perRow, 3, 5);
  const sqlUs = await usPerCall(sqlRoute, 10, 5);
  await pg.exec("CREATE INDEX docs_owner ON docs (owner)");
  const indexedUs = await usPerCall(sqlRoute, 10, 5);
  lines.push(`| every row loaded, decided per row (Authorizer) | ${fmt(perRowUs)} | 1× |`);
  lines.push(`| compileFilter + SELECT ... WHERE (no index) | ${fmt(sqlUs)} | ${(perRowUs / sqlUs).toFixed(0)}× |`);
  lines.push(`| compileFilter + SELECT ... WHERE (index on owner) | ${fmt(indexedUs)} | ${(perRowUs / indexedUs).toFixed(0)}× |`);
  await pg.close();
  return lines.join("\n");
}

const bench: Bench = {
  title: "Data filters: compileFilter and the SQL route",
  async run() {
    return `${await compileSection()}\n\n${await sqlSection()}\n`;
  },
};
export default bench;
