// Signed bundles, as OPA signs and verifies them. `/.signatures.json` holds `{"signatures": [JWT]}`
// (exactly one); the JWT's payload lists every file of the bundle with its digest:
//   {"files": [{"name": "authz/policy.rego", "hash": "<hex>", "algorithm": "SHA-256"}, ...], "scope": ...}
// The verification key is the configured `keyid`, else the JWT header's `kid`, else the payload's
// `keyid`; the key's algorithm is the only one accepted. Every file of the archive (but
// .signatures.json and the `exclude_files` globs) must be listed with a matching digest, and every
// listed file must be present. data.json, data.yaml and .manifest are hashed in a canonical form
// (keys sorted, no whitespace, numbers as written), so re-formatting them keeps the signature.
// Node-only (node:crypto): loaded with the archive reader, never from the runtime's index.
import { createHash, createPrivateKey, createPublicKey, createSecretKey, X509Certificate, type KeyObject } from "node:crypto";
import { CompactSign, compactVerify } from "jose";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { parse as parseYaml } from "yaml";
import { RegoError } from "../errors.js";
import { goGlob } from "../goGlob.js";
import { SIGNING_ALGORITHMS, type KeyConfig, type VerificationConfig } from "./config.js";
import { signatureError } from "./errors.js";

/** OPA's hashing algorithm names → node:crypto's. */
const HASHES: Record<string, string> = {
  MD5: "md5",
  "SHA-1": "sha1",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  "SHA-512-224": "sha512-224",
  "SHA-512-256": "sha512-256",
};

export const SIGNATURES_FILE = "/.signatures.json";

type Fail = (message: string, cause?: unknown) => never;

interface FileDigest {
  name: string;
  hash: string;
  algorithm: string;
}

/**
 * Checks the archive's files (by normalised path, "/a/data.json") against `/.signatures.json`.
 * Without a verification config a signed bundle is refused; with one, an unsigned bundle is
 * refused when a `keyid` is configured (OPA's rule). `delta`: the bundle is a delta bundle, which
 * OPA does not verify; here it is refused whenever signing is configured.
 */
export async function verifyBundle(name: string, files: ReadonlyMap<string, Buffer>, config: VerificationConfig | undefined, delta = false): Promise<void> {
  const fail: Fail = (message, cause) => {
    throw signatureError(name, message, cause);
  };
  const raw = files.get(SIGNATURES_FILE);
  const signatures = raw === undefined ? undefined : readSignaturesFile(raw, fail);
  if (config === undefined) {
    if (signatures) fail("verification key not provided (the bundle is signed: configure `signing` and `keys`)");
    return;
  }
  if (delta) fail("delta bundles cannot be verified: refused while signing is configured");
  if (!signatures) {
    if (config.keyId !== "") fail("bundle missing .signatures.json file");
    return;
  }
  if (signatures.plugin !== undefined && signatures.plugin !== "") fail(`no verifier exists under id ${signatures.plugin}`);
  if (signatures.tokens.length === 0) fail(".signatures.json: missing JWT (expected exactly one)");
  if (signatures.tokens.length > 1) fail(".signatures.json: multiple JWTs not supported (expected exactly one)");
  const listed = new Map<string, FileDigest>();
  for (const f of await verifyToken(signatures.tokens[0]!, config, fail)) listed.set(f.name, f);
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (path === SIGNATURES_FILE) continue;
    const rel = path.slice(1);
    if (config.excludeFiles.some((glob) => goGlob(glob)?.test(rel) === true)) {
      listed.delete(rel);
      continue;
    }
    const file = listed.get(rel);
    if (!file) fail(`file ${rel} not included in bundle signature`);
    if (file.algorithm === "") fail(`no hashing algorithm provided for file ${rel}`);
    const got = hashFile(rel, content, file.algorithm, fail);
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(file.hash) || file.hash.toLowerCase() !== got) fail(`${rel}: digest mismatch (want: ${file.hash}, got: ${got})`);
    listed.delete(rel);
  }
  if (listed.size > 0) fail(`file(s) [${[...listed.keys()].join(" ")}] specified in bundle signatures but not found in the target bundle`);
}

function readSignaturesFile(raw: Buffer, fail: Fail): { tokens: string[]; plugin: string | undefined } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(raw.toString("utf8"));
  } catch (e) {
    fail(`bundle load failed on signatures decode: ${(e as Error).message}`, e);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(".signatures.json must be a JSON object");
  const { signatures, plugin } = v as { signatures?: unknown; plugin?: unknown };
  if (plugin !== undefined && typeof plugin !== "string") fail(".signatures.json: plugin must be a string");
  if (signatures !== undefined && signatures !== null && !(Array.isArray(signatures) && signatures.every((s) => typeof s === "string"))) {
    fail(".signatures.json: signatures must be a list of strings");
  }
  // OPA's "empty" signatures config: no list and no plugin (an empty list is not empty).
  if ((signatures === undefined || signatures === null) && (plugin === undefined || plugin === "")) return undefined;
  return { tokens: (signatures ?? []) as string[], plugin };
}

async function verifyToken(token: string, config: VerificationConfig, fail: Fail): Promise<FileDigest[]> {
  const parts = token.split(".");
  if (parts.length !== 3) fail("invalid JWT: expected three dot-separated parts");
  const header = decodePart(parts[0]!, "header", fail);
  const payload = decodePart(parts[1]!, "payload", fail);
  const files = payloadFiles(payload, fail);
  const kid = typeof header["kid"] === "string" ? header["kid"] : "";
  const claimed = typeof payload["keyid"] === "string" ? payload["keyid"] : "";
  const keyId = config.keyId || kid || claimed;
  if (keyId === "") fail("verification key ID is empty");
  const keyConfig = Object.hasOwn(config.keys, keyId) ? config.keys[keyId] : undefined;
  if (!keyConfig) fail(`verification key corresponding to ID ${keyId} not found`);
  const key = verificationKey(keyConfig, keyId, fail);
  try {
    await compactVerify(token, key, { algorithms: [keyConfig.algorithm] });
  } catch (e) {
    fail(`failed to verify JWT signature: ${(e as Error).message}`, e);
  }
  const scope = config.scope || keyConfig.scope;
  const claimedScope = typeof payload["scope"] === "string" ? payload["scope"] : "";
  if (claimedScope !== scope) fail("scope mismatch");
  return files;
}

function decodePart(part: string, what: string, fail: Fail): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch (e) {
    fail(`failed to parse JWT ${what}: ${(e as Error).message}`, e);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(`JWT ${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

function payloadFiles(payload: Record<string, unknown>, fail: Fail): FileDigest[] {
  const files = payload["files"];
  if (files === undefined || files === null) return [];
  if (!Array.isArray(files)) fail("JWT payload: files must be a list of {name, hash, algorithm}");
  return files.map((f, i) => {
    if (typeof f !== "object" || f === null || Array.isArray(f)) fail(`JWT payload: files[${i}] must be an object`);
    const { name = "", hash = "", algorithm = "" } = f as Record<string, unknown>;
    if (typeof name !== "string" || typeof hash !== "string" || typeof algorithm !== "string") fail(`JWT payload: files[${i}]: name, hash and algorithm must be strings`);
    return { name, hash, algorithm };
  });
}

function verificationKey(k: KeyConfig, id: string, fail: Fail): KeyObject {
  try {
    if (k.algorithm.startsWith("HS")) return createSecretKey(Buffer.from(k.key, "utf8"));
    if (k.key.includes("-----BEGIN CERTIFICATE-----")) return new X509Certificate(k.key).publicKey;
    return createPublicKey(k.key);
  } catch (e) {
    return fail(`key ${id}: not a usable ${k.algorithm} public key (PEM expected): ${(e as Error).message}`, e);
  }
}

/** The hex digest of one file as OPA computes it (structured files canonically). */
export function hashFile(name: string, content: Buffer, algorithm: string, fail: Fail = defaultFail): string {
  const hash = Object.hasOwn(HASHES, algorithm) ? HASHES[algorithm] : undefined;
  if (hash === undefined) fail(`unsupported hashing algorithm: ${algorithm}`);
  const h = createHash(hash);
  h.update(isStructured(name) ? canonical(name, content, fail) : content);
  return h.digest("hex");
}

function defaultFail(message: string, cause?: unknown): never {
  throw signatureError(undefined, message, cause);
}

/** OPA's structured documents (note: not data.yml, which OPA hashes as bytes). */
function isStructured(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base === "data.json" || base === "data.yaml" || base === ".manifest" || base === "signatures.json";
}

/** JSON text (numbers kept as written) or, when not JSON, YAML, as OPA's decoder reads both. */
function canonical(name: string, content: Buffer, fail: Fail): string {
  const text = content.toString("utf8");
  let value: unknown;
  try {
    value = parseLossless(text);
  } catch {
    try {
      value = parseYaml(text, { version: "1.1", intAsBigInt: true });
    } catch (e) {
      fail(`${name}: neither JSON nor YAML: ${(e as Error).message}`, e);
    }
  }
  try {
    return encode(value);
  } catch (e) {
    if (e instanceof RegoError) throw e;
    return fail(`${name}: cannot be hashed: ${(e as Error).message}`, e);
  }
}

const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/** Compact JSON with object keys in byte order and Go's string escaping (no HTML escapes). */
function encode(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "string") return goString(v);
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`the number ${v} has no JSON form`);
    return String(v);
  }
  if (isLosslessNumber(v)) return v.value;
  if (v instanceof Date) return goString(v.toISOString());
  if (Array.isArray(v)) return `[${v.map(encode).join(",")}]`;
  if (v instanceof Map) return encode(Object.fromEntries([...v].map(([k, x]) => [String(k), x])));
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort(utf8Order).map((k) => `${goString(k)}:${encode(o[k])}`).join(",")}}`;
  }
  throw new Error(`a ${typeof v} has no JSON form`);
}

/** Go's encoding/json string form: JSON.stringify's, plus \u2028 and \u2029 escaped. */
function goString(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

export interface SigningOptions {
  /** A PEM private key (RS*, PS*, ES*, EdDSA) or the shared secret (HS*). */
  key: string;
  /** Default RS256, as `opa sign`. */
  algorithm?: string;
  /** Extra claims for the payload (`--claims-file`), e.g. scope, iss, keyid. */
  claims?: Record<string, unknown>;
}

/** The `.signatures.json` text for a bundle's files (by normalised path), SHA-256 digests, as `opa sign` writes it. */
export async function signBundle(files: ReadonlyMap<string, Buffer>, options: SigningOptions): Promise<string> {
  const algorithm = options.algorithm ?? "RS256";
  if (!SIGNING_ALGORITHMS.includes(algorithm)) defaultFail(`unknown signature algorithm: ${algorithm}`);
  const list: FileDigest[] = [...files.keys()]
    .filter((p) => p !== SIGNATURES_FILE)
    .sort()
    .map((p) => ({ name: p.slice(1), hash: hashFile(p.slice(1), files.get(p)!, "SHA-256"), algorithm: "SHA-256" }));
  const payload = { files: list, ...options.claims };
  let key: KeyObject;
  try {
    key = algorithm.startsWith("HS") ? createSecretKey(Buffer.from(options.key, "utf8")) : createPrivateKey(options.key);
  } catch (e) {
    return defaultFail(`signing key: not a usable ${algorithm} private key (PEM expected): ${(e as Error).message}`, e);
  }
  const kid = typeof options.claims?.["keyid"] === "string" ? options.claims["keyid"] : undefined;
  const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: algorithm, ...(kid ? { kid } : {}) })
    .sign(key)
    .catch((e: unknown) => defaultFail(`signing failed: ${(e as Error).message}`, e));
  return `${JSON.stringify({ signatures: [token] }, null, 1)}\n`;
}
