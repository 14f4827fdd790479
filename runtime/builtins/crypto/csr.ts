// PKCS #10 certificate requests as Go's x509.ParseCertificateRequest reads them, rendered as the
// JSON of Go's x509.CertificateRequest.
import { fromBigInt } from "../../value/number.js";
import type { PlainObject, Value } from "../../value/value.js";
import { DerError, DerReader, TAG, asn1String, bitString, contents, integer, oidArcs, oidText, rfc3339, time, type Tlv } from "./der.js";
import { bytesJSON, goObj, listJSON, oidJSON, parseGoURL, parseName, parsePublicKey, parseSAN, signatureAlgorithm } from "./pkix.js";
import { readExtensions } from "./extensions.js";
import type { Extension } from "./x509.js";

/**
 * Go's encoding/asn1 error for a top-level element that is not a SEQUENCE, read from the element's
 * header alone (Go reports the tag mismatch before noticing truncated content).
 */
function topLevelError(der: Buffer): DerError | undefined {
  if (der.length === 0) return new DerError("asn1: syntax error: sequence truncated");
  const b = der[0]!;
  if (b === TAG.SEQUENCE) return undefined;
  let offset = 1;
  let tag = b & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    while (offset < der.length) {
      const c = der[offset++]!;
      tag = tag * 128 + (c & 0x7f);
      if (!(c & 0x80)) break;
    }
  }
  if (offset >= der.length) return new DerError("asn1: syntax error: truncated tag or length");
  let length = der[offset++]!;
  if (length & 0x80) {
    const n = length & 0x7f;
    length = 0;
    for (let i = 0; i < n && offset < der.length; i++) length = length * 256 + der[offset++]!;
  }
  const t = `{class:${b >> 6} tag:${tag} length:${length} isCompound:${(b & 0x20) !== 0}}`;
  const params = "{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}";
  return new DerError(`asn1: structure error: tags don't match (16 vs ${t}) ${params} certificateRequest @${offset}`);
}

/** A value decoded into Go's `any` by encoding/asn1. */
function anyValue(t: Tlv): Value {
  const s = asn1String(t);
  if (s !== undefined) return s;
  switch (t.tag) {
    case TAG.INTEGER:
      return fromBigInt(integer(t.content));
    case TAG.BOOLEAN:
      return t.content[0] !== 0;
    case TAG.OCTET_STRING:
      return bytesJSON(t.content);
    case TAG.OID:
      return oidJSON(oidArcs(t.content));
    case TAG.UTC_TIME:
    case TAG.GENERALIZED_TIME:
      return rfc3339(time(t));
    case TAG.BIT_STRING: {
      const bs = bitString(t.content);
      return goObj([["Bytes", bytesJSON(bs.bytes)], ["BitLength", bs.bytes.length * 8 - bs.unusedBits]]);
    }
    default:
      return null;
  }
}

/** pkix.AttributeTypeAndValueSET for attributes whose values fit that shape; others are skipped. */
function attributeJSON(attr: Tlv): Value | undefined {
  try {
    const a = contents(attr);
    const type = oidArcs(a.expect(TAG.OID).content);
    const values = a.enter(TAG.SET);
    const sets: Value[] = [];
    while (!values.empty) {
      const seq = values.enter(TAG.SEQUENCE);
      const atvs: Value[] = [];
      while (!seq.empty) {
        const atv = seq.enter(TAG.SEQUENCE);
        const t = oidArcs(atv.expect(TAG.OID).content);
        atvs.push(goObj([["Type", oidJSON(t)], ["Value", anyValue(atv.next())]]));
      }
      sets.push(atvs);
    }
    return goObj([["Type", oidJSON(type)], ["Value", sets]]);
  } catch {
    return undefined;
  }
}

/** Parses a DER certificate request into the JSON of Go's x509.CertificateRequest. */
export function parseCertificateRequestJSON(der: Buffer): PlainObject {
  const mismatch = topLevelError(der);
  if (mismatch) throw mismatch;
  try {
    const first = new DerReader(der).expect(TAG.SEQUENCE);
    const r = contents(first);
    const tbsTlv = r.expect(TAG.SEQUENCE);
    const tbs = contents(tbsTlv);
    const version = Number(integer(tbs.expect(TAG.INTEGER).content));
    const subjectTlv = tbs.expect(TAG.SEQUENCE);
    const spki = tbs.expect(TAG.SEQUENCE);
    const attrsTlv = tbs.expect(0xa0);
    const sigAI = r.expect(TAG.SEQUENCE);
    const signature = bitString(r.expect(TAG.BIT_STRING).content).bytes;
    const pk = parsePublicKey(spki);
    const attributes: Value[] = [];
    let extensions: Extension[] = [];
    const attrs = contents(attrsTlv);
    while (!attrs.empty) {
      const attr = attrs.expect(TAG.SEQUENCE);
      const json = attributeJSON(attr);
      if (json !== undefined) attributes.push(json);
      const a = contents(attr);
      if (oidText(a.expect(TAG.OID).content) === "1.2.840.113549.1.9.14") {
        const values = a.enter(TAG.SET);
        while (!values.empty) extensions = extensions.concat(readExtensions(values.enter(TAG.SEQUENCE)));
      }
    }
    let san = { dns: [] as string[], emails: [] as string[], ips: [] as string[], uris: [] as string[] };
    for (const e of extensions) if (e.id.join(".") === "2.5.29.17") san = parseSAN(e.value);
    return goObj([
      ["Raw", bytesJSON(first.raw)],
      ["RawTBSCertificateRequest", bytesJSON(tbsTlv.raw)],
      ["RawSubjectPublicKeyInfo", bytesJSON(spki.raw)],
      ["RawSubject", bytesJSON(subjectTlv.raw)],
      ["Version", version],
      ["Signature", bytesJSON(signature)],
      ["SignatureAlgorithm", signatureAlgorithm(sigAI).id],
      ["PublicKeyAlgorithm", pk.algorithm],
      ["PublicKey", pk.json],
      ["Subject", parseName(subjectTlv)],
      ["Attributes", listJSON(attributes)],
      ["Extensions", listJSON(extensions.map((e) => goObj([["Id", oidJSON(e.id)], ["Critical", e.critical], ["Value", bytesJSON(e.value)]])))],
      ["ExtraExtensions", null],
      ["DNSNames", listJSON(san.dns)],
      ["EmailAddresses", listJSON(san.emails)],
      ["IPAddresses", listJSON(san.ips)],
      ["URIs", listJSON(san.uris.map((u) => parseGoURL(u)))],
    ]);
  } catch (e) {
    if (e instanceof DerError && /^(x509|asn1): /.test(e.message)) throw e;
    throw new DerError(`asn1: structure error: ${e instanceof Error ? e.message : String(e)}`);
  }
}
