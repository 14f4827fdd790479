// IP addresses and networks with the semantics of Go's `net` package, which OPA's net.* builtins
// are written against: which texts parse (no zones, no leading zeros in IPv4 fields), how an
// IPv4-mapped IPv6 address behaves as IPv4, how IPNet.Contains and IPNet.String treat 4- and
// 16-byte forms, and the text of addresses (dotted IPv4, RFC 5952 IPv6). ipaddr.js does the
// syntax checking and byte conversion; the embedded-IPv4 form is handled here because ipaddr.js
// reads "::1.2.3.4" as IPv4-mapped, where Go reads it as ::102:304.
import ipaddr from "ipaddr.js";

/** A Go `net.IP`: 4 or 16 bytes. */
export type IP = Uint8Array;

/** A Go `net.IPNet`: the IP and the mask, each 4 or 16 bytes (not necessarily the same length). */
export interface IPNet {
  ip: IP;
  mask: IP;
}

const V4_IN_V6_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const STRICT_V4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

function parseV4(s: string): IP | undefined {
  const m = STRICT_V4.exec(s);
  if (!m) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const n = Number(m[i + 1]);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

/** Go's netip.ParseAddr without zones: 16 bytes, and whether the text was plain IPv4. */
export function parseAddr(s: string): { bytes: IP; is4: boolean } | undefined {
  const v4 = parseV4(s);
  if (v4) return { bytes: v4To16(v4), is4: true };
  if (!s.includes(":") || s.includes("%")) return undefined;
  let text = s;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const embedded = parseV4(tail);
    if (!embedded) return undefined;
    const hi = ((embedded[0]! << 8) | embedded[1]!).toString(16);
    const lo = ((embedded[2]! << 8) | embedded[3]!).toString(16);
    text = `${s.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  if (!/^[0-9a-fA-F:]+$/.test(text) || !ipaddr.IPv6.isValid(text)) return undefined;
  return { bytes: Uint8Array.from(ipaddr.IPv6.parse(text).toByteArray()), is4: false };
}

/** Go's net.ParseIP: the 16-byte form, or undefined. */
export function parseIP(s: string): IP | undefined {
  return parseAddr(s)?.bytes;
}

export class CIDRParseError extends Error {}

/** Go's net.ParseCIDR: the address (16 bytes) and the masked network. */
export function parseCIDR(s: string): { ip: IP; net: IPNet } {
  const slash = s.indexOf("/");
  const fail = () => new CIDRParseError(`invalid CIDR address: ${s}`);
  if (slash < 0) throw fail();
  const addr = parseAddr(s.slice(0, slash));
  const maskText = s.slice(slash + 1);
  if (!addr || !/^\d+$/.test(maskText)) throw fail();
  const bits = addr.is4 ? 32 : 128;
  const n = Number(maskText); // leading zeros are fine in Go ("/024")
  if (n > bits) throw fail();
  const mask = cidrMask(n, bits);
  return { ip: addr.bytes, net: { ip: maskIP(addr.bytes, mask)!, mask } };
}

export function cidrMask(ones: number, bits: number): IP {
  const out = new Uint8Array(bits / 8);
  for (let i = 0; i < out.length; i++) {
    const take = Math.max(0, Math.min(8, ones - i * 8));
    out[i] = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
  }
  return out;
}

function v4To16(v4: IP): IP {
  const out = new Uint8Array(16);
  out.set(V4_IN_V6_PREFIX);
  out.set(v4, 12);
  return out;
}

function hasV4Prefix(ip: IP): boolean {
  return V4_IN_V6_PREFIX.every((b, i) => ip[i] === b);
}

/** Go's IP.To4: the 4-byte form of an IPv4 or IPv4-mapped address. */
export function to4(ip: IP): IP | undefined {
  if (ip.length === 4) return ip;
  if (ip.length === 16 && hasV4Prefix(ip)) return ip.subarray(12);
  return undefined;
}

/** Go's IP.Mask. */
export function maskIP(ip: IP, mask: IP): IP | undefined {
  let m = mask;
  let a = ip;
  if (m.length === 16 && a.length === 4 && m.subarray(0, 12).every((b) => b === 0xff)) m = m.subarray(12);
  if (m.length === 4 && a.length === 16 && hasV4Prefix(a)) a = a.subarray(12);
  if (a.length !== m.length) return undefined;
  return a.map((b, i) => b & m[i]!);
}

/** Go's IP.DefaultMask: the classful mask of an IPv4 address (undefined for IPv6). */
export function defaultMask(ip: IP): IP | undefined {
  const v4 = to4(ip);
  if (!v4) return undefined;
  return cidrMask(v4[0]! < 0x80 ? 8 : v4[0]! < 0xc0 ? 16 : 24, 32);
}

function networkNumberAndMask(n: IPNet): { ip: IP; mask: IP } | undefined {
  let ip = to4(n.ip);
  if (!ip) {
    ip = n.ip;
    if (ip.length !== 16) return undefined;
  }
  let mask = n.mask;
  if (mask.length === 4) {
    if (ip.length !== 4) return undefined;
  } else if (mask.length === 16) {
    if (ip.length === 4) mask = mask.subarray(12);
  } else return undefined;
  return { ip, mask };
}

/** Go's IPNet.Contains. */
export function netContains(n: IPNet, addr: IP): boolean {
  const nm = networkNumberAndMask(n);
  if (!nm) return false;
  const ip = to4(addr) ?? addr;
  if (ip.length !== nm.ip.length) return false;
  for (let i = 0; i < ip.length; i++) if ((nm.ip[i]! & nm.mask[i]!) !== (ip[i]! & nm.mask[i]!)) return false;
  return true;
}

/** Go's IPMask.Size: [ones, bits], or [0, 0] for a non-canonical mask. */
export function maskSize(mask: IP): [number, number] {
  let ones = 0;
  let i = 0;
  for (; i < mask.length && mask[i] === 0xff; i++) ones += 8;
  if (i < mask.length) {
    let b = mask[i]!;
    while (b & 0x80) {
      ones++;
      b = (b << 1) & 0xff;
    }
    if (b !== 0) return [0, 0];
    for (i++; i < mask.length; i++) if (mask[i] !== 0) return [0, 0];
  }
  return [ones, mask.length * 8];
}

/** Go's IPNet.String: the network number (not re-masked) and the prefix length. */
export function netString(n: IPNet): string {
  const nm = networkNumberAndMask(n);
  if (!nm) return "<nil>";
  const [ones, bits] = maskSize(nm.mask);
  if (ones === 0 && bits === 0) return `${ipString(nm.ip)}/${[...nm.mask].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  return `${ipString(nm.ip)}/${ones}`;
}

/** Go's IP.String: dotted decimal for IPv4 (and IPv4-mapped), RFC 5952 text for IPv6. */
export function ipString(ip: IP): string {
  const v4 = to4(ip);
  if (v4) return v4.join(".");
  if (ip.length !== 16) return "?";
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip[i]! << 8) | ip[i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number) => g.toString(16);
  if (bestStart < 0) return groups.map(hex).join(":");
  const head = groups.slice(0, bestStart).map(hex).join(":");
  const tail = groups.slice(bestStart + bestLen).map(hex).join(":");
  return `${head}::${tail}`;
}

// ---- 128-bit arithmetic for ranges (IPv4 lives in ::ffff:0:0/96, as Go's 16-byte form) ----

export function ipToBig(ip: IP): bigint {
  const b16 = ip.length === 4 ? v4To16(ip) : ip;
  let v = 0n;
  for (const b of b16) v = (v << 8n) | BigInt(b);
  return v;
}

export function bigToIP(v: bigint): IP {
  const out = new Uint8Array(16);
  for (let i = 15; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** First and last address of a network (masked as Go's GetAddressRange does), in 128-bit space. */
export function netRange(n: IPNet): [bigint, bigint] {
  const first = maskIP(n.ip, n.mask) ?? n.ip;
  const size = n.mask.length * 8 - maskSize(n.mask)[0];
  const lo = ipToBig(first);
  return [lo, lo | ((1n << BigInt(size)) - 1n)];
}
