// The UCAST that compileFilter writes for Prisma is what OPA's own interpreter,
// @open-policy-agent/ucast-prisma, turns into a Prisma `where`.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { ucastToPrisma } from "@open-policy-agent/ucast-prisma";
import { Engine } from "regoc";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/filter/${name}`, import.meta.url), "utf8");

async function prismaWhere(engine: Engine, path: string, options: Omit<Parameters<Engine["compileFilter"]>[1], "target">, primary: string): Promise<unknown> {
  const body = await engine.compileFilter(path, { ...options, target: "application/vnd.opa.ucast.prisma+json" });
  return ucastToPrisma((body.result as { query: Record<string, unknown> }).query, primary);
}

describe("UCAST for Prisma through @open-policy-agent/ucast-prisma", () => {
  it("the tickets policy: a relation's field, null, false, or/and", async () => {
    const engine = await Engine.create({ modules: { "filters.rego": fixture("tickets.rego") } });
    engine.loadData("/roles", JSON.parse(fixture("roles.json")));
    const where = await prismaWhere(engine, "filters/include", { input: { user: "caesar", tenant: { id: 2, name: "acmecorp" } } }, "tickets");
    expect(where).to.deep.equal({
      OR: [
        { AND: [{ tenant: { equals: 2 } }, { users: { name: { equals: "caesar" } } }] },
        { AND: [{ tenant: { equals: 2 } }, { assignee: { equals: null } }, { resolved: { equals: false } }] },
      ],
    });
  });

  it("not, startswith, a reversed comparison, in, != null", async () => {
    const src = `package f
include if {
  not input.fruits.name == "apple"
  startswith(input.fruits.name, "p")
  3 <= input.fruits.price
  input.fruits.colour in {"red", "green"}
  input.fruits.x != null
}`;
    const engine = await Engine.create({ modules: { "f.rego": src } });
    expect(await prismaWhere(engine, "f/include", { unknowns: ["input.fruits"] }, "fruits")).to.deep.equal({
      AND: [{ NOT: { name: { equals: "apple" } } }, { name: { startsWith: "p" } }, { price: { gte: 3 } }, { colour: { in: ["green", "red"] } }, { x: { not: null } }],
    });
  });
});
