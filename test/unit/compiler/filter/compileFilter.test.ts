// Engine.compileFilter, the whole route: partial evaluation of the policy with the unknowns of the
// request or of its `compile:` METADATA, the mask rule evaluated fully, the residuals translated;
// OPA's compile_handler_test.go tickets policy (test/fixtures/filter) and its error cases.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { Engine, RegoError } from "regoc";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/filter/${name}`, import.meta.url), "utf8");
const TICKETS_SQL = "WHERE ((tickets.tenant = 2 AND users.name = E'caesar') OR (tickets.tenant = 2 AND tickets.assignee IS NULL AND tickets.resolved = FALSE))";
const caesar = { user: "caesar", tenant: { id: 2, name: "acmecorp" } };

async function tickets(): Promise<Engine> {
  const engine = await Engine.create({ modules: { "filters.rego": fixture("tickets.rego") } });
  engine.loadData("/roles", JSON.parse(fixture("roles.json")));
  return engine;
}

async function rejection(p: Promise<unknown>): Promise<RegoError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(RegoError);
    return e as RegoError;
  }
  throw new Error("expected a rejection");
}

describe("Engine.compileFilter", () => {
  it("unknowns and mask rule from the compile: annotation (PostgreSQL)", async () => {
    const engine = await tickets();
    expect(await engine.compileFilter("filters/include", { input: caesar, target: "application/vnd.opa.sql.postgresql+json" })).to.deep.equal({
      result: { query: TICKETS_SQL, masks: { tickets: { id: { replace: { value: "***" } } } } },
    });
  });

  it("mask rule from the request, absolute or relative to the rule's package", async () => {
    const engine = await tickets();
    for (const maskRule of ["data.filters.masks", "masks"]) {
      expect(await engine.compileFilter("data.filters.include", { input: caesar, target: "postgresql", maskRule })).to.deep.equal({
        result: { query: TICKETS_SQL, masks: { tickets: { description: { replace: { value: "***" } } } } },
      });
    }
  });

  it("a non-resolver sees only the tenancy condition (UCAST for Prisma)", async () => {
    const engine = await tickets();
    const bob = { user: "bob", tenant: { id: 2, name: "acmecorp" } };
    expect(await engine.compileFilter("filters/include", { input: bob, target: "ucast.prisma" })).to.deep.equal({
      result: { query: { field: "tickets.tenant", operator: "eq", type: "field", value: 2 }, masks: { tickets: { id: { replace: { value: "***" } } } } },
    });
  });

  it("multi-target, with table mappings per dialect", async () => {
    const engine = await tickets();
    const body = await engine.compileFilter("filters/include", {
      input: caesar,
      target: "application/vnd.opa.multitarget+json",
      targetDialects: ["sql+mysql", "ucast+all"],
      tableMappings: { mysql: { tickets: { $self: "t", tenant: "tenant_id" }, users: { $self: "order" } } },
      maskRule: "data.filters.none",
    });
    expect(body).to.deep.equal({
      result: {
        mysql: { query: "WHERE ((t.tenant_id = 2 AND `order`.name = 'caesar') OR (t.tenant_id = 2 AND t.assignee IS NULL AND t.resolved = FALSE))" },
        ucast: {
          query: {
            operator: "or",
            type: "compound",
            value: [
              { operator: "and", type: "compound", value: [{ field: "tickets.tenant", operator: "eq", type: "field", value: 2 }, { field: "users.name", operator: "eq", type: "field", value: "caesar" }] },
              {
                operator: "and",
                type: "compound",
                value: [
                  { field: "tickets.tenant", operator: "eq", type: "field", value: 2 },
                  { field: "tickets.assignee", operator: "eq", type: "field", value: null },
                  { field: "tickets.resolved", operator: "eq", type: "field", value: false },
                ],
              },
            ],
          },
        },
      },
    });
  });

  it("deny: no result; allow-all: an empty query", async () => {
    const engine = await Engine.create({ modules: { "f.rego": "package f\ninclude if input.open\n" } });
    expect(await engine.compileFilter("f/include", { input: { open: false }, unknowns: ["input.t"], target: "postgresql" })).to.deep.equal({});
    expect(await engine.compileFilter("f/include", { input: { open: true }, unknowns: ["input.t"], target: "postgresql" })).to.deep.equal({ result: { query: "" } });
    expect(await engine.compileFilter("f/include", { input: { open: true }, unknowns: ["input.t"], target: "ucast.all" })).to.deep.equal({ result: { query: {} } });
  });

  it("a constant on the left is translated by its meaning", async () => {
    const engine = await Engine.create({ modules: { "f.rego": "package f\ninclude if 10 <= input.t.price\n" } });
    expect(await engine.compileFilter("f/include", { unknowns: ["input.t"], target: "sqlite" })).to.deep.equal({ result: { query: "WHERE t.price >= 10" } });
  });

  it("an expression outside the fragment: pe_fragment_error at its place in the policy, with a hint", async () => {
    const engine = await Engine.create({ modules: { "filters.rego": "package filters\n\ninclude if startswith(input.fruits.name, input.prefix)\n" } });
    const e = await rejection(engine.compileFilter("filters/include", { input: { prefix: "a" }, unknowns: ["input.fruits"], target: "sqlite" }));
    expect(e.code).to.equal("pe_fragment_error");
    expect(e.message).to.equal("invalid builtin `startswith`: unsupported for SQL (sqlite)");
    expect([e.location?.file, e.location?.row, e.location?.col]).to.deep.equal(["filters.rego", 3, 12]);
    expect((e.details as { hint: string }).hint).to.match(/target/);
    const stmt = await Engine.create({ modules: { "filters.rego": "package filters\n\ninclude if input.fruits.colour\n" } });
    const e2 = await rejection(stmt.compileFilter("filters/include", { unknowns: ["input.fruits"], target: "postgresql" }));
    expect([e2.code, e2.message, e2.location?.row, e2.location?.col]).to.deep.equal(["pe_fragment_error", `invalid statement "input.fruits.colour"`, 3, 12]);
    expect((e2.details as { hint: string }).hint).to.equal("try `input.fruits.colour != false`");
  });

  it("an unknown target: invalid_parameter naming the supported ones", async () => {
    const engine = await tickets();
    const e = await rejection(engine.compileFilter("filters/include", { input: caesar, target: "application/vnd.opa.sql.oracle+json" }));
    expect(e.code).to.equal("invalid_parameter");
    expect(e.message).to.contain("application/vnd.opa.sql.postgresql+json");
  });

  it("unknowns in the annotation that are not input or data refs: invalid_unknown", async () => {
    const src = "package filters\n\n# METADATA\n# compile:\n#  unknowns:\n#   - inpu.fruits\ninclude if input.fruits.colour == input.colour\n";
    const engine = await Engine.create({ modules: { "filters.rego": src } });
    const e = await rejection(engine.compileFilter("filters/include", { input: { colour: "red" }, target: "postgresql" }));
    expect(e.code).to.equal("invalid_unknown");
    expect(e.message).to.equal("unknowns must be prefixed with `input` or `data`: inpu.fruits");
    expect(e.location?.row).to.equal(3);
  });

  it("request unknowns that are not refs of input or data: OPA's codes", async () => {
    const engine = await tickets();
    for (const [unknowns, code] of [
      [["input.tickets", "1 + 1"], "invalid_parameter"],
      [["input.tickets x"], "invalid_parameter"],
      [["inpu.tickets"], "invalid_unknown"],
    ] as const) {
      const e = await rejection(engine.compileFilter("filters/include", { input: caesar, unknowns: [...unknowns], target: "postgresql" }));
      expect(e.code, String(unknowns)).to.equal(code);
    }
  });

  it("no unknowns at all (none in the request, no compile: annotation): invalid_unknown, not an all-or-nothing filter", async () => {
    const engine = await Engine.create({ modules: { "f.rego": "package f\ninclude if not input.docs.archived\n" } });
    const e = await rejection(engine.compileFilter("f/include", { target: "postgresql" }));
    expect(e.code).to.equal("invalid_unknown");
    expect(e.message).to.contain("no unknowns for data.f.include");
  });
});

/** Policies that must never become an allow-all filter: the SQL as a full evaluation of the rule
 * (with the row as input.docs) answers, or a pe_fragment_error at a place in the policy. */
const HOSTILE: { note: string; rego: string; sql?: string; at?: string }[] = [
  { note: "existence check, `= _`", rego: `include if input.docs.owner = _`, sql: "WHERE docs.owner IS NOT NULL" },
  { note: "existence check, `_ =`", rego: `include if _ = input.docs.owner`, sql: "WHERE docs.owner IS NOT NULL" },
  { note: "a var bound to a field and never used", rego: `include if { x := input.docs.owner; input.docs.level > 1 }`, sql: "WHERE (docs.owner IS NOT NULL AND docs.level > 1)" },
  { note: "a function whose argument is a field", rego: `f(_) := true\ninclude if f(input.docs.owner)`, sql: "WHERE docs.owner IS NOT NULL" },
  { note: "a negated existence", rego: `has if input.docs.owner = _\ninclude if not has`, sql: "WHERE docs.owner IS NULL" },
  // OPA's compiler evaluates a dynamic key before the negation: the field must exist
  { note: "a negated data lookup by a field", rego: `include if not data.x[input.docs.owner]`, sql: "WHERE (docs.owner IS NOT NULL AND (docs.owner <> E'a' OR docs.owner IS NULL))" },
  { note: "a field as a bare expression", rego: `include if input.docs.flag`, at: "2:12" },
  { note: "a field bound to a var used as an expression", rego: `include if { x := input.docs.owner; x }`, at: "2:37" },
  { note: "with over an unknown", rego: `include if { input.docs.owner == "a" with input.user as "b" }`, at: "2:14" },
  { note: "a value read under with", rego: `include if { x := input.docs.owner with input.user as "b" }`, at: "2:14" },
  { note: "every over an unknown", rego: `include if every x in input.docs.tags { x == "a" }`, at: "2:12" },
  { note: "every over known values, an unknown in its body", rego: `include if every u in ["a", "b"] { input.docs.owner != u }`, at: "2:12" },
  { note: "else over an unknown", rego: `p := 1 if input.docs.level == 1\nelse := 2\ninclude if p == 2`, at: "2:1" },
  { note: "a comprehension over an unknown, its values unused", rego: `include if { xs := [1 | x := input.docs.owner]; count(xs) > 0 }`, at: "2:20" },
  { note: "a partial set over an unknown", rego: `s contains x if x := input.docs.owner\ninclude if "a" in s`, at: "3:19" },
  { note: "a negated rule with a default", rego: `default allow := false\nallow if input.docs.owner == "a"\ninclude if not allow`, at: "4:12" },
  { note: "http.send over an unknown", rego: `include if input.docs.owner == http.send({"method": "GET", "url": input.docs.url}).body`, at: "2:12" },
  { note: "an unknown as a whole", rego: `include if input.docs == {"owner": "a"}`, at: "2:12" },
];

describe("Engine.compileFilter: hostile policies are exact or refused, never allow-all", () => {
  for (const c of HOSTILE) {
    it(c.note, async () => {
      const engine = await Engine.create({ modules: { "f.rego": `package filters\n${c.rego}\n` } });
      engine.loadData("/", { x: { a: true, b: false } });
      const answer = engine.compileFilter("filters/include", { input: { user: "u" }, unknowns: ["input.docs"], target: "postgresql" });
      if (c.sql !== undefined) return void expect(await answer).to.deep.equal({ result: { query: c.sql } });
      const e = await rejection(answer);
      const first = (e as RegoError & { errors?: RegoError[] }).errors?.[0] ?? e;
      expect(first.code).to.equal("pe_fragment_error");
      expect(`${first.location?.row}:${first.location?.col}`).to.equal(c.at);
    });
  }
});
