// Builtins of OPA's "encoding" category: base64, base64url, hex, urlquery and uri.
// The decoders follow Go's (encoding/base64, encoding/hex, net/url): Node's Buffer decoders are
// lenient (they skip invalid characters and accept missing padding) where Go reports
// "illegal base64 data at input byte N". Decoded bytes that are not UTF-8 become U+FFFD, as a
// JS string cannot hold them (OPA would keep the raw bytes).
import { isObject, objectEntries } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { newPlainObject, setOwn, type Value } from "../value/value.js";
import { builtinError, operandError, operandTypeError, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { jsonKey } from "./goJson.js";
import { fromUtf8, utf8 } from "./goStrconv.js";
import { UrlError, encodeValues, parseQuery, parseUrl, queryEscape, queryUnescape, splitHostPort } from "./goUrl.js";
import type { BuiltinTable } from "./registry.js";

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function decodeMap(alphabet: string): Int16Array {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
}

const STD_MAP = decodeMap(STD);
const URL_MAP = decodeMap(URL);

class Base64Error extends Error {}

const corrupt = (at: number) => new Base64Error(`illegal base64 data at input byte ${at}`);
const isNewline = (c: number | undefined) => c === 0x0a || c === 0x0d;

/** Go's padded base64 decoding (DecodeString): newlines are skipped, padding is required. */
function base64Decode(s: string, map: Int16Array): Uint8Array {
  const src = utf8(s);
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let trailing: Base64Error | undefined;
    while (j < 4) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
        throw corrupt(si - j);
      }
      const c = src[si++]!;
      const v = map[c]!;
      if (v >= 0) {
        buf[j++] = v;
        continue;
      }
      if (isNewline(c)) continue;
      if (c !== 0x3d) throw corrupt(si - 1);
      // padding: '=' after two symbols needs a second '='
      if (j < 2) throw corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== 0x3d) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = corrupt(si);
      dlen = j;
      break;
    }
    const val = (buf[0]! << 18) | (buf[1]! << 12) | (buf[2]! << 6) | buf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing) throw trailing;
    if (dlen < 4) break;
  }
  return Uint8Array.from(out);
}

function decodeOrError(s: string, map: Int16Array): string {
  try {
    return fromUtf8(base64Decode(s, map));
  } catch (e) {
    if (e instanceof Base64Error) throw builtinError(e.message);
    throw e;
  }
}

function base64UrlDecode(_ctx: EvalContext, x: Value): Value {
  let s = str(x, 1);
  if (!s.endsWith("=")) {
    switch (utf8(s).length % 4) {
      case 2:
        s += "==";
        break;
      case 3:
        s += "=";
        break;
      case 1:
        throw builtinError(`illegal base64url string: ${s}`);
      default:
        break;
    }
  }
  return decodeOrError(s, URL_MAP);
}

/** Go's %#U for a byte: U+0067 'g' (printable) or U+0000. */
function byteRune(b: number): string {
  const code = `U+${b.toString(16).toUpperCase().padStart(4, "0")}`;
  const printable = (b >= 0x20 && b <= 0x7e) || (b >= 0xa1 && b !== 0xad);
  return printable ? `${code} '${String.fromCharCode(b)}'` : code;
}

function hexDecode(_ctx: EvalContext, x: Value): Value {
  const src = utf8(str(x, 1));
  const val = (b: number) => (b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 87 : b >= 0x41 && b <= 0x46 ? b - 55 : -1);
  const invalid = (b: number) => builtinError(`encoding/hex: invalid byte: ${byteRune(b)}`);
  const out = new Uint8Array(src.length >> 1);
  let j = 1;
  for (; j < src.length; j += 2) {
    const a = val(src[j - 1]!);
    const b = val(src[j]!);
    if (a < 0) throw invalid(src[j - 1]!);
    if (b < 0) throw invalid(src[j]!);
    out[j >> 1] = (a << 4) | b;
  }
  if (src.length % 2 === 1) {
    if (val(src[j - 1]!) < 0) throw invalid(src[j - 1]!);
    throw builtinError("encoding/hex: odd length hex string");
  }
  return fromUtf8(out);
}

function urlError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UrlError) throw builtinError(e.message);
    throw e;
  }
}

function encodeObject(_ctx: EvalContext, x: Value): Value {
  if (!isObject(x)) throw operandTypeError(1, x, "object");
  const valuesError = () => operandError(1, "values must be string, array[string], or set[string]");
  const values: Array<[string, string[]]> = [];
  for (const [k, v] of objectEntries(x)) {
    const vs: string[] = [];
    if (typeof v === "string") vs.push(v);
    else if (Array.isArray(v) || v instanceof RegoSet) {
      for (const e of Array.isArray(v) ? v : v.sorted()) {
        if (typeof e !== "string") throw valuesError();
        vs.push(e);
      }
    } else throw valuesError();
    values.push([jsonKey(k), vs]);
  }
  return encodeValues(values);
}

function decodeObject(_ctx: EvalContext, x: Value): Value {
  const pairs = urlError(() => parseQuery(str(x, 1)));
  const groups = new Map<string, string[]>();
  for (const [k, v] of pairs) {
    const list = groups.get(k);
    if (list) list.push(v);
    else groups.set(k, [v]);
  }
  const out = newPlainObject();
  for (const [k, vs] of groups) setOwn(out, k, vs);
  return out;
}

function uriParse(_ctx: EvalContext, x: Value): Value {
  const u = urlError(() => parseUrl(str(x, 1)));
  const out = newPlainObject();
  const [hostname, port] = splitHostPort(u.host);
  if (u.scheme !== "") setOwn(out, "scheme", u.scheme);
  if (hostname !== "") setOwn(out, "hostname", hostname);
  if (port !== "") setOwn(out, "port", port);
  if (u.path !== "") {
    setOwn(out, "path", u.path);
    setOwn(out, "raw_path", u.rawPath || u.path);
  }
  if (u.rawQuery !== "") setOwn(out, "raw_query", u.rawQuery);
  if (u.fragment !== "") setOwn(out, "fragment", u.fragment);
  return out;
}

function uriIsValid(_ctx: EvalContext, x: Value): Value {
  if (typeof x !== "string" || x === "") return false;
  try {
    parseUrl(x);
    return true;
  } catch (e) {
    if (e instanceof UrlError) return false;
    throw e;
  }
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

export const encodingBuiltins: BuiltinTable = {
  "base64.encode": { fn: (_ctx: EvalContext, x: Value) => b64(str(x, 1)) },
  "base64.decode": { fn: (_ctx: EvalContext, x: Value) => decodeOrError(str(x, 1), STD_MAP) },
  "base64.is_valid": {
    fn: (_ctx: EvalContext, x: Value) => {
      if (typeof x !== "string") return false;
      try {
        base64Decode(x, STD_MAP);
        return true;
      } catch (e) {
        if (e instanceof Base64Error) return false;
        throw e;
      }
    },
  },
  "base64url.encode": { fn: (_ctx: EvalContext, x: Value) => b64(str(x, 1)).replace(/\+/g, "-").replace(/\//g, "_") },
  "base64url.encode_no_pad": { fn: (_ctx: EvalContext, x: Value) => Buffer.from(str(x, 1), "utf8").toString("base64url") },
  "base64url.decode": { fn: base64UrlDecode },
  "hex.encode": { fn: (_ctx: EvalContext, x: Value) => Buffer.from(str(x, 1), "utf8").toString("hex") },
  "hex.decode": { fn: hexDecode },
  "urlquery.encode": { fn: (_ctx: EvalContext, x: Value) => queryEscape(str(x, 1)) },
  "urlquery.decode": { fn: (_ctx: EvalContext, x: Value) => urlError(() => queryUnescape(str(x, 1))) },
  "urlquery.encode_object": { fn: encodeObject },
  "urlquery.decode_object": { fn: decodeObject },
  "uri.parse": { fn: uriParse },
  "uri.is_valid": { fn: uriIsValid },
};
