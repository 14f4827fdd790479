// Builtins of OPA's "crypto" category: digests and HMACs (node:crypto), and X.509 certificates,
// certificate requests and private keys parsed as Go's crypto/x509 does, returned as the JSON OPA
// produces from Go's structs. Parsing helpers live in ./crypto/.
import { nodeCrypto } from "./node.js";
import { INT64_MAX, INT64_MIN, builtinError, goErrors, obj, str } from "./args.js";
import { isNumber, isInteger, toBigInt } from "../value/number.js";
import { RegoObject, objectGet, sortedPlainKeys } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { Value } from "../value/value.js";
import type { BuiltinTable } from "./registry.js";
import { parseCertificateRequestJSON } from "./crypto/csr.js";
import { DerError } from "./crypto/der.js";
import { stdDecode, tryStdDecode } from "./go/base64.js";
import { parseECPrivateKey, parsePKCS1PrivateKey, parsePKCS8PrivateKey, privateKeyJSON, privateKeyJWK, x509KeyPairJSON, type PrivateKey } from "./crypto/keys.js";
import { pemDecode, pemEncode, startsWith } from "./crypto/pem.js";
import { verifyChain, type VerifyOptions } from "./crypto/verify.js";
import { certificateJSON, parseCertificates, type Certificate } from "./crypto/x509.js";

/** Runs a parser, turning its Go-style failures into builtin errors. */
const go = <T>(f: () => T): T => goErrors(DerError, f);

const BEGIN = new TextEncoder().encode("-----BEGIN");

function digest(alg: string) {
  return { fn: (_: unknown, s: Value) => nodeCrypto().createHash(alg).update(str(s, 1), "utf8").digest("hex") };
}

function hmac(alg: string) {
  return { fn: (_: unknown, m: Value, k: Value) => nodeCrypto().createHmac(alg, Buffer.from(str(k, 2), "utf8")).update(str(m, 1), "utf8").digest("hex") };
}

function certsFromPEM(data: Buffer): Certificate[] {
  const ders: Buffer[] = [];
  let rest = data;
  while (rest.length > 0) {
    const [block, next] = pemDecode(rest);
    if (!block) break;
    if (block.type !== "CERTIFICATE") throw builtinError(`PEM block type is '${block.type}', expected CERTIFICATE`);
    ders.push(block.bytes);
    rest = next;
  }
  return go(() => parseCertificates(Buffer.concat(ders)));
}

/** OPA's getX509CertsFromString: PEM, base64 of PEM, or base64 of DER. */
function certsFromString(s: string): Certificate[] {
  const bytes = Buffer.from(s, "utf8");
  if (startsWith(bytes, BEGIN)) return certsFromPEM(bytes);
  const der = stdDecode(s);
  if (startsWith(der, BEGIN)) return certsFromPEM(der);
  return go(() => parseCertificates(der));
}

/** OPA's getPrivateKeysFromPEMData. */
function privateKeysFromPEM(data: Buffer): PrivateKey[] {
  let bs = tryStdDecode(data) ?? data;
  const keys: PrivateKey[] = [];
  while (bs.length > 0) {
    const inputLen = bs.length;
    const [block, rest] = pemDecode(bs);
    bs = rest;
    if (!block || inputLen === bs.length) break;
    switch (block.type) {
      case "RSA PRIVATE KEY":
        keys.push(go(() => parsePKCS1PrivateKey(block.bytes)));
        break;
      case "PRIVATE KEY":
        keys.push(go(() => parsePKCS8PrivateKey(block.bytes)));
        break;
      case "EC PRIVATE KEY":
        keys.push(go(() => parseECPrivateKey(block.bytes)));
        break;
      default:
        break;
    }
  }
  return keys;
}

const KEY_USAGES: Record<string, number> = {
  KeyUsageAny: 0,
  KeyUsageServerAuth: 1,
  KeyUsageClientAuth: 2,
  KeyUsageCodeSigning: 3,
  KeyUsageEmailProtection: 4,
  KeyUsageIPSECEndSystem: 5,
  KeyUsageIPSECTunnel: 6,
  KeyUsageIPSECUser: 7,
  KeyUsageTimeStamping: 8,
  KeyUsageOCSPSigning: 9,
  KeyUsageMicrosoftServerGatedCrypto: 10,
  KeyUsageNetscapeServerGatedCrypto: 11,
  KeyUsageMicrosoftCommercialCodeSigning: 12,
  KeyUsageMicrosoftKernelCodeSigning: 13,
};


/** OPA's extractVerifyOpts. */
function verifyOptions(options: Value, nowMs: number): VerifyOptions {
  const opts: VerifyOptions = { now: nowMs, keyUsages: [] };
  const o = obj(options, 2);
  const keys = o instanceof RegoObject ? o.sorted().map(([k]) => k) : sortedPlainKeys(o);
  for (const key of keys) {
    if (typeof key !== "string") continue;
    const v = objectGet(o, key)!;
    switch (key) {
      case "DNSName":
        if (typeof v !== "string") throw builtinError("'DNSName' should be a string");
        opts.dnsName = v.replace(/^"+|"+$/g, "");
        break;
      case "CurrentTime": {
        if (!isNumber(v)) throw builtinError("'CurrentTime' should be a number");
        const ns = isInteger(v) ? toBigInt(v) : undefined;
        if (ns === undefined || ns < INT64_MIN || ns > INT64_MAX) throw builtinError("'CurrentTime' should be a valid int64 number");
        opts.now = Number(ns / 1_000_000n);
        break;
      }
      case "MaxConstraintComparisons":
        if (!isNumber(v)) throw builtinError("'MaxConstraintComparisons' should be a number");
        if (!isInteger(v)) throw builtinError("'MaxConstraintComparisons' should be a valid number");
        opts.maxConstraintComparisons = Number(toBigInt(v));
        break;
      case "KeyUsages": {
        if (!Array.isArray(v) && !(v instanceof RegoSet)) throw builtinError("'KeyUsages' should be an Array or Set");
        const invalid: string[] = [];
        for (const u of Array.isArray(v) ? v : v.sorted()) {
          if (typeof u !== "string") continue;
          const name = u.replace(/^"+|"+$/g, "");
          const eku = KEY_USAGES[name];
          if (eku === undefined) invalid.push(name);
          else opts.keyUsages.push(eku);
        }
        if (invalid.length > 0) throw builtinError(`invalid entries for 'KeyUsages' found: [${invalid.join(" ")}]`);
        break;
      }
      default:
        throw builtinError("invalid key option");
    }
  }
  return opts;
}

const nowMs = (ns: bigint): number => Number(ns / 1_000_000n);

export const cryptoBuiltins: BuiltinTable = {
  "crypto.md5": digest("md5"),
  "crypto.sha1": digest("sha1"),
  "crypto.sha256": digest("sha256"),
  "crypto.hmac.md5": hmac("md5"),
  "crypto.hmac.sha1": hmac("sha1"),
  "crypto.hmac.sha256": hmac("sha256"),
  "crypto.hmac.sha512": hmac("sha512"),
  "crypto.hmac.equal": {
    fn: (_ctx, a, b) => {
      const x = Buffer.from(str(a, 1), "utf8");
      const y = Buffer.from(str(b, 2), "utf8");
      return x.length === y.length && nodeCrypto().timingSafeEqual(x, y);
    },
  },
  "crypto.x509.parse_certificates": {
    fn: (_ctx, s) => certsFromString(str(s, 1)).map((c) => certificateJSON(c, true)),
  },
  "crypto.x509.parse_and_verify_certificates": {
    fn: (ctx, s) => {
      const input = str(s, 1);
      let certs: Certificate[];
      try {
        certs = certsFromString(input);
      } catch {
        return [false, []];
      }
      const chain = verifyChain(certs, { now: nowMs(ctx.now()), keyUsages: [] });
      return chain ? [true, chain.map((c) => certificateJSON(c, true))] : [false, []];
    },
  },
  "crypto.x509.parse_and_verify_certificates_with_options": {
    fn: (ctx, s, options) => {
      const input = str(s, 1);
      obj(options, 2);
      let certs: Certificate[];
      try {
        certs = certsFromString(input);
      } catch {
        return [false, []];
      }
      const chain = verifyChain(certs, verifyOptions(options, nowMs(ctx.now())));
      return chain ? [true, chain.map((c) => certificateJSON(c, false))] : [false, []];
    },
  },
  "crypto.x509.parse_certificate_request": {
    fn: (_ctx, s) => {
      const input = str(s, 1);
      let bytes: Buffer = input.startsWith("-----BEGIN CERTIFICATE REQUEST-----") ? Buffer.from(input, "utf8") : stdDecode(input);
      const [block] = pemDecode(bytes);
      if (block && block.type !== "CERTIFICATE REQUEST") throw builtinError("invalid PEM-encoded certificate signing request");
      if (block) bytes = block.bytes;
      return go(() => parseCertificateRequestJSON(bytes));
    },
  },
  "crypto.x509.parse_keypair": {
    fn: (_ctx, c, k) => {
      // OPA reports both operands as operand 1.
      let cert: Buffer = Buffer.from(str(c, 1), "utf8");
      let key: Buffer = Buffer.from(str(k, 1), "utf8");
      const begin = Buffer.from("-----BEGIN ");
      if (!startsWith(cert, begin)) cert = stdDecode(cert);
      if (!startsWith(key, begin)) key = stdDecode(key);
      if (!startsWith(cert, begin)) cert = Buffer.from(pemEncode("CERTIFICATE", cert), "utf8");
      if (!startsWith(key, BEGIN)) key = Buffer.from(pemEncode("PRIVATE KEY", key), "utf8");
      return go(() => x509KeyPairJSON(cert, key));
    },
  },
  "crypto.x509.parse_rsa_private_key": {
    fn: (_ctx, s) => {
      const input = str(s, 1);
      if (input === "") throw builtinError("input PEM data was empty");
      const data = input.startsWith("-----BEGIN") ? Buffer.from(input, "utf8") : stdDecode(input);
      const keys = privateKeysFromPEM(data);
      if (keys.length === 0) return null;
      const first = keys[0]!;
      if (first.kind !== "rsa" && first.kind !== "ec") throw builtinError(`invalid key type ${first.kind}`);
      return privateKeyJWK(first);
    },
  },
  "crypto.parse_private_keys": {
    fn: (_ctx, s) => {
      const input = str(s, 1);
      if (input === "") return null;
      return privateKeysFromPEM(Buffer.from(input, "utf8")).map(privateKeyJSON);
    },
  },
};
