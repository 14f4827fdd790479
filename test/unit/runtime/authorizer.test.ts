import { expect } from "chai";
import { Authorizer, RegoError, Store } from "regoc";
import { rejected, thrown } from "../../support/errors.js";

const POLICY = `package authz

default allow := false

allow if input.user.role == "admin"

allow if data.grants[input.user.id][_] == input.action

value := input.value

conflict := x if some x in input.values

fails if to_number(input.n) > 0
`;

describe("Authorizer", () => {
  let authz: Authorizer;
  before(async () => {
    authz = await Authorizer.create({ policy: POLICY, query: "data.authz.allow", data: { grants: { bob: ["read"] } } });
  });

  it("decides with the policy and its data, sync and async", async () => {
    expect(authz.authorizeSync({ user: { role: "admin" } })).to.equal(true);
    expect(authz.authorizeSync({ user: { id: "bob" }, action: "read" })).to.equal(true);
    expect(authz.authorizeSync({ user: { id: "bob" }, action: "write" })).to.equal(false);
    expect(await authz.authorize({ user: { role: "admin" } })).to.equal(true);
    expect(await authz.authorize({})).to.equal(false);
  });

  it("reads the store at each decision (a committed write is seen at once)", () => {
    expect(authz.authorizeSync({ user: { id: "eve" }, action: "read" })).to.equal(false);
    authz.store.write((t) => t.add("/grants/eve", ["read"]));
    try {
      expect(authz.authorizeSync({ user: { id: "eve" }, action: "read" })).to.equal(true);
    } finally {
      authz.store.write((t) => t.remove("/grants/eve"));
    }
    expect(authz.authorizeSync({ user: { id: "eve" }, action: "read" })).to.equal(false);
  });

  it("accepts a Store as data, shared with its owner", async () => {
    const store = new Store({ grants: {} });
    const a = await Authorizer.create({ modules: { "authz.rego": POLICY }, query: "data.authz.allow", data: store });
    expect(a.store).to.equal(store);
    expect(a.authorizeSync({ user: { id: "x" }, action: "go" })).to.equal(false);
    store.write((t) => t.add("/grants/x", ["go"]));
    expect(a.authorizeSync({ user: { id: "x" }, action: "go" })).to.equal(true);
  });

  it("an undefined decision (empty result) is false", async () => {
    const a = await Authorizer.create({ policy: POLICY, query: "data.authz.value" });
    expect(a.authorizeSync({})).to.equal(false);
    expect(await a.authorize({})).to.equal(false);
    const b = await Authorizer.create({ policy: POLICY + "\nobj := {}", query: "data.authz.obj.missing" });
    expect(b.authorizeSync({ value: true })).to.equal(false);
  });

  for (const value of [1, "true", null, [true], { ok: true }]) {
    it(`a decision of ${JSON.stringify(value)} is eval_invalid_result`, async () => {
      const a = await Authorizer.create({ policy: POLICY, query: "data.authz.value" });
      expect(thrown(() => a.authorizeSync({ value })).code).to.equal("eval_invalid_result");
      expect((await rejected(a.authorize({ value }))).code).to.equal("eval_invalid_result");
    });
  }

  it("an evaluation error is thrown, never turned into a decision", async () => {
    const a = await Authorizer.create({ policy: POLICY, query: "data.authz.conflict" });
    const e = thrown(() => a.authorizeSync({ values: [true, false] }));
    expect(e.code).to.equal("eval_conflict_error");
    expect(e.location).to.include({ file: "policy.rego" });
    expect((await rejected(a.authorize({ values: [true, false] }))).code).to.equal("eval_conflict_error");
    expect(a.authorizeSync({ values: [true] })).to.equal(true);
  });

  it("strict builtin errors are raised when asked for, else the rule is undefined", async () => {
    const lax = await Authorizer.create({ policy: POLICY, query: "data.authz.fails" });
    expect(lax.authorizeSync({ n: "abc" })).to.equal(false);
    const strict = await Authorizer.create({ policy: POLICY, query: "data.authz.fails", evalOptions: { strictBuiltinErrors: true } });
    expect(thrown(() => strict.authorizeSync({ n: "abc" })).code).to.equal("eval_builtin_error");
  });

  it("a policy calling an async builtin (http.send): authorize() awaits it, authorizeSync refuses", async () => {
    const a = await Authorizer.create({
      policy: 'package t\nallow if http.send({"method": "GET", "url": "http://127.0.0.1:1/", "raise_error": false}).status_code == 0',
      query: "data.t.allow",
    });
    expect(a.async).to.equal(true);
    expect(thrown(() => a.authorizeSync({})).code).to.equal("eval_internal_error");
    expect(await a.authorize({})).to.equal(true);
  });

  it("takes a one-expression query as well as a rule path", async () => {
    const a = await Authorizer.create({ policy: POLICY, query: 'data.authz.value == "yes"' });
    expect(a.authorizeSync({ value: "yes" })).to.equal(true);
    expect(a.authorizeSync({ value: "no" })).to.equal(false);
    const n = await Authorizer.create({ policy: POLICY, query: "not data.authz.allow" });
    expect(n.authorizeSync({})).to.equal(true);
    expect(n.authorizeSync({ user: { role: "admin" } })).to.equal(false);
  });

  it("refuses a query of several expressions, or several results", async () => {
    const e = await rejected(Authorizer.create({ policy: POLICY, query: "data.authz.allow; true" }));
    expect(e.code).to.equal("rego_compile_error");
    const a = await Authorizer.create({ policy: POLICY, query: "x := input.xs[_]" });
    expect(a.authorizeSync({ xs: [1] })).to.equal(true);
    expect(thrown(() => a.authorizeSync({ xs: [1, 2] })).code).to.equal("eval_invalid_result");
  });

  describe("creation errors wrap the compile error", () => {
    const cases = [
      { note: "parse error", policy: "package x\nallow if {", code: "rego_parse_error", row: 2 },
      { note: "unsafe var", policy: "package x\nallow if x == 1", code: "rego_unsafe_var_error", row: 2 },
      { note: "unknown function", policy: "package x\nallow if nope(1)", code: "rego_type_error", row: 2 },
      { note: "type error", policy: 'package x\nallow if 1 + "a"', code: "rego_type_error", row: 2 },
    ];
    for (const c of cases) {
      it(c.note, async () => {
        const e = await rejected(Authorizer.create({ policy: c.policy, query: "data.x.allow" }));
        expect(e.code).to.equal(c.code);
        expect(e.message).to.match(/^Authorizer: the policy does not compile: /);
        expect(e.location).to.include({ file: "policy.rego", row: c.row });
        expect((e.cause as RegoError).code).to.equal(c.code);
      });
    }

    it("a query that does not compile", async () => {
      const e = await rejected(Authorizer.create({ policy: POLICY, query: "data.authz.allow[" }));
      expect(e.code).to.equal("rego_parse_error");
    });

    it("bad options", async () => {
      const cases: [unknown, string][] = [
        [undefined, "Authorizer.create: options are required"],
        [{ query: "data.x.allow" }, "Authorizer.create: pass the Rego source as `policy` (a string) or `modules` ({file: source})"],
        [{ policy: POLICY, modules: {}, query: "data.x" }, "Authorizer.create: pass `policy` or `modules`, not both"],
        [{ modules: { "a.rego": 1 }, query: "data.x" }, 'Authorizer.create: module "a.rego" is not a string'],
        [{ modules: {}, query: "data.x" }, "Authorizer.create: `modules` is empty"],
      ];
      for (const [bad, message] of cases) {
        let err: unknown;
        try {
          await Authorizer.create(bad as never);
        } catch (e) {
          err = e;
        }
        expect(err, JSON.stringify(bad)).to.be.instanceOf(TypeError);
        expect((err as TypeError).message).to.equal(message);
      }
      expect((await rejected(Authorizer.create({ policy: POLICY, query: " " }))).code).to.equal("rego_compile_error");
    });

    it("data that is not JSON", async () => {
      const e = await rejected(Authorizer.create({ policy: POLICY, query: "data.authz.allow", data: { n: 1n } }));
      expect(e.code).to.equal("storage_invalid_value_error");
    });
  });
});
