// JWS signing and verification by algorithm name with node:crypto's synchronous sign/verify
// (jose's are async, and builtins are synchronous).
import type { KeyObject } from "node:crypto";
import { nodeCrypto } from "../node.js";
import { DerError, bigintBytes, unsigned } from "./der.js";

export const JWS_ALGORITHMS = new Set(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "HS256", "HS384", "HS512", "EdDSA"]);

const HASH: Record<string, string> = { "256": "sha256", "384": "sha384", "512": "sha512" };
const EC_SIZES: Record<string, number> = { prime256v1: 32, secp384r1: 48, secp521r1: 66, secp224r1: 28, secp256k1: 32 };

export type VerifyKey = KeyObject | Buffer;

/** Go 1.24 rejects RSA keys under 1024 bits in every operation. */
function rsaKeyOK(key: KeyObject): boolean {
  return key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 1024;
}

function der(int: Buffer): Buffer {
  let b = Buffer.from(bigintBytes(unsigned(int)));
  if (b.length === 0) b = Buffer.from([0]);
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return Buffer.concat([Buffer.from([0x02]), derLen(b.length), b]);
}

function derLen(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes = bigintBytes(BigInt(n));
  return Buffer.concat([Buffer.from([0x80 | bytes.length]), bytes]);
}

/** RSASSA-PKCS1-v1_5 (pss = false) or RSASSA-PSS with the salt length detected. */
export function verifyRSA(bits: string, pss: boolean, key: KeyObject, input: Buffer, sig: Buffer): boolean {
  if (!rsaKeyOK(key)) return false;
  const crypto = nodeCrypto();
  const { constants } = crypto;
  const padding = pss ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO } : { padding: constants.RSA_PKCS1_PADDING };
  try {
    return crypto.verify(HASH[bits]!, input, { key, ...padding }, sig);
  } catch {
    return false;
  }
}

/** OPA's verifyES: r and s are the two halves of the signature, whatever its length. */
export function verifyECHalves(bits: string, key: KeyObject, input: Buffer, sig: Buffer): boolean {
  if (key.asymmetricKeyType !== "ec") return false;
  const n = Math.floor(sig.length / 2);
  const r = unsigned(sig.subarray(0, n));
  const s = unsigned(sig.subarray(n));
  if (r === 0n || s === 0n) return false;
  const body = Buffer.concat([der(sig.subarray(0, n)), der(sig.subarray(n))]);
  const derSig = Buffer.concat([Buffer.from([0x30]), derLen(body.length), body]);
  const crypto = nodeCrypto();
  try {
    return crypto.verify(HASH[bits]!, input, { key, dsaEncoding: "der" }, derSig);
  } catch {
    return false;
  }
}

export function verifyEd25519(key: KeyObject, input: Buffer, sig: Buffer): boolean {
  if (key.asymmetricKeyType !== "ed25519") return false;
  const crypto = nodeCrypto();
  try {
    return crypto.verify(null, input, key, sig);
  } catch {
    return false;
  }
}

export function hmacDigest(bits: string, secret: Buffer, input: Buffer): Buffer {
  return nodeCrypto().createHmac(HASH[bits]!, secret).update(input).digest();
}

export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}

/** Verification by the token's algorithm (the library path io.jwt.decode_verify uses). */
export function verifyJWS(alg: string, key: VerifyKey, input: Buffer, sig: Buffer): boolean {
  const family = alg.slice(0, 2);
  const bits = alg.slice(2);
  if (!JWS_ALGORITHMS.has(alg)) return false;
  if (alg === "EdDSA") return !Buffer.isBuffer(key) && verifyEd25519(key, input, sig);
  if (family === "HS") return Buffer.isBuffer(key) && constantTimeEqual(hmacDigest(bits, key, input), sig);
  if (Buffer.isBuffer(key)) return false;
  if (family === "RS" || family === "PS") return verifyRSA(bits, family === "PS", key, input, sig);
  const size = EC_SIZES[key.asymmetricKeyDetails?.namedCurve ?? ""];
  if (size === undefined || sig.length !== 2 * size) return false;
  return verifyECHalves(bits, key, input, sig);
}

/** Signs `input` with a JWS algorithm; key kinds that do not fit the algorithm are errors. */
export function signJWS(alg: string, key: { privateKey?: KeyObject; secret?: Buffer; kty: string }, input: Buffer): Buffer {
  const family = alg.slice(0, 2);
  const bits = alg.slice(2);
  const wrongKey = () => new DerError(`failed to sign payload: key of type ${key.kty} cannot be used with algorithm ${alg}`);
  if (family === "HS") {
    if (!key.secret) throw wrongKey();
    return hmacDigest(bits, key.secret, input);
  }
  const k = key.privateKey;
  if (!k) throw wrongKey();
  switch (family) {
    case "RS":
    case "PS": {
      if (k.asymmetricKeyType !== "rsa") throw wrongKey();
      const size = k.asymmetricKeyDetails?.modulusLength ?? 0;
      if (size < 1024) throw new DerError(`failed to sign payload: crypto/rsa: ${size}-bit keys are insecure`);
      const { constants } = nodeCrypto();
      const padding = family === "PS" ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : { padding: constants.RSA_PKCS1_PADDING };
      return nodeCrypto().sign(HASH[bits]!, input, { key: k, ...padding });
    }
    case "ES":
      if (k.asymmetricKeyType !== "ec") throw wrongKey();
      return nodeCrypto().sign(HASH[bits]!, input, { key: k, dsaEncoding: "ieee-p1363" });
    default:
      if (alg !== "EdDSA" || k.asymmetricKeyType !== "ed25519") throw wrongKey();
      return nodeCrypto().sign(null, input, k);
  }
}
