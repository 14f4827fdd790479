// Building blocks shared by certificates and CSRs, producing the JSON shape Go's encoding/json
// gives x509 values (OPA marshals Go's structs): []byte → base64, nil slices → null, big.Int →
// number, asn1.ObjectIdentifier → array of ints, time.Time → RFC 3339.
import type { KeyObject } from "node:crypto";
import { nodeCrypto } from "../node.js";
import ipaddr from "ipaddr.js";
import { fromBigInt } from "../../value/number.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../../value/value.js";
import { DerError, DerReader, TAG, asn1String, bitString, contents, integer, oidArcs, oidText, unsigned, type Tlv } from "./der.js";

/** A null-prototype object with Go's field order (keys are sorted by the value model anyway). */
export function goObj(fields: ReadonlyArray<readonly [string, Value]>): PlainObject {
  const o = newPlainObject();
  for (const [k, v] of fields) setOwn(o, k, v);
  return o;
}

export const bytesJSON = (b: Uint8Array | undefined): Value => (b === undefined ? null : Buffer.from(b).toString("base64"));
export const listJSON = <T extends Value>(xs: readonly T[]): Value => (xs.length === 0 ? null : [...xs]);
export const oidJSON = (arcs: readonly number[]): Value => [...arcs];

// --- names -------------------------------------------------------------------------------------

const NAME_FIELDS: Record<string, string> = {
  "2.5.4.6": "Country",
  "2.5.4.10": "Organization",
  "2.5.4.11": "OrganizationalUnit",
  "2.5.4.7": "Locality",
  "2.5.4.8": "Province",
  "2.5.4.9": "StreetAddress",
  "2.5.4.17": "PostalCode",
};

/** pkix.Name from an RDNSequence element (Go's x509 parseName + FillFromRDNSequence). */
export function parseName(t: Tlv): PlainObject {
  const lists: Record<string, string[]> = {};
  for (const f of Object.values(NAME_FIELDS)) lists[f] = [];
  let serialNumber = "";
  let commonName = "";
  const names: Value[] = [];
  const rdns = contents(t);
  while (!rdns.empty) {
    const set = rdns.enter(TAG.SET);
    if (set.empty) throw new DerError("x509: invalid RDNSequence: invalid attribute");
    while (!set.empty) {
      const atv = set.enter(TAG.SEQUENCE);
      const oid = atv.expect(TAG.OID);
      const valueTlv = atv.next();
      const value = asn1String(valueTlv);
      if (value === undefined) throw new DerError("x509: invalid RDNSequence: invalid attribute value");
      const arcs = oidArcs(oid.content);
      names.push(goObj([["Type", oidJSON(arcs)], ["Value", value]]));
      const key = arcs.join(".");
      if (key === "2.5.4.3") commonName = value;
      else if (key === "2.5.4.5") serialNumber = value;
      else if (NAME_FIELDS[key]) lists[NAME_FIELDS[key]!]!.push(value);
    }
  }
  return goObj([
    ["Country", listJSON(lists.Country!)],
    ["Organization", listJSON(lists.Organization!)],
    ["OrganizationalUnit", listJSON(lists.OrganizationalUnit!)],
    ["Locality", listJSON(lists.Locality!)],
    ["Province", listJSON(lists.Province!)],
    ["StreetAddress", listJSON(lists.StreetAddress!)],
    ["PostalCode", listJSON(lists.PostalCode!)],
    ["SerialNumber", serialNumber],
    ["CommonName", commonName],
    ["Names", listJSON(names)],
    ["ExtraNames", null],
  ]);
}

// --- algorithms --------------------------------------------------------------------------------

/** Go's x509.SignatureAlgorithm values with the hash node:crypto needs (undefined: no pre-hash). */
export interface SigAlg {
  id: number;
  kind: "rsa" | "pss" | "ecdsa" | "dsa" | "ed25519" | "unknown";
  hash?: string;
}

const SIG_OIDS: Record<string, SigAlg> = {
  "1.2.840.113549.1.1.2": { id: 1, kind: "rsa", hash: "md2" },
  "1.2.840.113549.1.1.4": { id: 2, kind: "rsa", hash: "md5" },
  "1.2.840.113549.1.1.5": { id: 3, kind: "rsa", hash: "sha1" },
  "1.3.14.3.2.29": { id: 3, kind: "rsa", hash: "sha1" },
  "1.2.840.113549.1.1.11": { id: 4, kind: "rsa", hash: "sha256" },
  "1.2.840.113549.1.1.12": { id: 5, kind: "rsa", hash: "sha384" },
  "1.2.840.113549.1.1.13": { id: 6, kind: "rsa", hash: "sha512" },
  "1.2.840.10040.4.3": { id: 7, kind: "dsa", hash: "sha1" },
  "2.16.840.1.101.3.4.3.2": { id: 8, kind: "dsa", hash: "sha256" },
  "1.2.840.10045.4.1": { id: 9, kind: "ecdsa", hash: "sha1" },
  "1.2.840.10045.4.3.2": { id: 10, kind: "ecdsa", hash: "sha256" },
  "1.2.840.10045.4.3.3": { id: 11, kind: "ecdsa", hash: "sha384" },
  "1.2.840.10045.4.3.4": { id: 12, kind: "ecdsa", hash: "sha512" },
  "1.3.101.112": { id: 16, kind: "ed25519" },
};

const PSS_HASHES: Record<string, [number, string, number]> = {
  "2.16.840.1.101.3.4.2.1": [13, "sha256", 32],
  "2.16.840.1.101.3.4.2.2": [14, "sha384", 48],
  "2.16.840.1.101.3.4.2.3": [15, "sha512", 64],
};

const UNKNOWN_SIG: SigAlg = { id: 0, kind: "unknown" };

/** Go's getSignatureAlgorithmFromAI, from an AlgorithmIdentifier element. */
export function signatureAlgorithm(ai: Tlv): SigAlg {
  const r = contents(ai);
  const oid = oidText(r.expect(TAG.OID).content);
  if (oid !== "1.2.840.113549.1.1.10") return SIG_OIDS[oid] ?? UNKNOWN_SIG;
  // RSASSA-PSS: SHA-2 hash, MGF1 with the same hash, salt length = hash size, trailer 1.
  try {
    const params = r.enter(TAG.SEQUENCE);
    const hashAI = contents(params.expect(0xa0)).enter(TAG.SEQUENCE);
    const hashOid = oidText(hashAI.expect(TAG.OID).content);
    const mgf = contents(params.expect(0xa1)).enter(TAG.SEQUENCE);
    if (oidText(mgf.expect(TAG.OID).content) !== "1.2.840.113549.1.1.8") return UNKNOWN_SIG;
    const mgfHash = oidText(mgf.enter(TAG.SEQUENCE).expect(TAG.OID).content);
    const salt = Number(integer(contents(params.expect(0xa2)).expect(TAG.INTEGER).content));
    const trailer = params.optional(0xa3);
    if (trailer && integer(contents(trailer).expect(TAG.INTEGER).content) !== 1n) return UNKNOWN_SIG;
    const h = PSS_HASHES[hashOid];
    if (!h || mgfHash !== hashOid || salt !== h[2]) return UNKNOWN_SIG;
    return { id: h[0], kind: "pss", hash: h[1] };
  } catch {
    return UNKNOWN_SIG;
  }
}

// --- public keys -------------------------------------------------------------------------------

/** Go's x509.PublicKeyAlgorithm: 0 unknown, 1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519. */
export interface PublicKeyInfo {
  algorithm: number;
  /** The JSON of Go's key struct (null when Go leaves the key unparsed). */
  json: Value;
  key?: KeyObject;
  /** RSA modulus size in bits. */
  bits?: number;
}

const CURVES: Record<string, number> = {
  "1.3.132.0.33": 28,
  "1.2.840.10045.3.1.7": 32,
  "1.3.132.0.34": 48,
  "1.3.132.0.35": 66,
};

const bigJSON = (v: bigint): Value => fromBigInt(v);

/** Parses a SubjectPublicKeyInfo element as Go's x509.parsePublicKey does. */
export function parsePublicKey(spki: Tlv): PublicKeyInfo {
  const r = contents(spki);
  const ai = contents(r.expect(TAG.SEQUENCE));
  const bits = bitString(r.expect(TAG.BIT_STRING).content).bytes;
  const oid = oidText(ai.expect(TAG.OID).content);
  const keyOf = (): KeyObject => nodeCrypto().createPublicKey({ key: spki.raw, format: "der", type: "spki" });
  switch (oid) {
    case "1.2.840.113549.1.1.1": {
      const params = ai.optional(TAG.NULL);
      if (!params && !ai.empty) throw new DerError("x509: RSA key missing NULL parameters");
      const seq = new DerReader(bits).enter(TAG.SEQUENCE);
      const n = integer(seq.expect(TAG.INTEGER).content);
      const e = integer(seq.expect(TAG.INTEGER).content);
      if (n <= 0n) throw new DerError("x509: RSA modulus is not a positive number");
      if (e <= 0n) throw new DerError("x509: RSA public exponent is not a positive number");
      return { algorithm: 1, json: goObj([["N", bigJSON(n)], ["E", Number(e)]]), key: keyOf(), bits: n.toString(2).length };
    }
    case "1.2.840.10045.2.1": {
      const curveOid = oidText(ai.expect(TAG.OID).content);
      const size = CURVES[curveOid];
      if (size === undefined) throw new DerError("x509: unsupported elliptic curve");
      if (bits.length !== 1 + 2 * size || bits[0] !== 4) throw new DerError("x509: failed to unmarshal elliptic curve point");
      const x = unsigned(bits.subarray(1, 1 + size));
      const y = unsigned(bits.subarray(1 + size));
      return { algorithm: 3, json: goObj([["Curve", newPlainObject()], ["X", bigJSON(x)], ["Y", bigJSON(y)]]), key: keyOf() };
    }
    case "1.3.101.112":
      if (!ai.empty) throw new DerError("x509: Ed25519 key encoded with illegal parameters");
      if (bits.length !== 32) throw new DerError("x509: wrong Ed25519 public key size");
      return { algorithm: 4, json: bytesJSON(bits), key: keyOf() };
    case "1.2.840.10040.4.1": {
      const y = integer(new DerReader(bits).expect(TAG.INTEGER).content);
      const p = ai.enter(TAG.SEQUENCE);
      const [pp, q, g] = [0, 1, 2].map(() => integer(p.expect(TAG.INTEGER).content)) as [bigint, bigint, bigint];
      const json = goObj([["Parameters", goObj([["P", bigJSON(pp)], ["Q", bigJSON(q)], ["G", bigJSON(g)]])], ["Y", bigJSON(y)]]);
      return { algorithm: 2, json, key: keyOf() };
    }
    default:
      return { algorithm: 0, json: null };
  }
}

// --- general names -----------------------------------------------------------------------------

/** net.IP's text form (IPv4-mapped IPv6 prints as IPv4). */
export function ipText(b: Uint8Array): string {
  const addr = ipaddr.fromByteArray([...b]);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) return (addr as ipaddr.IPv6).toIPv4Address().toString();
  return addr.toString();
}

export interface SanValues {
  dns: string[];
  emails: string[];
  ips: string[];
  uris: string[];
}

const isIA5 = (b: Buffer): boolean => b.every((c) => c < 0x80);

/** Go's parseSANExtension over a GeneralNames SEQUENCE (extension value). */
export function parseSAN(value: Buffer): SanValues {
  const out: SanValues = { dns: [], emails: [], ips: [], uris: [] };
  const r = new DerReader(value).enter(TAG.SEQUENCE);
  while (!r.empty) {
    const gn = r.next();
    switch (gn.tag) {
      case 0x81:
        if (!isIA5(gn.content)) throw new DerError(`x509: SAN rfc822Name is malformed`);
        out.emails.push(gn.content.toString("latin1"));
        break;
      case 0x82:
        if (!isIA5(gn.content)) throw new DerError(`x509: SAN dNSName is malformed`);
        out.dns.push(gn.content.toString("latin1"));
        break;
      case 0x86: {
        if (!isIA5(gn.content)) throw new DerError(`x509: SAN uniformResourceIdentifier is malformed`);
        const s = gn.content.toString("latin1");
        parseGoURL(s);
        out.uris.push(s);
        break;
      }
      case 0x87:
        if (gn.content.length !== 4 && gn.content.length !== 16) {
          throw new DerError(`x509: cannot parse IP address of length ${gn.content.length}`);
        }
        out.ips.push(ipText(gn.content));
        break;
      default:
        break;
    }
  }
  return out;
}

// --- URLs --------------------------------------------------------------------------------------

type URLError = (reason: string) => Error;
const sanURLError = (raw: string): URLError => (reason) => new DerError(`x509: cannot parse URI ${JSON.stringify(raw)}: ${reason}`);

function unescapeURL(s: string, fail: URLError): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    throw fail("invalid URL escape");
  }
}

/** url.URL as Go's encoding/json prints it (a subset of Go's url.Parse). */
export function parseGoURL(raw: string, fail: URLError = sanURLError(raw)): PlainObject {
  let rest = raw;
  let fragment = "";
  let rawFragment = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    rawFragment = rest.slice(hash + 1);
    fragment = unescapeURL(rawFragment, fail);
    if (!rawFragment.includes("%")) rawFragment = "";
    rest = rest.slice(0, hash);
  }
  let scheme = "";
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (rest.startsWith(":")) {
    throw fail("missing protocol scheme");
  }
  let rawQuery = "";
  let forceQuery = false;
  const q = rest.indexOf("?");
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    forceQuery = rawQuery === "" && rest.endsWith("?");
    rest = rest.slice(0, q);
  }
  let opaque = "";
  let user: Value = null;
  let host = "";
  let path = "";
  if (scheme !== "" && !rest.startsWith("/")) {
    opaque = rest;
  } else {
    if (rest.startsWith("//")) {
      const auth = rest.slice(2);
      const slash = auth.indexOf("/");
      let authority = slash < 0 ? auth : auth.slice(0, slash);
      rest = slash < 0 ? "" : auth.slice(slash);
      const at = authority.lastIndexOf("@");
      if (at >= 0) {
        user = newPlainObject();
        authority = authority.slice(at + 1);
      }
      host = unescapeURL(authority, fail);
    }
    path = unescapeURL(rest, fail);
  }
  const rawPath = rest.includes("%") && encodeURI(path) !== rest ? rest : "";
  return goObj([
    ["Scheme", scheme],
    ["Opaque", opaque],
    ["User", user],
    ["Host", host],
    ["Path", path],
    ["RawPath", rawPath],
    ["OmitHost", false],
    ["ForceQuery", forceQuery],
    ["RawQuery", rawQuery],
    ["Fragment", fragment],
    ["RawFragment", rawFragment],
  ]);
}
