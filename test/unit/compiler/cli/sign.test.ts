// `regoc sign` (a bundle directory's .signatures.json) and `regoc build --target bundle
// --signing-key` (a signed bundle.tar.gz): what they write verifies as the bundle client verifies.
import { expect } from "chai";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import buildCommand from "../../../../compiler/cli/build.js";
import signCommand from "../../../../compiler/cli/sign.js";
import { readBundleDir } from "../../../../compiler/cli/sources.js";
import { readArchive } from "../../../../runtime/bundle/archive.js";
import { DEFAULT_LIMITS } from "../../../../runtime/bundle/client.js";
import type { VerificationConfig } from "../../../../runtime/bundle/config.js";
import { verifyBundle } from "../../../../runtime/bundle/signatures.js";
import { captureOutput } from "../../../support/cli.js";
import { rejected } from "../../../support/errors.js";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PUBLIC = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
const PRIVATE = rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString();

const verification = (keyId = "k"): VerificationConfig => ({ keys: { k: { key: PUBLIC, algorithm: "RS256", scope: "" } }, keyId, scope: "", excludeFiles: [] });

describe("regoc sign and regoc build --target bundle --signing-key", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-sign-"));
    mkdirSync(join(dir, "bundle", "authz"), { recursive: true });
    writeFileSync(join(dir, "bundle", ".manifest"), '{"revision": "7", "roots": ["authz"]}');
    writeFileSync(join(dir, "bundle", "authz", "policy.rego"), "package authz\n\nallow if input.user in data.authz.admins\n");
    writeFileSync(join(dir, "bundle", "authz", "data.json"), '{"admins": ["alice"]}');
    writeFileSync(join(dir, "key.pem"), PRIVATE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("regoc sign writes a .signatures.json that verifies with the public key, and no longer once a file changes", async () => {
    const bundle = join(dir, "bundle");
    const r = await captureOutput(() => signCommand.run([bundle, "--signing-key", join(dir, "key.pem"), "--bundle", "-o", bundle]));
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.contain(".signatures.json");
    await verifyBundle("b", readBundleDir(bundle), verification("k"));
    const token = (JSON.parse(readFileSync(join(bundle, ".signatures.json"), "utf8")) as { signatures: string[] }).signatures[0]!;
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { files: { name: string; algorithm: string }[] };
    expect(payload.files.map((f) => f.name)).to.deep.equal([".manifest", "authz/data.json", "authz/policy.rego"]);
    expect(payload.files.every((f) => f.algorithm === "SHA-256")).to.equal(true);
    writeFileSync(join(bundle, "authz", "data.json"), '{"admins": ["mallory"]}');
    expect((await rejected(verifyBundle("b", readBundleDir(bundle), verification("k")))).message).to.contain("authz/data.json: digest mismatch");
  });

  it("the claims file adds claims, and its keyid becomes the header's kid", async () => {
    const bundle = join(dir, "bundle");
    writeFileSync(join(dir, "claims.json"), '{"keyid": "k", "scope": "write"}');
    const r = await captureOutput(() => signCommand.run([bundle, `--signing-key=${PRIVATE}`, "--claims-file", join(dir, "claims.json"), "-o", bundle]));
    expect(r.code, r.err).to.equal(0);
    await verifyBundle("b", readBundleDir(bundle), { ...verification(""), scope: "write" });
  });

  it("regoc build --target bundle --signing-key writes a signed bundle.tar.gz the client accepts", async () => {
    const out = join(dir, "out");
    const r = await captureOutput(() => buildCommand.run([join(dir, "bundle"), "-e", "authz/allow", "-o", out, "--target", "bundle", "--revision", "r9", "--signing-key", join(dir, "key.pem")]));
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.contain("signed");
    const archive = readFileSync(join(out, "bundle.tar.gz"));
    const parsed = await readArchive(archive, DEFAULT_LIMITS, { name: "b", config: verification("k") });
    expect(parsed.manifest.revision).to.equal("r9");
    expect(Object.keys(parsed.modules)).to.deep.equal(["/authz/policy.rego"]);
    const e = await rejected(readArchive(archive, DEFAULT_LIMITS, { name: "b", config: undefined }));
    expect(e.message).to.contain("verification key not provided");
  });

  it("regoc build --target bundle reports compile errors and writes nothing", async () => {
    writeFileSync(join(dir, "bundle", "authz", "bad.rego"), "package authz\n\nbroken if {\n");
    const r = await captureOutput(() => buildCommand.run([join(dir, "bundle"), "-e", "authz/allow", "-o", join(dir, "out"), "--target", "bundle"]));
    expect(r.code).to.equal(1);
    expect(r.err).to.contain("bad.rego");
  });
});
