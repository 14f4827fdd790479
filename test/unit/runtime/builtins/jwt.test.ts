import { constants, createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { expect } from "chai";
import { BigNum, RegoSet, toJSON, toJSONText, type Value } from "regoc";
import { type PlainObject } from "../../../../runtime/value/value.js";
import { builtinErr, builtinError, callBuiltin, obj, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";
import { ecKeys, edKeys, mintCert, rsaKeys, toPem } from "./cryptoFixtures.js";

const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64url");
const json = (v: Value | undefined): any => (v === undefined ? undefined : toJSON(v));

/** A compact JWS signed with node:crypto directly (independent of io.jwt.encode_sign). */
function token(header: object, payload: object | string, alg: string, key: KeyObject | Buffer): string {
  const input = `${b64(JSON.stringify(header))}.${b64(typeof payload === "string" ? payload : JSON.stringify(payload))}`;
  const hash = `sha${alg.slice(2)}`;
  let sig: Buffer;
  if (Buffer.isBuffer(key)) sig = createHmac(hash, key).update(input).digest();
  else if (alg.startsWith("RS")) sig = sign(hash, Buffer.from(input), key);
  else if (alg.startsWith("PS")) sig = sign(hash, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST });
  else if (alg.startsWith("ES")) sig = sign(hash, Buffer.from(input), { key, dsaEncoding: "ieee-p1363" });
  else sig = sign(null, Buffer.from(input), key);
  return `${input}.${b64(sig)}`;
}

const pem = (k: KeyObject) => k.export({ format: "pem", type: "spki" }) as string;
const jwkText = (k: KeyObject, extra: object = {}) => JSON.stringify({ ...k.export({ format: "jwk" }), ...extra });

describe("builtins: io.jwt.decode", () => {
  const t = token({ alg: "HS256", typ: "JWT" }, { sub: "0", iss: "opa" }, "HS256", Buffer.from("secret"));
  it("returns header, payload and the signature in hex", () => {
    const [h, p, sig] = json(callBuiltin("io.jwt.decode", [t]));
    expect(h).to.deep.equal({ alg: "HS256", typ: "JWT" });
    expect(p).to.deep.equal({ sub: "0", iss: "opa" });
    expect(sig).to.equal(Buffer.from(t.split(".")[2]!, "base64url").toString("hex"));
  });
  it("keeps big numbers exact and lets the last duplicate key win", () => {
    const raw = `${b64('{"alg":"HS256"}')}.${b64('{"n": 123456789012345678901234567890, "iss": "a", "iss": "b"}')}.${b64("x")}`;
    const [, p] = callBuiltin("io.jwt.decode", [raw]) as [Value, PlainObject];
    expect(p.n).to.be.instanceOf(BigNum);
    expect(toJSONText(p.n!)).to.equal("123456789012345678901234567890");
    expect(p.iss).to.equal("b");
  });
  it("decodes nested tokens (cty JWT, quoted payload)", () => {
    const inner = token({ alg: "HS256" }, { iss: "inner" }, "HS256", Buffer.from("k"));
    const outer = token({ alg: "HS256", cty: "JWT" }, `"${inner}"`, "HS256", Buffer.from("k"));
    expect(json(callBuiltin("io.jwt.decode", [outer]))[1]).to.deep.equal({ iss: "inner" });
  });
  runCases("io.jwt.decode", [
    { note: "no periods", args: ["abc"], error: builtinErr("encoded JWT had no period separators") },
    { note: "two sections", args: ["a.b"], error: builtinErr("encoded JWT must have 3 sections, found 2") },
    { note: "bad header encoding", args: ["eyJhbGciOiJIU^%zI1NiI+sInR5cCI6IkpXVCJ9.e30.e30"], error: builtinErr("JWT header had invalid encoding: illegal base64 data at input byte 13") },
    { note: "header is not an object", args: [`${b64("[1]")}.e30.e30`], error: builtinErr("bad JWT header: decoded JSON type was not an Object") },
    { note: "header is not JSON", args: [`${b64("{x")}.e30.e30`], error: builtinErr("bad JWT header: invalid JSON: invalid character 'x' looking for beginning of object key string") },
    { note: "JWE", args: [`${b64('{"alg":"RSA-OAEP","enc":"A256GCM"}')}.e30.e30`], error: builtinErr("JWT is a JWE object, which is not supported") },
    { note: "payload not an object", args: [`${b64('{"alg":"HS256"}')}.${b64("1")}.e30`], error: builtinErr("decoded JSON type was not an Object") },
    { note: "bad signature encoding", args: [`${b64('{"alg":"HS256"}')}.e30.a(b`], error: builtinErr("JWT signature had invalid encoding: illegal base64 data at input byte 1") },
    { note: "not a string", args: [1], error: typeErr("operand 1 must be string but got number") },
  ]);
});

describe("builtins: io.jwt.verify_*", () => {
  const rsa = rsaKeys();
  const ec256 = ecKeys("P-256");
  const ec384 = ecKeys("P-384");
  const ec521 = ecKeys("P-521");
  const ed = edKeys();
  const cert = mintCert({ subject: "signer", publicKey: rsa.publicKey, signer: rsa.privateKey }).pem;
  const payload = { iss: "opa", sub: "alice" };

  const table: [string, string, KeyObject, KeyObject][] = [
    ["io.jwt.verify_rs256", "RS256", rsa.privateKey, rsa.publicKey],
    ["io.jwt.verify_rs384", "RS384", rsa.privateKey, rsa.publicKey],
    ["io.jwt.verify_rs512", "RS512", rsa.privateKey, rsa.publicKey],
    ["io.jwt.verify_ps256", "PS256", rsa.privateKey, rsa.publicKey],
    ["io.jwt.verify_ps384", "PS384", rsa.privateKey, rsa.publicKey],
    ["io.jwt.verify_ps512", "PS512", rsa.privateKey, rsa.publicKey],
    ["io.jwt.verify_es256", "ES256", ec256.privateKey, ec256.publicKey],
    ["io.jwt.verify_es384", "ES384", ec384.privateKey, ec384.publicKey],
    ["io.jwt.verify_es512", "ES512", ec521.privateKey, ec521.publicKey],
    ["io.jwt.verify_eddsa", "EdDSA", ed.privateKey, ed.publicKey],
  ];
  for (const [name, alg, priv, pub] of table) {
    it(`${name}: PEM key, JWK, JWKS; wrong key and tampering fail`, () => {
      const t = token({ alg, typ: "JWT" }, payload, alg, priv);
      expect(callBuiltin(name, [t, pem(pub)])).to.equal(true);
      expect(callBuiltin(name, [t, jwkText(pub)])).to.equal(true);
      expect(callBuiltin(name, [t, JSON.stringify({ keys: [JSON.parse(jwkText(ed.publicKey)), JSON.parse(jwkText(pub))] })])).to.equal(true);
      const other = alg === "EdDSA" ? edKeys().publicKey : alg.startsWith("ES") ? ecKeys(pub.asymmetricKeyDetails!.namedCurve === "prime256v1" ? "P-256" : "P-384").publicKey : rsaKeys().publicKey;
      expect(callBuiltin(name, [t, pem(other)])).to.equal(false);
      const [h, , s] = t.split(".");
      expect(callBuiltin(name, [`${h}.${b64(JSON.stringify({ ...payload, sub: "mallory" }))}.${s}`, pem(pub)])).to.equal(false);
    });
  }

  it("verifies with a PEM certificate", () => {
    expect(callBuiltin("io.jwt.verify_rs256", [token({ alg: "RS256" }, payload, "RS256", rsa.privateKey), cert])).to.equal(true);
  });
  it("an RS256 token does not verify as PS256 (wrong algorithm)", () => {
    expect(callBuiltin("io.jwt.verify_ps256", [token({ alg: "RS256" }, payload, "RS256", rsa.privateKey), pem(rsa.publicKey)])).to.equal(false);
  });
  it("a JWKS key is picked by kid, and keys with another alg are skipped", () => {
    const t = token({ alg: "RS256", kid: "k2" }, payload, "RS256", rsa.privateKey);
    const other = rsaKeys().publicKey;
    const set = (k1: KeyObject, alg1: string) => JSON.stringify({ keys: [JSON.parse(jwkText(k1, { kid: "k1", alg: alg1 })), JSON.parse(jwkText(rsa.publicKey, { kid: "k2" }))] });
    expect(callBuiltin("io.jwt.verify_rs256", [t, set(other, "RS256")])).to.equal(true);
    const wrongKid = JSON.stringify({ keys: [JSON.parse(jwkText(rsa.publicKey, { kid: "k2", alg: "RS256" }))] });
    expect(callBuiltin("io.jwt.verify_rs256", [token({ alg: "RS256", kid: "k2" }, payload, "RS256", rsaKeys().privateKey), wrongKid])).to.equal(false);
    expect(callBuiltin("io.jwt.verify_rs256", [token({ alg: "RS256" }, payload, "RS256", rsa.privateKey), JSON.stringify({ keys: [JSON.parse(jwkText(rsa.publicKey, { alg: "PS256" }))] })])).to.equal(false);
  });
  it("RSA keys under 1024 bits never verify (Go 1.24 minimum)", () => {
    const small = generateKeyPairSync("rsa", { modulusLength: 768 });
    expect(callBuiltin("io.jwt.verify_rs256", [token({ alg: "RS256" }, payload, "RS256", small.privateKey), pem(small.publicKey)])).to.equal(false);
  });
  it("HMAC verification", () => {
    const t = token({ alg: "HS256" }, payload, "HS256", Buffer.from("secret"));
    expect(callBuiltin("io.jwt.verify_hs256", [t, "secret"])).to.equal(true);
    expect(callBuiltin("io.jwt.verify_hs256", [t, "Secret"])).to.equal(false);
    expect(callBuiltin("io.jwt.verify_hs384", [token({ alg: "HS384" }, payload, "HS384", Buffer.from("s")), "s"])).to.equal(true);
    expect(callBuiltin("io.jwt.verify_hs512", [token({ alg: "HS512" }, payload, "HS512", Buffer.from("s")), "s"])).to.equal(true);
    expect(callBuiltin("io.jwt.verify_hs512", [t, "secret"])).to.equal(false);
  });

  const t = token({ alg: "RS256" }, payload, "RS256", rsa.privateKey);
  const errors: BuiltinCase[] = [
    { note: "two sections", args: [t.split(".").slice(0, 2).join("."), pem(rsa.publicKey)], error: builtinErr("encoded JWT must have 3 sections, found 2") },
    { note: "PEM of another type", args: [t, "-----BEGIN CERT-----\nAAAA\n-----END CERT-----"], error: builtinErr("failed to extract a Key from the PEM certificate") },
    { note: "extra data after PEM", args: [t, `${pem(rsa.publicKey)}trailing`], error: builtinErr("extra data after a PEM certificate block") },
    { note: "broken certificate", args: [t, toPem("CERTIFICATE", Buffer.from("0\u0003\u0002\u0001\u0001"))], error: builtinErr("failed to parse a PEM certificate: x509: malformed tbs certificate") },
    { note: "bogus JWK", args: [t, '{"kty":"bogus"}'], error: builtinErr("failed to parse a JWK key (set): invalid key type from JSON (bogus)") },
    { note: "key operand type", args: [t, 1], error: typeErr("operand 2 must be string but got number") },
  ];
  runCases("io.jwt.verify_rs256", errors);
});

describe("builtins: io.jwt.decode_verify", () => {
  const rsa = rsaKeys();
  const now = Math.floor(Date.now() / 1000);
  const rs = (payload: object, header: object = { alg: "RS256", typ: "JWT" }) => token(header, payload, "RS256", rsa.privateKey);
  const dv = (t: string, c: Record<string, Value>) => json(callBuiltin("io.jwt.decode_verify", [t, obj(c)]));
  const cert = pem(rsa.publicKey);

  it("returns [true, header, payload] for a valid token", () => {
    // The expiry is taken when the test runs: a long test run may start it minutes after `now`.
    const exp = Math.floor(Date.now() / 1000) + 60;
    expect(dv(rs({ iss: "opa", exp }), { cert })).to.deep.equal([true, { alg: "RS256", typ: "JWT" }, { iss: "opa", exp }]);
  });

  const unverified: [string, () => string, Record<string, Value>][] = [
    ["expired", () => rs({ exp: now - 1 }), { cert }],
    ["expiring exactly now (time constraint)", () => rs({ exp: 2000 }), { cert, time: 2000e9 }],
    ["not yet valid", () => rs({ nbf: now + 3600 }), { cert }],
    ["wrong key", () => token({ alg: "RS256" }, {}, "RS256", rsaKeys().privateKey), { cert }],
    ["wrong secret", () => token({ alg: "HS256" }, {}, "HS256", Buffer.from("a")), { secret: "b" }],
    ["alg none", () => `${b64('{"alg":"none"}')}.${b64("{}")}.`, { cert }],
    ["alg none with a secret", () => `${b64('{"alg":"none"}')}.${b64("{}")}.`, { secret: "s" }],
    ["an HS256 token checked against an RSA key", () => token({ alg: "HS256" }, {}, "HS256", Buffer.from(cert)), { cert }],
    ["alg constraint mismatch", () => rs({}), { cert, alg: "RS512" }],
    ["missing alg", () => token({ typ: "JWT" }, {}, "RS256", rsa.privateKey), { cert }],
    ["unknown critical header", () => rs({}, { alg: "RS256", crit: ["junk"], junk: 1 }), { cert }],
    ["iss mismatch", () => rs({ iss: "x" }), { cert, iss: "y" }],
    ["iss missing", () => rs({}), { cert, iss: "y" }],
    ["aud present but not required", () => rs({ aud: "a" }), { cert }],
    ["aud required but missing", () => rs({}), { cert, aud: "a" }],
    ["aud list without match", () => rs({ aud: ["a", "b"] }), { cert, aud: "c" }],
  ];
  for (const [what, t, c] of unverified) it(`is [false, {}, {}] when ${what}`, () => expect(dv(t(), c)).to.deep.equal([false, {}, {}]));

  it("accepts known critical headers, audience lists and fractional times", () => {
    expect(dv(rs({ aud: ["a", "b"] }, { alg: "RS256", crit: ["kid"], kid: "1" }), { cert, aud: "b" })[0]).to.equal(true);
    const hs = token({ alg: "HS256" }, { nbf: 1589385770.1234 }, "HS256", Buffer.from("secret"));
    expect(dv(hs, { secret: "secret", time: 1589385770123400000 })[0]).to.equal(true);
    expect(dv(hs, { secret: "secret", time: 1589385770023400000 })[0]).to.equal(false);
  });

  it("verifies nested tokens at every level", () => {
    const inner = rs({ iss: "inner" });
    const outer = token({ alg: "RS256", cty: "jwt" }, inner, "RS256", rsa.privateKey);
    expect(dv(outer, { cert })).to.deep.equal([true, { alg: "RS256", typ: "JWT" }, { iss: "inner" }]);
    const forgedInner = token({ alg: "RS256" }, { iss: "inner" }, "RS256", rsaKeys().privateKey);
    expect(dv(token({ alg: "RS256", cty: "JWT" }, forgedInner, "RS256", rsa.privateKey), { cert })[0]).to.equal(false);
  });

  it("works with JWKS, EC and EdDSA keys", () => {
    const ec = ecKeys();
    const ed = edKeys();
    const set = JSON.stringify({ keys: [JSON.parse(jwkText(ec.publicKey, { kid: "e", alg: "ES256" })), JSON.parse(jwkText(ed.publicKey, { kid: "d" }))] });
    expect(dv(token({ alg: "ES256" }, {}, "ES256", ec.privateKey), { cert: set })[0]).to.equal(true);
    expect(dv(token({ alg: "EdDSA", kid: "d" }, {}, "EdDSA", ed.privateKey), { cert: set })[0]).to.equal(true);
    expect(dv(token({ alg: "EdDSA", kid: "e" }, {}, "EdDSA", ed.privateKey), { cert: set })[0]).to.equal(false);
  });

  const t = rs({});
  const errors: BuiltinCase[] = [
    { note: "no key", args: [t, obj({})], error: builtinErr("no key constraint") },
    { note: "two keys", args: [t, obj({ cert, secret: "s" })], error: builtinErr("duplicate key constraints") },
    { note: "unknown constraint", args: [t, obj({ cert, foo: 1 })], error: builtinErr("unknown token validation constraint: foo") },
    { note: "cert type", args: [t, obj({ cert: 1 })], error: builtinErr("cert constraint: must be a string") },
    { note: "negative time", args: [t, obj({ cert, time: -1 })], error: builtinErr("token time constraint: must not be negative") },
    { note: "exp not a number", args: [rs({ exp: "soon" }), obj({ cert })], error: builtinErr("exp value must be a number") },
    { note: "nbf not a number", args: [rs({ nbf: null }), obj({ cert })], error: builtinErr("nbf value must be a number") },
    { note: "alg not a string", args: [rs({}, { alg: 1 }), obj({ cert })], error: builtinErr("alg: must be a string") },
    { note: "empty crit", args: [rs({}, { alg: "RS256", crit: [] }), obj({ cert })], error: builtinErr("crit: must be a nonempty list") },
    { note: "constraints type", args: [t, "x"], error: typeErr("operand 2 must be object but got string") },
  ];
  runCases("io.jwt.decode_verify", errors);
});

describe("builtins: io.jwt.encode_sign", () => {
  // RFC 7515 appendix A.1 (HS256, deterministic).
  const rfcKey = { kty: "oct", k: "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow" };
  it("encode_sign_raw signs the raw texts (RFC 7515 A.1)", () => {
    const got = callBuiltin("io.jwt.encode_sign_raw", ['{"typ":"JWT",\r\n "alg":"HS256"}', '{"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}', JSON.stringify(rfcKey)]);
    expect(got).to.equal("eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
  });
  it("encode_sign marshals like Go: sorted keys, sets as arrays, HTML escaped", () => {
    const got = callBuiltin("io.jwt.encode_sign", [obj({ typ: "JWT", alg: "HS256" }), obj({ b: "<&>", a: new RegoSet(["y", "x"]) }), obj(rfcKey)]) as string;
    const [h, p] = got.split(".");
    expect(Buffer.from(h!, "base64url").toString()).to.equal('{"alg":"HS256","typ":"JWT"}');
    expect(Buffer.from(p!, "base64url").toString()).to.equal('{"a":["x","y"],"b":"\\u003c\\u0026\\u003e"}');
  });
  for (const [alg, keys] of [
    ["RS256", rsaKeys()],
    ["PS384", rsaKeys()],
    ["ES256", ecKeys("P-256")],
    ["ES512", ecKeys("P-521")],
    ["EdDSA", edKeys()],
  ] as const) {
    it(`round-trips ${alg} through decode_verify`, () => {
      const jwk = JSON.parse(jwkText(keys.privateKey));
      const t = callBuiltin("io.jwt.encode_sign", [obj({ alg }), obj({ iss: "me", iat: 1678000000 }), obj(jwk)]) as string;
      expect(json(callBuiltin("io.jwt.decode_verify", [t, obj({ cert: pem(keys.publicKey) })]))).to.deep.equal([true, { alg }, { iss: "me", iat: 1678000000 }]);
    });
  }
  it("an HS256 token with exp null fails decode_verify with an error", () => {
    const t = callBuiltin("io.jwt.encode_sign", [obj({ alg: "HS256" }), obj({ exp: null }), obj({ kty: "oct", k: b64("42") })]);
    const err = builtinError("io.jwt.decode_verify", [t!, obj({ secret: "42" })]);
    expect([err.code, err.message]).to.deep.equal(["eval_builtin_error", "io.jwt.decode_verify: exp value must be a number"]);
  });
  const raw = (h: string, p: string, k = JSON.stringify(rfcKey)): Value[] => [h, p, k];
  runCases("io.jwt.encode_sign_raw", [
    { note: "header not JSON", args: raw('{"typ:"JWT","alg":"HS256"}', "{}"), error: builtinErr("missing or invalid 'alg' header: cannot parse JSON: invalid character 'J' after object key") },
    { note: "unknown algorithm", args: raw('{"alg":"dummy"}', "{}"), error: builtinErr("unknown JWS algorithm: dummy") },
    { note: "no alg", args: raw("{}", "{}"), error: builtinErr(`missing or invalid 'alg' header: jwsbb: header "alg" not found`) },
    { note: "empty header", args: raw("", "{}"), error: builtinErr(`missing or invalid 'alg' header: cannot parse JSON: cannot parse empty string; unparsed tail: ""`) },
    { note: "JWT payload not JSON", args: raw('{"typ":"JWT","alg":"HS256"}', "e"), error: builtinErr("type is JWT but payload is not JSON") },
    { note: "empty JWK set", args: raw('{"alg":"HS256"}', "{}", '{"keys":[]}'), error: builtinErr("no keys found in JWK set") },
    { note: "key does not fit alg", args: raw('{"alg":"RS256"}', "{}"), error: builtinErr("failed to sign payload: key of type oct cannot be used with algorithm RS256") },
    { note: "jwk type", args: ["{}", "{}", 1], error: typeErr("operand 3 must be string but got number") },
  ]);
  it("a text/plain payload need not be JSON", () => {
    expect(callBuiltin("io.jwt.encode_sign_raw", raw('{"typ":"text/plain","alg":"HS256"}', ""))).to.match(/^[\w-]+\.\.[\w-]+$/);
  });
});
