// Signed bundles through the bundle client: a bundle that fails verification (tampered, extra file,
// wrong key, unsigned while a key id is required) is refused and the last good bundle keeps serving.
import { expect } from "chai";
import { generateKeyPairSync } from "node:crypto";
import { BundleClient } from "regoc";
import { signBundle } from "../../runtime/bundle/signatures.js";
import { activated, allow, failed, startBundleServer, tarGz, type BundleServer, type TarEntry } from "../support/bundleServer.js";
import { rejected } from "../support/errors.js";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = (k: { export(o: { type: "spki" | "pkcs8"; format: "pem" }): string | Buffer }, type: "spki" | "pkcs8") => k.export({ type, format: "pem" }).toString();

const POLICY = "package authz\n\ndefault allow := false\n\nallow if input.user in data.authz.admins\n";

function files(revision: string, admins: string[]): Record<string, string> {
  return { ".manifest": JSON.stringify({ revision, roots: ["authz"] }), "authz/policy.rego": POLICY, "authz/data.json": JSON.stringify({ admins }) };
}

/** The files with their .signatures.json (RS256, the test key unless told), then `change` applied. */
async function signed(f: Record<string, string>, options: { key?: string; change?: (f: Record<string, string>) => void; order?: "reversed" } = {}): Promise<Buffer> {
  const map = new Map(Object.entries(f).map(([p, c]) => [`/${p}`, Buffer.from(c)]));
  const signatures = await signBundle(map, { key: options.key ?? pem(rsa.privateKey, "pkcs8"), claims: { keyid: "global" } });
  const out: Record<string, string> = { ...f, ".signatures.json": signatures };
  options.change?.(out);
  const entries: TarEntry[] = Object.entries(out).map(([path, content]) => ({ path, content }));
  return tarGz(options.order === "reversed" ? entries.reverse() : entries);
}

const FAST = { min_delay_seconds: 0.01, max_delay_seconds: 0.03 };

function config(url: string, signing: unknown = { keyid: "global" }): unknown {
  return {
    services: { acme: { url } },
    keys: { global: { algorithm: "RS256", key: pem(rsa.publicKey, "spki") } },
    bundles: { authz: { service: "acme", polling: FAST, ...(signing ? { signing } : {}) } },
  };
}

describe("bundle client: signed bundles", () => {
  let server: BundleServer;
  let client: BundleClient | undefined;
  // One server for the suite: each test sets what it serves before starting its client.
  before(async () => {
    server = await startBundleServer();
  });
  after(() => server.close());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it("activates a signed bundle whose tar entries come in any order, then a newer signed revision", async () => {
    server.serve({ body: await signed(files("1", ["alice"]), { order: "reversed" }), etag: '"1"' });
    client = await BundleClient.create(config(server.url));
    expect((await client.ready()).revision).to.equal("1");
    expect(await allow(client, "alice")).to.equal(true);
    const next = activated(client, "2");
    server.serve({ body: await signed(files("2", ["bob"])), etag: '"2"' });
    await next;
    expect(await allow(client, "bob")).to.equal(true);
  });

  const refused: { note: string; body: () => Promise<Buffer>; message: RegExp }[] = [
    {
      note: "tampered data",
      body: () => signed(files("2", ["bob"]), { change: (f) => void (f["authz/data.json"] = JSON.stringify({ admins: ["bob", "mallory"] })) }),
      message: /authz\/data\.json: digest mismatch/,
    },
    {
      note: "tampered policy",
      body: () => signed(files("2", ["bob"]), { change: (f) => void (f["authz/policy.rego"] = POLICY.replace("default allow := false", "default allow := true")) }),
      message: /authz\/policy\.rego: digest mismatch/,
    },
    {
      note: "re-ordered data (a list's order is content)",
      body: async () => {
        const f = { ...files("2", ["bob", "carol"]) };
        return signed(f, { change: (g) => void (g["authz/data.json"] = JSON.stringify({ admins: ["carol", "bob"] })) });
      },
      message: /digest mismatch/,
    },
    { note: "extra file", body: () => signed(files("2", ["bob"]), { change: (f) => void (f["authz/extra.rego"] = "package authz\n\nallow := true\n") }), message: /file authz\/extra\.rego not included in bundle signature/ },
    { note: "missing file", body: () => signed(files("2", ["bob"]), { change: (f) => void delete f["authz/data.json"] }), message: /file\(s\) \[authz\/data\.json\] specified in bundle signatures but not found/ },
    { note: "wrong key", body: () => signed(files("2", ["bob"]), { key: pem(other.privateKey, "pkcs8") }), message: /failed to verify JWT signature/ },
    { note: "unsigned", body: async () => tarGz(files("2", ["bob"])), message: /bundle missing \.signatures\.json file/ },
  ];
  for (const tc of refused) {
    it(`${tc.note}: refused, the last good bundle keeps serving`, async () => {
      server.serve({ body: await signed(files("1", ["alice"])), etag: '"1"' });
      client = await BundleClient.create(config(server.url));
      await client.ready();
      const failure = failed(client);
      server.serve({ body: await tc.body(), etag: '"2"' });
      const e = await failure;
      expect(e.code).to.equal("bundle_error");
      expect(e.message).to.match(tc.message);
      expect(client.status().revision).to.equal("1");
      expect(await allow(client, "alice")).to.equal(true);
      expect(await allow(client, "mallory")).to.equal(false);
    });
  }

  it("a signed bundle without signing config fails the first activation", async () => {
    server.serve({ body: await signed(files("1", ["alice"])) });
    client = await BundleClient.create(config(server.url, null));
    const e = await rejected(client.ready());
    expect(e.message).to.contain("verification key not provided");
    await rejected(client.decide({ path: "authz/allow", input: { user: "alice" } }));
  });
});
