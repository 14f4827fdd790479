// Builtins of OPA's "encoding" category: base64, base64url, hex, urlquery and uri.
// The decoders follow Go's (encoding/base64 in go/base64.ts, encoding/hex, net/url in go/url.ts):
// Node's Buffer decoders are lenient (they skip invalid characters and accept missing padding)
// where Go reports "illegal base64 data at input byte N". Decoded bytes that are not UTF-8
// become U+FFFD, as a JS string cannot hold them (OPA would keep the raw bytes).
import { isObject, objectEntries } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { newPlainObject, setOwn, type Value } from "../value/value.js";
import { builtinError, goErrors, operandError, operandTypeError, str, succeeds } from "./args.js";
import type { EvalContext } from "./context.js";
import { rawURLEncode, stdDecode, stdEncode, tryStdDecode, urlDecodeLenient, urlEncode } from "./go/base64.js";
import { jsonKey } from "./go/json.js";
import { fromUtf8, isPrint, utf8 } from "./go/strconv.js";
import { UrlError, encodeValues, parseQuery, parseUrl, queryEscape, queryUnescape, splitHostPort } from "./go/url.js";
import type { BuiltinTable } from "./registry.js";

/** Go's %#U for a byte: U+0067 'g' (printable) or U+0000. */
function byteRune(b: number): string {
  const code = `U+${b.toString(16).toUpperCase().padStart(4, "0")}`;
  return isPrint(b) ? `${code} '${String.fromCharCode(b)}'` : code;
}

const HEX = "0123456789abcdef";

/** Go's hex.EncodeToString of the string's UTF-8 bytes. */
function hexEncode(s: string): string {
  let out = "";
  for (const b of utf8(s)) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
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

const urlError = <T>(f: () => T): T => goErrors(UrlError, f);

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
  return typeof x === "string" && x !== "" && succeeds(UrlError, () => parseUrl(x));
}

export const encodingBuiltins: BuiltinTable = {
  "base64.encode": { fn: (_ctx: EvalContext, x: Value) => stdEncode(str(x, 1)) },
  "base64.decode": { fn: (_ctx: EvalContext, x: Value) => fromUtf8(stdDecode(str(x, 1))) },
  "base64.is_valid": { fn: (_ctx: EvalContext, x: Value) => typeof x === "string" && tryStdDecode(x) !== undefined },
  "base64url.encode": { fn: (_ctx: EvalContext, x: Value) => urlEncode(str(x, 1)) },
  "base64url.encode_no_pad": { fn: (_ctx: EvalContext, x: Value) => rawURLEncode(str(x, 1)) },
  "base64url.decode": { fn: (_ctx: EvalContext, x: Value) => fromUtf8(urlDecodeLenient(str(x, 1))) },
  "hex.encode": { fn: (_ctx: EvalContext, x: Value) => hexEncode(str(x, 1)) },
  "hex.decode": { fn: hexDecode },
  "urlquery.encode": { fn: (_ctx: EvalContext, x: Value) => queryEscape(str(x, 1)) },
  "urlquery.decode": { fn: (_ctx: EvalContext, x: Value) => urlError(() => queryUnescape(str(x, 1))) },
  "urlquery.encode_object": { fn: encodeObject },
  "urlquery.decode_object": { fn: decodeObject },
  "uri.parse": { fn: uriParse },
  "uri.is_valid": { fn: uriIsValid },
};
