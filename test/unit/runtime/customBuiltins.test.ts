// Custom builtins given per Authorizer, Engine and HotReloader (`builtins`, as OPA's rego.Function):
// declared to the compiler by their `decl`, called by that instance only; the registered ones
// (registerBuiltins) are every instance's default.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Authorizer, Engine, HotReloader, registerBuiltins, type BuiltinDef, type BuiltinTable } from "regoc";
import { rejected } from "../../support/errors.js";

const STRING_TO_STRING: BuiltinDef["decl"] = { type: "function", args: [{ type: "string" }], result: { type: "string" } };
const greet = (prefix: string): BuiltinTable => ({ "app.greet": { decl: STRING_TO_STRING, fn: (_ctx, name) => `${prefix} ${String(name)}` } });
const POLICY = `package p
allow if app.greet(input.name) == "hello alice"
greeting := app.greet(input.name)
`;

describe("custom builtins per Authorizer, Engine and HotReloader", () => {
  it("an Authorizer calls its own builtins; another Authorizer's of the same name do not interfere", async () => {
    const hello = await Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins: greet("hello") });
    const hi = await Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins: greet("hi") });
    expect(hello.authorizeSync({ name: "alice" })).to.equal(true);
    expect(hello.authorizeSync({ name: "bob" })).to.equal(false);
    expect(hi.authorizeSync({ name: "alice" })).to.equal(false);
  });

  it("without them the policy does not compile (the name is OPA's undefined function)", async () => {
    const e = await rejected(Authorizer.create({ policy: POLICY, query: "data.p.allow" }));
    expect(e.code).to.equal("rego_type_error");
    expect(e.message).to.contain("app.greet");
  });

  it("an Engine's reach its queries and its authorizers", async () => {
    const engine = await Engine.create({ modules: { "p.rego": POLICY }, builtins: greet("hello") });
    expect((await engine.evaluate("data.p.greeting", { name: "bob" }))[0]!.expressions[0]!.value).to.equal("hello bob");
    expect((await engine.evaluate('x := app.greet("carol")'))[0]!.bindings).to.deep.equal({ x: "hello carol" });
    expect(await (await engine.authorizer("data.p.allow")).authorize({ name: "alice" })).to.equal(true);
  });

  it("an async one makes the decision async: authorize answers, authorizeSync refuses", async () => {
    const builtins: BuiltinTable = { "app.greet": { decl: STRING_TO_STRING, async: true, fn: async (_ctx, name) => `hello ${String(name)}` } };
    const authz = await Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins });
    expect(authz.async).to.equal(true);
    expect(await authz.authorize({ name: "alice" })).to.equal(true);
    expect(() => authz.authorizeSync({ name: "alice" })).to.throw(/async builtins/);
  });

  it("a builtin without decl, with a malformed decl, or named as one of OPA's is refused with a compile error", async () => {
    const noDecl = await rejected(Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins: { "app.greet": { fn: () => "x" } } }));
    expect(noDecl.code).to.equal("rego_compile_error");
    expect(noDecl.message).to.contain("app.greet has no decl");
    const badDecl = await rejected(Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins: { "app.greet": { decl: { type: "function", args: [{ type: "text" } as never] }, fn: () => "x" } } }));
    expect(badDecl.message).to.contain("not a type");
    const clash = await rejected(Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins: { count: { decl: STRING_TO_STRING, fn: () => 0 } } }));
    expect(clash.message).to.contain("custom builtin count conflicts with an existing builtin");
  });

  it("a registered builtin with a decl is every instance's default, and an instance's own overrides it", async () => {
    const unregister = registerBuiltins(greet("hello"));
    try {
      expect(await (await Authorizer.create({ policy: POLICY, query: "data.p.allow" })).authorize({ name: "alice" })).to.equal(true);
      const own = await Authorizer.create({ policy: POLICY, query: "data.p.allow", builtins: greet("hi") });
      expect(await own.authorize({ name: "alice" })).to.equal(false);
      const engine = await Engine.create({ modules: { "p.rego": POLICY }, builtins: greet("hi") });
      expect((await engine.evaluate("data.p.greeting", { name: "bob" }))[0]!.expressions[0]!.value).to.equal("hi bob");
    } finally {
      unregister();
    }
  });

  it("a HotReloader compiles every reload with its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "regoc-custom-"));
    try {
      writeFileSync(join(dir, "p.rego"), POLICY);
      const reloader = await HotReloader.create({ dir, query: "data.p.greeting", builtins: greet("hey"), onError: () => {} });
      try {
        expect(await reloader.decide({ name: "dan" })).to.equal("hey dan");
      } finally {
        await reloader.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
