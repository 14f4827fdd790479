import { expect } from "chai";
import { thrown } from "../../../support/errors.js";
import { Engine } from "regoc";
import { Store } from "../../../../runtime/store/index.js";

const code = (fn: () => unknown): string => thrown(fn).code;

describe("Store", () => {
  it("adds, replaces and removes at slash paths in a committed transaction", () => {
    const s = new Store({ a: { b: [1, 2] } });
    s.write((t) => {
      t.add("/a/c", { d: true });
      t.add("/a/b/-", 3);
      t.add("/a/b/0", 0);
      t.replace("/a/c/d", false);
      t.remove("/a/b/1");
    });
    expect(s.read()).to.deep.equal({ a: { b: [0, 2, 3], c: { d: false } } });
  });

  it("keeps snapshots immutable and shares untouched subtrees", () => {
    const s = new Store({ x: { big: [1, 2, 3] }, y: { n: 1 } });
    const before = s.read() as Record<string, unknown>;
    s.write((t) => t.replace("/y/n", 2));
    const after = s.read() as Record<string, unknown>;
    expect(before).to.deep.equal({ x: { big: [1, 2, 3] }, y: { n: 1 } });
    expect(after.x).to.equal(before.x);
    expect(after.y).to.deep.equal({ n: 2 });
  });

  it("an aborted or failed transaction changes nothing", () => {
    const s = new Store({ a: 1 });
    const t = s.begin();
    t.add("/b", 2);
    t.abort();
    expect(s.read()).to.deep.equal({ a: 1 });
    expect(
      code(() =>
        s.write((txn) => {
          txn.add("/c", 3);
          txn.add("/missing/child", 4);
        }),
      ),
    ).to.equal("storage_not_found_error");
    expect(s.read()).to.deep.equal({ a: 1 });
  });

  it("gives clear storage_* errors for missing parents and bad paths", () => {
    const s = new Store({ a: { b: [1] } });
    expect(code(() => s.write((t) => t.add("/nope/x", 1)))).to.equal("storage_not_found_error");
    expect(code(() => s.write((t) => t.replace("/a/zz", 1)))).to.equal("storage_not_found_error");
    expect(code(() => s.write((t) => t.remove("/a/b/5")))).to.equal("storage_not_found_error");
    expect(code(() => s.write((t) => t.add("", 1)))).to.equal("storage_invalid_path_error");
    expect(code(() => s.write((t) => t.add("//a", 1)))).to.equal("storage_invalid_path_error");
    expect(code(() => s.write((t) => t.add("/a//b", 1)))).to.equal("storage_invalid_path_error");
    expect(code(() => s.write((t) => t.add("/a/b/x", 1)))).to.equal("storage_invalid_path_error");
    expect(s.read()).to.deep.equal({ a: { b: [1] } });
  });

  it("reads and writes slash paths with or without the leading /", () => {
    const s = new Store({ permissions: { alice: ["read"] } });
    expect(s.read("permissions")).to.deep.equal({ alice: ["read"] });
    expect(s.read("permissions/alice/0")).to.equal("read");
    s.write((t) => t.add("permissions/bob", ["write"]));
    expect(s.read("/permissions/bob")).to.deep.equal(["write"]);
  });

  it("refuses values that are not JSON and stays unchanged", () => {
    const s = new Store({});
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    for (const bad of [10n, cyc, () => 1, { d: new Date(0) }, Number.NaN, { u: undefined }]) {
      expect(code(() => s.write((t) => t.add("/x", bad)))).to.equal("storage_invalid_value_error");
    }
    expect(s.read()).to.deep.equal({});
  });

  it("refuses sparse arrays, Array subclasses, throwing getters and too deep values with a clear error", () => {
    const s = new Store({});
    class Tagged extends Array<number> {}
    const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const getter = { get token(): string {
      throw new Error("no access");
    } };
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const cases: [unknown, RegExp][] = [
      [{ list: sparse }, /^\/x\.list\[1\]: a hole in a sparse array is not JSON$/],
      [new Array(3), /^\/x\[0\]: a hole in a sparse array is not JSON$/],
      [Tagged.from([1, 2]), /^\/x: an instance of Tagged is not JSON$/],
      [{ g: getter }, /^\/x\.g\.token: reading it threw Error: no access$/],
      [new Proxy({}, { ownKeys: () => { throw new Error("trap"); } }), /^\/x: reading it threw Error: trap$/],
      [deep, /^\/x: value nested too deeply/],
    ];
    for (const [bad, message] of cases) {
      const err = thrown(() => s.write((t) => t.add("/x", bad)));
      expect(err.code).to.equal("storage_invalid_value_error");
      expect(err.message).to.match(message);
    }
    expect(s.read()).to.deep.equal({});
  });

  it("copies values in, so the caller's later changes do not reach the store", () => {
    const v = { list: [1] };
    const s = new Store({});
    s.write((t) => t.add("/v", v));
    v.list.push(2);
    expect(s.read("/v/list")).to.deep.equal([1]);
  });

  it("what the store holds is frozen: a value read out (a decision's result) cannot change later decisions", async () => {
    const s = new Store({ users: { bob: { admin: false } }, list: [1] });
    s.write((t) => t.add("/users/carol", { admin: false }));
    s.write((t) => t.remove("/list/0"));
    const read = s.read() as { users: Record<string, { admin: boolean }>; list: number[] };
    expect(() => (read.users["bob"]!.admin = true)).to.throw(TypeError);
    expect(() => (read.users["carol"]!.admin = true)).to.throw(TypeError);
    expect(() => read.list.push(2)).to.throw(TypeError);
    expect(() => delete read.users["bob"]).to.throw(TypeError);
    const engine = await Engine.create({ modules: { "a.rego": "package authz\n\nusers := data.users\n\nallow if data.users[input.u].admin == true\n" } });
    engine.loadData("/users", { bob: { admin: false } });
    const users = (await engine.evaluate("data.authz.users"))[0]!.expressions[0]!.value as Record<string, { admin: boolean }>;
    expect(() => (users["bob"]!.admin = true)).to.throw(TypeError);
    expect((await engine.evaluate("data.authz.allow", { u: "bob" }))).to.deep.equal([]);
  });

  it("keeps __proto__ an ordinary key and leaves Object.prototype alone", () => {
    const s = new Store({});
    s.write((t) => t.add("/x", JSON.parse('{"__proto__": {"polluted": 1}}')));
    expect(Object.keys(s.read("/x") as object)).to.deep.equal(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it("allows one write transaction at a time and notifies listeners on commit", () => {
    const s = new Store({});
    let seen = 0;
    s.onCommit(() => seen++);
    const t = s.begin();
    expect(code(() => s.begin())).to.equal("storage_transaction_error");
    t.add("/a", 1);
    t.commit();
    expect(code(() => t.add("/b", 1))).to.equal("storage_transaction_error");
    expect(seen).to.equal(1);
  });
});
