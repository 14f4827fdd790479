// Private keys as Go's x509 package parses them (PKCS #1, PKCS #8, SEC 1), the JSON of Go's key
// structs (what crypto.parse_private_keys returns), their JWK form, and tls.X509KeyPair.
import type { JsonWebKey, KeyObject } from "node:crypto";
import { nodeCrypto } from "../node.js";
import { fromBigInt } from "../../value/number.js";
import { newPlainObject, type PlainObject, type Value } from "../../value/value.js";
import { DerError, unsigned } from "./der.js";
import { pemDecode } from "./pem.js";
import { bytesJSON, goObj } from "./pkix.js";
import { certificateJSON, parseCertificate } from "./x509.js";

export interface PrivateKey {
  kind: "rsa" | "ec" | "ed25519" | "x25519";
  key: KeyObject;
}

const GO_CURVES = new Set(["prime256v1", "secp384r1", "secp521r1", "secp224r1"]);

function load(der: Buffer, type: "pkcs1" | "pkcs8" | "sec1"): KeyObject | undefined {
  const crypto = nodeCrypto();
  try {
    return crypto.createPrivateKey({ key: der, format: "der", type });
  } catch {
    return undefined;
  }
}

function classify(k: KeyObject): PrivateKey["kind"] | undefined {
  switch (k.asymmetricKeyType) {
    case "rsa":
      return "rsa";
    case "ec":
      return GO_CURVES.has(k.asymmetricKeyDetails?.namedCurve ?? "") ? "ec" : undefined;
    case "ed25519":
      return "ed25519";
    case "x25519":
      return "x25519";
    default:
      return undefined;
  }
}

export function parsePKCS1PrivateKey(der: Buffer): PrivateKey {
  const k = load(der, "pkcs1");
  if (k && k.asymmetricKeyType === "rsa") return { kind: "rsa", key: k };
  if (load(der, "pkcs8")) throw new DerError("x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)");
  if (load(der, "sec1")) throw new DerError("x509: failed to parse private key (use ParseECPrivateKey instead for this key format)");
  throw new DerError("x509: failed to parse private key");
}

export function parsePKCS8PrivateKey(der: Buffer): PrivateKey {
  const k = load(der, "pkcs8");
  if (!k) {
    if (load(der, "sec1")) throw new DerError("x509: failed to parse private key (use ParseECPrivateKey instead for this key format)");
    if (load(der, "pkcs1")) throw new DerError("x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)");
    throw new DerError("x509: failed to parse private key");
  }
  const kind = classify(k);
  if (!kind) throw new DerError(`x509: PKCS#8 wrapping contained private key with unknown algorithm: ${k.asymmetricKeyType ?? "unknown"}`);
  return { kind, key: k };
}

export function parseECPrivateKey(der: Buffer): PrivateKey {
  const k = load(der, "sec1");
  if (!k) throw new DerError("x509: failed to parse EC private key");
  if (classify(k) !== "ec") throw new DerError("x509: unknown elliptic curve");
  return { kind: "ec", key: k };
}

const big = (b64url: string | undefined): Value => fromBigInt(unsigned(Buffer.from(b64url ?? "", "base64url")));

function jwkOf(k: PrivateKey): JsonWebKey {
  return k.key.export({ format: "jwk" });
}

/** The JSON of Go's private key struct (rsa.PrivateKey, ecdsa.PrivateKey, ed25519.PrivateKey). */
export function privateKeyJSON(k: PrivateKey): Value {
  const j = jwkOf(k);
  switch (k.kind) {
    case "rsa":
      return goObj([
        ["N", big(j.n)],
        ["E", Number(unsigned(Buffer.from(j.e ?? "", "base64url")))],
        ["D", big(j.d)],
        ["Primes", [big(j.p), big(j.q)]],
        ["Precomputed", goObj([["Dp", big(j.dp)], ["Dq", big(j.dq)], ["Qinv", big(j.qi)], ["CRTValues", []]])],
      ]);
    case "ec":
      return goObj([["Curve", newPlainObject()], ["X", big(j.x)], ["Y", big(j.y)], ["D", big(j.d)]]);
    case "ed25519":
      return bytesJSON(Buffer.concat([Buffer.from(j.d ?? "", "base64url"), Buffer.from(j.x ?? "", "base64url")]));
    case "x25519":
      return newPlainObject();
  }
}

/** The JWK OPA's crypto.x509.parse_rsa_private_key returns for a key. */
export function privateKeyJWK(k: PrivateKey): PlainObject {
  const j = jwkOf(k);
  const fields: [string, Value][] = [];
  for (const name of ["kty", "crv", "n", "e", "x", "y", "d", "p", "q", "dp", "dq", "qi"] as const) {
    const v = j[name];
    if (typeof v === "string") fields.push([name, v]);
  }
  return goObj(fields);
}

/** Go's tls.parsePrivateKey order: PKCS #1, then PKCS #8, then SEC 1. */
function tlsPrivateKey(der: Buffer): PrivateKey {
  try {
    return parsePKCS1PrivateKey(der);
  } catch {
    // next format
  }
  const k8 = load(der, "pkcs8");
  if (k8) {
    const kind = classify(k8);
    if (kind !== "rsa" && kind !== "ec" && kind !== "ed25519") throw new DerError("tls: found unknown private key type in PKCS#8 wrapping");
    return { kind, key: k8 };
  }
  try {
    return parseECPrivateKey(der);
  } catch {
    throw new DerError("tls: failed to parse private key");
  }
}

/** Go's tls.X509KeyPair, as JSON of tls.Certificate. */
export function x509KeyPairJSON(certPEM: Buffer, keyPEM: Buffer): PlainObject {
  const certs: Buffer[] = [];
  let skipped: string[] = [];
  let rest = certPEM;
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) break;
    rest = next;
    if (block.type === "CERTIFICATE") certs.push(block.bytes);
    else skipped.push(block.type);
  }
  if (certs.length === 0) {
    if (skipped.length === 0) throw new DerError("tls: failed to find any PEM data in certificate input");
    if (skipped.length === 1 && skipped[0]!.endsWith("PRIVATE KEY")) {
      throw new DerError("tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched");
    }
    throw new DerError(`tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [${skipped.join(" ")}]`);
  }
  skipped = [];
  let keyDER: Buffer | undefined;
  rest = keyPEM;
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) {
      if (skipped.length === 0) throw new DerError("tls: failed to find any PEM data in key input");
      if (skipped.length === 1 && skipped[0] === "CERTIFICATE") throw new DerError("tls: found a certificate rather than a key in the PEM for the private key");
      throw new DerError(`tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [${skipped.join(" ")}]`);
    }
    rest = next;
    if (block.type === "PRIVATE KEY" || block.type.endsWith(" PRIVATE KEY")) {
      keyDER = block.bytes;
      break;
    }
    skipped.push(block.type);
  }
  const leaf = parseCertificate(certs[0]!);
  const priv = tlsPrivateKey(keyDER);
  const pubKind = { 1: "rsa", 3: "ec", 4: "ed25519" }[leaf.publicKeyAlgorithm as 1 | 3 | 4];
  if (!pubKind || !leaf.publicKey) throw new DerError("tls: unknown public key algorithm");
  if (pubKind !== priv.kind) throw new DerError("tls: private key type does not match public key type");
  const a = leaf.publicKey.export({ format: "jwk" });
  const b = priv.key.export({ format: "jwk" });
  if (a.n !== b.n || a.x !== b.x || a.y !== b.y || a.crv !== b.crv) throw new DerError("tls: private key does not match public key");
  return goObj([
    ["Certificate", certs.map((c) => c.toString("base64"))],
    ["PrivateKey", privateKeyJSON(priv)],
    ["SupportedSignatureAlgorithms", null],
    ["OCSPStaple", null],
    ["SignedCertificateTimestamps", null],
    ["Leaf", certificateJSON(leaf, false)],
  ]);
}
