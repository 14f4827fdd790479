// Data filters on real databases: for each filter policy, random tables (NULLs, strings with %,
// _, quotes and backslashes) and random inputs, the rows the generated WHERE clause selects in
// PostgreSQL (PGlite) and SQLite (sql.js) are exactly the rows for which a full evaluation of the
// policy, with that row as the unknown (`input.docs`), allows. The WHERE clause comes from the
// whole route (Engine.compileFilter: partial evaluation, then translation); the full evaluation
// from the ahead-of-time route (compileRego). A NULL column is read two ways: as a JSON null (the
// row as a database driver returns it) and as a missing field. SQL has one NULL for both, and
// some conditions answer differently for the two (`!=`, `<`, `<=`, existence checks); the
// policies whose filter cannot be exact under a reading are in filter-db-known-failures.json,
// checked to still differ.
import assert from "node:assert/strict";
import fc from "fast-check";
import { PGlite } from "@electric-sql/pglite";
import initSqlJs, { type Database } from "sql.js";
import { compileRego } from "regoc/compiler";
import { Engine } from "regoc";
import { type PreparedQuery } from "../../runtime/eval/prepared.js";
import { readFileSync } from "node:fs";
import type { SqlDialect } from "../../compiler/filter/targets.js";

interface Row {
  id: number;
  owner: string | null;
  tenant: string | null;
  title: string | null;
  level: number | null;
  archived: boolean | null;
}

interface Input {
  user: string;
  tenant: string;
  role: string;
  friends: string[];
  prefix: string;
  min: number;
}

const DATA = { levels: { reader: 1, editor: 3 } };

/** How the full evaluation reads a NULL column: a JSON null, or a field the row does not have. */
type NullReading = "null" | "missing";
const READINGS: NullReading[] = ["null", "missing"];

interface Policy {
  name: string;
  rego: string;
  dialects: SqlDialect[];
}

interface KnownFailure {
  policy: string;
  reading: NullReading;
  reason: string;
}

const KNOWN: KnownFailure[] = JSON.parse(readFileSync(new URL("./filter-db-known-failures.json", import.meta.url), "utf8")) as KnownFailure[];

const BOTH: SqlDialect[] = ["postgresql", "sqlite"];

export const POLICIES: Policy[] = [
  {
    name: "ownership",
    rego: `package filters
include if input.docs.owner == input.user`,
    dialects: BOTH,
  },
  {
    name: "tenant + role",
    rego: `package filters
include if {
  input.docs.tenant == input.tenant
  input.role == "admin"
}
include if {
  input.docs.tenant == input.tenant
  input.docs.level <= data.levels[input.role]
}`,
    dialects: BOTH,
  },
  {
    name: "sharing list with in",
    rego: `package filters
include if input.docs.owner == input.user
include if input.docs.owner in input.friends`,
    dialects: BOTH,
  },
  {
    name: "string prefix",
    rego: `package filters
include if startswith(input.docs.title, input.prefix)
include if {
  input.docs.level > input.min
  not input.docs.title == input.prefix
}`,
    // SQLite's LIKE ignores case: OPA (and regoc) do not translate startswith for it
    dialects: ["postgresql"],
  },
  {
    name: "not",
    rego: `package filters
include if {
  input.docs.tenant == input.tenant
  not input.docs.archived == true
  input.docs.owner != input.user
}
include if {
  not input.docs.level < input.min
  not input.docs.owner in input.friends
}`,
    dialects: BOTH,
  },
  {
    name: "two fields, constant on the left",
    rego: `package filters
include if {
  input.min <= input.docs.level
  input.docs.owner != input.docs.title
}
include if input.docs.title == input.docs.owner
include if {
  not input.docs.level > input.min
  not input.docs.title < input.docs.owner
}`,
    dialects: BOTH,
  },
  {
    name: "existence checks",
    rego: `package filters
include if {
  input.docs.owner = _
  input.docs.tenant == input.tenant
}
include if {
  x := input.docs.title
  input.docs.level >= input.min
}
include if {
  _ = input.docs.archived
  not input.docs.level > input.min
}`,
    dialects: BOTH,
  },
  {
    // a negated rule whose body compares with `>` is a support rule, outside the fragment (as in
    // OPA): these negations inline
    name: "not over rules",
    rego: `package filters
blocked if input.docs.tenant == "t2"
archived if input.docs.archived == true
include if {
  input.docs.level >= input.min
  not blocked
}
include if {
  not archived
  input.docs.owner == input.user
}`,
    dialects: BOTH,
  },
];

const NAMES = ["alice", "bob", "a%", "a_", "o'neil", "back\\slash", "Alice", "", "é"];
const name = fc.constantFrom(...NAMES);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });

const rowsArb = fc
  .array(
    fc.record({
      owner: nullable(name),
      tenant: nullable(fc.constantFrom("t1", "t2", "t'3")),
      title: nullable(fc.oneof(name, fc.string({ maxLength: 4, unit: fc.constantFrom("a", "b", "%", "_", "'", "\\", "A") }))),
      level: nullable(fc.integer({ min: 0, max: 5 })),
      archived: nullable(fc.boolean()),
    }),
    { maxLength: 12 },
  )
  .map((rs) => rs.map((r, id) => ({ id, ...r }) as Row));

const inputArb: fc.Arbitrary<Input> = fc.record({
  user: name,
  tenant: fc.constantFrom("t1", "t2", "t'3"),
  role: fc.constantFrom("admin", "reader", "editor", "guest"),
  friends: fc.uniqueArray(name, { maxLength: 3 }),
  prefix: fc.oneof(name, fc.constantFrom("a", "%", "_", "\\", "'", "b%")),
  min: fc.integer({ min: 0, max: 5 }),
});

const COLUMNS = "id INTEGER, owner TEXT, tenant TEXT, title TEXT, level INTEGER, archived BOOLEAN";

interface Db {
  reset(rows: readonly Row[]): Promise<void>;
  select(where: string): Promise<number[]>;
}

async function postgres(): Promise<Db> {
  const pg = await PGlite.create();
  await pg.exec(`CREATE TABLE docs (${COLUMNS})`);
  return {
    async reset(rows) {
      await pg.exec("DELETE FROM docs");
      for (const r of rows) {
        await pg.query("INSERT INTO docs VALUES ($1, $2, $3, $4, $5, $6)", [r.id, r.owner, r.tenant, r.title, r.level, r.archived]);
      }
    },
    async select(where) {
      const res = await pg.query<{ id: number }>(`SELECT id FROM docs ${where} ORDER BY id`);
      return res.rows.map((r) => r.id);
    },
  };
}

async function sqlite(): Promise<Db> {
  const SQL = await initSqlJs();
  const db: Database = new SQL.Database();
  db.run(`CREATE TABLE docs (${COLUMNS})`);
  return {
    async reset(rows) {
      db.run("DELETE FROM docs");
      for (const r of rows) {
        db.run("INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?)", [r.id, r.owner, r.tenant, r.title, r.level, r.archived === null ? null : r.archived ? 1 : 0]);
      }
    },
    async select(where) {
      const res = db.exec(`SELECT id FROM docs ${where} ORDER BY id`);
      return (res[0]?.values ?? []).map((v) => Number(v[0]));
    },
  };
}

/** The ids of the rows a full evaluation of the policy allows, NULL columns read as `reading`. */
function allowed(prepared: PreparedQuery, input: Input, rows: readonly Row[], reading: NullReading): number[] {
  const doc = (r: Row) => (reading === "null" ? r : Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));
  return rows.filter((r) => prepared.evaluateSync({ input: { ...input, docs: doc(r) }, data: DATA }).length > 0).map((r) => r.id);
}

/** The WHERE clause of the full route (partial evaluation, then translation); undefined: deny. */
async function whereFor(engine: Engine, input: Input, dialect: SqlDialect): Promise<string | undefined> {
  const body = await engine.compileFilter("filters/include", { input, unknowns: ["input.docs"], target: dialect });
  return (body.result as { query: string } | undefined)?.query;
}

describe("data filters on PostgreSQL (PGlite) and SQLite (sql.js): the WHERE selects exactly the allowed rows", function () {
  this.timeout(300_000);
  const dbs: Partial<Record<SqlDialect, Db>> = {};
  before(async () => {
    dbs.postgresql = await postgres();
    dbs.sqlite = await sqlite();
  });

  for (const p of POLICIES) {
    for (const dialect of p.dialects) {
      for (const reading of READINGS) {
        const known = KNOWN.find((k) => k.policy === p.name && k.reading === reading);
        it(`${p.name} (${dialect}, NULL as ${reading}${known ? ": known to differ" : ""})`, async () => {
          const prepared = await compileRego({ modules: { "filters.rego": p.rego }, entrypoints: ["filters/include"] });
          const engine = await Engine.create({ modules: { "filters.rego": p.rego } });
          engine.loadData("/", DATA);
          const db = dbs[dialect]!;
          const property = fc.asyncProperty(rowsArb, inputArb, async (rows, input) => {
            const expected = allowed(prepared, input, rows, reading);
            const where = await whereFor(engine, input, dialect);
            await db.reset(rows);
            const got = where === undefined ? [] : await db.select(where);
            assert.deepEqual(got, expected, `WHERE: ${where}`);
          });
          if (!known) return void (await fc.assert(property, { numRuns: 60 }));
          const run = await fc.check(property, { numRuns: 200 });
          assert.ok(run.failed, `${p.name} with NULL as ${reading} now holds: drop it from filter-db-known-failures.json`);
        });
      }
    }
  }
});
