// The example server, listening on 127.0.0.1 (ephemeral port): the behaviour table with real
// signed tokens, and every bad input of issue 6 — each answered with a clear status, never a crash,
// a hang or a silent allow.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SignJWT } from "jose";
import { signToken } from "../../examples/server/auth.js";
import { startServer, type RunningServer } from "../../examples/server/server.js";
import { DEMO_ROWS } from "../../examples/server/table.js";
import { rawRequest } from "./http.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const key = new Uint8Array(randomBytes(32));
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("example server (live, 127.0.0.1)", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let hour = 10;
  const logs: string[] = [];

  before(async () => {
    server = await startServer({
      port: 0,
      host: "127.0.0.1",
      key,
      now: () => new Date(2024, 0, 15, hour, 30),
      log: (m) => logs.push(m),
    });
  });
  after(async () => {
    await server?.close();
  });
  beforeEach(() => {
    hour = 10;
  });

  const bearer = (t: string) => [`Authorization: Bearer ${t}`];
  const token = (sub: string, role = "user", extra: Record<string, unknown> = {}) => signToken({ sub, role, ...extra }, key);
  const get = async (path: string, headers: string[] = [], method = "GET") => rawRequest(server.port, method, path, headers);

  describe("the behaviour table", () => {
    for (const row of DEMO_ROWS) {
      it(`${row.note}: ${row.method} ${row.path} → ${row.expect}`, async () => {
        hour = row.hour ?? 10;
        let t: string | undefined;
        if (row.user) {
          const claims = { sub: row.user.id, ...(row.user.role ? { role: row.user.role } : {}) };
          if (row.token === "expired") t = await signToken(claims, key, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
          else if (row.token === "none") t = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
          else if (row.token === "wrong-key") t = await signToken(claims, new Uint8Array(randomBytes(32)));
          else t = await signToken(claims, key);
        }
        const r = await get(row.path, t ? bearer(t) : [], row.method);
        expect(r.status).to.equal(row.expect);
        const text = { 200: undefined, 401: "Unauthorized", 403: "Forbidden" }[row.expect];
        if (text) {
          expect(r.body).to.equal(text);
          expect(r.headers["content-type"]).to.match(/^text\/plain/);
        } else expect(JSON.parse(r.body)).to.include({ ok: true, user: row.user!.id });
      });
    }
  });

  describe("authentication: every bad token is 401", () => {
    const cases: [string, () => Promise<string[]>][] = [
      ["no Authorization header", async () => []],
      ["an empty bearer", async () => ["Authorization: Bearer "]],
      ["another scheme", async () => ["Authorization: Basic cm9vdDpyb290"]],
      ["a garbled token", async () => bearer("not.a.jwt")],
      ["random bytes", async () => bearer(randomBytes(40).toString("base64url"))],
      ["a token with a tampered payload", async () => {
        const [h, , s] = (await token("bob")).split(".");
        return bearer(`${h}.${b64({ sub: "bob", role: "admin" })}.${s}`);
      }],
      ["an expired token", async () => bearer(await signToken({ sub: "bob" }, key, { expiresIn: Math.floor(Date.now() / 1000) - 10 }))],
      ["a token not yet valid (nbf)", async () => bearer(await signToken({ sub: "bob" }, key, { notBefore: Math.floor(Date.now() / 1000) + 3600 }))],
      ["a wrong signature", async () => bearer(await signToken({ sub: "root", role: "admin" }, new Uint8Array(randomBytes(32))))],
      ["alg: none", async () => bearer(`${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "root", role: "admin" })}.`)],
      ["alg: none with a signature part", async () => bearer(`${b64({ alg: "none" })}.${b64({ sub: "root", role: "admin" })}.${b64("x")}`)],
      ["HS512 with the right secret (another algorithm)", async () =>
        bearer(await new SignJWT({ sub: "root", role: "admin" }).setProtectedHeader({ alg: "HS512" }).setExpirationTime("1h").sign(key))],
      ["RS256 (another algorithm)", async () => {
        const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
        return bearer(await new SignJWT({ sub: "root", role: "admin" }).setProtectedHeader({ alg: "RS256" }).setExpirationTime("1h").sign(privateKey));
      }],
      ["no subject", async () => bearer(await new SignJWT({ role: "admin" }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1h").sign(key))],
      ["a role that is not a string", async () => bearer(await token("bob", "user", { role: ["admin"] }))],
      ["a user claim that is a string", async () => bearer(await token("bob", "user", { user: "admin" }))],
      ["a user claim that is an array", async () => bearer(await token("bob", "user", { user: [{ role: "admin" }] }))],
      ["a user claim that is null", async () => bearer(await token("bob", "user", { user: null }))],
      ["a user claim that is a number", async () => bearer(await token("bob", "user", { user: 1 }))],
    ];
    for (const [note, headers] of cases) {
      it(note, async () => {
        const r = await get("/api/users", await headers());
        expect(r.status).to.equal(401);
        expect(r.body).to.equal("Unauthorized");
      });
    }

    it("a user claim object adds fields but cannot override id, role or authenticated", async () => {
      const t = await token("bob", "user", { user: { id: "alice", role: "admin", authenticated: false, team: "x" } });
      expect((await get("/api/users/bob", bearer(t))).status).to.equal(200);
      expect((await get("/api/users/alice", bearer(t))).status).to.equal(403);
      expect((await get("/api/users", bearer(t))).status).to.equal(200);
    });
  });

  describe("odd request paths are decided on their segments, never a 500", () => {
    const cases: [string, string, string, number][] = [
      ["`//` at the start collapses into the trimmed path", "/api//users", "bob", 200],
      ["`//` inside makes an empty segment", "/api/users//bob", "bob", 403],
      ["`..` is a plain segment, not a way out", "/api/users/../users/alice", "bob", 403],
      ["`..` towards one's own record is still a deeper path", "/api/users/bob/..", "bob", 403],
      ["%2F stays inside its segment", "/api/users/bob%2F..%2Falice", "bob", 403],
      ["%2F in one's own id", "/api/users/a%2Fb", "a/b", 200],
      ["percent-encoded unicode", "/api/users/%C3%A9lodie", "élodie", 200],
      ["percent-encoded unicode, someone else's", "/api/users/%C3%A9lodie", "bob", 403],
      ["a malformed escape", "/api/users/%E0%A4%A", "bob", 403],
      ["a lone %", "/api/users/%", "bob", 403],
      ["a very long path", `/api/users/${"x".repeat(6000)}`, "bob", 403],
      ["a query string is not part of the path", "/api/users/bob?as=admin", "bob", 200],
    ];
    for (const [note, path, sub, status] of cases) {
      it(`${note}: ${path.slice(0, 60)} as ${sub} → ${status}`, async () => {
        const r = await get(path, bearer(await token(sub)));
        expect(r.status).to.equal(status);
      });
    }
  });

  describe("headers", () => {
    it("a thousand values of one header: the request is decided as usual (200)", async () => {
      const many = Array.from({ length: 1000 }, (_, i) => `X-Many: v${i}`);
      const r = await get("/api/users", [...bearer(await token("bob")), ...many]);
      expect(r.status).to.equal(200);
    });

    it("headers past Node's size limit are refused (431) and the server keeps serving", async () => {
      const many = Array.from({ length: 20_000 }, (_, i) => `X-Many: value-${i}`);
      const r = await get("/api/users", [...bearer(await token("bob")), ...many]);
      expect(r.status).to.equal(431);
      expect((await get("/api/users", bearer(await token("bob")))).status).to.equal(200);
    });

    it("header names such as __proto__ and constructor are ordinary names", async () => {
      const r = await get("/api/users/alice", [...bearer(await token("bob")), "__proto__: admin", "constructor: admin", "X-Role: admin"]);
      expect(r.status).to.equal(403);
      expect(({} as Record<string, unknown>).admin).to.equal(undefined);
    });
  });

  describe("input keys __proto__ and constructor", () => {
    it("cannot grant a role, and pollute nothing", async () => {
      const t = await token("bob", "user", { user: JSON.parse('{"__proto__": {"role": "admin", "id": "alice"}, "constructor": {"prototype": {"role": "admin"}}}') });
      expect((await get("/api/users/alice", bearer(t))).status).to.equal(403);
      expect((await get("/admin/documents/alice", bearer(t), "DELETE")).status).to.equal(403);
      expect((await get("/api/users/bob", bearer(t))).status).to.equal(200);
      expect(({} as Record<string, unknown>).role).to.equal(undefined);
      expect((Object.prototype as Record<string, unknown>).role).to.equal(undefined);
    });

    it("a subject named __proto__ is an ordinary id", async () => {
      const t = await token("__proto__");
      expect((await get("/api/users/__proto__", bearer(t))).status).to.equal(200);
      expect((await get("/api/users/constructor", bearer(t))).status).to.equal(403);
    });
  });

  describe("loadData with values that are not JSON", () => {
    const cycle: Record<string, unknown> = {};
    cycle.me = cycle;
    const bad: [string, unknown][] = [
      ["a BigInt", { dave: { count: 101n } }],
      ["a cycle", cycle],
      ["a function", { dave: { count: () => 0 } }],
    ];
    for (const [what, value] of bad) {
      it(`${what}: a clear storage_invalid_value_error, the store and the decisions unchanged`, async () => {
        const before = server.engine.store.read();
        let err: { code?: string; message?: string } | undefined;
        try {
          server.engine.loadData("/rate_limits", value);
        } catch (e) {
          err = e as { code?: string; message?: string };
        }
        expect(err?.code).to.equal("storage_invalid_value_error");
        expect(err?.message).to.match(/is not JSON/);
        expect(server.engine.store.read()).to.equal(before);
        expect((await get("/api/reports", bearer(await token("dave")))).status).to.equal(403);
        expect((await get("/api/reports", bearer(await token("carol")))).status).to.equal(200);
      });
    }

    it("a valid loadData is seen by the next request", async () => {
      server.engine.loadData("/rate_limits/erin", { count: 500 });
      try {
        expect((await get("/api/reports", bearer(await token("erin")))).status).to.equal(403);
      } finally {
        server.engine.loadData("/rate_limits/erin", {});
      }
      expect((await get("/api/reports", bearer(await token("erin")))).status).to.equal(200);
    });
  });

  it("unknown routes are 404, /healthz is open", async () => {
    expect((await get("/nowhere")).status).to.equal(404);
    const h = await get("/healthz");
    expect(h).to.include({ status: 200, body: "ok" });
  });
});

describe("example server with a policy that fails at evaluation", function () {
  this.timeout(60_000);
  let server: RunningServer;
  const logs: string[] = [];
  before(async () => {
    const authz = readFileSync(`${root}policies/authz.rego`, "utf8");
    const api = 'package api\n\n# two values for one complete rule: eval_conflict_error\nallow := x if some x in [true, input.user.authenticated == false]\n';
    server = await startServer({ port: 0, host: "127.0.0.1", key, modules: { "authz.rego": authz, "api.rego": api }, log: (m) => logs.push(m) });
  });
  after(async () => {
    await server?.close();
  });

  it("answers 500 Internal Server Error, logs the error without the token, and keeps serving", async () => {
    const t = await signToken({ sub: "bob", role: "user" }, key);
    for (let i = 0; i < 3; i++) {
      const r = await rawRequest(server.port, "GET", "/api/users", [`Authorization: Bearer ${t}`]);
      expect(r.status).to.equal(500);
      expect(r.body).to.equal("Internal Server Error");
    }
    expect(logs.some((l) => l.includes("eval_conflict_error"))).to.equal(true);
    expect(logs.join("\n")).not.to.contain(t);
    expect((await rawRequest(server.port, "DELETE", "/admin/documents/bob", [`Authorization: Bearer ${t}`])).status).to.equal(200);
    expect((await rawRequest(server.port, "GET", "/healthz")).status).to.equal(200);
  });
});

describe("npm start (the server as a process)", function () {
  this.timeout(60_000);

  it("serves on PORT until SIGTERM, then shuts down cleanly (exit 0)", async () => {
    const child = spawn(process.execPath, ["--conditions=regoc-source", "--import", "tsx", "examples/server/server.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "0", JWT_SECRET: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let announced: (port: number) => void = () => {};
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) announced(Number(m[1]));
    });
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      // the port once the server says it listens; a server that exits first fails the test
      const port = await new Promise<number>((resolve, reject) => {
        announced = resolve;
        void exited.then(() => reject(new Error(`server exited early: ${err}`)));
      });
      expect(err).to.contain("WARNING: JWT_SECRET is not set");
      expect((await rawRequest(port, "GET", "/healthz")).status).to.equal(200);
      expect((await rawRequest(port, "GET", "/api/users")).status).to.equal(401);
      child.kill("SIGTERM");
      expect(await exited).to.equal(0);
      expect(out).to.contain("SIGTERM: shutting down").and.contain("stopped");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
