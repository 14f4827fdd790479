// X.509 certificates parsed as Go's crypto/x509 parses them, kept in a typed form (for chain
// verification) and rendered as the JSON OPA produces from Go's x509.Certificate.
import type { KeyObject } from "node:crypto";
import { fromBigInt } from "../../value/number.js";
import type { PlainObject, Value } from "../../value/value.js";
import { DerError, DerReader, TAG, bitString, contents, integer, rfc3339, time } from "./der.js";
import { processExtensions, readExtensions } from "./extensions.js";
import { bytesJSON, goObj, listJSON, oidJSON, parseGoURL, parseName, parsePublicKey, signatureAlgorithm, type SigAlg } from "./pkix.js";

export interface Extension {
  id: number[];
  critical: boolean;
  value: Buffer;
}

export interface IPNet {
  ip: string;
  mask: Buffer;
}

export interface Certificate {
  raw: Buffer;
  rawTBS: Buffer;
  rawSPKI: Buffer;
  rawSubject: Buffer;
  rawIssuer: Buffer;
  signature: Buffer;
  sigAlg: SigAlg;
  publicKeyAlgorithm: number;
  publicKeyJSON: Value;
  publicKey?: KeyObject;
  rsaBits?: number;
  version: number;
  serial: bigint;
  issuer: PlainObject;
  subject: PlainObject;
  notBefore: number;
  notAfter: number;
  keyUsage: number;
  extensions: Extension[];
  unhandledCritical: number[][];
  extKeyUsage: number[];
  unknownExtKeyUsage: number[][];
  basicConstraintsValid: boolean;
  isCA: boolean;
  maxPathLen: number;
  maxPathLenZero: boolean;
  subjectKeyId?: Buffer;
  authorityKeyId?: Buffer;
  ocspServer: string[];
  issuingCertificateURL: string[];
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
  permittedDNSDomainsCritical: boolean;
  permittedDNSDomains: string[];
  excludedDNSDomains: string[];
  permittedIPRanges: IPNet[];
  excludedIPRanges: IPNet[];
  permittedEmailAddresses: string[];
  excludedEmailAddresses: string[];
  permittedURIDomains: string[];
  excludedURIDomains: string[];
  crlDistributionPoints: string[];
  policyIdentifiers: number[][];
  policies: string[];
  inhibitAnyPolicy: number;
  inhibitAnyPolicyZero: boolean;
  inhibitPolicyMapping: number;
  inhibitPolicyMappingZero: boolean;
  requireExplicitPolicy: number;
  requireExplicitPolicyZero: boolean;
  policyMappings: [string, string][];
}

const malformed = (what: string) => new DerError(`x509: malformed ${what}`);

function step<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DerError && e.message.startsWith("x509: ")) throw e;
    throw malformed(what);
  }
}

/** Parses one DER certificate at the start of `der` (Go's parseCertificate). */
export function parseCertificate(der: Buffer): Certificate {
  const outer = step("certificate", () => new DerReader(der).expect(TAG.SEQUENCE));
  const r = contents(outer);
  const tbsTlv = step("tbs certificate", () => r.expect(TAG.SEQUENCE));
  const tbs = contents(tbsTlv);
  let version = 0;
  const v = tbs.optional(0xa0);
  if (v) version = step("version", () => Number(integer(contents(v).expect(TAG.INTEGER).content)));
  if (version < 0) throw malformed("version");
  version++;
  if (version > 3) throw new DerError("x509: invalid version");
  const serial = step("serial number", () => integer(tbs.expect(TAG.INTEGER).content));
  if (serial < 0n) throw new DerError("x509: negative serial number");
  const innerAI = step("signature algorithm identifier", () => tbs.expect(TAG.SEQUENCE));
  const issuerTlv = step("issuer", () => tbs.expect(TAG.SEQUENCE));
  const validity = step("validity", () => contents(tbs.expect(TAG.SEQUENCE)));
  const [notBefore, notAfter] = step("validity", () => [time(validity.next()), time(validity.next())]);
  const subjectTlv = step("subject", () => tbs.expect(TAG.SEQUENCE));
  const spki = step("spki", () => tbs.expect(TAG.SEQUENCE));
  const pk = step("subjectPublicKeyInfo", () => parsePublicKey(spki));
  tbs.optional(0x81);
  tbs.optional(0x82);
  const cert: Certificate = {
    raw: outer.raw,
    rawTBS: tbsTlv.raw,
    rawSPKI: spki.raw,
    rawSubject: subjectTlv.raw,
    rawIssuer: issuerTlv.raw,
    signature: Buffer.alloc(0),
    sigAlg: step("signature algorithm identifier", () => signatureAlgorithm(innerAI)),
    publicKeyAlgorithm: pk.algorithm,
    publicKeyJSON: pk.json,
    ...(pk.key ? { publicKey: pk.key } : {}),
    ...(pk.bits ? { rsaBits: pk.bits } : {}),
    version,
    serial,
    issuer: step("issuer", () => parseName(issuerTlv)),
    subject: step("subject", () => parseName(subjectTlv)),
    notBefore,
    notAfter,
    keyUsage: 0,
    extensions: [],
    unhandledCritical: [],
    extKeyUsage: [],
    unknownExtKeyUsage: [],
    basicConstraintsValid: false,
    isCA: false,
    maxPathLen: 0,
    maxPathLenZero: false,
    ocspServer: [],
    issuingCertificateURL: [],
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
    uris: [],
    permittedDNSDomainsCritical: false,
    permittedDNSDomains: [],
    excludedDNSDomains: [],
    permittedIPRanges: [],
    excludedIPRanges: [],
    permittedEmailAddresses: [],
    excludedEmailAddresses: [],
    permittedURIDomains: [],
    excludedURIDomains: [],
    crlDistributionPoints: [],
    policyIdentifiers: [],
    policies: [],
    inhibitAnyPolicy: 0,
    inhibitAnyPolicyZero: false,
    inhibitPolicyMapping: 0,
    inhibitPolicyMappingZero: false,
    requireExplicitPolicy: 0,
    requireExplicitPolicyZero: false,
    policyMappings: [],
  };
  const extsTlv = tbs.optional(0xa3);
  if (extsTlv) {
    if (version !== 3) throw malformed("extensions");
    cert.extensions = step("extensions", () => readExtensions(contents(extsTlv).enter(TAG.SEQUENCE)));
    processExtensions(cert);
  }
  if (!tbs.empty) throw malformed("tbs certificate");
  const outerAI = step("signature algorithm identifier", () => r.expect(TAG.SEQUENCE));
  if (!outerAI.raw.equals(innerAI.raw)) throw new DerError("x509: inner and outer signature algorithm identifiers don't match");
  cert.signature = step("signature", () => bitString(r.expect(TAG.BIT_STRING).content).bytes);
  if (!r.empty) throw malformed("certificate");
  return cert;
}

/** Go's x509.ParseCertificates: a concatenation of DER certificates. */
export function parseCertificates(der: Buffer): Certificate[] {
  const out: Certificate[] = [];
  let rest = der;
  while (rest.length > 0) {
    const c = parseCertificate(rest);
    out.push(c);
    rest = rest.subarray(c.raw.length);
  }
  return out;
}

const ipNetJSON = (n: IPNet): Value => goObj([["IP", n.ip], ["Mask", bytesJSON(n.mask)]]);

/** Go's x509.Certificate marshalled to JSON; OPA's parse builtins add URIStrings. */
export function certificateJSON(c: Certificate, withURIStrings: boolean): PlainObject {
  const fields: [string, Value][] = [
    ["Raw", bytesJSON(c.raw)],
    ["RawTBSCertificate", bytesJSON(c.rawTBS)],
    ["RawSubjectPublicKeyInfo", bytesJSON(c.rawSPKI)],
    ["RawSubject", bytesJSON(c.rawSubject)],
    ["RawIssuer", bytesJSON(c.rawIssuer)],
    ["Signature", bytesJSON(c.signature)],
    ["SignatureAlgorithm", c.sigAlg.id],
    ["PublicKeyAlgorithm", c.publicKeyAlgorithm],
    ["PublicKey", c.publicKeyJSON],
    ["Version", c.version],
    ["SerialNumber", fromBigInt(c.serial)],
    ["Issuer", c.issuer],
    ["Subject", c.subject],
    ["NotBefore", rfc3339(c.notBefore)],
    ["NotAfter", rfc3339(c.notAfter)],
    ["KeyUsage", c.keyUsage],
    ["Extensions", listJSON(c.extensions.map((e) => goObj([["Id", oidJSON(e.id)], ["Critical", e.critical], ["Value", bytesJSON(e.value)]])))],
    ["ExtraExtensions", null],
    ["UnhandledCriticalExtensions", listJSON(c.unhandledCritical.map(oidJSON))],
    ["ExtKeyUsage", listJSON(c.extKeyUsage)],
    ["UnknownExtKeyUsage", listJSON(c.unknownExtKeyUsage.map(oidJSON))],
    ["BasicConstraintsValid", c.basicConstraintsValid],
    ["IsCA", c.isCA],
    ["MaxPathLen", c.maxPathLen],
    ["MaxPathLenZero", c.maxPathLenZero],
    ["SubjectKeyId", bytesJSON(c.subjectKeyId)],
    ["AuthorityKeyId", bytesJSON(c.authorityKeyId)],
    ["OCSPServer", listJSON(c.ocspServer)],
    ["IssuingCertificateURL", listJSON(c.issuingCertificateURL)],
    ["DNSNames", listJSON(c.dnsNames)],
    ["EmailAddresses", listJSON(c.emailAddresses)],
    ["IPAddresses", listJSON(c.ipAddresses)],
    ["URIs", listJSON(c.uris.map((u) => parseGoURL(u)))],
    ["PermittedDNSDomainsCritical", c.permittedDNSDomainsCritical],
    ["PermittedDNSDomains", listJSON(c.permittedDNSDomains)],
    ["ExcludedDNSDomains", listJSON(c.excludedDNSDomains)],
    ["PermittedIPRanges", listJSON(c.permittedIPRanges.map(ipNetJSON))],
    ["ExcludedIPRanges", listJSON(c.excludedIPRanges.map(ipNetJSON))],
    ["PermittedEmailAddresses", listJSON(c.permittedEmailAddresses)],
    ["ExcludedEmailAddresses", listJSON(c.excludedEmailAddresses)],
    ["PermittedURIDomains", listJSON(c.permittedURIDomains)],
    ["ExcludedURIDomains", listJSON(c.excludedURIDomains)],
    ["CRLDistributionPoints", listJSON(c.crlDistributionPoints)],
    ["PolicyIdentifiers", listJSON(c.policyIdentifiers.map(oidJSON))],
    ["Policies", listJSON(c.policies)],
    ["InhibitAnyPolicy", c.inhibitAnyPolicy],
    ["InhibitAnyPolicyZero", c.inhibitAnyPolicyZero],
    ["InhibitPolicyMapping", c.inhibitPolicyMapping],
    ["InhibitPolicyMappingZero", c.inhibitPolicyMappingZero],
    ["RequireExplicitPolicy", c.requireExplicitPolicy],
    ["RequireExplicitPolicyZero", c.requireExplicitPolicyZero],
    ["PolicyMappings", listJSON(c.policyMappings.map(([i, s]) => goObj([["IssuerDomainPolicy", i], ["SubjectDomainPolicy", s]])))],
  ];
  if (withURIStrings) fields.push(["URIStrings", listJSON(c.uris)]);
  return goObj(fields);
}
