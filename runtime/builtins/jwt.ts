// Builtins of OPA's "jwt" category (io.jwt.*): decoding, verification with HMAC secrets, PEM
// certificates, PEM public keys and JWK sets, full validation (decode_verify) and signing.
// Signatures use node:crypto's synchronous sign/verify (./crypto/jws.ts): builtins are synchronous
// and jose's verify/sign are async. A bad signature is `false`; malformed input is an error.
import type { KeyObject } from "node:crypto";
import { builtinError, goErrors, obj, str } from "./args.js";
import { compareNumbers, isNumber, numberFromText, toDouble, type Num } from "../value/number.js";
import { RegoObject, objectGet, objectKeys, sortedPlainKeys } from "../value/object.js";
import { getOwn, isPlainObject, newPlainObject, type PlainObject, type Value } from "../value/value.js";
import type { BuiltinTable } from "./registry.js";
import type { EvalContext } from "./context.js";
import { DerError, TAG, DerReader } from "./crypto/der.js";
import { rawURLEncode, urlDecodeLenient } from "./go/base64.js";
import { JsonSyntaxError, isValidJson, marshal, unmarshal } from "./go/json.js";
import { fromUtf8 } from "./go/strconv.js";
import { parseJwkSet } from "./crypto/jwk.js";
import { JWS_ALGORITHMS, constantTimeEqual, hmacDigest, signJWS, verifyECHalves, verifyEd25519, verifyJWS, verifyRSA, type VerifyKey } from "./crypto/jws.js";
import { pemDecode } from "./crypto/pem.js";
import { LruCache } from "./lruCache.js";
import { parsePublicKey } from "./crypto/pkix.js";
import { parseCertificate } from "./crypto/x509.js";

interface Token {
  header: string;
  payload: string;
  signature: string;
}

interface VerificationKey {
  key?: VerifyKey;
  /** Private JWKs are not public keys to OPA's verify_* builtins. */
  privateOnly?: boolean;
  alg: string;
  kid: string;
}

const bytesText = fromUtf8;

function decodeJWT(a: Value): Token {
  const s = str(a, 1);
  if (!s.includes(".")) throw builtinError("encoded JWT had no period separators");
  const parts = s.split(".");
  if (parts.length !== 3) throw builtinError(`encoded JWT must have 3 sections, found ${parts.length}`);
  return { header: parts[0]!, payload: parts[1]!, signature: parts[2]! };
}

/** OPA's `fmt.Errorf(prefix + "%v", err)` around any failure of a decoder or parser. */
const withPrefix = <T>(prefix: string, f: () => T): T => goErrors(Error, f, prefix);

/** OPA's extractJSONObject: json.unmarshal's decoding (duplicate keys: the last wins). */
function jsonObject(text: string): PlainObject {
  const v = goErrors(JsonSyntaxError, () => unmarshal(text), "invalid JSON: ");
  if (!isPlainObject(v)) throw builtinError("decoded JSON type was not an Object");
  return v;
}

function decodeHeader(t: Token): PlainObject {
  const bytes = withPrefix("JWT header had invalid encoding: ", () => urlDecodeLenient(t.header));
  const header = withPrefix("bad JWT header: ", () => jsonObject(bytesText(bytes)));
  if (getOwn(header, "enc") !== undefined) throw builtinError("JWT is a JWE object, which is not supported");
  return header;
}

const decodeSignature = (t: Token): Buffer => urlDecodeLenient(t.signature);

interface TokenHeader {
  alg: string;
  kid: string;
  typ: string;
  cty: string;
  crit: Set<string> | undefined;
  unknown: string[];
}

/** OPA's parseTokenHeader: known parameters must be strings, crit a nonempty list. */
function parseTokenHeader(h: PlainObject): TokenHeader {
  const out: TokenHeader = { alg: "", kid: "", typ: "", cty: "", crit: undefined, unknown: [] };
  for (const k of sortedPlainKeys(h)) {
    const v = h[k]!;
    if (k === "alg" || k === "kid" || k === "typ" || k === "cty") {
      if (typeof v !== "string") throw builtinError(`${k}: must be a string`);
      out[k] = v;
    } else if (k === "crit") {
      if (!Array.isArray(v)) throw builtinError("crit: must be a list");
      out.crit = new Set();
      for (const e of v) {
        if (typeof e !== "string") break;
        out.crit.add(e);
      }
      if (out.crit.size === 0) throw builtinError("crit: must be a nonempty list");
    } else out.unknown.push(k);
  }
  return out;
}

const headerValid = (h: TokenHeader): boolean => h.alg !== "" && !h.unknown.some((u) => h.crit?.has(u));

/** Parsed keys by their text: key objects are immutable, and policies reuse a few keys. */
const keyCache = new LruCache<VerificationKey[]>(64);

/** OPA's getKeysFromCertOrJWK: a PEM certificate, a PEM public key, or a JWK (set). */
const keysFromCertOrJWK = (text: string): VerificationKey[] => keyCache.get(text, () => parseKeys(text));

function parseKeys(text: string): VerificationKey[] {
  const [block, rest] = pemDecode(text);
  if (block) {
    if (rest.length > 0) throw builtinError("extra data after a PEM certificate block");
    if (block.type === "CERTIFICATE") {
      const cert = withPrefix("failed to parse a PEM certificate: ", () => parseCertificate(block.bytes));
      return [{ ...(cert.publicKey ? { key: cert.publicKey } : {}), alg: "", kid: "" }];
    }
    if (block.type === "PUBLIC KEY") {
      const pk = withPrefix("failed to parse a PEM public key: ", () => {
        const spki = new DerReader(block.bytes).expect(TAG.SEQUENCE);
        const info = parsePublicKey(spki);
        if (info.algorithm === 0) throw new DerError("x509: unknown public key algorithm");
        return info;
      });
      return [{ ...(pk.key ? { key: pk.key } : {}), alg: "", kid: "" }];
    }
    throw builtinError("failed to extract a Key from the PEM certificate");
  }
  const jwks = withPrefix("failed to parse a JWK key (set): ", () => parseJwkSet(text));
  const keys: VerificationKey[] = [];
  for (const k of jwks) {
    const alg = k.alg ?? "";
    if (alg !== "" && !JWS_ALGORITHMS.has(alg)) continue;
    const key: VerifyKey | undefined = k.secret ?? k.publicKey;
    keys.push({ ...(key ? { key } : {}), ...(k.privateKey ? { privateOnly: true } : {}), alg, kid: k.kid ?? "" });
  }
  return keys;
}

type Verifier = (key: KeyObject, input: Buffer, sig: Buffer) => boolean;

/** OPA's builtinJWTVerify for the asymmetric verify_* builtins. */
function verifyWithKeys(jwt: Value, keyText: Value, verify: Verifier): boolean {
  const token = decodeJWT(jwt);
  const keys = keysFromCertOrJWK(str(keyText, 2));
  const sig = decodeSignature(token);
  const header = parseTokenHeader(decodeHeader(token));
  const input = Buffer.from(`${token.header}.${token.payload}`, "utf8");
  const attempt = (k: VerificationKey) => k.key !== undefined && !Buffer.isBuffer(k.key) && !k.privateOnly && verify(k.key, input, sig);
  if (header.kid !== "") {
    const byKid = keys.find((k) => k.kid === header.kid);
    if (byKid) return attempt(byKid);
  }
  for (const k of keys) {
    if (k.alg !== "" && k.alg !== header.alg) continue;
    if (attempt(k)) return true;
  }
  return false;
}

function rsa(bits: string, pss: boolean) {
  return { fn: (_ctx: EvalContext, jwt: Value, key: Value) => verifyWithKeys(jwt, key, (k, i, s) => verifyRSA(bits, pss, k, i, s)) };
}

function es(bits: string) {
  return { fn: (_ctx: EvalContext, jwt: Value, key: Value) => verifyWithKeys(jwt, key, (k, i, s) => verifyECHalves(bits, k, i, s)) };
}

function hs(bits: string) {
  return {
    fn: (_ctx: EvalContext, jwt: Value, secret: Value) => {
      str(jwt, 1);
      const key = Buffer.from(str(secret, 2), "utf8");
      const token = decodeJWT(jwt);
      const mac = hmacDigest(bits, key, Buffer.from(`${token.header}.${token.payload}`, "utf8"));
      return constantTimeEqual(decodeSignature(token), mac);
    },
  };
}

// --- io.jwt.decode -----------------------------------------------------------------------------

function decode(a: Value): Value {
  const token = decodeJWT(a);
  const header = decodeHeader(token);
  const p = withPrefix("JWT payload had invalid encoding: ", () => urlDecodeLenient(token.payload));
  const cty = getOwn(header, "cty");
  if (cty === "JWT") return decode(bytesText(p).replace(/^["']+|["']+$/g, ""));
  const payload = jsonObject(bytesText(p));
  const sig = withPrefix("JWT signature had invalid encoding: ", () => decodeSignature(token));
  return [header, payload, sig.toString("hex")];
}

// --- io.jwt.decode_verify ----------------------------------------------------------------------

interface Constraints {
  secret: string;
  alg: string;
  iss: string;
  aud: string;
  keys: VerificationKey[] | undefined;
  /** Seconds since the epoch, as the shortest decimal of the float OPA computes. */
  time: Num;
}

function timeFrom(v: Value): number {
  if (!isNumber(v)) throw builtinError("token time constraint: must be a number");
  const t = toDouble(v);
  if (!Number.isFinite(t)) throw builtinError("token time constraint: unvalid float64");
  if (t < 0) throw builtinError("token time constraint: must not be negative");
  return t;
}

function stringConstraint(name: string, v: Value): string {
  if (typeof v !== "string") throw builtinError(`${name} constraint: must be a string`);
  return v;
}

function parseConstraints(o: PlainObject | RegoObject, nowNs: bigint): Constraints {
  const c: Constraints = { secret: "", alg: "", iss: "", aud: "", keys: undefined, time: 0 };
  let ns = -1;
  const keys = o instanceof RegoObject ? objectKeys(o) : [...sortedPlainKeys(o)];
  for (const k of keys) {
    const v = objectGet(o, k)!;
    switch (k) {
      case "cert":
        c.keys = keysFromCertOrJWK(stringConstraint("cert", v));
        break;
      case "secret":
      case "alg":
      case "iss":
      case "aud":
        c[k] = stringConstraint(k, v);
        break;
      case "time":
        ns = timeFrom(v);
        break;
      default:
        throw builtinError(`unknown token validation constraint: ${typeof k === "string" ? k : JSON.stringify(k)}`);
    }
  }
  if (ns === -1) ns = Number(nowNs);
  // OPA divides the float64 nanoseconds by 1e9 and compares the resulting float's shortest text.
  c.time = numberFromText(String(ns / 1e9).replace("e+", "e")) ?? 0;
  const sources = (c.keys !== undefined ? 1 : 0) + (c.secret !== "" ? 1 : 0);
  if (sources > 1) throw builtinError("duplicate key constraints");
  if (sources < 1) throw builtinError("no key constraint");
  return c;
}

function constraintsVerify(c: Constraints, h: TokenHeader, input: Buffer, sig: Buffer): boolean {
  if (c.keys !== undefined) {
    const attempt = (k: VerificationKey) => k.key !== undefined && verifyJWS(h.alg, k.key, input, sig);
    if (h.kid !== "") {
      const byKid = c.keys.find((k) => k.kid === h.kid);
      if (byKid) return attempt(byKid);
    }
    return c.keys.some((k) => (k.alg === "" || k.alg === h.alg) && attempt(k));
  }
  return verifyJWS(h.alg, Buffer.from(c.secret, "utf8"), input, sig);
}

function validAudience(aud: Value, want: string): boolean {
  if (typeof aud === "string") return aud === want;
  return Array.isArray(aud) && aud.some((e) => typeof e === "string" && e === want);
}

function decodeVerify(ctx: EvalContext, a: Value, b: Value): Value {
  const unverified = (): Value => [false, newPlainObject(), newPlainObject()];
  const c = parseConstraints(obj(b, 2), ctx.now());
  let current: Value = a;
  let token: Token;
  let header: PlainObject;
  let payloadBytes: Buffer;
  for (;;) {
    token = decodeJWT(current);
    header = decodeHeader(token);
    const h = parseTokenHeader(header);
    if (!headerValid(h)) return unverified();
    if (c.alg !== "" && c.alg !== h.alg) return unverified();
    const sig = decodeSignature(token);
    if (!constraintsVerify(c, h, Buffer.from(`${token.header}.${token.payload}`, "utf8"), sig)) return unverified();
    payloadBytes = withPrefix("JWT payload had invalid encoding: ", () => urlDecodeLenient(token.payload));
    if (h.cty.toLowerCase() !== "jwt") break;
    current = bytesText(payloadBytes);
  }
  const payload = jsonObject(bytesText(payloadBytes));
  if (c.iss !== "" && getOwn(payload, "iss") !== c.iss) return unverified();
  const aud = getOwn(payload, "aud");
  if (aud !== undefined ? !validAudience(aud, c.aud) : c.aud !== "") return unverified();
  const exp = getOwn(payload, "exp");
  if (exp !== undefined) {
    if (!isNumber(exp)) throw builtinError("exp value must be a number");
    if (compareNumbers(c.time, exp) !== -1) return unverified();
  }
  const nbf = getOwn(payload, "nbf");
  if (nbf !== undefined) {
    if (!isNumber(nbf)) throw builtinError("nbf value must be a number");
    if (compareNumbers(c.time, nbf) === -1) return unverified();
  }
  return [true, header, payload];
}

// --- io.jwt.encode_sign / encode_sign_raw ------------------------------------------------------

/** The "alg"/"typ" lookups of OPA's JWS library on the raw header text (fastjson semantics). */
function headerString(text: string, name: string): string {
  const t = text.replace(/^[ \t\r\n]+/, "");
  if (t === "") throw new Error(`cannot parse JSON: cannot parse empty string; unparsed tail: ""`);
  let v: Value;
  if ("{[\"tfn".includes(t[0]!)) {
    try {
      v = unmarshal(t);
    } catch (e) {
      throw new Error(`cannot parse JSON: ${(e as Error).message}`);
    }
  } else if (/^[-+0-9.eE]/.test(t)) {
    v = null; // a number: not an object, so no header parameters
  } else {
    throw new Error(`cannot parse JSON: unexpected char: ${JSON.stringify(t[0])}; unparsed tail: ${JSON.stringify(t)}`);
  }
  const found = isPlainObject(v) ? getOwn(v, name) : undefined;
  if (found === undefined) throw new Error(`jwsbb: header "${name}" not found`);
  if (typeof found !== "string") throw new Error(`jwsbb: header "${name}" is not a string`);
  return found;
}

function encodeSign(headerText: string, payloadText: string, jwkText: string): string {
  const keys = withPrefix("", () => parseJwkSet(jwkText));
  if (keys.length === 0) throw builtinError("no keys found in JWK set");
  const alg = withPrefix("missing or invalid 'alg' header: ", () => headerString(headerText, "alg"));
  if (!JWS_ALGORITHMS.has(alg)) throw builtinError(`unknown JWS algorithm: ${alg}`);
  let typ: string | undefined;
  try {
    typ = headerString(headerText, "typ");
  } catch {
    typ = undefined;
  }
  if ((typ === undefined || typ === "JWT") && !isValidJson(payloadText)) throw builtinError("type is JWT but payload is not JSON");
  const input = `${rawURLEncode(Buffer.from(headerText, "utf8"))}.${rawURLEncode(Buffer.from(payloadText, "utf8"))}`;
  const sig = withPrefix("", () => signJWS(alg, keys[0]!, Buffer.from(input, "utf8")));
  return `${input}.${rawURLEncode(sig)}`;
}

export const jwtBuiltins: BuiltinTable = {
  "io.jwt.decode": { fn: (_ctx, a) => decode(a) },
  "io.jwt.decode_verify": { fn: (ctx, a, b) => decodeVerify(ctx, a, b), nondeterministic: true },
  "io.jwt.verify_hs256": hs("256"),
  "io.jwt.verify_hs384": hs("384"),
  "io.jwt.verify_hs512": hs("512"),
  "io.jwt.verify_rs256": rsa("256", false),
  "io.jwt.verify_rs384": rsa("384", false),
  "io.jwt.verify_rs512": rsa("512", false),
  "io.jwt.verify_ps256": rsa("256", true),
  "io.jwt.verify_ps384": rsa("384", true),
  "io.jwt.verify_ps512": rsa("512", true),
  "io.jwt.verify_es256": es("256"),
  "io.jwt.verify_es384": es("384"),
  "io.jwt.verify_es512": es("512"),
  "io.jwt.verify_eddsa": { fn: (_ctx, jwt, key) => verifyWithKeys(jwt, key, verifyEd25519) },
  "io.jwt.encode_sign": {
    // OPA marshals ast.JSON of each operand, which cannot fail for a value (non-string keys become text).
    fn: (_ctx, h, p, k) => encodeSign(marshal(h), marshal(p), marshal(k)),
    nondeterministic: true,
  },
  "io.jwt.encode_sign_raw": {
    fn: (_ctx, h, p, k) => {
      const jwk = str(k, 3);
      return encodeSign(str(h, 1), str(p, 2), jwk);
    },
    nondeterministic: true,
  },
};
