// The bundle client against a real nginx (Debian's package; .ci/run installs it): each test starts
// its own instance on a free loopback port (test/support/nginx.ts) and stops it after. Skipped,
// with a message, where nginx is not installed.
import { expect } from "chai";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { BundleClient, type BundleStatus, type RegoError } from "regoc";
import type { DecisionEvent } from "../../runtime/bundle/decisionLogs.js";
import { signBundle } from "../../runtime/bundle/signatures.js";
import { allow, flushLogsRetrying, nextEvent, tarGz } from "../support/bundleServer.js";
import { rejected } from "../support/errors.js";
import { findNginx, startNginx, type Nginx } from "../support/nginx.js";

const NGINX = findNginx();

const LOCATIONS = `
    location /bundles/ {
      # a file named "slow" in the document root turns on trickling (64 bytes/s)
      if (-f $document_root/slow) { set $limit_rate 64; }
    }
    location /secure/ {
      if ($http_authorization != "Bearer s3cret") { return 401; }
    }
`;

const FAST = { min_delay_seconds: 0.02, max_delay_seconds: 0.05 };

const POLICY = "package authz\n\ndefault allow := false\n\nallow if data.users[input.user].role in data.authz.roles\n";

function files(revision: string, admins: string[], roots = ["authz", "users"]): Record<string, string> {
  return {
    ".manifest": JSON.stringify({ revision, roots }),
    "authz/policy.rego": POLICY,
    "authz/data.json": JSON.stringify({ roles: ["admin"] }),
    ...(roots.includes("users") ? { "users/data.json": JSON.stringify(Object.fromEntries(admins.map((a) => [a, { role: "admin" }]))) } : {}),
  };
}



const config = (url: string, bundles: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ services: { nginx: { url } }, bundles, ...extra });

describe("bundle client against nginx", function () {
  let nginx: Nginx | undefined;
  let client: BundleClient | undefined;
  before(function () {
    if (!NGINX) {
      console.log("    (nginx is not installed: skipped; `apt-get install -y nginx` runs them, as CI does)");
      this.skip();
    }
  });
  beforeEach(async () => {
    nginx = await startNginx(NGINX!, LOCATIONS, { logSink: true });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await nginx?.stop();
    nginx = undefined;
  });

  it("nginx's ETag: If-None-Match gets a 304 and keeps the bundle; a new file is a new revision", async () => {
    nginx!.put("bundles/authz.tar.gz", tarGz(files("1", ["alice"])));
    client = await BundleClient.create(config(nginx!.url, { authz: { service: "nginx", resource: "bundles/authz.tar.gz", polling: FAST } }));
    const status = await client.ready();
    expect(status.etag).to.match(/^"[0-9a-f]+-[0-9a-f]+"$/);
    await nextEvent<BundleStatus>(client, "unchanged");
    expect(await nginx!.logged(/GET \/bundles\/authz\.tar\.gz HTTP\/1\.1 304/)).to.match(/GET \/bundles\/authz\.tar\.gz HTTP\/1\.1 304/);
    const next = nextEvent<BundleStatus>(client, "activated", (s) => s.revision === "2");
    nginx!.put("bundles/authz.tar.gz", tarGz(files("2", ["bob", "carol"])));
    expect((await next).etag).to.not.equal(status.etag);
    expect(await allow(client, "bob")).to.equal(true);
    expect(await allow(client, "alice")).to.equal(false);
  });

  it("a bearer check in nginx: the configured token passes, a wrong one is a 401 and changes nothing", async () => {
    nginx!.put("secure/authz.tar.gz", tarGz(files("1", ["alice"])));
    client = await BundleClient.create(config(nginx!.url, { authz: { service: "nginx", resource: "secure/authz.tar.gz", polling: FAST } }, { services: { nginx: { url: nginx!.url, credentials: { bearer: { token: "s3cret" } } } } }));
    await client.ready();
    expect(await allow(client, "alice")).to.equal(true);
    await client.close();
    client = await BundleClient.create(config(nginx!.url, { authz: { service: "nginx", resource: "secure/authz.tar.gz", polling: FAST } }, { services: { nginx: { url: nginx!.url, credentials: { bearer: { token: "wrong" } } } } }));
    const e = await rejected(client.ready());
    expect(e.message).to.contain("HTTP 401");
    expect(await nginx!.logged(/ 401 "Bearer wrong"/)).to.contain('GET /secure/authz.tar.gz HTTP/1.1 401 "Bearer wrong"');
  });

  it("signed bundles: a good signature activates, a tampered bundle is refused and the last good keeps serving", async () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const sign = async (f: Record<string, string>): Promise<Record<string, string>> => ({ ...f, ".signatures.json": await signBundle(new Map(Object.entries(f).map(([p, c]) => [`/${p}`, Buffer.from(c)])), { key: rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString(), claims: { keyid: "k" } }) });
    nginx!.put("bundles/authz.tar.gz", tarGz(await sign(files("1", ["alice"]))));
    const keys = { k: { algorithm: "RS256", key: rsa.publicKey.export({ type: "spki", format: "pem" }).toString() } };
    client = await BundleClient.create(config(nginx!.url, { authz: { service: "nginx", resource: "bundles/authz.tar.gz", polling: FAST, signing: { keyid: "k" } } }, { keys }));
    await client.ready();
    const failure = nextEvent<RegoError>(client, "failed");
    const tampered = await sign(files("2", ["alice"]));
    tampered["users/data.json"] = JSON.stringify({ alice: { role: "admin" }, mallory: { role: "admin" } });
    nginx!.put("bundles/authz.tar.gz", tarGz(tampered));
    expect((await failure).message).to.contain("users/data.json: digest mismatch");
    expect(client.status().revision).to.equal("1");
    expect(await allow(client, "mallory")).to.equal(false);
  });

  it("several bundles from one nginx, served together", async () => {
    nginx!.put("bundles/authz.tar.gz", tarGz(files("a1", [], ["authz"])));
    nginx!.put("bundles/users.tar.gz", tarGz({ ".manifest": JSON.stringify({ revision: "u1", roots: ["users"] }), "users/data.json": JSON.stringify({ dana: { role: "admin" } }) }));
    client = await BundleClient.create(
      config(nginx!.url, {
        authz: { service: "nginx", resource: "bundles/authz.tar.gz", polling: FAST },
        users: { service: "nginx", resource: "bundles/users.tar.gz", polling: FAST },
      }),
    );
    await client.ready();
    expect(await allow(client, "dana")).to.equal(true);
    expect(Object.values(client.statuses()).map((s) => s.revision)).to.deep.equal(["a1", "u1"]);
  });

  it("persistence across a client restart with nginx down", async () => {
    const dir = mkdtempSync(join(tmpdir(), "regoc-persist-"));
    try {
      nginx!.put("bundles/authz.tar.gz", tarGz(files("1", ["alice"])));
      const c = config(nginx!.url, { authz: { service: "nginx", resource: "bundles/authz.tar.gz", polling: FAST, persist: true } }, { persistence_directory: dir });
      client = await BundleClient.create(c);
      await client.ready();
      await client.close();
      await nginx!.stop();
      nginx = undefined;
      client = await BundleClient.create(c);
      expect((await client.ready()).revision).to.equal("1");
      expect(await allow(client, "alice")).to.equal(true);
      expect((await nextEvent<RegoError>(client, "failed")).message).to.contain("ECONNREFUSED");
      expect(await allow(client, "alice")).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a trickling upstream (limit_rate) ends in a timeout and polling goes on; the last good bundle serves", async () => {
    nginx!.put("bundles/authz.tar.gz", tarGz(files("1", ["alice"])));
    const timeout = { services: { nginx: { url: nginx!.url, response_header_timeout_seconds: 1 } } };
    client = await BundleClient.create(config(nginx!.url, { authz: { service: "nginx", resource: "bundles/authz.tar.gz", polling: FAST } }, timeout));
    await client.ready();
    const failure = nextEvent<RegoError>(client, "failed");
    nginx!.put("slow", "");
    nginx!.put("bundles/authz.tar.gz", tarGz({ ...files("2", ["bob"]), "authz/pad/data.json": JSON.stringify({ pad: [...Array(4000).keys()].map((i) => (i * 7919) % 1000003) }) }));
    expect((await failure).message).to.contain("timed out after 1 s");
    expect((await nextEvent<RegoError>(client, "failed")).message).to.contain("timed out after 1 s");
    expect(client.status().revision).to.equal("1");
    expect(await allow(client, "alice")).to.equal(true);
    expect(await allow(client, "bob")).to.equal(false);
    const recovered = nextEvent<BundleStatus>(client, "activated", (st) => st.revision === "2");
    rmSync(join(nginx!.root, "slow"));
    await recovered;
    expect(await allow(client, "bob")).to.equal(true);
  });

  it("nginx as the decision-log service: gzip batches stored by nginx hold every event, across an nginx restart", async function () {
    this.timeout(120_000);
    nginx!.put("bundles/authz.tar.gz", tarGz(files("1", ["alice"])));
    const reporting = { ...FAST, upload_size_limit_bytes: 4096 };
    client = await BundleClient.create(config(nginx!.url, { authz: { service: "nginx", resource: "bundles/authz.tar.gz", polling: { min_delay_seconds: 30, max_delay_seconds: 30 } } }, { decision_logs: { service: "nginx", reporting } }));
    await client.ready();
    const decided = new Map<string, { user: string; allowed: boolean }>();
    const decideBatch = async (from: number) => {
      const users = Array.from({ length: 100 }, (_, j) => (j % 3 === 0 ? "alice" : `u${from + j}`));
      const results = await Promise.all(users.map((user) => client!.decide({ path: "authz/allow", input: { user } })));
      results.forEach((r, j) => decided.set(r.id, { user: users[j]!, allowed: r.result === true }));
    };
    for (let i = 0; i < 1000; i += 100) await decideBatch(i);
    await nginx!.restart(async () => {
      // decisions while nginx is down, until an upload has failed against it
      for (let i = 1000; i < 1500; i += 100) await decideBatch(i);
      while (client!.statusReport().decision_logs?.code !== "decision_log_error") await new Promise((r) => setTimeout(r, 10));
    });
    for (let i = 1500; i < 2500; i += 100) await decideBatch(i);
    await flushLogsRetrying(client);
    const bodies = nginx!.logBodies();
    expect(bodies.length).to.be.above(1);
    const events = bodies.flatMap((body) => JSON.parse(gunzipSync(body).toString()) as DecisionEvent[]);
    const received = new Map(events.map((e) => [e.decision_id, e]));
    expect([...decided.keys()].filter((id) => !received.has(id))).to.have.length(0);
    for (const [id, { user, allowed }] of decided) {
      const e = received.get(id)!;
      expect(e.path).to.equal("authz/allow");
      expect(e.input).to.deep.equal({ user });
      expect(e.result).to.equal(allowed);
      expect(e.bundles).to.deep.equal({ authz: { revision: "1" } });
    }
    expect(await nginx!.logged(/POST \/logs HTTP\/1\.1 204/)).to.match(/POST \/logs HTTP\/1\.1 204/);
  });
});
