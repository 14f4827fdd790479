// JSON Web Keys and key sets (RFC 7517) turned into node:crypto keys, accepting what OPA's JWK
// library accepts: one key or {"keys": [...]}, kty RSA / EC / OKP / oct.
import { JsonSyntaxError, unmarshal } from "../go/json.js";
import type { JsonWebKey, KeyObject } from "node:crypto";
import { nodeCrypto } from "../node.js";
import { DerError } from "./der.js";

export interface Jwk {
  kty: string;
  alg?: string;
  kid?: string;
  /** The public half for asymmetric keys. */
  publicKey?: KeyObject;
  /** The private key, when the JWK carries one. */
  privateKey?: KeyObject;
  /** Symmetric key bytes (kty oct). */
  secret?: Buffer;
}

const EC_CURVES = new Set(["P-256", "P-384", "P-521"]);
const OKP_CURVES = new Set(["Ed25519", "X25519"]);

function member(o: Record<string, unknown>, name: string, kty: string): string {
  const v = o[name];
  if (typeof v !== "string" || v === "") throw new DerError(`failed to parse ${kty} key: required field ${JSON.stringify(name)} is missing`);
  return v;
}

function keyFrom(o: Record<string, unknown>): Jwk {
  const kty = o.kty;
  if (typeof kty !== "string") throw new DerError(`invalid key type from JSON (${JSON.stringify(kty ?? null)})`);
  const jwk: Jwk = { kty };
  if (typeof o.alg === "string") jwk.alg = o.alg;
  if (typeof o.kid === "string") jwk.kid = o.kid;
  const asKey = (fields: string[]): void => {
    for (const f of fields) member(o, f, kty);
    const material = o as JsonWebKey;
    const crypto = nodeCrypto();
    try {
      if (typeof o.d === "string") {
        jwk.privateKey = crypto.createPrivateKey({ key: material, format: "jwk" });
        jwk.publicKey = crypto.createPublicKey(jwk.privateKey);
      } else {
        jwk.publicKey = crypto.createPublicKey({ key: material, format: "jwk" });
      }
    } catch (e) {
      throw new DerError(`failed to parse ${kty} key: ${(e as Error).message}`);
    }
  };
  switch (kty) {
    case "RSA":
      asKey(["n", "e"]);
      break;
    case "EC":
      if (!EC_CURVES.has(String(o.crv))) throw new DerError(`failed to parse EC key: invalid curve ${JSON.stringify(o.crv ?? null)}`);
      asKey(["x", "y"]);
      break;
    case "OKP":
      if (!OKP_CURVES.has(String(o.crv))) throw new DerError(`failed to parse OKP key: invalid curve ${JSON.stringify(o.crv ?? null)}`);
      asKey(["x"]);
      break;
    case "oct":
      jwk.secret = Buffer.from(member(o, "k", kty), "base64url");
      break;
    default:
      throw new DerError(`invalid key type from JSON (${kty})`);
  }
  return jwk;
}

/** Parses a JWK or a JWK set. */
export function parseJwkSet(text: string): Jwk[] {
  let parsed: unknown;
  try {
    parsed = unmarshal(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw new DerError(`failed to unmarshal JSON into key set: ${e.message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new DerError("failed to unmarshal JSON into key set: not an object");
  const o = parsed as Record<string, unknown>;
  if (Object.hasOwn(o, "keys")) {
    if (!Array.isArray(o.keys)) throw new DerError(`failed to unmarshal JSON into key set: "keys" must be an array`);
    return o.keys.map((k: unknown) => {
      if (typeof k !== "object" || k === null || Array.isArray(k)) throw new DerError("failed to parse key: not an object");
      return keyFrom(k as Record<string, unknown>);
    });
  }
  return [keyFrom(o)];
}
