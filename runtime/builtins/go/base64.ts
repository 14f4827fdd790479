// Base64 exactly as Go's encoding/base64 decodes it, for every builtin that decodes base64
// (base64.*, base64url.*, io.jwt.*, crypto.x509.*, PEM blocks): OPA's errors quote Go's offsets
// ("illegal base64 data at input byte 13") and OPA accepts what Go accepts — CR and LF are
// skipped anywhere, padding is required for the padded encodings, non-zero trailing bits are
// allowed. Node's Buffer decoder is lenient (it skips invalid characters and accepts missing
// padding), so decoding is done here; encoding is Buffer's, which matches Go's.
// Where the runtime has no Buffer (browsers), decoded bytes are plain Uint8Arrays and the coders
// here do all the work: the builtins that use Buffer's methods on them (crypto.*, signatures) need
// Node's node:crypto anyway.
import { builtinError } from "../args.js";
import { utf8, utf8Length } from "./strconv.js";

/** Node's Buffer, where the runtime has one. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function decodeMap(alphabet: string): Int16Array {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
}
const STD_MAP = decodeMap(STD);
const URL_MAP = decodeMap(URL);

/** Go's base64.CorruptInputError. */
export class CorruptInputError extends Error {
  constructor(readonly offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
  }
}

const PAD = 0x3d; // '='
const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/** Go's Encoding.Decode: returns the bytes or throws CorruptInputError. */
function goDecode(src: Uint8Array, map: Int16Array, padded: boolean): Buffer {
  const size = (src.length >> 2) * 3 + 3;
  const out = NodeBuffer ? NodeBuffer.allocUnsafe(size) : (new Uint8Array(size) as Buffer);
  let n = 0;
  let si = 0;
  for (;;) {
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    let d3 = 0;
    let dlen = 4;
    let end = false;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out.subarray(0, n);
        if (j === 1 || padded) throw new CorruptInputError(si - j);
        dlen = j;
        end = true;
        break;
      }
      const c = src[si]!;
      si++;
      const v = map[c]!;
      if (v >= 0) {
        if (j === 0) d0 = v;
        else if (j === 1) d1 = v;
        else if (j === 2) d2 = v;
        else d3 = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (!padded || c !== PAD) throw new CorruptInputError(si - 1);
      // Padding: only after two or three symbols.
      if (j === 0 || j === 1) throw new CorruptInputError(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw new CorruptInputError(src.length);
        if (src[si] !== PAD) throw new CorruptInputError(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) throw new CorruptInputError(si); // trailing garbage
      dlen = j;
      end = true;
      break;
    }
    const val = (d0 << 18) | (d1 << 12) | (d2 << 6) | d3;
    if (dlen > 1) out[n++] = (val >> 16) & 0xff;
    if (dlen > 2) out[n++] = (val >> 8) & 0xff;
    if (dlen > 3) out[n++] = val & 0xff;
    if (end) return out.subarray(0, n);
  }
}

const asBytes = (s: string | Uint8Array): Uint8Array => (typeof s === "string" ? utf8(s) : s);

// Well-formed padded text (whole quanta, '=' only as the final padding, no line breaks): Go and
// Buffer decode it to the same bytes, and Buffer does it natively. Anything else takes goDecode.
const WELL_FORMED_STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const WELL_FORMED_URL = /^(?:[A-Za-z0-9\-_]{4})*(?:[A-Za-z0-9\-_]{2}==|[A-Za-z0-9\-_]{3}=)?$/;

function decode(s: string | Uint8Array, map: Int16Array, padded: boolean): Buffer {
  if (typeof s === "string" && padded && NodeBuffer) {
    if (map === STD_MAP ? WELL_FORMED_STD.test(s) : WELL_FORMED_URL.test(s)) return NodeBuffer.from(s, map === STD_MAP ? "base64" : "base64url");
  }
  return goDecode(asBytes(s), map, padded);
}

function decodeOrBuiltinError(s: string | Uint8Array, map: Int16Array, padded: boolean): Buffer {
  try {
    return decode(s, map, padded);
  } catch (e) {
    if (e instanceof CorruptInputError) throw builtinError(e.message);
    throw e;
  }
}

/** base64.StdEncoding.DecodeString; a builtin error with Go's message. */
export function stdDecode(s: string | Uint8Array): Buffer {
  return decodeOrBuiltinError(s, STD_MAP, true);
}

/** Like stdDecode, but undefined instead of an error (base64.is_valid, "PEM or base64?" checks). */
export function tryStdDecode(s: string | Uint8Array): Buffer | undefined {
  try {
    return decode(s, STD_MAP, true);
  } catch (e) {
    if (e instanceof CorruptInputError) return undefined;
    throw e;
  }
}

/** OPA's base64url.decode: adds missing padding (RFC 7515 appendix C), then URLEncoding. */
export function urlDecodeLenient(s: string): Buffer {
  let t = s;
  if (!t.endsWith("=")) {
    switch (utf8Length(t) % 4) {
      case 0:
        break;
      case 2:
        t += "==";
        break;
      case 3:
        t += "=";
        break;
      default:
        throw builtinError(`illegal base64url string: ${s}`);
    }
  }
  return decodeOrBuiltinError(t, URL_MAP, true);
}

/** Go's StdEncoding, URLEncoding and RawURLEncoding encoders (strings as their UTF-8 bytes). */
export function stdEncode(b: Uint8Array | string): string {
  if (NodeBuffer) return (typeof b === "string" ? NodeBuffer.from(b, "utf8") : NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength)).toString("base64");
  let binary = "";
  for (const byte of asBytes(b)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
export const urlEncode = (b: Uint8Array | string): string => stdEncode(b).replace(/\+/g, "-").replace(/\//g, "_");
export const rawURLEncode = (b: Uint8Array | string): string => urlEncode(b).replace(/=+$/, "");
