// Builtins of OPA's "providers" category: providers.aws.sign_req, AWS Signature Version 4 as OPA
// computes it (canonical request over the request's headers plus host/x-amz-date/
// x-amz-content-sha256/x-amz-security-token), with OPA's argument checks and messages.
import { nodeCrypto } from "./node.js";
import { INT64_MAX, INT64_MIN, builtinError, num, obj, operandError, operandTypeError } from "./args.js";
import { isInteger, toBigInt } from "../value/number.js";
import { isObject, makeObject, objectEntries, objectGet, objectInsert, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../value/value.js";
import type { BuiltinTable } from "./registry.js";
import { marshal } from "./go/json.js";
import { validateRequestKeys } from "./http/request.js";
import { termString } from "./termString.js";
import { parseGoURL } from "./crypto/pkix.js";

const REQUIRED_CONFIG = ["aws_access_key", "aws_region", "aws_secret_access_key", "aws_service"];

/** Headers a proxy may change; they stay out of the signature. */
const IGNORED_HEADERS = new Set(["authorization", "user-agent", "x-amzn-trace-id"]);

/** A Rego set of values as OPA prints it in messages: {"a", "b"}. */
const setText = (vs: Value[]): string => termString(new RegoSet(vs));

const stringOf = (v: Value | undefined): string => (typeof v === "string" ? v : "");

function validateConfig(cfg: ObjectValue): void {
  const missing = REQUIRED_CONFIG.filter((k) => objectGet(cfg, k) === undefined);
  if (missing.length > 0) throw operandError(2, `missing required AWS config parameters(s): ${setText(missing)}`);
  const invalid = REQUIRED_CONFIG.filter((k) => typeof objectGet(cfg, k) !== "string");
  if (invalid.length > 0) throw operandError(2, `invalid values for required AWS config parameters(s): ${setText(invalid)}`);
}

/** Go's url.URL.EscapedPath for a path without a distinct raw form. */
function escapedPath(path: string, rawPath: string): string {
  if (rawPath !== "") return rawPath;
  return Array.from(Buffer.from(path, "utf8"))
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

const sha256Hex = (data: Buffer | string): string => nodeCrypto().createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, msg: string): Buffer => nodeCrypto().createHmac("sha256", key).update(msg, "utf8").digest();

/** "20060102T150405Z" and "20060102" of a time in ns since the epoch (UTC). */
function amzDates(ns: bigint): [string, string] {
  let ms = ns / 1_000_000n;
  if (ns < 0n && ms * 1_000_000n !== ns) ms -= 1n;
  const iso = new Date(Number(ms)).toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return [stamp, stamp.slice(0, 8)];
}

interface SignInput {
  headers: Map<string, string>;
  method: string;
  host: string;
  path: string;
  query: string;
  body: Buffer;
  service: string;
  region: string;
  accessKey: string;
  secretKey: string;
  sessionToken: string;
  timeNs: bigint;
  disablePayloadSigning: boolean;
}

/** AWS SigV4; returns the Authorization header and the AWS headers to add. */
function signV4(s: SignInput): [string, Map<string, string>] {
  const payloadHash = s.disablePayloadSigning ? "UNSIGNED-PAYLOAD" : sha256Hex(s.body);
  const [amzDate, day] = amzDates(s.timeNs);
  const awsHeaders = new Map<string, string>([
    ["host", s.host],
    ["x-amz-date", amzDate],
  ]);
  if (s.service === "s3" || s.service === "glacier") awsHeaders.set("x-amz-content-sha256", payloadHash);
  if (s.sessionToken !== "") awsHeaders.set("x-amz-security-token", s.sessionToken);
  const toSign = new Map(awsHeaders);
  for (const [k, v] of s.headers) {
    const lower = k.toLowerCase();
    if (!IGNORED_HEADERS.has(lower)) toSign.set(lower, v);
  }
  const names = [...toSign.keys()].sort();
  const signedHeaders = names.join(";");
  const canonical = [s.method, s.path, s.query, ...names.map((n) => `${n}:${toSign.get(n)}`), "", signedHeaders, payloadHash].join("\n");
  const scope = `${day}/${s.region}/${s.service}/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256Hex(canonical)}`;
  let key = hmac(`AWS4${s.secretKey}`, day);
  for (const part of [s.region, s.service, "aws4_request"]) key = hmac(key, part);
  const signature = hmac(key, stringToSign).toString("hex");
  const auth = `AWS4-HMAC-SHA256 Credential=${s.accessKey}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
  return [auth, awsHeaders];
}

function signReq(reqV: Value, cfgV: Value, timeV: Value): Value {
  const req = obj(reqV, 1);
  // OPA checks the config and the time as "operand 1" too.
  const cfg = obj(cfgV, 1);
  validateConfig(cfg);
  const t = num(timeV, 1);
  const ns = isInteger(t) ? toBigInt(t) : undefined;
  if (ns === undefined || ns < INT64_MIN || ns > INT64_MAX) throw operandError(3, "could not convert time_ns value into a unix timestamp");
  validateRequestKeys(req); // OPA checks the request as http.send does
  const url = objectGet(req, "url")!;
  const method = objectGet(req, "method")!;
  const headersV = objectGet(req, "headers");
  if (headersV !== undefined && !isObject(headersV)) throw operandTypeError(0, headersV, "object");
  const invalid: Value[] = [];
  if (typeof url !== "string") invalid.push("url");
  if (typeof method !== "string") invalid.push("method");
  if (invalid.length > 0) throw operandError(1, `invalid values for required request parameters(s): ${setText(invalid)}`);
  const u = parseGoURL(url as string, (reason) => builtinError(`parse ${JSON.stringify(url)}: ${reason}`));
  const rawBody = objectGet(req, "raw_body");
  const body = objectGet(req, "body");
  const bodyBytes = rawBody !== undefined ? Buffer.from(stringOf(rawBody), "utf8") : body !== undefined ? Buffer.from(marshal(body), "utf8") : Buffer.alloc(0);
  const headers = new Map<string, string>();
  if (headersV !== undefined) for (const [k, v] of objectEntries(headersV as ObjectValue)) headers.set(stringOf(k), stringOf(v));
  let disablePayloadSigning = false;
  const dps = objectGet(cfg, "disable_payload_signing");
  if (dps !== undefined) {
    if (typeof dps !== "boolean") throw operandError(2, "invalid value for 'disable_payload_signing' in AWS config");
    disablePayloadSigning = dps;
  }
  const [auth, awsHeaders] = signV4({
    headers,
    method: method as string,
    host: u.Host as string,
    path: escapedPath(u.Path as string, u.RawPath as string),
    query: u.RawQuery as string,
    body: bodyBytes,
    service: stringOf(objectGet(cfg, "aws_service")),
    region: stringOf(objectGet(cfg, "aws_region")),
    accessKey: stringOf(objectGet(cfg, "aws_access_key")),
    secretKey: stringOf(objectGet(cfg, "aws_secret_access_key")),
    sessionToken: stringOf(objectGet(cfg, "aws_session_token")),
    timeNs: ns,
    disablePayloadSigning,
  });
  const signed: PlainObject = newPlainObject();
  for (const [k, v] of headers) setOwn(signed, k, v);
  setOwn(signed, "Authorization", auth);
  for (const [k, v] of awsHeaders) setOwn(signed, k, v);
  return objectInsert(makeObject(objectEntries(req)), "headers", signed);
}

export const providersBuiltins: BuiltinTable = {
  "providers.aws.sign_req": { fn: (_ctx, req, cfg, time) => signReq(req, cfg, time) },
};
