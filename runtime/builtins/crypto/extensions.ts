// Certificate extensions as Go's x509 processExtensions interprets them: the typed fields of
// x509.Certificate (key usage, basic constraints, SANs, name constraints, policies, ...) and the
// list of critical extensions it did not understand.
import { DerError, DerReader, TAG, bitAt, bitString, contents, integer, oidArcs, oidText } from "./der.js";
import { ipText, parseSAN } from "./pkix.js";
import type { Certificate, Extension, IPNet } from "./x509.js";

/** Go's x509.ExtKeyUsage values by OID. */
export const EKU_OIDS: Record<string, number> = {
  "2.5.29.37.0": 0,
  "1.3.6.1.5.5.7.3.1": 1,
  "1.3.6.1.5.5.7.3.2": 2,
  "1.3.6.1.5.5.7.3.3": 3,
  "1.3.6.1.5.5.7.3.4": 4,
  "1.3.6.1.5.5.7.3.5": 5,
  "1.3.6.1.5.5.7.3.6": 6,
  "1.3.6.1.5.5.7.3.7": 7,
  "1.3.6.1.5.5.7.3.8": 8,
  "1.3.6.1.5.5.7.3.9": 9,
  "1.3.6.1.4.1.311.10.3.3": 10,
  "2.16.840.1.113730.4.1": 11,
  "1.3.6.1.4.1.311.2.1.22": 12,
  "1.3.6.1.4.1.311.61.1.1": 13,
};

/** A SEQUENCE OF Extension. */
export function readExtensions(r: DerReader): Extension[] {
  const out: Extension[] = [];
  const seen = new Set<string>();
  while (!r.empty) {
    const e = r.enter(TAG.SEQUENCE);
    const id = oidArcs(e.expect(TAG.OID).content);
    const crit = e.optional(TAG.BOOLEAN);
    const value = e.expect(TAG.OCTET_STRING).content;
    const key = id.join(".");
    if (seen.has(key)) throw new DerError("x509: certificate contains duplicate extensions");
    seen.add(key);
    out.push({ id, critical: crit !== undefined && crit.content[0] !== 0, value });
  }
  return out;
}

function uriNames(r: DerReader, into: string[]): void {
  while (!r.empty) {
    const gn = r.next();
    if (gn.tag === 0x86) into.push(gn.content.toString("latin1"));
  }
}

function ext<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DerError && e.message.startsWith("x509: ")) throw e;
    throw new DerError(`x509: invalid ${name}`);
  }
}

/** Go's processExtensions: fills the typed fields and records unhandled critical extensions. */
export function processExtensions(c: Certificate): void {
  for (const e of c.extensions) {
    let unhandled = false;
    const id = e.id.join(".");
    const r = () => new DerReader(e.value);
    switch (id) {
      case "2.5.29.15":
        ext("key usage", () => {
          const bs = bitString(r().expect(TAG.BIT_STRING).content);
          for (let i = 0; i < 9; i++) if (bitAt(bs, i)) c.keyUsage |= 1 << i;
        });
        break;
      case "2.5.29.19":
        ext("basic constraints", () => {
          const s = r().enter(TAG.SEQUENCE);
          const ca = s.optional(TAG.BOOLEAN);
          c.isCA = ca !== undefined && ca.content[0] !== 0;
          const len = s.optional(TAG.INTEGER);
          c.maxPathLen = len ? Number(integer(len.content)) : -1;
          c.basicConstraintsValid = true;
          c.maxPathLenZero = c.maxPathLen === 0;
        });
        break;
      case "2.5.29.17": {
        const san = parseSAN(e.value);
        c.dnsNames = san.dns;
        c.emailAddresses = san.emails;
        c.ipAddresses = san.ips;
        c.uris = san.uris;
        unhandled = san.dns.length + san.emails.length + san.ips.length + san.uris.length === 0;
        break;
      }
      case "2.5.29.30":
        unhandled = ext("name constraints", () => parseNameConstraints(c, e));
        break;
      case "2.5.29.31":
        ext("CRL distribution points", () => {
          const s = r().enter(TAG.SEQUENCE);
          while (!s.empty) {
            const dp = s.enter(TAG.SEQUENCE);
            const name = dp.optional(0xa0);
            if (!name) continue;
            const full = contents(name).optional(0xa0);
            if (full) uriNames(contents(full), c.crlDistributionPoints);
          }
        });
        break;
      case "2.5.29.35":
        ext("authority key identifier", () => {
          const id = r().enter(TAG.SEQUENCE).optional(0x80);
          if (id) c.authorityKeyId = id.content;
        });
        break;
      case "2.5.29.37":
        ext("extended key usages", () => {
          const s = r().enter(TAG.SEQUENCE);
          while (!s.empty) {
            const arcs = oidArcs(s.expect(TAG.OID).content);
            const known = EKU_OIDS[arcs.join(".")];
            if (known === undefined) c.unknownExtKeyUsage.push(arcs);
            else c.extKeyUsage.push(known);
          }
        });
        break;
      case "2.5.29.14":
        c.subjectKeyId = ext("subject key identifier", () => r().expect(TAG.OCTET_STRING).content);
        break;
      case "2.5.29.32":
        ext("certificate policies", () => {
          const s = r().enter(TAG.SEQUENCE);
          while (!s.empty) {
            const pi = s.enter(TAG.SEQUENCE);
            const oid = pi.expect(TAG.OID).content;
            c.policies.push(oidText(oid));
            c.policyIdentifiers.push(oidArcs(oid));
          }
        });
        break;
      case "2.5.29.33":
        ext("policy mappings", () => {
          const s = r().enter(TAG.SEQUENCE);
          while (!s.empty) {
            const m = s.enter(TAG.SEQUENCE);
            c.policyMappings.push([oidText(m.expect(TAG.OID).content), oidText(m.expect(TAG.OID).content)]);
          }
        });
        break;
      case "2.5.29.36":
        ext("policy constraints", () => {
          const s = r().enter(TAG.SEQUENCE);
          const req = s.optional(0x80);
          if (req) {
            c.requireExplicitPolicy = Number(integer(req.content));
            c.requireExplicitPolicyZero = c.requireExplicitPolicy === 0;
          }
          const inh = s.optional(0x81);
          if (inh) {
            c.inhibitPolicyMapping = Number(integer(inh.content));
            c.inhibitPolicyMappingZero = c.inhibitPolicyMapping === 0;
          }
        });
        break;
      case "2.5.29.54":
        ext("inhibit any policy", () => {
          c.inhibitAnyPolicy = Number(integer(r().expect(TAG.INTEGER).content));
          c.inhibitAnyPolicyZero = c.inhibitAnyPolicy === 0;
        });
        break;
      case "1.3.6.1.5.5.7.1.1":
        ext("authority info access", () => {
          const s = r().enter(TAG.SEQUENCE);
          while (!s.empty) {
            const ad = s.enter(TAG.SEQUENCE);
            const method = oidText(ad.expect(TAG.OID).content);
            const loc = ad.next();
            if (loc.tag !== 0x86) continue;
            const url = loc.content.toString("latin1");
            if (method === "1.3.6.1.5.5.7.48.1") c.ocspServer.push(url);
            else if (method === "1.3.6.1.5.5.7.48.2") c.issuingCertificateURL.push(url);
          }
        });
        break;
      default:
        unhandled = true;
    }
    if (e.critical && unhandled) c.unhandledCritical.push(e.id);
  }
}

/** Go's parseNameConstraintsExtension; returns whether some constraint type was not understood. */
function parseNameConstraints(c: Certificate, e: Extension): boolean {
  let unhandled = false;
  const s = new DerReader(e.value).enter(TAG.SEQUENCE);
  const subtrees = (tag: number, dns: string[], ips: IPNet[], emails: string[], uris: string[]) => {
    const t = s.optional(tag);
    if (!t) return;
    const r = contents(t);
    while (!r.empty) {
      const base = r.enter(TAG.SEQUENCE).next();
      const text = base.content.toString("latin1");
      switch (base.tag) {
        case 0x82:
          dns.push(text);
          break;
        case 0x87: {
          const n = base.content.length;
          if (n !== 8 && n !== 32) throw new DerError(`x509: IP constraint contained value of length ${n}`);
          ips.push({ ip: ipText(base.content.subarray(0, n / 2)), mask: Buffer.from(base.content.subarray(n / 2)) });
          break;
        }
        case 0x81:
          emails.push(text);
          break;
        case 0x86:
          uris.push(text);
          break;
        default:
          unhandled = true;
      }
    }
  };
  c.permittedDNSDomainsCritical = e.critical;
  subtrees(0xa0, c.permittedDNSDomains, c.permittedIPRanges, c.permittedEmailAddresses, c.permittedURIDomains);
  subtrees(0xa1, c.excludedDNSDomains, c.excludedIPRanges, c.excludedEmailAddresses, c.excludedURIDomains);
  return unhandled;
}

