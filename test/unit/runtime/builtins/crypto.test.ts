import { expect } from "chai";
import { RegoSet, toJSON, toJSONText, type Value } from "regoc";
import { type PlainObject } from "../../../../runtime/value/value.js";
import { builtinErr, builtinError, callBuiltin, obj, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";
import { ecKeys, edKeys, mintCSR, mintCert, mintChain, rsaKeys, toPem } from "./cryptoFixtures.js";


const json = (v: Value | undefined): any => (v === undefined ? undefined : toJSON(v));

describe("builtins: crypto digests and HMACs", () => {
  const cases: BuiltinCase[] = [
    { note: "md5", name: "crypto.md5", args: ["lorem ipsum"], want: "80a751fde577028640c419000e33eba6" },
    { note: "sha1", name: "crypto.sha1", args: ["lorem ipsum"], want: "bfb7759a67daeb65410490b4d98bb9da7d1ea2ce" },
    { note: "sha256", name: "crypto.sha256", args: ["lorem ipsum"], want: "5e2bf57d3f40c4b6df69daf1936cb766f832374b4fc0259a7cbff06e2f70f269" },
    { note: "sha256 of the empty string", name: "crypto.sha256", args: [""], want: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { note: "md5 of a number", name: "crypto.md5", args: [1], error: typeErr("operand 1 must be string but got number") },
    { note: "hmac md5", name: "crypto.hmac.md5", args: ["foo", "bar"], want: "31b6db9e5eb4addb42f1a6ca07367adc" },
    { note: "hmac sha1", name: "crypto.hmac.sha1", args: ["foo", "bar"], want: "85d155c55ed286a300bd1cf124de08d87e914f3a" },
    { note: "hmac sha256", name: "crypto.hmac.sha256", args: ["foo", "bar"], want: "147933218aaabc0b8b10a2b3a5c34684c8d94341bcf10a4736dc7270f7741851" },
    { note: "hmac sha512 unicode", name: "crypto.hmac.sha512", args: ["åäöçß🥲♙Ω", "秘密の"], want: "192f5afded233d6e21427aa26ed267ac118cfa2971013d91cbed530c0b208d78138b83dfe1d6cc3553d7bd518f22a481402c723028e1279d1ffbe8f11ea6b125" },
    { note: "hmac key must be a string", name: "crypto.hmac.sha256", args: ["foo", null], error: typeErr("operand 2 must be string but got null") },
    { note: "hmac.equal equal", name: "crypto.hmac.equal", args: ["abc", "abc"], want: true },
    { note: "hmac.equal different", name: "crypto.hmac.equal", args: ["abc", "abd"], want: false },
    { note: "hmac.equal different lengths", name: "crypto.hmac.equal", args: ["abc", "ab"], want: false },
    { note: "hmac.equal type", name: "crypto.hmac.equal", args: ["abc", 1], error: typeErr("operand 2 must be string but got number") },
  ];
  runCases("crypto.md5", cases);
});

describe("builtins: crypto.x509.parse_certificates", () => {
  const chain = mintChain({ uris: ["spiffe://example.com/workload"], ips: [[10, 0, 0, 1]], emails: ["ops@example.com"] });

  it("parses PEM, base64 PEM and base64 DER the same way", () => {
    const fromPem = json(callBuiltin("crypto.x509.parse_certificates", [chain.pem]));
    const fromB64Pem = json(callBuiltin("crypto.x509.parse_certificates", [Buffer.from(chain.pem).toString("base64")]));
    const der = Buffer.concat([chain.rootCert.der, chain.interCert.der, chain.leafCert.der]).toString("base64");
    const fromDer = json(callBuiltin("crypto.x509.parse_certificates", [der]));
    expect(fromPem.map((c: any) => c.Subject.CommonName)).to.deep.equal(["Test Root", "Test Intermediate", "leaf.example.com"]);
    expect(fromB64Pem).to.deep.equal(fromPem);
    expect(fromDer).to.deep.equal(fromPem);
  });

  it("produces Go's x509.Certificate fields", () => {
    const [root, inter, leaf] = json(callBuiltin("crypto.x509.parse_certificates", [chain.pem]));
    expect(leaf.DNSNames).to.deep.equal(["leaf.example.com"]);
    expect(leaf.URIStrings).to.deep.equal(["spiffe://example.com/workload"]);
    expect(leaf.URIs[0]).to.include({ Scheme: "spiffe", Host: "example.com", Path: "/workload" });
    expect(leaf.IPAddresses).to.deep.equal(["10.0.0.1"]);
    expect(leaf.EmailAddresses).to.deep.equal(["ops@example.com"]);
    expect(leaf.ExtKeyUsage).to.deep.equal([1]);
    expect(leaf.KeyUsage).to.equal(1);
    expect(leaf.PublicKeyAlgorithm).to.equal(3);
    expect(leaf.SignatureAlgorithm).to.equal(10);
    expect(leaf.Version).to.equal(3);
    expect(leaf.Issuer.CommonName).to.equal("Test Intermediate");
    expect(inter.IsCA).to.equal(true);
    expect(inter.MaxPathLen).to.equal(0);
    expect(inter.MaxPathLenZero).to.equal(true);
    expect(root.MaxPathLen).to.equal(-1);
    expect(root.KeyUsage).to.equal(96);
    expect(root.Raw).to.equal(chain.rootCert.der.toString("base64"));
    expect(root.URIStrings).to.equal(null);
    expect(root.Extensions.map((e: any) => e.Id)).to.deep.equal([[2, 5, 29, 19], [2, 5, 29, 15]]);
  });

  it("keeps big serial numbers exact", () => {
    const k = rsaKeys();
    const cert = mintCert({ subject: "big", publicKey: k.publicKey, signer: k.privateKey, serial: 2n ** 100n + 7n });
    const [c] = callBuiltin("crypto.x509.parse_certificates", [cert.pem]) as PlainObject[];
    expect(toJSONText(c!.SerialNumber!)).to.equal((2n ** 100n + 7n).toString());
    expect(toJSONText((c!.PublicKey as PlainObject).E!)).to.equal("65537");
  });

  const bad: BuiltinCase[] = [
    { note: "not base64", args: ["foobar"], error: builtinErr("illegal base64 data at input byte 4") },
    { note: "base64 of garbage", args: ["YmFkc3RyaW5n"], error: builtinErr("x509: malformed certificate") },
    { note: "PEM of another type", args: ["-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"], error: builtinErr("PEM block type is 'PUBLIC KEY', expected CERTIFICATE") },
    { note: "not a string", args: [1], error: typeErr("operand 1 must be string but got number") },
  ];
  runCases("crypto.x509.parse_certificates", bad);

  it("returns an empty array for PEM text without blocks", () => {
    expect(json(callBuiltin("crypto.x509.parse_certificates", ["-----BEGIN nothing"]))).to.deep.equal([]);
  });
});

describe("builtins: crypto.x509.parse_and_verify_certificates", () => {
  const verify = (pem: string): [boolean, string[]] => {
    const [ok, certs] = json(callBuiltin("crypto.x509.parse_and_verify_certificates", [pem]));
    return [ok, certs.map((c: any) => c.Subject.CommonName)];
  };
  const day = 86_400_000;

  it("verifies a root → intermediate → leaf chain and returns it leaf first", () => {
    expect(verify(mintChain().pem)).to.deep.equal([true, ["leaf.example.com", "Test Intermediate", "Test Root"]]);
  });

  const failures: [string, () => string][] = [
    ["an expired leaf", () => mintChain({ notBefore: new Date(Date.now() - 10 * day), notAfter: new Date(Date.now() - day) }).pem],
    ["a leaf not valid yet", () => mintChain({ notBefore: new Date(Date.now() + day) }).pem],
    ["an intermediate that is not a CA", () => mintChain({}, { ca: false }).pem],
    ["an intermediate without basic constraints", () => mintChain({}, { noBasicConstraints: true }).pem],
    ["an intermediate without keyCertSign", () => mintChain({}, { keyUsage: [0] }).pem],
    ["a leaf for client auth only (default usage is server auth)", () => mintChain({ eku: ["1.3.6.1.5.5.7.3.2"] }).pem],
    ["an unhandled critical extension", () => mintChain({ unknownCritical: true }).pem],
    ["the wrong order (leaf first)", () => {
      const c = mintChain();
      return c.leafCert.pem + c.interCert.pem + c.rootCert.pem;
    }],
    ["a leaf signed by another key", () => {
      const c = mintChain();
      const other = ecKeys();
      const forged = mintCert({ subject: "leaf.example.com", issuer: "Test Intermediate", publicKey: c.leaf.publicKey, signer: other.privateKey, dns: ["leaf.example.com"] });
      return c.rootCert.pem + c.interCert.pem + forged.pem;
    }],
    ["a single certificate", () => mintChain().rootCert.pem],
    ["garbage", () => "not a certificate"],
  ];
  for (const [what, pem] of failures) it(`rejects ${what}`, () => expect(verify(pem())).to.deep.equal([false, []]));

  it("honours path length constraints", () => {
    const root = rsaKeys();
    const i1 = ecKeys();
    const i2 = ecKeys();
    const leaf = edKeys();
    const r = mintCert({ subject: "R", publicKey: root.publicKey, signer: root.privateKey, ca: true, pathLen: 1 });
    const a = mintCert({ subject: "I1", issuer: "R", publicKey: i1.publicKey, signer: root.privateKey, ca: true });
    const b = mintCert({ subject: "I2", issuer: "I1", publicKey: i2.publicKey, signer: i1.privateKey, ca: true });
    const l = mintCert({ subject: "L", issuer: "I2", publicKey: leaf.publicKey, signer: i2.privateKey });
    expect(verify(r.pem + a.pem + b.pem + l.pem)[0]).to.equal(false);
    const r2 = mintCert({ subject: "R", publicKey: root.publicKey, signer: root.privateKey, ca: true, pathLen: 2 });
    expect(verify(r2.pem + a.pem + b.pem + l.pem)).to.deep.equal([true, ["L", "I2", "I1", "R"]]);
  });
});

describe("builtins: crypto.x509.parse_and_verify_certificates_with_options", () => {
  const chain = mintChain({ eku: ["1.3.6.1.5.5.7.3.2"] });
  const run = (opts: Record<string, Value>) => json(callBuiltin("crypto.x509.parse_and_verify_certificates_with_options", [chain.pem, obj(opts)]));

  it("checks the requested key usages", () => {
    expect(run({})[0]).to.equal(false);
    expect(run({ KeyUsages: ["KeyUsageClientAuth"] })[0]).to.equal(true);
    expect(run({ KeyUsages: new RegoSet(["KeyUsageAny"]) })[0]).to.equal(true);
    expect(run({ KeyUsages: ["KeyUsageServerAuth"] })[0]).to.equal(false);
  });

  it("checks the DNS name and the time", () => {
    const ok = { KeyUsages: ["KeyUsageClientAuth"] };
    expect(run({ ...ok, DNSName: "leaf.example.com" })[0]).to.equal(true);
    expect(run({ ...ok, DNSName: "other.example.com" })[0]).to.equal(false);
    const inTenYears = BigInt(Date.now() + 10 * 365 * 86_400_000) * 1_000_000n;
    expect(run({ ...ok, CurrentTime: Number(inTenYears) })[0]).to.equal(false);
  });

  it("returns certificates without URIStrings (as OPA does)", () => {
    const [ok, certs] = run({ KeyUsages: ["KeyUsageClientAuth"] });
    expect(ok).to.equal(true);
    expect(certs[0]).to.not.have.property("URIStrings");
  });

  const errors: BuiltinCase[] = [
    { note: "unknown option", args: [chain.pem, obj({ Foo: 1 })], error: builtinErr("invalid key option") },
    { note: "bad key usages", args: [chain.pem, obj({ KeyUsages: ["KeyUsageNope", "Other"] })], error: builtinErr("invalid entries for 'KeyUsages' found: [KeyUsageNope Other]") },
    { note: "DNSName type", args: [chain.pem, obj({ DNSName: 1 })], error: builtinErr("'DNSName' should be a string") },
    { note: "CurrentTime float", args: [chain.pem, obj({ CurrentTime: 1.5 })], error: builtinErr("'CurrentTime' should be a valid int64 number") },
    { note: "options type", args: [chain.pem, "x"], error: typeErr("operand 2 must be object but got string") },
  ];
  runCases("crypto.x509.parse_and_verify_certificates_with_options", errors);
});

describe("builtins: crypto.x509.parse_certificate_request", () => {
  const key = rsaKeys();
  const csr = mintCSR("csr.example.com", key, ["a.example.com", "b.example.com"]);
  for (const [what, input] of [
    ["PEM", csr.pem],
    ["base64 PEM", Buffer.from(csr.pem).toString("base64")],
    ["base64 DER", csr.der.toString("base64")],
  ] as const) {
    it(`parses ${what}`, () => {
      const r = json(callBuiltin("crypto.x509.parse_certificate_request", [input]));
      expect(r.Subject.CommonName).to.equal("csr.example.com");
      expect(r.Subject.Organization).to.deep.equal(["Example Org"]);
      expect(r.DNSNames).to.deep.equal(["a.example.com", "b.example.com"]);
      expect(r.PublicKeyAlgorithm).to.equal(1);
      expect(r.SignatureAlgorithm).to.equal(4);
      expect(r.Extensions[0].Id).to.deep.equal([2, 5, 29, 17]);
      expect(r.Raw).to.equal(csr.der.toString("base64"));
    });
  }
  runCases("crypto.x509.parse_certificate_request", [
    { note: "not base64", args: ["foobar"], error: builtinErr("illegal base64 data at input byte 4") },
    { note: "another PEM type", args: [Buffer.from("-----BEGIN X-----\nAAAA\n-----END X-----\n").toString("base64")], error: builtinErr("invalid PEM-encoded certificate signing request") },
  ]);
  it("reports Go's ASN.1 structure error for garbage", () => {
    const err = builtinError("crypto.x509.parse_certificate_request", ["YmFkc3RyaW5n"]);
    expect(err.code).to.equal("eval_builtin_error");
    expect(err.message).to.match(/^crypto\.x509\.parse_certificate_request: asn1: structure error: tags don't match \(16 vs \{class:1 tag:2 length:97 isCompound:true\}\)/);
  });
});

describe("builtins: crypto private keys", () => {
  const rsa = rsaKeys();
  const pkcs1 = rsa.privateKey.export({ format: "pem", type: "pkcs1" }) as string;
  const ec = ecKeys("P-384");
  const sec1 = ec.privateKey.export({ format: "pem", type: "sec1" }) as string;
  const ed = edKeys();
  const pkcs8 = ed.privateKey.export({ format: "pem", type: "pkcs8" }) as string;

  it("parse_rsa_private_key returns the key's JWK", () => {
    const jwk = rsa.privateKey.export({ format: "jwk" });
    expect(json(callBuiltin("crypto.x509.parse_rsa_private_key", [pkcs1]))).to.deep.equal({ kty: "RSA", n: jwk.n, e: jwk.e, d: jwk.d, p: jwk.p, q: jwk.q, dp: jwk.dp, dq: jwk.dq, qi: jwk.qi });
    expect(json(callBuiltin("crypto.x509.parse_rsa_private_key", [Buffer.from(pkcs1).toString("base64")]))).to.have.property("kty", "RSA");
    expect(json(callBuiltin("crypto.x509.parse_rsa_private_key", [sec1]))).to.include({ kty: "EC", crv: "P-384" });
  });

  it("parse_private_keys returns Go's key structs for every supported block", () => {
    const keys = callBuiltin("crypto.parse_private_keys", [pkcs1 + sec1 + pkcs8]) as Value[];
    expect(keys).to.have.length(3);
    const [r, e, d] = keys as [PlainObject, PlainObject, string];
    expect(Object.keys(r).sort()).to.deep.equal(["D", "E", "N", "Precomputed", "Primes"]);
    expect(toJSONText(r.E!)).to.equal("65537");
    expect((r.Primes as Value[]).length).to.equal(2);
    expect(Object.keys(e).sort()).to.deep.equal(["Curve", "D", "X", "Y"]);
    expect(Buffer.from(d, "base64")).to.have.length(64);
  });

  runCases("crypto.parse_private_keys", [
    { note: "empty input is null", args: [""], want: null },
    { note: "no PEM data is an empty array", args: ["nope"], want: [] },
    { note: "a broken RSA key is an error", args: ["-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"], error: builtinErr("x509: failed to parse private key") },
    { note: "empty input (parse_rsa_private_key)", name: "crypto.x509.parse_rsa_private_key", args: [""], error: builtinErr("input PEM data was empty") },
    { note: "not base64 (parse_rsa_private_key)", name: "crypto.x509.parse_rsa_private_key", args: ["invalid"], error: builtinErr("illegal base64 data at input byte 4") },
  ]);
});

describe("builtins: crypto.x509.parse_keypair", () => {
  const key = rsaKeys();
  const cert = mintCert({ subject: "kp", publicKey: key.publicKey, signer: key.privateKey });
  const keyPem = key.privateKey.export({ format: "pem", type: "pkcs8" }) as string;

  it("returns Go's tls.Certificate for PEM and base64 inputs", () => {
    const r = json(callBuiltin("crypto.x509.parse_keypair", [cert.pem, keyPem]));
    expect(r.Certificate).to.deep.equal([cert.der.toString("base64")]);
    expect(r.Leaf.Subject.CommonName).to.equal("kp");
    expect(r.PrivateKey).to.have.property("Primes");
    const b64 = json(callBuiltin("crypto.x509.parse_keypair", [Buffer.from(cert.pem).toString("base64"), Buffer.from(keyPem).toString("base64")]));
    expect(b64.Certificate).to.deep.equal(r.Certificate);
    const der = json(callBuiltin("crypto.x509.parse_keypair", [cert.der.toString("base64"), (key.privateKey.export({ format: "der", type: "pkcs8" }) as Buffer).toString("base64")]));
    expect(der.Certificate).to.deep.equal(r.Certificate);
  });

  const other = (rsaKeys().privateKey.export({ format: "pem", type: "pkcs8" }) as string);
  runCases("crypto.x509.parse_keypair", [
    { note: "mismatched key", args: [cert.pem, other], error: builtinErr("tls: private key does not match public key") },
    { note: "key of another type", args: [cert.pem, ecKeys().privateKey.export({ format: "pem", type: "pkcs8" }) as string], error: builtinErr("tls: private key type does not match public key type") },
    { note: "inputs switched", args: [keyPem, cert.pem], error: builtinErr("tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched") },
    { note: "key operand type (OPA reports operand 1)", args: [cert.pem, 1], error: typeErr("operand 1 must be string but got number") },
  ]);
  it("needs a certificate, not a public key", () => {
    const pub = toPem("PUBLIC KEY", key.publicKey.export({ format: "der", type: "spki" }) as Buffer);
    const err = builtinError("crypto.x509.parse_keypair", [pub, keyPem]);
    expect(err.code).to.equal("eval_builtin_error");
    expect(err.message).to.equal('crypto.x509.parse_keypair: tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [PUBLIC KEY]');
  });
});
