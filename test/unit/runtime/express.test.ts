import { expect } from "chai";
import { authorize, splitPath, type AuthorizeOptions, type RequestInput, type RequestLike } from "regoc/express";
import { Authorizer, RegoError } from "regoc";

interface Outcome {
  status?: number;
  type?: string;
  body?: string;
  next: boolean;
  nextError?: unknown;
  input?: RequestInput;
  logs: string[];
}

type TestRequest = RequestLike & { user?: unknown; principal?: unknown };

function request(over: Partial<TestRequest> = {}): TestRequest {
  return { method: "GET", path: "/users/bob", headers: { host: "example.test" }, user: { id: "bob" }, ...over };
}

/** Runs the middleware once against a fake request/response and records what it did. */
async function run(options: Partial<AuthorizeOptions>, req: RequestLike = request(), headersSent = false): Promise<Outcome> {
  const out: Outcome = { next: false, logs: [] };
  const decide = options.decide ?? (() => true);
  const mw = authorize({
    log: (m) => out.logs.push(m),
    ...options,
    ...(options.authorizer ? {} : { decide: (input: RequestInput, r: RequestLike) => ((out.input = input), decide(input, r)) }),
  });
  const res = {
    headersSent,
    status(code: number) {
      out.status = code;
      return res;
    },
    type(t: string) {
      out.type = t;
      return res;
    },
    send(body: string) {
      out.body = body;
      return res;
    },
  };
  await mw(req, res, (err?: unknown) => {
    out.next = true;
    out.nextError = err;
  });
  return out;
}

describe("regoc/express: authorize()", () => {
  it("requires an authorizer or a decide function", () => {
    expect(() => authorize({})).to.throw(TypeError, /authorizer/);
  });

  describe("answers", () => {
    it("true → next()", async () => {
      const o = await run({ decide: () => true });
      expect(o.next).to.equal(true);
      expect(o.status).to.equal(undefined);
      expect(o.nextError).to.equal(undefined);
    });

    it("false → 403 Forbidden, plain text", async () => {
      const o = await run({ decide: () => false });
      expect(o).to.include({ next: false, status: 403, type: "text/plain", body: "Forbidden" });
    });

    it("a Promise of the decision is awaited", async () => {
      expect(await run({ decide: async () => false })).to.include({ status: 403 });
      expect(await run({ decide: async () => true })).to.include({ next: true });
    });

    for (const user of [undefined, null, "bob", 42, true, ["bob"]]) {
      it(`user ${JSON.stringify(user) ?? "undefined"} (no user object) → 401 Unauthorized, without deciding`, async () => {
        let decided = false;
        const o = await run({ decide: () => (decided = true) }, request({ user }));
        expect(o).to.include({ next: false, status: 401, type: "text/plain", body: "Unauthorized" });
        expect(decided).to.equal(false);
      });
    }

    it("a decision that throws → 500 Internal Server Error, logged without the request's secrets", async () => {
      const req = request({ headers: { authorization: "Bearer SECRET-TOKEN", cookie: "sid=SECRET-COOKIE" }, user: { id: "bob", password: "SECRET-PW" } });
      const o = await run({ decide: () => Promise.reject(new RegoError("eval_conflict_error", "complete rules must not produce multiple outputs")) }, req);
      expect(o).to.include({ next: false, status: 500, type: "text/plain", body: "Internal Server Error" });
      expect(o.logs).to.have.length(1);
      expect(o.logs[0]).to.contain("eval_conflict_error").and.contain("GET /users/bob");
      expect(o.logs[0]).not.to.match(/SECRET/);
    });

    for (const value of [undefined, 1, "true", null, {}]) {
      it(`a decision of ${JSON.stringify(value) ?? "undefined"} (not a boolean) → 500, never next()`, async () => {
        const o = await run({ decide: () => value as unknown as boolean });
        expect(o).to.include({ next: false, status: 500 });
      });
    }

    it("a strict builtin error that quotes its operand is logged by code and location only", async () => {
      const req = request({ headers: { authorization: "Bearer eyJhbGciOi.SECRET" } });
      const location = { file: "authz.rego", row: 7, col: 3 };
      const err = new RegoError("eval_builtin_error", 'to_number: strconv.ParseFloat: parsing "Bearer eyJhbGciOi.SECRET": invalid syntax', location);
      const o = await run({ decide: () => Promise.reject(err) }, req);
      expect(o).to.include({ status: 500, next: false });
      expect(o.logs).to.deep.equal(["regoc/express: decision failed for GET /users/bob: eval_builtin_error at authz.rego:7:3"]);
      const plain = await run({ decide: () => { throw new TypeError("user SECRET-PW is odd"); } }, req);
      expect(plain.logs).to.deep.equal(["regoc/express: decision failed for GET /users/bob: TypeError"]);
    });

    it("getUser or extendInput throwing → 500", async () => {
      const boom = () => {
        throw new Error("boom");
      };
      expect(await run({ getUser: boom })).to.include({ status: 500, next: false });
      expect(await run({ extendInput: boom })).to.include({ status: 500, next: false });
    });

    it("a logger that throws does not keep the 500 from being sent", async () => {
      const o = await run({
        decide: () => {
          throw new Error("x");
        },
        log: () => {
          throw new Error("logger down");
        },
      });
      expect(o).to.include({ status: 500, body: "Internal Server Error", next: false });
    });

    it("sends nothing when the response was already sent", async () => {
      const o = await run({ decide: () => false }, request(), true);
      expect([o.status, o.type, o.body, o.next]).to.deep.equal([undefined, undefined, undefined, false]);
    });
  });

  describe("input", () => {
    it("has method, path, user, headers and the clock's hour", async () => {
      const req = request({ method: "POST", path: "/orders/", headers: { "X-Trace": "a", Accept: ["x", "y"] }, user: { id: "u" } });
      const o = await run({ now: () => new Date(2024, 0, 1, 22, 59), hourOf: (d) => d.getHours() }, req);
      expect(o.input).to.deep.equal({
        method: "POST",
        path: ["orders"],
        user: { id: "u" },
        headers: Object.assign(Object.create(null), { "x-trace": ["a"], accept: ["x", "y"] }),
        time: 22,
      });
    });

    it("the default hour is the local hour of now()", async () => {
      const o = await run({ now: () => new Date(2024, 5, 1, 9, 0) });
      expect(o.input!.time).to.equal(9);
    });

    it("prefers headersDistinct (every value of repeated headers)", async () => {
      const req = request({ headers: { "x-a": "1, 2" }, headersDistinct: { "x-a": ["1", "2"], host: ["h"] } });
      const o = await run({}, req);
      expect(o.input!.headers).to.deep.equal(Object.assign(Object.create(null), { "x-a": ["1", "2"], host: ["h"] }));
    });

    it("keeps header names such as __proto__ and constructor as ordinary keys", async () => {
      const headersDistinct = Object.create(null) as Record<string, string[]>;
      headersDistinct["__proto__"] = ["p"];
      headersDistinct["constructor"] = ["c"];
      const o = await run({}, request({ headersDistinct }));
      const h = o.input!.headers;
      expect(Object.getPrototypeOf(h)).to.equal(null);
      expect(Object.hasOwn(h, "__proto__")).to.equal(true);
      expect(h["__proto__"]).to.deep.equal(["p"]);
      expect(h["constructor"]).to.deep.equal(["c"]);
      expect(({} as Record<string, unknown>).p).to.equal(undefined);
    });

    it("prefers Node's rawHeaders (what Express requests have): names lower-cased, every value in order", async () => {
      const req = request({
        headers: { "x-a": "1, 2, 3", host: "h" },
        headersDistinct: { "x-a": ["not read"], host: ["not read"] },
        rawHeaders: ["X-A", "1", "Host", "h", "x-a", "2", "X-a", "3"],
      });
      const o = await run({}, req);
      expect(o.input!.headers).to.deep.equal(Object.assign(Object.create(null), { "x-a": ["1", "2", "3"], host: ["h"] }));
    });

    it("rawHeaders: names such as __proto__ and constructor are ordinary keys", async () => {
      const o = await run({}, request({ rawHeaders: ["__proto__", "p", "Constructor", "c", "__PROTO__", "q"] }));
      const h = o.input!.headers;
      expect(Object.getPrototypeOf(h)).to.equal(null);
      expect(Object.hasOwn(h, "__proto__")).to.equal(true);
      expect(h["__proto__"]).to.deep.equal(["p", "q"]);
      expect(h["constructor"]).to.deep.equal(["c"]);
      expect(({} as Record<string, unknown>).p).to.equal(undefined);
    });

    it("thousands of values of one header all reach the input", async () => {
      const values = Array.from({ length: 5000 }, (_, i) => `v${i}`);
      const o = await run({}, request({ headersDistinct: { "x-many": values } }));
      expect(o.input!.headers["x-many"]).to.deep.equal(values);
      expect(o.input!.headers["x-many"]).not.to.equal(values);
    });

    it("extendInput may mutate the input or return a new one", async () => {
      const a = await run({ extendInput: (i) => void (i.action = "read") });
      expect(a.input!.action).to.equal("read");
      const b = await run({ extendInput: (i) => ({ ...i, resource: "users" }) });
      expect(b.input!.resource).to.equal("users");
    });

    it("getUser picks the user from elsewhere", async () => {
      const o = await run({ getUser: (r) => (r as TestRequest).principal }, request({ user: undefined, principal: { id: "svc" } }));
      expect(o.input!.user).to.deep.equal({ id: "svc" });
    });
  });

  describe("splitPath", () => {
    const cases: [string, string[]][] = [
      ["/", []],
      ["", []],
      ["/users", ["users"]],
      ["/users/", ["users"]],
      ["///users///", ["users"]],
      ["/users//bob", ["users", "", "bob"]],
      ["/users/../admin", ["users", "..", "admin"]],
      ["/users/a%2Fb", ["users", "a/b"]],
      ["/users/%C3%A9lodie", ["users", "élodie"]],
      ["/users/élodie", ["users", "élodie"]],
      ["/users/%E0%A4%A", ["users", "%E0%A4%A"]],
      ["/users/%", ["users", "%"]],
      ["/a%20b/c+d", ["a b", "c+d"]],
    ];
    for (const [path, want] of cases) {
      it(`${JSON.stringify(path)} → ${JSON.stringify(want)}`, () => expect(splitPath(path)).to.deep.equal(want));
    }
  });

  describe("with an Authorizer", () => {
    it("decides with the compiled policy", async () => {
      const authorizer = await Authorizer.create({
        policy: 'package t\nallow if input.path == ["users", input.user.id]',
        query: "data.t.allow",
      });
      expect(await run({ authorizer }, request({ path: "/users/bob" }))).to.include({ next: true });
      expect(await run({ authorizer }, request({ path: "/users/alice" }))).to.include({ status: 403 });
    });

    it("an Authorizer without async builtins decides synchronously: next() before the promise settles", async () => {
      const authorizer = await Authorizer.create({ policy: "package t\nallow := true", query: "data.t.allow" });
      const mw = authorize({ authorizer });
      let called = false;
      const p = mw(request(), { status: () => ({}) as never, type: () => ({}) as never, send: () => undefined }, () => (called = true));
      expect(called).to.equal(true);
      await p;
    });

    it("a decider marked async is awaited through authorize()", async () => {
      const decider = { async: true, authorize: async () => true, authorizeSync: () => false };
      expect(await run({ authorizer: decider })).to.include({ next: true });
    });

    it("a policy error → 500", async () => {
      const authorizer = await Authorizer.create({ policy: "package t\nallow := x if some x in [true, false]", query: "data.t.allow" });
      const o = await run({ authorizer });
      expect(o).to.include({ status: 500, next: false });
      expect(o.logs[0]).to.contain("eval_conflict_error");
    });
  });
});
