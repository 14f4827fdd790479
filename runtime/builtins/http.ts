// Builtins of OPA's "http" category: http.send (async).
//
// The request object takes OPA's keys (method, url, headers, body | raw_body, enable_redirect,
// force_json_decode, force_yaml_decode, timeout, raise_error, cache, force_cache,
// force_cache_duration_seconds, caching_mode, max_retry_attempts, cache_ignored_headers and the
// tls_* options); the response is {status, status_code, headers, body, raw_body}. With
// raise_error: false, failures become {status_code: 0, error: {code, message}} with OPA's codes
// eval_http_send_network_error / eval_http_send_internal_error. Caching: http/cache.ts; the wire:
// http/transport.ts. Not supported: OPA's capabilities allow_net and distributed tracing.
import { RegoError } from "../errors.js";
import { canonicalKey } from "../value/key.js";
import { objectEntries, objectGet, type ObjectValue } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import { isNumber } from "../value/number.js";
import { newPlainObject, setOwn, typeName, type PlainObject, type Value } from "../value/value.js";
import { builtinError, obj } from "./args.js";
import type { EvalContext } from "./context.js";
import { parseDuration } from "./time/duration.js";
import { CACHEABLE, canStore, expiry, interDelete, interGet, interPut, intraKey } from "./http/cache.js";
import { decodeBody, loadTls, RequestError, validateRequestKeys } from "./http/request.js";
import { exchange, NetworkError, type WireRequest, type WireResponse } from "./http/transport.js";
import { marshal } from "./go/json.js";
import { OPA_COMPAT_VERSION } from "./opa.js";
import type { BuiltinTable } from "./registry.js";
import { fromUtf8, quote as goQuote, utf8 } from "./go/strconv.js";
import { termString } from "./termString.js";

const STRING_KEYS = new Set([
  "method", "url", "raw_body", "tls_ca_cert", "tls_ca_cert_file", "tls_ca_cert_env_variable", "tls_client_cert",
  "tls_client_cert_file", "tls_client_cert_env_variable", "tls_client_key", "tls_client_key_file",
  "tls_client_key_env_variable", "tls_server_name",
]);

const NETWORK_ERR = "eval_http_send_network_error";
const INTERNAL_ERR = "eval_http_send_internal_error";

function defaultTimeoutNs(): bigint {
  const env = typeof process === "object" && process !== null ? process.env["HTTP_SEND_TIMEOUT"] : undefined;
  return env ? parseDuration(env) : 5_000_000_000n;
}

const get = (req: ObjectValue, key: string): Value | undefined => objectGet(req, key);

function boolField(req: ObjectValue, key: string): boolean {
  const v = get(req, key);
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw new RequestError(`invalid value for ${goQuote(key)} field`);
  return v;
}

/** Go's strconv.ParseBool over the term's text (so 1 and true are true, "true" is an error). */
function parseBoolTerm(v: Value): boolean {
  const text = termString(v);
  if (["1", "t", "T", "TRUE", "true", "True"].includes(text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(text)) return false;
  throw new RequestError(`strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`);
}

function parseTimeout(v: Value): number {
  if (isNumber(v)) {
    const n = Number(termString(v));
    if (!Number.isInteger(n)) throw new RequestError(`invalid timeout number value ${termString(v)}, must be int64`);
    return n / 1e6;
  }
  if (typeof v === "string") {
    if (/^[+-]?\d+$/.test(v)) return Number(v) / 1e6;
    try {
      return Number(parseDuration(v)) / 1e6;
    } catch (e) {
      throw new RequestError(`invalid timeout value ${goQuote(v)}: ${(e as Error).message}`);
    }
  }
  throw new RequestError(`operand 1 'timeout' must be one of {string, number} but got ${typeName(v)}`, "eval_type_error");
}

/** The cache key: the request without the ignored headers (and without the ignore list). */
function cacheKey(req: ObjectValue): string {
  const key = newPlainObject();
  for (const [k, v] of objectEntries(req)) setOwn(key, k as string, v);
  const ignored = get(req, "cache_ignored_headers");
  const headers = get(req, "headers");
  if (ignored !== undefined && ignored !== null && headers !== undefined) {
    if (!Array.isArray(ignored) || ignored.some((h) => typeof h !== "string")) throw new RequestError("cache_ignored_headers must be an array of strings");
    const kept = newPlainObject();
    for (const [k, v] of objectEntries(obj(headers, 1))) if (!ignored.includes(k)) setOwn(kept, k as string, v);
    setOwn(key, "headers", kept);
  }
  setOwn(key, "cache_ignored_headers", null);
  return canonicalKey(key);
}

async function buildRequest(req: ObjectValue): Promise<WireRequest> {
  let method = "";
  let url = "";
  let body: Uint8Array | undefined;
  let rawBody: Uint8Array | undefined;
  let followRedirects = false;
  let timeoutMs = Number(defaultTimeoutNs()) / 1e6;
  const headers: Array<[string, string]> = [];
  const tlsParams = new Map<string, Value>();
  for (const [k, v] of objectEntries(req)) {
    const key = k as string;
    let s = "";
    if (typeof v === "string") s = v.replace(/^"+|"+$/g, "");
    else if (STRING_KEYS.has(key)) throw new RequestError(`${goQuote(key)} must be a string`);
    switch (key) {
      case "method":
        method = s.toUpperCase();
        break;
      case "url":
        url = s;
        break;
      case "enable_redirect":
        followRedirects = parseBoolTerm(v);
        break;
      case "body":
        body = utf8(marshal(v));
        break;
      case "raw_body":
        rawBody = utf8(s);
        break;
      case "headers": {
        if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof RegoSet) throw new RequestError("invalid type for headers key");
        for (const [hk, hv] of objectEntries(v as ObjectValue)) {
          if (typeof hv !== "string") throw new RequestError(`invalid type for headers value ${termString(hv)}`);
          headers.push([String(hk), hv]);
        }
        break;
      }
      case "timeout":
        timeoutMs = parseTimeout(v);
        break;
      default:
        if (key.startsWith("tls_")) tlsParams.set(key, v);
    }
  }
  const hostHeader = headers.find(([h]) => h.toLowerCase() === "host")?.[1];
  if (!headers.some(([h]) => h.toLowerCase() === "user-agent")) headers.push(["User-Agent", `Open Policy Agent/${OPA_COMPAT_VERSION} (regoc)`]);
  const tls = await loadTls(tlsParams, hostHeader, parseBoolTerm);
  let socketPath: string | undefined;
  const unix = /^unix:\/\/([^/?#]*)([^?#]*)\?(.*)$/.exec(url);
  if (unix) {
    const query = new URLSearchParams(unix[3]);
    socketPath = query.get("socket") ?? undefined;
    query.delete("socket");
    const rest = query.toString();
    url = `http://${unix[1]}${unix[2]}${rest ? `?${rest}` : ""}`;
  }
  return { method, url, headers, body: rawBody ?? body ?? new Uint8Array(), timeoutMs, followRedirects, tls, socketPath };
}

function retryAttempts(req: ObjectValue): number {
  const v = get(req, "max_retry_attempts");
  if (v === undefined) return 0;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new RequestError(`invalid value ${termString(v)} for field "max_retry_attempts"`);
  return v;
}

async function execute(ctx: EvalContext, wire: WireRequest, retries: number): Promise<WireResponse> {
  for (let i = 0; ; i++) {
    try {
      return await exchange(wire);
    } catch (e) {
      if (i >= retries) throw e;
      // OPA's backoff: 100 milliseconds growing by 1.6 per attempt up to 60s, with ±20% jitter.
      const delay = i === 0 ? 0 : Math.min(100 * 1.6 ** i, 60_000) * (1 + 0.2 * (ctx.random() * 2 - 1));
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

function toValue(res: WireResponse, forceJson: boolean, forceYaml: boolean): PlainObject {
  const out = newPlainObject();
  const headers = newPlainObject();
  for (const [name, values] of res.headers) setOwn(headers, name, values);
  setOwn(out, "status", res.status);
  setOwn(out, "status_code", res.statusCode);
  setOwn(out, "body", decodeBody(res, forceJson, forceYaml));
  setOwn(out, "raw_body", fromUtf8(res.body));
  setOwn(out, "headers", headers);
  return out;
}

function cacheOptions(req: ObjectValue): { inter: boolean; forceSeconds: number | undefined } {
  const cache = boolField(req, "cache");
  if (!boolField(req, "force_cache")) return { inter: cache, forceSeconds: undefined };
  const d = get(req, "force_cache_duration_seconds");
  if (d === undefined) throw new RequestError("'force_cache' set but 'force_cache_duration_seconds' parameter is missing");
  const text = termString(d);
  if (!/^[+-]?\d+$/.test(text) || Math.abs(Number(text)) > 2 ** 31 - 1) throw new RequestError(`strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax`);
  return { inter: true, forceSeconds: Number(text) };
}

function checkCachingMode(req: ObjectValue): void {
  const v = get(req, "caching_mode");
  if (v === undefined) return;
  if (typeof v !== "string") throw new RequestError('invalid value for "caching_mode" field');
  if (v !== "serialized" && v !== "deserialized") throw new RequestError(`invalid value specified for "caching_mode" field: ${v}`);
}

async function respond(ctx: EvalContext, req: ObjectValue): Promise<Value> {
  const key = cacheKey(req);
  const intra = ctx.builtinCache;
  const hit = intra.get(intraKey(key));
  if (hit) {
    if ("error" in hit) throw hit.error;
    return hit.value!;
  }
  const { inter, forceSeconds } = cacheOptions(req);
  const forceJson = boolField(req, "force_json_decode");
  const forceYaml = boolField(req, "force_yaml_decode");
  const retries = retryAttempts(req);
  const remember = (res: WireResponse): Value => {
    const value = toValue(res, forceJson, forceYaml);
    if (inter || CACHEABLE.has(res.statusCode)) intra.set(intraKey(key), { value });
    if (inter && CACHEABLE.has(res.statusCode) && (forceSeconds !== undefined || canStore(res))) {
      try {
        checkCachingMode(req);
        interPut(key, { response: res, expiresAt: expiry(res, forceSeconds, ctx.now()) });
      } catch {
        // as in OPA, a response that cannot be cached is still returned
      }
    }
    return value;
  };
  try {
    if (inter) {
      const cached = interGet(key);
      if (cached && ctx.now() < cached.expiresAt) return remember(cached.response);
      if (cached) {
        interDelete(key);
        const etag = cached.response.headers.get("etag")?.[0];
        const modified = cached.response.headers.get("last-modified")?.[0];
        if (etag !== undefined || modified !== undefined) {
          const wire = await buildRequest(req);
          if (etag !== undefined) wire.headers.push(["If-None-Match", etag]);
          if (modified !== undefined) wire.headers.push(["If-Modified-Since", modified]);
          const res = await execute(ctx, wire, retries);
          if (res.statusCode === 200) return remember(res);
          if (res.statusCode === 304) {
            const headers = new Map(cached.response.headers);
            for (const [k, v] of res.headers) headers.set(k, v);
            return remember({ ...cached.response, headers });
          }
        }
      }
    }
    return remember(await execute(ctx, await buildRequest(req), retries));
  } catch (e) {
    intra.set(intraKey(key), { error: e });
    throw e;
  }
}

function errorResult(code: string, message: string): PlainObject {
  const err = newPlainObject();
  setOwn(err, "code", code);
  setOwn(err, "message", message);
  const out = newPlainObject();
  setOwn(out, "status_code", 0);
  setOwn(out, "error", err);
  return out;
}

/** The error http.send raises (raise_error true). */
function raised(e: unknown): unknown {
  if (e instanceof RequestError) return new RegoError(e.code, e.message);
  if (e instanceof NetworkError) return builtinError(e.timeout ? `${e.op} ${e.url}: request timed out` : e.message);
  return e;
}

/** The error object http.send returns (raise_error false). */
function quietError(e: unknown): PlainObject {
  if (e instanceof NetworkError) return errorResult(NETWORK_ERR, e.message);
  if (e instanceof RequestError || e instanceof RegoError) return errorResult(INTERNAL_ERR, `${e.code}: http.send: ${e.message}`);
  return errorResult(INTERNAL_ERR, e instanceof Error ? e.message : String(e));
}

async function httpSend(ctx: EvalContext, arg: Value): Promise<Value> {
  const req = obj(arg, 1);
  const raise = get(req, "raise_error");
  if (raise !== undefined && typeof raise !== "boolean") throw builtinError("invalid value for raise_error field");
  const raiseError = raise !== false;
  try {
    validateRequestKeys(req);
  } catch (e) {
    if (raiseError) throw e;
    return quietError(e);
  }
  try {
    return await respond(ctx, req);
  } catch (e) {
    if (raiseError) throw raised(e);
    return quietError(e);
  }
}

export const httpBuiltins: BuiltinTable = {
  "http.send": { fn: (ctx, req) => httpSend(ctx, req), async: true },
};
