// The remote bundle client against a real HTTP bundle server on 127.0.0.1. No timing assertions:
// each test waits for the client's events (a new revision, a 304, a failure).
import { expect } from "chai";
import { spawn } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fileURLToPath } from "node:url";
import { MAX_DECISION_PATHS } from "../../runtime/bundle/activate.js";
import { BundleClient, type BundleStatus, type RegoError } from "regoc";
import { planRegoDetailed } from "regoc/compiler";
import { activated, allow, failed, startBundleServer, tarGz, type BundleServer } from "../support/bundleServer.js";
import { rejected } from "../support/errors.js";

const POLICY = `package authz

default allow := false

allow if input.user in data.authz.admins
`;

function bundle(revision: string, admins: string[], extra: Record<string, string> = {}): Buffer {
  return tarGz({
    ".manifest": JSON.stringify({ revision, roots: ["authz"] }),
    "authz/policy.rego": POLICY,
    "authz/data.json": JSON.stringify({ admins }),
    ...extra,
  });
}

const FAST = { min_delay_seconds: 0.01, max_delay_seconds: 0.03 };

function config(url: string, service: Record<string, unknown> = {}): unknown {
  return { services: { acme: { url, ...service } }, bundles: { authz: { service: "acme", resource: "bundles/authz.tar.gz", polling: FAST } } };
}

/** A full garbage collection (V8's gc(), reached without starting node with --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** A loopback TCP server that accepts connections and then, per `mode`, never answers or sends
 * headers and then one body byte every 20 ms, forever. */
async function stallingServer(mode: "silent" | "trickle"): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    if (mode === "trickle") {
      socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: 1000000\r\n\r\n");
      const t = setInterval(() => socket.write("x"), 20);
      timers.add(t);
      socket.on("close", () => clearInterval(t));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe("bundle client (HTTP bundle server)", () => {
  let server: BundleServer;
  let client: BundleClient | undefined;
  beforeEach(async () => {
    server = await startBundleServer();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await server.close();
  });

  it("activates the first bundle and answers decisions from its policy and data", async () => {
    server.serve({ body: bundle("1", ["alice"]) });
    client = await BundleClient.create(config(server.url));
    const status = await client.ready();
    expect(status.revision).to.equal("1");
    expect(status.lastError).to.equal(undefined);
    expect(await allow(client, "alice")).to.equal(true);
    expect(await allow(client, "bob")).to.equal(false);
    expect((await client.decide({ path: "data.authz.admins" })).result).to.deep.equal(["alice"]);
    expect(await client.decide({ path: "/authz/nothing" })).to.not.have.property("result");
  });

  it("sends If-None-Match; a 304 keeps the bundle; a new revision is picked up on a later poll", async () => {
    server.serve({ body: bundle("1", ["alice"]), etag: '"v1"' });
    client = await BundleClient.create(config(server.url));
    await client.ready();
    const unchanged = new Promise<BundleStatus>((resolve) => client!.on("unchanged", resolve));
    expect((await unchanged).revision).to.equal("1");
    expect(server.requests.at(-1)!["if-none-match"]).to.equal('"v1"');
    expect(await allow(client, "alice")).to.equal(true);

    const next = activated(client, "2");
    server.serve({ body: bundle("2", ["bob"]), etag: '"v2"' });
    expect((await next).etag).to.equal('"v2"');
    expect(await allow(client, "alice")).to.equal(false);
    expect(await allow(client, "bob")).to.equal(true);
  });

  it("sends the bearer token (a ${ENV} placeholder resolved); a 401 is reported and the old bundle keeps serving", async () => {
    server.serve({ body: bundle("1", ["alice"]) });
    const credentials = { bearer: { token: "${BUNDLE_TEST_TOKEN}" } };
    client = await BundleClient.create(config(server.url, { credentials }), { env: { BUNDLE_TEST_TOKEN: "s3cret" } });
    await client.ready();
    expect(server.requests[0]!.authorization).to.equal("Bearer s3cret");

    const failure = failed(client);
    server.serve({ status: 401 });
    const e = await failure;
    expect(e.code).to.equal("bundle_error");
    expect(e.message).to.contain("HTTP 401");
    expect(client.status().lastError?.code).to.equal("bundle_error");
    expect(client.status().revision).to.equal("1");
    expect(await allow(client, "alice")).to.equal(true);
  });

  const badBundles: { note: string; body: () => Buffer; code: string; message: string }[] = [
    { note: "corrupt gzip", body: () => Buffer.from("not a gzip stream at all"), code: "bundle_error", message: "not a valid gzip stream" },
    {
      note: "path traversal entry",
      body: () => tarGz([{ path: "../evil.rego", content: "package evil" }]),
      code: "bundle_error",
      message: 'entry "../evil.rego": path traversal',
    },
    {
      note: "symlink entry",
      body: () => tarGz([{ path: "authz/link", type: "SymbolicLink", linkpath: "/etc/passwd" }]),
      code: "bundle_error",
      message: 'entry "authz/link": SymbolicLink entries are not allowed',
    },
    {
      note: "oversize archive (uncompressed)",
      body: () => bundle("2", ["bob"], { "authz/big/data.json": JSON.stringify({ pad: "x".repeat(300_000) }) }),
      code: "bundle_error",
      message: "uncompressed size exceeds the limit",
    },
    {
      note: "Rego compile error (with the file)",
      body: () => bundle("2", ["bob"], { "authz/bad.rego": "package authz\n\nbroken if {\n  x := \n}\n" }),
      code: "rego_parse_error",
      message: "bundle: the policy does not compile",
    },
    {
      note: "data outside roots",
      body: () => bundle("2", ["bob"], { "other/data.json": "{\"x\": 1}" }),
      code: "bundle_error",
      message: "manifest roots [authz] do not permit data at path '/other'",
    },
    {
      note: "package outside roots",
      body: () => bundle("2", ["bob"], { "x.rego": "package other\n\np := 1\n" }),
      code: "bundle_error",
      message: "manifest roots [authz] do not permit 'data.other' in module '/x.rego'",
    },
    {
      note: "overlapping roots",
      body: () => tarGz({ ".manifest": JSON.stringify({ revision: "2", roots: ["authz", "authz/sub"] }) }),
      code: "bundle_error",
      message: "manifest has overlapped roots: 'authz' and 'authz/sub'",
    },
  ];
  for (const tc of badBundles) {
    it(`${tc.note}: ${tc.code}, the old bundle keeps serving`, async () => {
      server.serve({ body: bundle("1", ["alice"]), etag: '"v1"' });
      client = await BundleClient.create(config(server.url), { limits: { maxUncompressedBytes: 100_000 } });
      await client.ready();
      const failure = failed(client);
      server.serve({ body: tc.body(), etag: '"v2"' });
      const e = await failure;
      expect(e.code, e.message).to.equal(tc.code);
      expect(e.message).to.contain(tc.message);
      if (tc.code === "rego_parse_error") expect(e.location?.file).to.equal("/authz/bad.rego");
      expect(client.status().revision).to.equal("1");
      expect(client.status().etag).to.equal('"v1"');
      expect(await allow(client, "alice")).to.equal(true);
    });
  }

  it("refuses an archive over the compressed size limit while downloading", async () => {
    server.serve({ body: bundle("1", ["alice"]) });
    client = await BundleClient.create(config(server.url), { limits: { maxArchiveBytes: 100 } });
    const e = await rejected(client.ready());
    expect(e.code).to.equal("bundle_error");
    expect(e.message).to.contain("archive larger than the limit of 100 bytes", e.message);
  });

  it("fails decisions clearly before any bundle is active (never false, never allow)", async () => {
    server.serve({ status: 500 });
    client = await BundleClient.create(config(server.url));
    const first = await rejected(client.ready());
    expect(first.message).to.contain("HTTP 500");
    const e = await rejected(client.decide({ path: "authz/allow", input: { user: "alice" } }));
    expect(e.code).to.equal("bundle_error");
    expect(e.message).to.contain("is not active yet");
  });

  it("serves a bundle that ships a plan.json", async () => {
    const planned = planRegoDetailed({ modules: { "p.rego": POLICY }, entrypoints: ["authz/allow"] });
    server.serve({
      body: tarGz({
        ".manifest": JSON.stringify({ revision: "plan-1", roots: ["authz"] }),
        "plan.json": JSON.stringify(planned.plan),
        "authz/data.json": JSON.stringify({ admins: ["carol"] }),
      }),
    });
    client = await BundleClient.create(config(server.url));
    expect((await client.ready()).revision).to.equal("plan-1");
    expect(await allow(client, "carol")).to.equal(true);
    expect(await allow(client, "alice")).to.equal(false);
    const e = await rejected(client.decide({ path: "authz/other" }));
    expect(e.message).to.contain("has no entrypoint");
  });

  it("a decision path the next bundle lacks does not block it; it then fails clearly", async () => {
    const v1 = POLICY + "\nother := 1\n";
    server.serve({ body: bundle("1", ["alice"], { "authz/policy.rego": v1 }), etag: '"v1"' });
    client = await BundleClient.create(config(server.url));
    await client.ready();
    expect((await client.decide({ path: "authz/other" })).result).to.equal(1);
    expect(await allow(client, "alice")).to.equal(true);

    const planned = planRegoDetailed({ modules: { "p.rego": POLICY }, entrypoints: ["authz/allow"] });
    const next = activated(client, "2");
    server.serve({
      body: tarGz({ ".manifest": JSON.stringify({ revision: "2", roots: ["authz"] }), "plan.json": JSON.stringify(planned.plan), "authz/data.json": JSON.stringify({ admins: ["bob"] }) }),
      etag: '"v2"',
    });
    await next;
    expect(await allow(client, "bob")).to.equal(true);
    const e = await rejected(client.decide({ path: "authz/other" }));
    expect(e.message).to.contain('has no entrypoint "authz/other"');
  });

  it("keeps a bounded number of compiled decision paths, whatever paths callers choose", async () => {
    server.serve({ body: bundle("1", ["alice"]), etag: '"v1"' });
    client = await BundleClient.create(config(server.url));
    await client.ready();
    for (let i = 0; i < MAX_DECISION_PATHS + 20; i++) expect(await client.decide({ path: `authz/p${i}` })).to.not.have.property("result");
    const active = (client as unknown as { active: { paths: string[] } }).active;
    expect(active.paths).to.have.length(MAX_DECISION_PATHS);
    expect(await allow(client, "alice")).to.equal(true);
  });

  it("a 304 on the first poll (no bundle yet) is a failure: ready() rejects, not 'unchanged'", async () => {
    server.serve({ status: 304 });
    client = await BundleClient.create(config(server.url));
    const e = await rejected(client.ready());
    expect(e.code).to.equal("bundle_error");
    expect(e.message).to.contain("304");
    expect(client.status().lastError).to.equal(e);
  });

  for (const mode of ["silent", "trickle"] as const) {
    it(`a server that ${mode === "silent" ? "never sends headers" : "trickles its body"} times out (after a GC too) and polling goes on`, async () => {
      const stalling = await stallingServer(mode);
      try {
        client = await BundleClient.create(config(stalling.url, { response_header_timeout_seconds: 0.3 }));
        const failures: RegoError[] = [];
        client.on("failed", (e: RegoError) => failures.push(e));
        // The timeout must survive garbage collection while the request hangs.
        for (let i = 0; i < 3; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          collectGarbage();
        }
        const e = await rejected(client.ready());
        expect(e.message).to.contain("timed out after 0.3 s");
        while (failures.length < 2) await failed(client);
        expect(failures[1]!.message).to.contain("timed out");
      } finally {
        await client?.close();
        client = undefined;
        await stalling.close();
      }
    });
  }

  it("close(): the process exits on its own afterwards (no timer or socket left)", async () => {
    server.serve({ body: bundle("1", ["alice"]) });
    const script = fileURLToPath(new URL("./fixtures/bundleStop.ts", import.meta.url));
    const args = ["--no-experimental-require-module", "--conditions=regoc-source", "--import", "tsx", script, server.url];
    // Asynchronous: spawnSync would block this process's bundle server.
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(out).to.contain("stopped true");
    expect(code).to.equal(0);
  });
});
