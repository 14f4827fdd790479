// Go's net/url, as far as the urlquery.* and uri.* builtins use it: QueryEscape/QueryUnescape,
// url.Values encoding, ParseQuery, and url.Parse with its error texts. Go escapes bytes of the
// UTF-8 encoding with its own per-component rules (encodeURIComponent keeps !'()*, Go does not;
// WHATWG URL parsing normalises and accepts inputs Go rejects), so the rules are ported here.
import { fromUtf8, quote, utf8 } from "./strconv.js";

type Mode = "path" | "host" | "zone" | "userPassword" | "queryComponent" | "fragment";

export class UrlError extends Error {}

function isAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/** Go's shouldEscape(c, mode) for one byte. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === "host" || mode === "zone") && "!$&'()*+,;=:[]<>\"".includes(ch)) return false;
  if ("-_.~".includes(ch)) return false;
  if ("$&+,/:;=?@".includes(ch)) {
    switch (mode) {
      case "path":
        return ch === "?";
      case "userPassword":
        return ch === "@" || ch === "/" || ch === "?" || ch === ":";
      case "queryComponent":
        return true;
      case "fragment":
        return false;
      default:
        break;
    }
  }
  if (mode === "fragment" && "!()*".includes(ch)) return false;
  return true;
}

const HEX = "0123456789ABCDEF";

function escape(s: string, mode: Mode): string {
  let out = "";
  for (const c of utf8(s)) {
    if (!shouldEscape(c, mode)) out += String.fromCharCode(c);
    else if (c === 0x20 && mode === "queryComponent") out += "+";
    else out += `%${HEX[c >> 4]}${HEX[c & 15]}`;
  }
  return out;
}

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && unhex(c) >= 0;
}

/** Go's unescape(s, mode); errors carry Go's texts (invalid URL escape "%zz", invalid host chars). */
function unescape(s: string, mode: Mode): string {
  const b = utf8(s);
  const out: number[] = [];
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c === 0x25) {
      if (i + 2 >= b.length || !isHex(b[i + 1]) || !isHex(b[i + 2])) {
        const rest = fromUtf8(b.subarray(i, Math.min(b.length, i + 3)));
        throw new UrlError(`invalid URL escape ${quote(rest)}`);
      }
      // Hosts may %-encode only non-ASCII bytes (and %25 in a zone).
      if (mode === "host" && unhex(b[i + 1]!) < 8 && fromUtf8(b.subarray(i, i + 3)) !== "%25") {
        throw new UrlError(`invalid URL escape ${quote(fromUtf8(b.subarray(i, i + 3)))}`);
      }
      out.push(unhex(b[i + 1]!) * 16 + unhex(b[i + 2]!));
      i += 3;
      continue;
    }
    if (c === 0x2b) out.push(mode === "queryComponent" ? 0x20 : 0x2b);
    else {
      if ((mode === "host" || mode === "zone") && c < 0x80 && shouldEscape(c, mode)) {
        throw new UrlError(`invalid character ${quote(String.fromCharCode(c))} in host name`);
      }
      out.push(c);
    }
    i++;
  }
  return fromUtf8(Uint8Array.from(out));
}

/** url.QueryEscape. */
export function queryEscape(s: string): string {
  return escape(s, "queryComponent");
}

/** url.QueryUnescape; throws UrlError. */
export function queryUnescape(s: string): string {
  return unescape(s, "queryComponent");
}

/** url.Values.Encode: keys sorted by bytes, each value as key=value, joined by '&'. */
export function encodeValues(values: ReadonlyArray<readonly [string, readonly string[]]>): string {
  const keys = values.slice().sort((a, b) => compareBytes(a[0], b[0]));
  const parts: string[] = [];
  for (const [k, vs] of keys) for (const v of vs) parts.push(`${queryEscape(k)}=${queryEscape(v)}`);
  return parts.join("&");
}

function compareBytes(a: string, b: string): number {
  const x = utf8(a);
  const y = utf8(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** url.ParseQuery: pairs in order; an error is thrown after the whole query is read (the last ';'
 * separator error, else the first bad escape). */
export function parseQuery(query: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let first: UrlError | undefined;
  for (const part of query.split("&")) {
    if (part === "") continue;
    if (part.includes(";")) {
      first = new UrlError("invalid semicolon separator in query");
      continue;
    }
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    try {
      out.push([queryUnescape(rawKey), queryUnescape(rawValue)]);
    } catch (e) {
      if (!(e instanceof UrlError)) throw e;
      first ??= e;
    }
  }
  if (first) throw first;
  return out;
}

export interface ParsedUrl {
  scheme: string;
  opaque: string;
  host: string;
  path: string;
  rawPath: string;
  rawQuery: string;
  fragment: string;
}

function validOptionalPort(port: string): boolean {
  return port === "" || (port[0] === ":" && /^\d*$/.test(port.slice(1)));
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return ["", raw];
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new UrlError("missing protocol scheme");
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ["", raw];
  }
  return ["", raw];
}

function parseHost(host: string): string {
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${quote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf("%25");
    if (zone >= 0) {
      return unescape(host.slice(0, zone), "host") + unescape(host.slice(zone, i), "zone") + unescape(host.slice(i), "host");
    }
  } else {
    const i = host.lastIndexOf(":");
    if (i >= 0) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${quote(colonPort)} after host`);
    }
  }
  return unescape(host, "host");
}

const USERINFO_OK = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parseAuthority(authority: string): string {
  const i = authority.lastIndexOf("@");
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i >= 0) {
    const userinfo = authority.slice(0, i);
    if (!USERINFO_OK.test(userinfo)) throw new UrlError("net/url: invalid userinfo");
    const colon = userinfo.indexOf(":");
    const parts = colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)];
    for (const part of parts) unescape(part, "userPassword");
  }
  return host;
}

function parse(raw: string): ParsedUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError("net/url: invalid control character in URL");
  const url: ParsedUrl = { scheme: "", opaque: "", host: "", path: "", rawPath: "", rawQuery: "", fragment: "" };
  if (raw === "*") {
    url.path = "*";
    return url;
  }
  let [scheme, rest] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith("?") && rest.indexOf("?") === rest.length - 1) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf("?");
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith("/")) {
    if (url.scheme !== "") {
      url.opaque = rest;
      return url;
    }
    const slash = rest.indexOf("/");
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(":")) {
      throw new UrlError("first path segment in URL cannot contain colon");
    }
  }
  if ((url.scheme !== "" || !rest.startsWith("///")) && rest.startsWith("//")) {
    let authority = rest.slice(2);
    rest = "";
    const slash = authority.indexOf("/");
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    url.host = parseAuthority(authority);
  }
  url.path = unescape(rest, "path");
  url.rawPath = escape(url.path, "path") === rest ? "" : rest;
  return url;
}

/** url.Parse; errors are Go's `parse "<url>": <reason>`. */
export function parseUrl(raw: string): ParsedUrl {
  const hash = raw.indexOf("#");
  const u = hash < 0 ? raw : raw.slice(0, hash);
  let url: ParsedUrl;
  try {
    url = parse(u);
  } catch (e) {
    if (e instanceof UrlError) throw new UrlError(`parse ${quote(u)}: ${e.message}`);
    throw e;
  }
  if (hash >= 0) {
    try {
      url.fragment = unescape(raw.slice(hash + 1), "fragment");
    } catch (e) {
      if (e instanceof UrlError) throw new UrlError(`parse ${quote(raw)}: ${e.message}`);
      throw e;
    }
  }
  return url;
}

/** URL.Hostname and URL.Port: the host split at a valid trailing ":port", brackets removed. */
export function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = "";
  const colon = host.lastIndexOf(":");
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return [host, port];
}
