import { expect } from "chai";
import { RegoSet, toJSON, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { type PlainObject } from "../../../../runtime/value/value.js";
import { callBuiltin, obj, runCases, type BuiltinCase } from "../../../support/builtins.js";

// OPA's own test vectors for providers.aws.sign_req (2015-12-28T14:08:25Z, example credentials).
const TIME = numberFromText("1451311705000000000")!;
const config = (extra: Record<string, Value> = {}) =>
  obj({ aws_access_key: "MYAWSACCESSKEYGOESHERE", aws_secret_access_key: "MYAWSSECRETACCESSKEYGOESHERE", aws_service: "s3", aws_region: "us-east-1", ...extra });
const sign = (req: Record<string, Value>, cfg = config()) => toJSON(callBuiltin("providers.aws.sign_req", [obj(req), cfg, TIME])!) as any;
const signature = (out: any): string => out.headers.Authorization.split("Signature=")[1];
const body = () => obj({ example: new RegoSet([1, 2, 3, 4]) });

describe("builtins: providers.aws.sign_req", () => {
  it("signs a request without a body", () => {
    const out = sign({ method: "get", url: "http://example.com" });
    expect(out).to.deep.equal({
      method: "get",
      url: "http://example.com",
      headers: {
        Authorization:
          "AWS4-HMAC-SHA256 Credential=MYAWSACCESSKEYGOESHERE/20151228/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=0047a7016c81e5c7f29cd522f97e911e04fc472fced0aee7916cbc287ad6c8e3",
        host: "example.com",
        "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "x-amz-date": "20151228T140825Z",
      },
    });
  });

  const vectors: [string, Record<string, Value>, PlainObject, string][] = [
    ["request headers", { method: "get", url: "http://example.com", headers: obj({ foo: "bar" }) }, config(), "8f1dc7c9b9978356a0d0989fd26a95307f4f8a4aa264d8220647b7097d839952"],
    ["a session token", { method: "get", url: "http://example.com" }, config({ aws_session_token: "MYAWSSECURITYTOKENGOESHERE" }), "23c31bda8a74630c0a94f6b82a3511e7e74728df98e6f54ed0840488dbbdc8d1"],
    ["a JSON body", { method: "get", url: "http://example.com", body: body() }, config(), "5fb06ab1cfd74c8fcb3af95b8cce696708cf6155d971dac10f254d79799c6e88"],
    ["a raw body (wins over body)", { method: "get", url: "http://example.com", body: body(), raw_body: '{"example": {1, 2, 3, 4}}' }, config(), "5bf26e169cb8b02330dba39d53932532438fc856c2f10537689a09ed807c7195"],
    ["payload signing disabled", { method: "get", url: "https://example.com", headers: obj({ foo: "bar" }), body: body() }, config({ disable_payload_signing: true }), "c6e6db654e92172f71e18c714c123711de069ac6fd7df1348e5b28fd05532028"],
    ["payload signing explicitly on", { method: "get", url: "https://example.com", headers: obj({ foo: "bar" }), body: body() }, config({ disable_payload_signing: false }), "f6703a8727ec0a32f81b225a002f622e511e8a7d2ca8914894fcbb7a71d8d9d8"],
    ["a caller's x-amz-content-sha256 (signed as given)", { method: "get", url: "https://example.com", headers: obj({ foo: "bar", "x-amz-content-sha256": "existing-value" }), body: body() }, config(), "42bcac7fc6d170e09be72fdf38b62e59361265bc59d5f9156f0d6faf889e98ba"],
  ];
  for (const [what, req, cfg, sig] of vectors) it(`signs with ${what}`, () => expect(signature(sign(req, cfg))).to.equal(sig));

  it("keeps the caller's headers and other fields, overriding the AWS ones", () => {
    const out = sign({ method: "get", url: "https://example.com", headers: obj({ foo: "bar", "x-amz-content-sha256": "existing-value" }), body: body() }, config({ disable_payload_signing: true }));
    expect(out.headers["x-amz-content-sha256"]).to.equal("UNSIGNED-PAYLOAD");
    expect(out.headers.foo).to.equal("bar");
    expect(out.body).to.deep.equal({ example: [1, 2, 3, 4] });
  });

  it("leaves proxy-managed headers out of the signature and signs other services without a content hash", () => {
    const a = sign({ method: "GET", url: "https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15", headers: obj({ "User-Agent": "x" }) }, config({ aws_service: "sts" }));
    const b = sign({ method: "GET", url: "https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15", headers: obj({ "User-Agent": "y" }) }, config({ aws_service: "sts" }));
    expect(signature(a)).to.equal(signature(b));
    expect(a.headers.Authorization).to.contain("SignedHeaders=host;x-amz-date,");
    expect(a.headers).to.not.have.property("x-amz-content-sha256");
  });

  it("does not modify the request it was given", () => {
    const req = obj({ method: "get", url: "http://example.com" });
    callBuiltin("providers.aws.sign_req", [req, config(), TIME]);
    expect(Object.keys(req)).to.deep.equal(["method", "url"]);
  });

  const cases: BuiltinCase[] = [
    { note: "missing request keys", args: [obj({}), config(), TIME], error: { code: "eval_type_error", message: 'operand 1 missing required request parameters(s): {"method", "url"}' } },
    { note: "request key types", args: [obj({ method: new RegoSet(), url: new RegoSet() }), config(), TIME], error: { code: "eval_type_error", message: 'operand 1 invalid values for required request parameters(s): {"method", "url"}' } },
    { note: "unknown request key", args: [obj({ method: "get", url: "x", foo: 1 }), config(), TIME], error: { code: "eval_type_error", message: 'operand 1 invalid request parameters(s): {"foo"}' } },
    { note: "missing config keys", args: [obj({ method: "get", url: "x" }), obj({ example: "example" }), TIME], error: { code: "eval_type_error", message: 'operand 2 missing required AWS config parameters(s): {"aws_access_key", "aws_region", "aws_secret_access_key", "aws_service"}' } },
    { note: "config value types", args: [obj({ method: "get", url: "x" }), obj({ aws_access_key: 1, aws_secret_access_key: "s", aws_service: "s3", aws_region: 5 }), TIME], error: { code: "eval_type_error", message: 'operand 2 invalid values for required AWS config parameters(s): {"aws_access_key", "aws_region"}' } },
    { note: "disable_payload_signing type", args: [obj({ method: "get", url: "x" }), config({ disable_payload_signing: "false" }), TIME], error: { code: "eval_type_error", message: "operand 2 invalid value for 'disable_payload_signing' in AWS config" } },
    { note: "fractional time", args: [obj({ method: "get", url: "x" }), config(), 1.5], error: { code: "eval_type_error", message: "operand 3 could not convert time_ns value into a unix timestamp" } },
    { note: "time beyond int64", args: [obj({ method: "get", url: "x" }), config(), numberFromText("1e19")!], error: { code: "eval_type_error", message: "operand 3 could not convert time_ns value into a unix timestamp" } },
    { note: "headers type (OPA reports operand 0)", args: [obj({ method: "get", url: "x", headers: "h" }), config(), TIME], error: { code: "eval_type_error", message: "operand 0 must be object but got string" } },
    { note: "request type", args: ["r", config(), TIME], error: { code: "eval_type_error", message: "operand 1 must be object but got string" } },
  ];
  runCases("providers.aws.sign_req", cases);
});
