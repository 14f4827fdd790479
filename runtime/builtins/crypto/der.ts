// A strict DER reader (what Go's cryptobyte accepts): definite, minimal lengths; each element keeps
// its raw bytes, which Go's x509 types expose (Raw, RawTBSCertificate, RawSubject, ...).
import { fromUtf8 } from "../go/strconv.js";

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  SEQUENCE: 0x30,
  SET: 0x31,
  NUMERIC_STRING: 0x12,
  PRINTABLE_STRING: 0x13,
  T61_STRING: 0x14,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  BMP_STRING: 0x1e,
} as const;

export class DerError extends Error {}

export interface Tlv {
  /** The identifier byte (low-tag-number form; high tag numbers are 0x1f00 + number). */
  tag: number;
  content: Buffer;
  raw: Buffer;
}

export class DerReader {
  private pos: number;
  constructor(
    private readonly buf: Buffer,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get empty(): boolean {
    return this.pos >= this.end;
  }

  /** The tag of the next element, or undefined at the end. */
  peekTag(): number | undefined {
    if (this.empty) return undefined;
    const save = this.pos;
    try {
      return this.next().tag;
    } catch {
      return undefined;
    } finally {
      this.pos = save;
    }
  }

  next(): Tlv {
    const b = this.buf;
    const start = this.pos;
    if (start + 2 > this.end) throw new DerError("truncated element");
    let tag = b[start]!;
    let p = start + 1;
    if ((tag & 0x1f) === 0x1f) {
      let num = 0;
      for (;;) {
        if (p >= this.end) throw new DerError("truncated tag");
        const c = b[p++]!;
        if (num === 0 && c === 0x80) throw new DerError("non-minimal tag");
        num = num * 128 + (c & 0x7f);
        if (num > 0x1fffff) throw new DerError("tag too large");
        if ((c & 0x80) === 0) break;
      }
      if (num < 31) throw new DerError("non-minimal tag");
      tag = 0x1f00 + num;
    }
    if (p >= this.end) throw new DerError("truncated length");
    let len = b[p++]!;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4) throw new DerError("unsupported length");
      if (p + n > this.end) throw new DerError("truncated length");
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + b[p + i]!;
      if (b[p] === 0 || len < 0x80) throw new DerError("non-minimal length");
      p += n;
    }
    if (p + len > this.end) throw new DerError("truncated content");
    this.pos = p + len;
    return { tag, content: b.subarray(p, p + len), raw: b.subarray(start, p + len) };
  }

  /** The next element, which must have `tag`. */
  expect(tag: number): Tlv {
    const t = this.next();
    if (t.tag !== tag) throw new DerError(`unexpected tag 0x${t.tag.toString(16)}`);
    return t;
  }

  /** The next element if it has `tag`, else nothing is consumed. */
  optional(tag: number): Tlv | undefined {
    return this.peekTag() === tag ? this.next() : undefined;
  }

  /** A reader over the content of the next element with `tag`. */
  enter(tag: number): DerReader {
    return contents(this.expect(tag));
  }
}

export const contents = (t: Tlv): DerReader => new DerReader(t.content);

/** OID content → its arcs. */
export function oidArcs(content: Buffer): number[] {
  if (content.length === 0) throw new DerError("empty OID");
  const arcs: number[] = [];
  let v = 0;
  let first = true;
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (v === 0 && c === 0x80) throw new DerError("non-minimal OID");
    v = v * 128 + (c & 0x7f);
    if (v > Number.MAX_SAFE_INTEGER / 128) throw new DerError("OID arc too large");
    if ((c & 0x80) === 0) {
      if (first) {
        const a = v < 80 ? Math.floor(v / 40) : 2;
        arcs.push(a, v - a * 40);
        first = false;
      } else arcs.push(v);
      v = 0;
    } else if (i === content.length - 1) throw new DerError("truncated OID");
  }
  return arcs;
}

export const oidText = (content: Buffer): string => oidArcs(content).join(".");

/** Signed big-endian two's-complement INTEGER content → bigint (DER minimal form required). */
export function integer(content: Buffer): bigint {
  if (content.length === 0) throw new DerError("empty integer");
  if (content.length > 1 && ((content[0] === 0 && !(content[1]! & 0x80)) || (content[0] === 0xff && content[1]! & 0x80))) {
    throw new DerError("non-minimal integer");
  }
  let v = BigInt(`0x${content.toString("hex")}`);
  if (content[0]! & 0x80) v -= 1n << BigInt(content.length * 8);
  return v;
}

/** Unsigned big-endian bytes → bigint. */
export const unsigned = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString("hex")}`));

/** Minimal unsigned big-endian bytes of a non-negative bigint. */
export function bigintBytes(v: bigint): Buffer {
  if (v === 0n) return Buffer.alloc(0);
  let hex = v.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, "hex");
}

export interface BitString {
  bytes: Buffer;
  unusedBits: number;
}

export function bitString(content: Buffer): BitString {
  if (content.length === 0) throw new DerError("empty bit string");
  const unused = content[0]!;
  if (unused > 7 || (content.length === 1 && unused > 0)) throw new DerError("invalid bit string");
  const bytes = content.subarray(1);
  if (unused > 0 && bytes[bytes.length - 1]! & ((1 << unused) - 1)) throw new DerError("invalid bit string padding");
  return { bytes, unusedBits: unused };
}

/** Bit i (0 = most significant bit of the first byte). */
export function bitAt(bs: BitString, i: number): boolean {
  const byte = i >> 3;
  if (byte >= bs.bytes.length) return false;
  return ((bs.bytes[byte]! >> (7 - (i & 7))) & 1) === 1;
}

/** UTCTime / GeneralizedTime → milliseconds since the epoch (seconds precision, `Z` only). */
export function time(t: Tlv): number {
  const s = t.content.toString("latin1");
  let m: RegExpExecArray | null;
  let year: number;
  if (t.tag === TAG.UTC_TIME) {
    m = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s);
    if (!m) throw new DerError("malformed UTCTime");
    const yy = Number(m[1]);
    year = yy < 50 ? 2000 + yy : 1900 + yy;
  } else if (t.tag === TAG.GENERALIZED_TIME) {
    m = /^(\d\d\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s);
    if (!m) throw new DerError("malformed GeneralizedTime");
    year = Number(m[1]);
  } else throw new DerError("not a time");
  const [mo, d, h, mi, se] = [2, 3, 4, 5, 6].map((i) => Number(m![i])) as [number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, mo - 1, d);
  date.setUTCHours(h, mi, se, 0);
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) {
    throw new DerError("invalid time");
  }
  return date.getTime();
}

/** Go's time.Time JSON form (RFC 3339, UTC, no fractional seconds here). */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return `${iso.slice(0, 19)}Z`;
}

/** A string-valued attribute as Go's x509 parser decodes it; undefined for unsupported types. */
export function asn1String(t: Tlv): string | undefined {
  switch (t.tag) {
    case TAG.PRINTABLE_STRING:
    case TAG.IA5_STRING:
    case TAG.NUMERIC_STRING:
      return t.content.toString("latin1");
    case TAG.T61_STRING:
      return t.content.toString("latin1");
    case TAG.UTF8_STRING:
      return fromUtf8(t.content);
    case TAG.BMP_STRING: {
      if (t.content.length % 2) return undefined;
      const swapped = Buffer.from(t.content);
      swapped.swap16();
      return swapped.toString("utf16le");
    }
    default:
      return undefined;
  }
}
