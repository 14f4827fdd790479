import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "regoc";
import { MAX_CACHED_QUERIES } from "../../../runtime/engine.js";
import { rejected, thrown } from "../../support/errors.js";

const POLICY = `package app

default allow := false

allow if input.user in data.admins

names contains name if some name, _ in data.users

conflict := x if some x in input.values
`;

/** The engine's cache of compiled queries (private: caching is only visible as speed otherwise). */
function compiledQueries(engine: Engine): Map<string, Promise<unknown>> {
  return (engine as unknown as { cache: Map<string, Promise<unknown>> }).cache;
}

describe("Engine", () => {
  let engine: Engine;
  beforeEach(async () => {
    engine ??= await Engine.create({ modules: { "app.rego": POLICY } });
    engine.loadData("/", { admins: ["root"], users: { alice: {}, bob: {} } });
  });

  describe("evaluate: OPA's result set", () => {
    it("a rule: one expression with its value, text and location, no bindings", async () => {
      expect(await engine.evaluate("data.app.allow", { user: "root" })).to.deep.equal([
        { expressions: [{ value: true, text: "data.app.allow", location: { row: 1, col: 1 } }], bindings: {} },
      ]);
      expect(await engine.evaluate("data.app.allow", { user: "eve" })).to.deep.equal([
        { expressions: [{ value: false, text: "data.app.allow", location: { row: 1, col: 1 } }], bindings: {} },
      ]);
    });

    it("sets come back as sorted arrays", async () => {
      const rs = await engine.evaluate("data.app.names");
      expect(rs[0]!.expressions[0]!.value).to.deep.equal(["alice", "bob"]);
    });

    it("bindings of every solution; assignments report true", async () => {
      const rs = await engine.evaluate("some name; data.users[name]; x := upper(name)");
      expect(rs).to.have.length(2);
      const sorted = rs.slice().sort((a, b) => String(a.bindings.name).localeCompare(String(b.bindings.name)));
      expect(sorted.map((r) => r.bindings)).to.deep.equal([
        { name: "alice", x: "ALICE" },
        { name: "bob", x: "BOB" },
      ]);
      expect(sorted[0]!.expressions.map((e) => [e.text, e.value, e.location.col])).to.deep.equal([
        ["some name", true, 1],
        ["data.users[name]", {}, 12],
        ["x := upper(name)", true, 30],
      ]);
    });

    it("an undefined query is the empty result set", async () => {
      expect(await engine.evaluate("data.app.nothing")).to.deep.equal([]);
      expect(await engine.evaluate("data.admins[_] == \"eve\"")).to.deep.equal([]);
    });

    it("a query without modules evaluates over data alone", async () => {
      const bare = await Engine.create();
      bare.loadData("/x", { y: [1, 2, 3] });
      const rs = await bare.evaluate("n := count(data.x.y)");
      expect(rs[0]!.bindings).to.deep.equal({ n: 3 });
    });

    it("caches compiled queries (the same query compiles once, also when first used concurrently)", async () => {
      const fresh = await Engine.create({ modules: { "app.rego": POLICY } });
      fresh.loadData("/", { admins: ["root"] });
      const cache = compiledQueries(fresh);
      const query = "data.app.allow == true";
      const first = fresh.evaluate(query, { user: "root" });
      const compiled = cache.get(query);
      expect(compiled).to.be.instanceOf(Promise);
      const second = fresh.evaluate(query, { user: "eve" }); // while the first still compiles
      expect(cache.get(query)).to.equal(compiled);
      // (a query of one comparison reports its value, as opa eval does)
      const results = await Promise.all([first, second, fresh.evaluate(query, { user: "root" })]);
      expect(results.map((rs) => rs.map((r) => r.expressions[0]!.value))).to.deep.equal([[true], [false], [true]]);
      expect(cache.get(query)).to.equal(compiled);
      expect(cache.size).to.equal(2); // the query, and the "true" that Engine.create compiles to check the modules
    });

    it("keeps the MAX_CACHED_QUERIES most recently used compiled queries", async function () {
      this.timeout(120_000);
      const fresh = await Engine.create({ modules: { "app.rego": POLICY } });
      const cache = compiledQueries(fresh);
      const kept = "data.app.allow";
      await fresh.evaluate(kept);
      for (let i = 0; i < MAX_CACHED_QUERIES; i++) {
        await fresh.evaluate(`data.app.p${i}`);
        if (i % 100 === 0) await fresh.evaluate(kept); // used again: stays
      }
      expect(cache.size).to.equal(MAX_CACHED_QUERIES);
      expect(cache.has(kept)).to.equal(true);
      expect(cache.has("data.app.p0")).to.equal(false);
      expect(cache.has(`data.app.p${MAX_CACHED_QUERIES - 1}`)).to.equal(true);
    });

    it("evaluation errors are thrown with their code", async () => {
      const e = await rejected(engine.evaluate("data.app.conflict", { values: [1, 2] }));
      expect(e.code).to.equal("eval_conflict_error");
    });

    it("compile errors of a query are wrapped and not cached", async () => {
      const e = await rejected(engine.evaluate("data.app.allow ==", {}));
      expect(e.code).to.equal("rego_parse_error");
      expect(e.message).to.match(/^Engine: query "data.app.allow ==" does not compile/);
      expect((await rejected(engine.evaluate("x == 1"))).code).to.equal("rego_unsafe_var_error");
      expect((await rejected(engine.evaluate(""))).code).to.equal("rego_compile_error");
      expect(compiledQueries(engine).has("data.app.allow ==")).to.equal(false);
      expect(compiledQueries(engine).has("x == 1")).to.equal(false);
    });
  });

  describe("loadData", () => {
    it("writes at a path, creating missing parents, seen by the next evaluation", async () => {
      engine.loadData("/admins", ["eve"]);
      expect((await engine.evaluate("data.app.allow", { user: "eve" }))[0]!.expressions[0]!.value).to.equal(true);
      engine.loadData("/deep/er/path", 1);
      expect(engine.store.read("/deep")).to.deep.equal({ er: { path: 1 } });
    });

    it("takes the path with or without the leading / (OPA's storage paths and its services' descriptions)", async () => {
      engine.loadData("permissions", { alice: ["read"] });
      engine.loadData("/permissions/bob", ["write"]);
      engine.loadData("permissions/carol", []);
      expect(engine.store.read("/permissions")).to.deep.equal({ alice: ["read"], bob: ["write"], carol: [] });
      expect((await engine.evaluate("data.permissions.alice[0]"))[0]!.expressions[0]!.value).to.equal("read");
    });

    it("copies the value: later changes to the caller's object do not reach the store", () => {
      const v = { list: [1] };
      engine.loadData("/copied", v);
      v.list.push(2);
      expect(engine.store.read("/copied")).to.deep.equal({ list: [1] });
    });

    it("keeps __proto__ and constructor as ordinary keys", async () => {
      const value = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
      engine.loadData("/weird", value);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      const rs = await engine.evaluate('data.weird["__proto__"].polluted');
      expect(rs[0]!.expressions[0]!.value).to.equal(true);
    });

    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const bad: [string, unknown][] = [
      ["a BigInt", { n: 10n }],
      ["a cycle", cycle],
      ["a function", { f: () => 1 }],
      ["undefined", undefined],
      ["NaN", { n: NaN }],
      ["a class instance", { d: new Date(0) }],
      ["a symbol", { s: Symbol("s") }],
    ];
    for (const [what, value] of bad) {
      it(`refuses ${what} with a clear error and leaves the store unchanged`, () => {
        const before = engine.store.read();
        const e = thrown(() => engine.loadData("/new/place", value));
        expect(e.code).to.equal("storage_invalid_value_error");
        expect(e.message).to.match(/is not JSON/);
        expect(engine.store.read()).to.equal(before);
        expect(engine.store.read("/new")).to.equal(undefined);
      });
    }

    it("refuses a non-object root and bad paths, leaving the store unchanged", () => {
      const before = engine.store.read();
      expect(thrown(() => engine.loadData("/", [1])).code).to.equal("storage_invalid_value_error");
      expect(thrown(() => engine.loadData("", 1)).code).to.equal("storage_invalid_path_error");
      expect(thrown(() => engine.loadData("/a//b", 1)).code).to.equal("storage_invalid_path_error");
      expect(thrown(() => engine.loadData("/admins/0/x", 1)).code).to.equal("storage_not_found_error");
      expect(engine.store.read()).to.equal(before);
    });
  });

  describe("create", () => {
    it("loads every .rego file of policyDir", async () => {
      const dir = mkdtempSync(join(tmpdir(), "regoc-engine-"));
      try {
        mkdirSync(join(dir, "sub"));
        writeFileSync(join(dir, "a.rego"), "package a\nx := data.b.y + 1");
        writeFileSync(join(dir, "sub", "b.rego"), "package b\ny := 41");
        writeFileSync(join(dir, "notes.txt"), "not rego");
        const e = await Engine.create({ policyDir: dir });
        expect(Object.keys(e.modules)).to.have.length(2);
        expect((await e.evaluate("data.a.x"))[0]!.expressions[0]!.value).to.equal(42);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("fails with the wrapped compile error of a bad module", async () => {
      const e = await rejected(Engine.create({ modules: { "bad.rego": "package bad\np if q" } }));
      expect(e.code).to.equal("rego_unsafe_var_error");
      expect(e.location).to.include({ file: "bad.rego", row: 2 });
    });

    it("fails clearly for a missing or empty policyDir", async () => {
      const missing = await rejected(Engine.create({ policyDir: "/nonexistent/regoc" }));
      expect(missing.code).to.equal("rego_compile_error");
      expect(missing.message).to.match(/^Engine: cannot read policyDir "\/nonexistent\/regoc": /);
      const dir = mkdtempSync(join(tmpdir(), "regoc-engine-"));
      try {
        const empty = await rejected(Engine.create({ policyDir: dir }));
        expect(empty.code).to.equal("rego_compile_error");
        expect(empty.message).to.equal(`Engine: no .rego files in policyDir ${JSON.stringify(dir)}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("gives Authorizers that share its store", async () => {
      const a = await engine.authorizer("data.app.allow");
      expect(a.store).to.equal(engine.store);
      expect(a.authorizeSync({ user: "zoe" })).to.equal(false);
      engine.loadData("/admins", ["zoe"]);
      expect(a.authorizeSync({ user: "zoe" })).to.equal(true);
    });
  });
});
