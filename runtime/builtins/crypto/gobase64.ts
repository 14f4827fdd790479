// Base64 exactly as Go's encoding/base64 decodes it, because OPA's errors quote Go's offsets
// ("illegal base64 data at input byte 13") and OPA accepts what Go accepts: CR and LF are skipped
// anywhere, padding is required for the padded encodings, and non-zero trailing bits are allowed.
import { builtinError } from "../args.js";

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function decodeMap(alphabet: string): Int16Array {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
}
const STD_MAP = decodeMap(STD);
const URL_MAP = decodeMap(URL);

export class CorruptInputError extends Error {
  constructor(readonly offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
  }
}

const PAD = 0x3d; // '='
const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/** Go's Encoding.Decode: returns the bytes or throws CorruptInputError. */
function goDecode(src: Uint8Array, map: Int16Array, padded: boolean): Buffer {
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let end = false;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        if (j === 1 || padded) throw new CorruptInputError(si - j);
        dlen = j;
        end = true;
        break;
      }
      const c = src[si]!;
      si++;
      const v = map[c]!;
      if (v >= 0) {
        dbuf[j] = v;
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
      if (si < src.length) throw new CorruptInputError(si);
      dlen = j;
      end = true;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    for (let k = 0; k < dlen - 1; k++) out.push(bytes[k]!);
    if (end) return Buffer.from(out);
  }
}

const asBytes = (s: string | Uint8Array): Uint8Array => (typeof s === "string" ? Buffer.from(s, "utf8") : s);

/** base64.StdEncoding.DecodeString; throws a builtin error with Go's message. */
export function stdDecode(s: string | Uint8Array): Buffer {
  try {
    return goDecode(asBytes(s), STD_MAP, true);
  } catch (e) {
    if (e instanceof CorruptInputError) throw builtinError(e.message);
    throw e;
  }
}

/** Like stdDecode but returns undefined instead of throwing. */
export function tryStdDecode(s: string | Uint8Array): Buffer | undefined {
  try {
    return goDecode(asBytes(s), STD_MAP, true);
  } catch {
    return undefined;
  }
}

/** OPA's base64url.decode: adds missing padding (RFC 7515 appendix C), then URLEncoding. */
export function urlDecodeLenient(s: string): Buffer {
  let t = s;
  if (!t.endsWith("=")) {
    const bytes = Buffer.byteLength(t, "utf8");
    switch (bytes % 4) {
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
  try {
    return goDecode(asBytes(t), URL_MAP, true);
  } catch (e) {
    if (e instanceof CorruptInputError) throw builtinError(e.message);
    throw e;
  }
}

/** base64.RawURLEncoding.DecodeString (JWK members). */
export function rawURLDecode(s: string): Buffer {
  try {
    return goDecode(asBytes(s), URL_MAP, false);
  } catch (e) {
    if (e instanceof CorruptInputError) throw builtinError(e.message);
    throw e;
  }
}

export const stdEncode = (b: Uint8Array): string => Buffer.from(b).toString("base64");
export const rawURLEncode = (b: Uint8Array): string => Buffer.from(b).toString("base64url");
