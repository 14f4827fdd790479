// The bundle client's OPA features beyond one polled bundle: several bundles (disjoint roots),
// persistence across a restart with the server down, trigger: manual, delta bundles, long polling
// and redirects. A loopback HTTP server answers per path.
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BundleClient, type BundleStatus, type RegoError } from "regoc";
import { activated, allow, nextEvent, tarGz } from "../support/bundleServer.js";
import { rejected } from "../support/errors.js";

interface Route {
  status?: number;
  body?: Buffer;
  headers?: OutgoingHttpHeaders;
}

/** A loopback server answering each path from `routes` (404 otherwise), recording requests. */
async function routesServer(): Promise<{ url: string; port: number; routes: Map<string, Route>; requests: { path: string; headers: IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const routes = new Map<string, Route>();
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    const r = routes.get(req.url ?? "") ?? { status: 404 };
    const etag = r.headers?.["ETag"];
    if (etag !== undefined && req.headers["if-none-match"] === etag) return void res.writeHead(304, { ETag: etag }).end();
    res.writeHead(r.status ?? 200, { "Content-Type": "application/gzip", ...r.headers }).end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    routes,
    requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const FAST = { min_delay_seconds: 0.01, max_delay_seconds: 0.03 };

const authz = (revision: string) =>
  tarGz({
    ".manifest": JSON.stringify({ revision, roots: ["authz"] }),
    "authz/policy.rego": "package authz\n\ndefault allow := false\n\nallow if data.users[input.user].role in data.authz.roles\n",
    "authz/data.json": JSON.stringify({ roles: ["admin"] }),
  });
const users = (revision: string, list: Record<string, unknown>, roots = ["users"]) => tarGz({ ".manifest": JSON.stringify({ revision, roots }), "users/data.json": JSON.stringify(list) });



describe("bundle client: several bundles, persistence, manual trigger, deltas, long polling, redirects", () => {
  let server: Awaited<ReturnType<typeof routesServer>>;
  let client: BundleClient | undefined;
  let dir: string;
  beforeEach(async () => {
    server = await routesServer();
    dir = mkdtempSync(join(tmpdir(), "regoc-bundle-"));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const two = (extra: Record<string, unknown> = {}) => ({
    services: { acme: { url: server.url } },
    bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: FAST }, users: { service: "acme", resource: "users.tar.gz", polling: FAST, ...extra } },
    persistence_directory: dir,
  });

  /** The authz and users bundles (a1, u1: alice is an admin) served, and a client of both, ready. */
  async function startTwo(): Promise<BundleClient> {
    server.routes.set("/authz.tar.gz", { body: authz("a1"), headers: { ETag: '"a1"' } });
    server.routes.set("/users.tar.gz", { body: users("u1", { alice: { role: "admin" } }), headers: { ETag: '"u1"' } });
    const c = await BundleClient.create(two());
    await c.ready();
    return c;
  }

  it("serves two bundles with disjoint roots together, each updating on its own", async () => {
    client = await startTwo();
    expect(await allow(client, "alice")).to.equal(true);
    expect(Object.values(client.statuses()).map((s) => [s.name, s.revision])).to.deep.equal([["authz", "a1"], ["users", "u1"]]);
    const next = activated(client, "u2", "users");
    server.routes.set("/users.tar.gz", { body: users("u2", { alice: { role: "guest" }, bob: { role: "admin" } }), headers: { ETag: '"u2"' } });
    await next;
    expect(await allow(client, "alice")).to.equal(false);
    expect(await allow(client, "bob")).to.equal(true);
    expect(client.status("authz").revision).to.equal("a1");
  });

  it("a bundle whose roots overlap another bundle's is refused; the others keep serving", async () => {
    client = await startTwo();
    const failure = nextEvent<RegoError>(client, "failed");
    server.routes.set("/users.tar.gz", { body: users("u2", {}, ["users", "authz/roles"]), headers: { ETag: '"u2"' } });
    const e = await failure;
    expect(e.message).to.equal("bundle users: manifest roots [users authz/roles] overlap the roots [authz] of bundle authz");
    expect(client.status("users").revision).to.equal("u1");
    expect(await allow(client, "alice")).to.equal(true);
  });

  it("a bundle's packages must lie under its own roots, even where another bundle owns the root", async () => {
    client = await startTwo();
    const failure = nextEvent<RegoError>(client, "failed");
    const sneaky = tarGz({ ".manifest": JSON.stringify({ revision: "u2", roots: ["users"] }), "x.rego": "package authz\n\nallow := true\n" });
    server.routes.set("/users.tar.gz", { body: sneaky, headers: { ETag: '"u2"' } });
    expect((await failure).message).to.contain("manifest roots [users] do not permit 'data.authz' in module '/x.rego'");
    expect(await allow(client, "bob")).to.equal(false);
  });

  it("decisions wait for every bundle: one missing bundle keeps the client not ready", async () => {
    server.routes.set("/authz.tar.gz", { body: authz("a1") });
    client = await BundleClient.create(two());
    const e = await rejected(client.ready());
    expect(e.message).to.contain("HTTP 404");
    const d = await rejected(client.decide({ path: "authz/allow", input: { user: "alice" } }));
    expect(d.code).to.equal("bundle_error");
  });

  it("persist: the last good bundle is written to disk and serves after a restart while the server is down", async () => {
    const config = { services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: FAST, persist: true } }, persistence_directory: dir };
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a1") });
    client = await BundleClient.create(config);
    await client.ready();
    expect(await allow(client, "alice")).to.equal(true);
    await client.close();
    server.routes.set("/authz.tar.gz", { status: 503 });
    client = await BundleClient.create(config);
    const status = await client.ready();
    expect(status.revision).to.equal("a1");
    expect(await allow(client, "alice")).to.equal(true);
    const failure = await nextEvent<RegoError>(client, "failed");
    expect(failure.message).to.contain("HTTP 503");
    expect(await allow(client, "alice")).to.equal(true);
  });

  it("persist: an unusable persisted bundle is reported, and the download still activates", async () => {
    mkdirSync(join(dir, "bundles", "authz"), { recursive: true });
    writeFileSync(join(dir, "bundles", "authz", "bundle.tar.gz"), "not a gzip stream");
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a2") });
    client = await BundleClient.create({ services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: FAST, persist: true } }, persistence_directory: dir });
    const failure = nextEvent<RegoError>(client, "failed");
    expect((await client.ready()).revision).to.equal("a2");
    expect((await failure).message).to.contain("not a valid gzip stream");
  });

  it("persist: a persisted file that is a FIFO, or larger than the archive limit, is refused unread", async function () {
    const persisted = join(dir, "bundles", "authz", "bundle.tar.gz");
    mkdirSync(join(dir, "bundles", "authz"), { recursive: true });
    const fifo = spawnSync("mkfifo", [persisted]).status === 0;
    if (!fifo) writeFileSync(persisted, Buffer.alloc(2048));
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a2") });
    const config = { services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: FAST, persist: true } }, persistence_directory: dir };
    const start = async () => {
      client = await BundleClient.create(config, { limits: { maxArchiveBytes: 1024 } });
      return { failure: nextEvent<RegoError>(client, "failed") };
    };
    // A bound, not a measurement: reading a FIFO blocks until a writer comes, holding the start.
    const bound = <T>(p: Promise<T>) => Promise.race([p, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 2000).unref())]);
    if (fifo) {
      const { failure } = await start();
      expect(((await bound(client!.ready())) as BundleStatus).revision).to.equal("a2");
      expect((await failure).message).to.contain("is not a regular file");
      await client!.close();
      rmSync(persisted);
      writeFileSync(persisted, Buffer.alloc(2048));
    }
    const { failure } = await start();
    expect(((await bound(client!.ready())) as BundleStatus).revision).to.equal("a2");
    expect((await failure).message).to.contain("is larger than the archive limit of 1024 bytes");
  });

  it("trigger: manual downloads only when trigger() is called", async () => {
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a1") });
    client = await BundleClient.create({ services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", trigger: "manual", polling: FAST } } });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).to.have.length(0);
    await client.trigger();
    expect(server.requests).to.have.length(1);
    expect(await allow(client, "alice")).to.equal(true);
    server.routes.set("/authz.tar.gz", { status: 500 });
    const e = await rejected(client.trigger());
    expect(e.message).to.contain("HTTP 500");
    expect(await allow(client, "alice")).to.equal(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).to.have.length(2);
  });

  it("a delta bundle patches the data of the last snapshot; a delta with a policy file is refused", async () => {
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a1"), headers: { ETag: '"a1"' } });
    client = await BundleClient.create({ services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: FAST } } });
    await client.ready();
    const next = activated(client, "a2", "authz");
    const patch = { data: [{ op: "add", path: "/users/bob", value: { role: "admin" } }, { op: "replace", path: "users/alice/role", value: "guest" }] };
    server.routes.set("/authz.tar.gz", { body: tarGz({ ".manifest": JSON.stringify({ revision: "a2", roots: ["authz", "users"] }), "patch.json": JSON.stringify(patch) }), headers: { ETag: '"a2"' } });
    await next;
    expect(await allow(client, "alice")).to.equal(false);
    expect(await allow(client, "bob")).to.equal(true);
    const failure = nextEvent<RegoError>(client, "failed");
    server.routes.set("/authz.tar.gz", { body: tarGz({ "patch.json": JSON.stringify(patch), "x.rego": "package authz\n" }), headers: { ETag: '"a3"' } });
    expect((await failure).message).to.contain("delta bundle expected to contain only patch file but policy files found");
    expect(await allow(client, "bob")).to.equal(true);
  });

  it("a delta bundle may patch only under its snapshot's roots", async () => {
    client = await startTwo();
    const failure = nextEvent<RegoError>(client, "failed");
    const patch = { data: [{ op: "replace", path: "/authz/roles", value: ["guest"] }] };
    server.routes.set("/users.tar.gz", { body: tarGz({ ".manifest": JSON.stringify({ revision: "u2", roots: [""] }), "patch.json": JSON.stringify(patch) }), headers: { ETag: '"u2"' } });
    expect((await failure).message).to.equal("bundle users: delta: manifest roots [users] do not permit data patch at path 'authz/roles'");
    expect(await allow(client, "alice")).to.equal(true);
  });

  it("long polling: sends Prefer with the wait; a server answering OPA's bundle content type is polled again at once", async () => {
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a1"), headers: { ETag: '"a1"', "Content-Type": "application/vnd.openpolicyagent.bundles" } });
    const slow = { min_delay_seconds: 30, max_delay_seconds: 30, long_polling_timeout_seconds: 5 };
    client = await BundleClient.create({ services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: slow } } });
    await client.ready();
    // The next poll comes at once, not after the 30 s delay (10 s is a bound, not a measurement).
    const bound = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), 10_000).unref());
    expect(await Promise.race([nextEvent<BundleStatus>(client, "unchanged").then(() => "at once"), bound])).to.equal("at once");
    expect(server.requests[0]!.headers["prefer"]).to.equal("modes=snapshot;wait=5");
    expect(server.requests.length).to.be.at.least(2);
  });

  it("a long-polling server that then fails is retried with OPA's backoff, not polled again at once", async () => {
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a1"), headers: { "Content-Type": "application/vnd.openpolicyagent.bundles" } });
    client = await BundleClient.create({ services: { acme: { url: server.url } }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: { min_delay_seconds: 10, max_delay_seconds: 20, long_polling_timeout_seconds: 5 } } } });
    await client.ready();
    server.routes.set("/authz.tar.gz", { status: 500 });
    const before = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    // retries after about 100, 160 and 256 ms
    expect(server.requests.length - before).to.be.within(2, 6);
    expect(await allow(client, "alice")).to.equal(true);
  });

  it("a header timeout plus a long-poll wait beyond Node's longest timer still waits (the timer is capped, not fired at once)", async () => {
    server.routes.set("/authz.tar.gz", { body: authzWithUsers("a1") });
    const service = { url: server.url, response_header_timeout_seconds: 2_000_000 };
    client = await BundleClient.create({ services: { acme: service }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: { ...FAST, long_polling_timeout_seconds: 2_000_000 } } } });
    expect((await client.ready()).revision).to.equal("a1");
  });

  it("a password in the service URL is not in the errors (status, events, decisions)", async () => {
    const [scheme, rest] = server.url.split("//");
    client = await BundleClient.create({ services: { acme: { url: `${scheme}//ops:hunter2@${rest}` } }, bundles: { authz: { service: "acme", resource: "missing.tar.gz", polling: FAST } } });
    const e = await rejected(client.ready());
    expect(e.message).to.contain("HTTP 404").and.contain("ops:xxxxx@");
    const d = await rejected(client.decide({ path: "authz/allow" }));
    for (const text of [e.message, d.message, String(client.status().lastError)]) expect(text).to.not.contain("hunter2");
    expect(server.requests[0]!.headers.authorization).to.equal(`Basic ${Buffer.from("ops:hunter2").toString("base64")}`);
  });

  it("follows redirects; the bearer token and cookies go to the same host only", async () => {
    const other = await routesServer();
    try {
      server.routes.set("/authz.tar.gz", { status: 302, headers: { Location: "/moved/authz.tar.gz" } });
      server.routes.set("/moved/authz.tar.gz", { status: 307, headers: { Location: `http://localhost:${other.port}/final.tar.gz` } });
      other.routes.set("/final.tar.gz", { body: authzWithUsers("a1") });
      const service = { url: server.url, credentials: { bearer: { token: "s3cret" } }, headers: { Cookie: "session=s3cret", "X-Tenant": "acme" } };
      client = await BundleClient.create({ services: { acme: service }, bundles: { authz: { service: "acme", resource: "authz.tar.gz", polling: FAST } } });
      expect((await client.ready()).revision).to.equal("a1");
      expect(server.requests.map((r) => [r.path, r.headers.authorization, r.headers.cookie])).to.deep.include.members([
        ["/authz.tar.gz", "Bearer s3cret", "session=s3cret"],
        ["/moved/authz.tar.gz", "Bearer s3cret", "session=s3cret"],
      ]);
      // the credentials stay behind, as in Go's client; other headers follow
      expect([other.requests[0]!.headers.authorization, other.requests[0]!.headers.cookie, other.requests[0]!.headers["x-tenant"]]).to.deep.equal([undefined, undefined, "acme"]);
    } finally {
      await client?.close();
      client = undefined;
      await other.close();
    }
  });
});

/** The authz bundle with the users' data in it (roots authz and users). */
function authzWithUsers(revision: string): Buffer {
  return tarGz({
    ".manifest": JSON.stringify({ revision, roots: ["authz", "users"] }),
    "authz/policy.rego": "package authz\n\ndefault allow := false\n\nallow if data.users[input.user].role in data.authz.roles\n",
    "authz/data.json": JSON.stringify({ roles: ["admin"] }),
    "users/data.json": JSON.stringify({ alice: { role: "admin" } }),
  });
}
