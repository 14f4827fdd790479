// Signed bundles: OPA's verification cases (v1/bundle verify_test.go, bundle_test.go's
// TestReadWithSignatures*, TestVerifyBundleFileHash), restated here with tokens of our own.
//
// OPA's case                                   → here
// no_signatures / multiple_signatures          → "an empty list ...", "two JWTs ..."
// invalid_token, bad header base64/JSON, bad payload → "a token without three parts ..."
// valid_token_and_scope(_mismatch)             → "a valid token with the configured scope ..."
// no_public_key_id / actual_public_key_missing → "no key id ...", "a key id that is not configured ..."
// deprecated_key_id_claim                      → "the payload's deprecated keyid claim ..."
// public_key_with_valid_HS256_sign (config kid wins) → "the configured keyid wins ..."
// invalid HS256 / valid, invalid, bad-PEM RS256 → "a wrong HMAC secret ...", "RS256: ..."
// bad_public_key_algorithm                     → "an unknown key algorithm is a config error"
// file_not_found / bad_hashing_algorithm / bad_digest → "a file the signature does not list ...",
//                                                  "an unknown hashing algorithm ...", "a changed file ..."
// TestReadWithSignatures: no verification config, no file with/without keyid, no signatures,
//   digest mismatch, no hashing alg, exclude_files → "signed and unsigned bundles ...", "the files"
// TestReadWithSignaturesExtraFiles             → "listed files missing from the bundle ..."
// TestReadWithSignaturesSkipVerify             → "readArchive checks signatures only when asked"
// TestVerifyBundleFileHash (all algorithms, canonical JSON/YAML, raw bytes) → "canonical digests"
//   (our hashFile reproduces that test's seven MD5/SHA-512 digests exactly)
//
// Cases we do not match, and why:
// - a custom verifier (`"plugin"` in .signatures.json): OPA looks it up in a Go registry; regoc has
//   none, so any plugin is refused ("no verifier exists under id ...") instead of accepted.
// - a key whose algorithm is unknown (RS007): OPA fails at verification; regoc at config parsing.
// - reading with a base directory (TestReadWithSignaturesWithBaseDir): OPA's loader option for
//   bundles nested in a directory; the bundle client reads archives from their root only.
// - a delta bundle while signing is configured: OPA skips verification for it; regoc refuses it.
// - a file ending in "signatures.json" elsewhere than /.signatures.json: OPA takes it as the
//   signatures file; regoc treats it as an ordinary file, which must then be signed.
import { expect } from "chai";
import { generateKeyPairSync } from "node:crypto";
import { CompactSign } from "jose";
import { parseBundleConfig } from "../../../../runtime/bundle/config.js";
import { readArchive } from "../../../../runtime/bundle/archive.js";
import { DEFAULT_LIMITS } from "../../../../runtime/bundle/client.js";
import type { VerificationConfig } from "../../../../runtime/bundle/config.js";
import { hashFile, signBundle, verifyBundle } from "../../../../runtime/bundle/signatures.js";
import { tarGz } from "../../../support/bundleServer.js";
import { rejected, thrown } from "../../../support/errors.js";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const otherRsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PUBLIC = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
const PRIVATE = rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const OTHER_PUBLIC = otherRsa.publicKey.export({ type: "spki", format: "pem" }).toString();

const FILES: Record<string, string> = {
  "/.manifest": '{"revision": "r1", "roots": ["authz"]}',
  "/authz/data.json": '{"admins": ["alice"], "limit": 1.0}',
  "/authz/policy.rego": "package authz\n\nallow if input.user in data.authz.admins\n",
};

const asMap = (files: Record<string, string>) => new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));

/** A JWT over `payload` (the digests of FILES unless given), HS256 with "secret" unless told. */
async function token(payload: Record<string, unknown> = {}, header: Record<string, unknown> = { kid: "foo" }, key: Parameters<CompactSign["sign"]>[0] = new TextEncoder().encode("secret")): Promise<string> {
  const files = Object.entries(FILES).map(([p, c]) => ({ name: p.slice(1), hash: hashFile(p.slice(1), Buffer.from(c), "SHA-256"), algorithm: "SHA-256" }));
  return new CompactSign(new TextEncoder().encode(JSON.stringify({ files, scope: "write", ...payload })))
    .setProtectedHeader({ alg: "HS256", ...header })
    .sign(key);
}

const HS: VerificationConfig = { keys: { foo: { key: "secret", algorithm: "HS256", scope: "" } }, keyId: "", scope: "write", excludeFiles: [] };

function withSignatures(signatures: unknown, files: Record<string, string> = FILES): Map<string, Buffer> {
  return asMap({ ...files, "/.signatures.json": JSON.stringify(signatures) });
}

async function refusal(files: Map<string, Buffer>, config: VerificationConfig | undefined): Promise<string> {
  return (await rejected(verifyBundle("b", files, config))).message.replace(/^bundle b: signature: /, "");
}

describe("bundle signatures (OPA's verification cases)", () => {
  describe("the .signatures.json file and its JWT", () => {
    it("an empty list of signatures is refused: exactly one JWT is expected", async () => {
      expect(await refusal(withSignatures({ signatures: [] }), HS)).to.equal(".signatures.json: missing JWT (expected exactly one)");
    });
    it("two JWTs are refused", async () => {
      const t = await token();
      expect(await refusal(withSignatures({ signatures: [t, t] }), HS)).to.equal(".signatures.json: multiple JWTs not supported (expected exactly one)");
    });
    it("a token without three parts, with a header that is not base64 JSON, or a payload whose files is not a list, is refused", async () => {
      const t = await token();
      const [h, p, s] = t.split(".");
      expect(await refusal(withSignatures({ signatures: [`${h}.${s}`] }), HS)).to.match(/invalid JWT/);
      expect(await refusal(withSignatures({ signatures: [`${h!.slice(0, -2)}!!.${p}.${s}`] }), HS)).to.match(/failed to parse JWT header/);
      expect(await refusal(withSignatures({ signatures: [`${Buffer.from('{"alg":"HS256","kid":"foo').toString("base64url")}.${p}.${s}`] }), HS)).to.match(/failed to parse JWT header/);
      const bad = await token({ files: { name: "x" } });
      expect(await refusal(withSignatures({ signatures: [bad] }), HS)).to.match(/files must be a list/);
    });
    it("a valid token with the configured scope passes; another scope is refused", async () => {
      await verifyBundle("b", withSignatures({ signatures: [await token()] }), HS);
      expect(await refusal(withSignatures({ signatures: [await token()] }), { ...HS, scope: "bad_scope" })).to.equal("scope mismatch");
    });
    it("the scope falls back to the key's scope", async () => {
      const keys = { foo: { key: "secret", algorithm: "HS256", scope: "write" } };
      await verifyBundle("b", withSignatures({ signatures: [await token()] }), { ...HS, keys, scope: "" });
      expect(await refusal(withSignatures({ signatures: [await token({ scope: "read" })] }), { ...HS, keys, scope: "" })).to.equal("scope mismatch");
    });
  });

  describe("the verification key", () => {
    it("no key id in the config, the header or the payload is refused", async () => {
      expect(await refusal(withSignatures({ signatures: [await token({}, {})] }), HS)).to.equal("verification key ID is empty");
    });
    it("a key id that is not configured is refused", async () => {
      expect(await refusal(withSignatures({ signatures: [await token()] }), { ...HS, keys: {} })).to.equal("verification key corresponding to ID foo not found");
    });
    it("the payload's deprecated keyid claim names the key when the header has none", async () => {
      await verifyBundle("b", withSignatures({ signatures: [await token({ keyid: "foo" }, {})] }), HS);
    });
    it("the configured keyid wins over the header's kid", async () => {
      await verifyBundle("b", withSignatures({ signatures: [await token({}, { kid: "bar" })] }), { ...HS, keyId: "foo" });
    });
    it("an unknown key algorithm is a config error", () => {
      const e = thrown(() => parseBundleConfig({ services: { s: { url: "http://h" } }, keys: { foo: { key: "k", algorithm: "RS007" } }, bundles: { b: { service: "s" } } }));
      expect(e.message).to.match(/keys\.foo\.algorithm: unknown signature algorithm "RS007"/);
    });
    it("a wrong HMAC secret is refused", async () => {
      const keys = { foo: { key: "bad_secret", algorithm: "HS256", scope: "" } };
      expect(await refusal(withSignatures({ signatures: [await token()] }), { ...HS, keys })).to.match(/^failed to verify JWT signature/);
    });
    it("RS256: the matching public key passes, another key is refused, a malformed PEM is refused", async () => {
      const t = await token({}, { alg: "RS256", kid: "foo" }, rsa.privateKey);
      const rs = (key: string): VerificationConfig => ({ ...HS, keys: { foo: { key, algorithm: "RS256", scope: "" } } });
      await verifyBundle("b", withSignatures({ signatures: [t] }), rs(PUBLIC));
      expect(await refusal(withSignatures({ signatures: [t] }), rs(OTHER_PUBLIC))).to.match(/^failed to verify JWT signature/);
      expect(await refusal(withSignatures({ signatures: [t] }), rs(PUBLIC.replace(/\n[A-Za-z0-9+/]{10}/, "\n==")))).to.match(/not a usable RS256 public key/);
    });
    it("a token signed with another algorithm than the key's is refused (no algorithm confusion)", async () => {
      // HS256 keyed with the RSA public key's PEM text, checked against the RS256 key.
      const t = await token({}, { kid: "foo" }, new TextEncoder().encode(PUBLIC));
      expect(await refusal(withSignatures({ signatures: [t] }), { ...HS, keys: { foo: { key: PUBLIC, algorithm: "RS256", scope: "" } } })).to.match(/^failed to verify JWT signature/);
    });
  });

  describe("the files", () => {
    it("a file the signature does not list is refused", async () => {
      const files = withSignatures({ signatures: [await token()] }, { ...FILES, "/extra.txt": "x" });
      expect(await refusal(files, HS)).to.equal("file extra.txt not included in bundle signature");
    });
    it("an unknown hashing algorithm, or none, is refused", async () => {
      const md6 = await token({ files: [{ name: ".manifest", hash: "00", algorithm: "MD6" }] });
      expect(await refusal(withSignatures({ signatures: [md6] }), HS)).to.equal("unsupported hashing algorithm: MD6");
      const none = await token({ files: [{ name: ".manifest", hash: "00" }] });
      expect(await refusal(withSignatures({ signatures: [none] }), HS)).to.equal("no hashing algorithm provided for file .manifest");
    });
    it("a changed file is a digest mismatch", async () => {
      const files = withSignatures({ signatures: [await token()] }, { ...FILES, "/authz/data.json": '{"admins": ["alice", "mallory"], "limit": 1.0}' });
      expect(await refusal(files, HS)).to.match(/^authz\/data\.json: digest mismatch \(want: [0-9a-f]{64}, got: [0-9a-f]{64}\)$/);
    });
    it("a re-ordered array is a change; re-ordered keys and whitespace in data.json and .manifest are not", async () => {
      const t = await token();
      const reformatted = { ...FILES, "/authz/data.json": '{\n  "limit": 1.0,\n  "admins": [ "alice" ]\n}\n', "/.manifest": '{"roots":["authz"],"revision":"r1"}' };
      await verifyBundle("b", withSignatures({ signatures: [t] }, reformatted), HS);
      const twoAdmins = (admins: string) => ({ ...FILES, "/authz/data.json": `{"admins": ${admins}, "limit": 1.0}` });
      const signed = new Map(asMap(twoAdmins('["alice","bob"]')));
      const sigs = await signBundle(signed, { key: "secret", algorithm: "HS256", claims: { keyid: "foo", scope: "write" } });
      await verifyBundle("b", asMap({ ...twoAdmins('["alice","bob"]'), "/.signatures.json": sigs }), HS);
      expect(await refusal(asMap({ ...twoAdmins('["bob","alice"]'), "/.signatures.json": sigs }), HS)).to.match(/digest mismatch/);
    });
    it("numbers are hashed as written (1.0 is not 1), as OPA's json.Number", async () => {
      expect(await refusal(withSignatures({ signatures: [await token()] }, { ...FILES, "/authz/data.json": '{"admins": ["alice"], "limit": 1}' }), HS)).to.match(/digest mismatch/);
    });
    it("listed files missing from the bundle are refused", async () => {
      const files = withSignatures({ signatures: [await token()] }, { "/.manifest": FILES["/.manifest"]! });
      expect(await refusal(files, HS)).to.equal("file(s) [authz/data.json authz/policy.rego] specified in bundle signatures but not found in the target bundle");
    });
    it("exclude_files globs skip files, whether listed or not", async () => {
      const files = withSignatures({ signatures: [await token({ files: [] })] }, { ...FILES, "/notes/README.md": "x" });
      await verifyBundle("b", files, { ...HS, excludeFiles: [".*", "authz/*", "notes/README.md"] });
      expect(await refusal(files, { ...HS, excludeFiles: [".*", "authz/*"] })).to.equal("file notes/README.md not included in bundle signature");
    });
  });

  describe("signed and unsigned bundles against the config", () => {
    it("a signed bundle without a signing config is refused", async () => {
      expect(await refusal(withSignatures({ signatures: [] }), undefined)).to.equal("verification key not provided (the bundle is signed: configure `signing` and `keys`)");
    });
    it("an unsigned bundle passes a signing config without keyid, and is refused with one", async () => {
      await verifyBundle("b", asMap(FILES), HS);
      expect(await refusal(asMap(FILES), { ...HS, keyId: "foo" })).to.equal("bundle missing .signatures.json file");
    });
    it("a verifier plugin is refused (regoc has no verifier registry)", async () => {
      expect(await refusal(withSignatures({ signatures: [await token()], plugin: "_bar" }), HS)).to.equal("no verifier exists under id _bar");
    });
    it("readArchive checks signatures only when the caller asks (the client always does)", async () => {
      const archive = tarGz({ ...Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k.slice(1), v])), ".signatures.json": '{"signatures": ["x.y.z"]}' });
      expect((await readArchive(archive, DEFAULT_LIMITS)).manifest.revision).to.equal("r1");
      const e = await rejected(readArchive(archive, DEFAULT_LIMITS, { name: "authz", config: undefined }));
      expect(e.code).to.equal("bundle_error");
      expect(e.message).to.equal("bundle authz: signature: verification key not provided (the bundle is signed: configure `signing` and `keys`)");
    });
  });

  describe("canonical digests (TestVerifyBundleFileHash's files)", () => {
    const sha = (name: string, text: string, alg = "SHA-256") => hashFile(name, Buffer.from(text), alg);
    it("structured files hash their compact, key-sorted JSON form; others their bytes", () => {
      expect(sha("data.json", '{"x": {"y": true}, "a": {"b": {"z": true}}}')).to.equal(sha("x.bin", '{"a":{"b":{"z":true}},"x":{"y":true}}'));
      expect(sha("a/b/data.json", "[1, 2, 3]")).to.equal(sha("x.bin", "[1,2,3]"));
      expect(sha("a/b/y/data.yaml", "foo: 1\nbar: [a, 'b']")).to.equal(sha("x.bin", '{"bar":["a","b"],"foo":1}'));
      expect(sha(".manifest", '{"revision": "r"}')).to.equal(sha("x.bin", '{"revision":"r"}'));
      // data.yml is not one of OPA's structured names: its bytes count
      expect(sha("a/data.yml", "foo:  1")).to.equal(sha("x.bin", "foo:  1"));
      expect(sha("p.rego", "package example")).to.equal(sha("x.bin", "package example"));
    });
    it("strings are escaped as Go's encoder does (no HTML escapes, U+2028 escaped)", () => {
      expect(sha("data.json", '{"k": "<a&b>\\u2028"}')).to.equal(sha("x.bin", '{"k":"<a&b>\\u2028"}'));
    });
    it("every OPA hashing algorithm is available", () => {
      for (const [alg, hexLength] of [["MD5", 32], ["SHA-1", 40], ["SHA-224", 56], ["SHA-256", 64], ["SHA-384", 96], ["SHA-512", 128], ["SHA-512-224", 56], ["SHA-512-256", 64]] as const) {
        expect(sha("x.bin", "x", alg)).to.have.length(hexLength);
      }
    });
  });
});
