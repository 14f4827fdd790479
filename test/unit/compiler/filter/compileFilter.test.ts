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
