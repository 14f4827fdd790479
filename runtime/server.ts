// OPA's REST API over an Engine or a bundle client (exported as `regoc/server`), so that OPA's
// clients work against a regoc process unchanged:
//   GET  /v1/data/{path}?input=<json>   POST /v1/data/{path} {"input": ...}   → {"result": ...} ({} when undefined)
//   POST /                               the body is the input of the default decision → its value (404 when undefined)
//   POST|GET /v1/compile/{path}          data filters (engine.compileFilter), target by the Accept header
//   GET  /health, /health/{path}         200 {} / 500 {"error": ...}
// Errors are OPA's bodies ({code, message, errors?}) with OPA's statuses: 400 invalid_parameter for
// a malformed or too large body, 500 internal_error for an evaluation error. The handler is a plain
// (req, res, next) function over Node's request and response: mount it in Express
// (`app.use(opaRouter({ engine }))`, before any body parser) or call it from node:http; a request
// it does not serve goes to next(). It imports nothing from Express.
import type { IncomingMessage, ServerResponse } from "node:http";
import { gunzip } from "node:zlib";
import type { CompileFilterOptions } from "../compiler/filter/compile.js";
import type { CompileFilterResponse, Mappings } from "../compiler/filter/index.js";
import { RegoError, RegoErrors } from "./errors.js";
import { fromJSONText, writeJSON } from "./value/json.js";
import { isPlainObject, type Value } from "./value/value.js";

/** OPA's default `server.decoding.max_length`: larger bodies are refused before they are read. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;

/** What answers data queries: an Engine (`evaluate`), optionally with data filters (`compileFilter`). */
export interface QueryEngine {
  evaluate(query: string, input?: unknown): Promise<{ expressions: { value: unknown }[] }[]>;
  compileFilter?(path: string, options: CompileFilterOptions): Promise<CompileFilterResponse>;
}

/** What answers decisions by path: a BundleClient. */
export interface DecisionClient {
  decide(request: { path: string; input?: unknown }): Promise<{ result?: unknown }>;
  status(): { revision?: string | undefined; lastSuccessfulActivation?: unknown };
}

export type { CompileFilterOptions, CompileFilterResponse };

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface OpaRouterOptions {
  /** An Engine (or anything with `evaluate(query, input)`). One of engine/bundle is required. */
  engine?: QueryEngine;
  /** A bundle client: decisions by path ("pkg/rule" paths only). */
  bundle?: DecisionClient;
  /** The largest request body read, in bytes (OPA's `server.decoding.max_length`); default 256 MiB. */
  maxBodyBytes?: number;
  /** The largest body a gzip request decompresses to (OPA's `server.decoding.gzip.max_length`);
   * default twice maxBodyBytes. */
  maxGzipBytes?: number;
  /** The decision `POST /` answers (OPA's `default_decision`); default "system/main". */
  defaultDecision?: string;
  /** Where request and error lines go; default nowhere. Never receives inputs or results. */
  log?: (level: LogLevel, message: string, fields: Record<string, unknown>) => void;
}

/** Node's request; `body` is read when an Express body parser has consumed the stream already. */
export type RouterRequest = IncomingMessage & { body?: unknown };
export type RouterNext = (err?: unknown) => void;

/** An OPA error response: its HTTP status and body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: unknown[],
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return this.errors && this.errors.length > 0 ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}

// OPA's codes and messages (v1/server/types).
const INVALID_PARAMETER = "invalid_parameter";
const INTERNAL = "internal_error";
const EVALUATION = "evaluation_error";
const UNDEFINED_DOCUMENT = "undefined_document";
const MSG_EVALUATION = "error(s) occurred while evaluating query";
const MSG_TOO_LARGE = "request body too large";
const MSG_GZIP_TOO_LARGE = "compressed request body too large";

export function opaRouter(options: OpaRouterOptions) {
  const { engine, bundle } = options;
  if (!engine && !bundle) throw new TypeError("opaRouter(): pass `engine` or `bundle`");
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxGzip = options.maxGzipBytes ?? 2 * maxBody;
  if (!(maxBody > 0) || !(maxGzip > 0)) throw new TypeError("opaRouter(): body limits must be positive numbers");
  const defaultDecision = splitPath(options.defaultDecision ?? "system/main");
  const log = options.log;

  /** The body's JSON value; undefined for an empty body. */
  async function readInput(req: RouterRequest, malformed: string): Promise<Value | undefined> {
    const body = await readBody(req, maxBody, maxGzip);
    if (body.kind === "parsed") return checkDepth(body.value, malformed) as Value;
    return body.text.trim() === "" ? undefined : parseJSON(body.text, malformed);
  }

  /** The body as a request object (`{input, ...}`); an empty body or `null` is `{}`. */
  async function readRequest(req: RouterRequest, malformed: string): Promise<Record<string, Value>> {
    const request = await readInput(req, malformed);
    if (request === undefined || request === null) return {};
    if (!isPlainObject(request)) throw new ApiError(400, INVALID_PARAMETER, `${malformed}: the request must be a JSON object`);
    return request as Record<string, Value>;
  }

  /** The value of the document at a data path, undefined when it is undefined. */
  async function evaluatePath(segments: string[], input: Value | undefined): Promise<unknown> {
    if (engine) {
      const rows = await engine.evaluate(dataQuery(segments), input);
      return rows.length === 0 ? undefined : rows[0]!.expressions[0]!.value;
    }
    if (segments.length === 0 || !segments.every((s) => IDENT.test(s))) throw new ApiError(400, INVALID_PARAMETER, `invalid path: a bundle decision path is "pkg/rule" with identifier segments`);
    return (await bundle!.decide({ path: segments.join("/"), input })).result;
  }

  async function dataGet(res: ServerResponse, segments: string[], params: URLSearchParams): Promise<void> {
    const started = process.hrtime.bigint();
    const inputs = params.getAll("input");
    let input: Value | undefined;
    if (inputs.length > 0) input = parseJSON(inputs[inputs.length - 1]!, "parameter contains malformed input document");
    const parsed = process.hrtime.bigint();
    const value = await evaluatePath(segments, input);
    const out: Record<string, unknown> = {};
    if (boolParam(params, "metrics") || boolParam(params, "instrument")) out.metrics = metrics(started, parsed);
    if (value !== undefined) out.result = value;
    send(res, 200, out, boolParam(params, "pretty"));
  }

  async function dataPost(req: RouterRequest, res: ServerResponse, segments: string[], params: URLSearchParams): Promise<void> {
    const started = process.hrtime.bigint();
    const request = await readRequest(req, "body contains malformed input document");
    const input = Object.hasOwn(request, "input") ? request["input"] : undefined;
    const parsed = process.hrtime.bigint();
    const value = await evaluatePath(segments, input);
    const out: Record<string, unknown> = {};
    if (boolParam(params, "metrics") || boolParam(params, "instrument")) out.metrics = metrics(started, parsed);
    if (value !== undefined) out.result = value;
    if (input === undefined) out.warning = { code: "api_usage_warning", message: "'input' key missing from the request" };
    send(res, 200, out, boolParam(params, "pretty"));
  }

  /** POST /: the whole body is the input of the default decision, whose value is the answer. */
  async function defaultPost(req: RouterRequest, res: ServerResponse, params: URLSearchParams): Promise<void> {
    const input = await readInput(req, "unexpected parse error for input: body contains malformed input document");
    const value = await evaluatePath(defaultDecision, input);
    if (value === undefined) {
      throw new ApiError(404, UNDEFINED_DOCUMENT, `document missing or undefined: ${refText(defaultDecision)}`);
    }
    send(res, 200, value, boolParam(params, "pretty"));
  }

  async function compile(req: RouterRequest, res: ServerResponse, segments: string[], params: URLSearchParams): Promise<void> {
    if (segments.length === 0) throw new ApiError(400, INVALID_PARAMETER, "missing required 'path' parameter");
    const r = req.method === "GET" ? {} : await readRequest(req, "error(s) occurred while decoding request");
    const opts = isPlainObject(r["options"] as Value) ? (r["options"] as Record<string, unknown>) : {};
    const target = acceptedTarget(req.headers["accept"]);
    const filterOptions: CompileFilterOptions = { target };
    if (Object.hasOwn(r, "input")) filterOptions.input = r["input"];
    if (Array.isArray(r["unknowns"]) && r["unknowns"].length > 0) filterOptions.unknowns = r["unknowns"] as string[];
    if (isPlainObject(opts["targetSQLTableMappings"] as Value)) filterOptions.tableMappings = opts["targetSQLTableMappings"] as Mappings;
    if (typeof opts["maskRule"] === "string" && opts["maskRule"] !== "") filterOptions.maskRule = opts["maskRule"];
    if (Array.isArray(opts["targetDialects"])) filterOptions.targetDialects = opts["targetDialects"] as string[];
    if (Array.isArray(opts["disableInlining"])) filterOptions.disableInlining = opts["disableInlining"] as string[];
    let answer: CompileFilterResponse;
    try {
      answer = await engine!.compileFilter!(segments.join("/"), filterOptions);
    } catch (e) {
      throw compileApiError(e);
    }
    send(res, 200, answer, boolParam(params, "pretty"), target);
  }

  async function health(res: ServerResponse, rest: string[], params: URLSearchParams): Promise<void> {
    if (rest.length > 0) {
      // a health policy: data.system.health.<path> must be true
      const path = ["system", "health", ...rest];
      let value: unknown;
      try {
        value = await evaluatePath(path, { plugin_state: {}, plugins_ready: true } as unknown as Value);
      } catch (e) {
        return send(res, 500, { error: e instanceof Error ? e.message : String(e) }, false);
      }
      if (value === true) return send(res, 200, {}, false);
      const what = value === undefined ? "was undefined" : "returned unexpected value";
      return send(res, 500, { error: `health check (${refText(path)}) ${what}` }, false);
    }
    if (bundle && (boolParam(params, "bundles") || boolParam(params, "bundle") || boolParam(params, "plugins"))) {
      if (bundle.status().lastSuccessfulActivation === undefined) return send(res, 500, { error: "one or more bundles are not activated" }, false);
    }
    send(res, 200, {}, false);
  }

  async function route(req: RouterRequest, res: ServerResponse, next: RouterNext): Promise<void> {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const rawPath = q === -1 ? url : url.slice(0, q);
    const params = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
    const method = req.method ?? "GET";
    const under = (prefix: string) => rawPath === prefix || rawPath.startsWith(prefix + "/");
    if (under("/v1/data")) {
      const segments = pathSegments(rawPath.slice("/v1/data".length));
      if (method === "GET") return dataGet(res, segments, params);
      if (method === "POST") return dataPost(req, res, segments, params);
      return methodNotAllowed(res);
    }
    if (under("/v1/compile") && engine?.compileFilter) {
      const segments = pathSegments(rawPath.slice("/v1/compile".length));
      if (method === "GET" || method === "POST") return compile(req, res, segments, params);
      return methodNotAllowed(res);
    }
    if (under("/health") && method === "GET") return health(res, pathSegments(rawPath.slice("/health".length)), params);
    if (rawPath === "/" && method === "POST") return defaultPost(req, res, params);
    next();
  }

  return function regocOpaRouter(req: RouterRequest, res: ServerResponse, next?: RouterNext): Promise<void> {
    const started = Date.now();
    const fallthrough: RouterNext = next ?? (() => send(res, 404, { code: "resource_not_found", message: "not found" }, false));
    let passed = false;
    return route(req, res, (err?: unknown) => {
      passed = true;
      fallthrough(err);
    })
      .catch((e: unknown) => {
        const error = apiError(e);
        // codes and locations only: an error's message may quote an operand, i.e. the input
        if (error.status >= 500) log?.("error", "Request failed.", { req_method: req.method, req_path: safePath(req.url), code: error.code, errors: errorCodes(error) });
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (!req.complete) discardBody(req, res, maxBody);
        send(res, error.status, error.body(), false);
      })
      .finally(() => {
        if (!passed) log?.("debug", "Sent response.", { req_method: req.method, req_path: safePath(req.url), resp_status: res.statusCode, resp_duration: Date.now() - started });
      });
  };
}

/** An error as OPA's API reports it: evaluation errors are 500 internal_error with the error in `errors`. */
export function apiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof RegoError) {
    if (e.code.startsWith("eval_")) return new ApiError(500, INTERNAL, MSG_EVALUATION, [e.toJSON()]);
    return new ApiError(500, INTERNAL, e.toString(), [e.toJSON()]);
  }
  return new ApiError(500, INTERNAL, e instanceof Error ? e.message : String(e));
}

function errorCodes(error: ApiError): unknown[] {
  return (error.errors ?? []).map((e) => {
    const x = e as { code?: unknown; location?: unknown };
    return x.location === undefined ? { code: x.code } : { code: x.code, location: x.location };
  });
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** "/a/b%2Fc/0" → ["a", "b/c", "0"]: empty segments dropped, each percent-decoded (as OPA splits
 * the escaped path, then unescapes each segment). */
export function pathSegments(raw: string): string[] {
  const out: string[] = [];
  for (const seg of raw.split("/")) {
    if (seg === "") continue;
    let s = seg;
    if (s.includes("%")) {
      try {
        s = decodeURIComponent(s);
      } catch {
        // a malformed escape keeps the segment's text, as Go's PathUnescape failure does
      }
    }
    if (s.includes('"')) throw new ApiError(400, INVALID_PARAMETER, `invalid path: invalid ref term '${s}'`);
    out.push(s);
  }
  return out;
}

function splitPath(p: string): string[] {
  return p.split("/").filter((s) => s !== "");
}

/** The query of a data path: `data["a"]["b"][0]`; a segment that is an integer is a number key, as in OPA. */
export function dataQuery(segments: readonly string[]): string {
  let q = "data";
  for (const s of segments) q += /^[+-]?\d{1,15}$/.test(s) ? `[${Number(s)}]` : `[${JSON.stringify(s)}]`;
  return q;
}

function refText(segments: readonly string[]): string {
  return "data" + segments.map((s) => (IDENT.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("");
}

function parseJSON(text: string, what: string): Value {
  let value: Value;
  try {
    value = fromJSONText(text, "JSON");
  } catch (e) {
    throw new ApiError(400, INVALID_PARAMETER, `${what}: ${(e as Error).message.replace(/^JSON: /, "")}`);
  }
  return checkDepth(value, what);
}

/** Go's JSON decoder (OPA's) refuses documents nested deeper than this. */
export const MAX_JSON_DEPTH = 10_000;

/** The value, when its arrays and objects nest at most MAX_JSON_DEPTH deep; else a 400 as OPA's.
 * A deeper input is no request OPA serves, and walk() over one takes memory quadratic in its depth. */
function checkDepth<T>(value: T, what: string): T {
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop();
    const depth = depths.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw new ApiError(400, INVALID_PARAMETER, `${what}: exceeded max depth`);
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof x === "object" && x !== null) {
        stack.push(x);
        depths.push(depth + 1);
      }
    }
  }
  return value;
}

/** Go's getBoolParam: present without a value, or with a value that is "true" in any case. */
function boolParam(params: URLSearchParams, name: string): boolean {
  const values = params.getAll(name);
  if (values.length === 0) return false;
  if (values.length === 1 && values[0] === "") return true;
  return values.some((v) => v.toLowerCase() === "true");
}

function metrics(started: bigint, parsed: bigint): Record<string, number> {
  const now = process.hrtime.bigint();
  return { timer_rego_input_parse_ns: Number(parsed - started), timer_server_handler_ns: Number(now - started) };
}

/** The media types of OPA's Compile API. */
const COMPILE_TARGETS = [
  "application/vnd.opa.multitarget+json",
  "application/vnd.opa.ucast.all+json",
  "application/vnd.opa.ucast.minimal+json",
  "application/vnd.opa.ucast.prisma+json",
  "application/vnd.opa.ucast.linq+json",
  "application/vnd.opa.sql.postgresql+json",
  "application/vnd.opa.sql.mysql+json",
  "application/vnd.opa.sql.sqlserver+json",
  "application/vnd.opa.sql.sqlite+json",
  "application/json",
];

/** The compile target named by the Accept header, which OPA requires to be exactly one of its
 * media types (no list, no parameters): anything else is a 400. */
export function acceptedTarget(accept: string | undefined): string {
  const fail = (why: string) => new ApiError(400, INVALID_PARAMETER, `Accept header: ${why}`);
  if (accept === undefined || accept === "") throw fail("missing required header");
  if (accept.includes(",")) throw fail("multiple headers not supported");
  if (!COMPILE_TARGETS.includes(accept)) throw fail(`unsupported header: ${accept}`);
  return accept;
}

/** The Compile API's errors (OPA's compile handler): what the filter cannot express and bad
 * unknowns or mask rules are 400 evaluation_error with each error; a policy that does not compile
 * is 400 invalid_parameter; an evaluation error is 500 internal_error. */
export function compileApiError(e: unknown): ApiError {
  if (!(e instanceof RegoError)) return apiError(e);
  const code: string = e.code;
  const errors = (e instanceof RegoErrors ? e.errors : [e]).map((x) => x.toJSON());
  if (code === "invalid_parameter") return new ApiError(400, INVALID_PARAMETER, e.message);
  if (code.startsWith("eval_")) return new ApiError(500, INTERNAL, MSG_EVALUATION, errors);
  if (code.startsWith("rego_")) return new ApiError(400, INVALID_PARAMETER, "error(s) occurred while compiling module(s)", errors);
  return new ApiError(400, EVALUATION, MSG_EVALUATION, errors);
}

type Body = { kind: "text"; text: string } | { kind: "parsed"; value: unknown };

/** The request body as text, read up to the limits; a body an Express parser has read already is
 * taken as it parsed it. */
function readBody(req: RouterRequest, maxBody: number, maxGzip: number): Promise<Body> {
  if (req.readableEnded && req.body !== undefined) {
    const b = req.body;
    if (typeof b === "string") return Promise.resolve({ kind: "text", text: b });
    if (b instanceof Uint8Array) return Promise.resolve({ kind: "text", text: Buffer.from(b).toString("utf8") });
    return Promise.resolve({ kind: "parsed", value: b });
  }
  // A stream read or dropped before the router would never emit "end": the request would hang.
  if (req.readableEnded || req.destroyed) {
    return Promise.reject(new ApiError(500, INTERNAL, "the request body was read before the router and left no req.body (mount the router before any body reader)"));
  }
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBody) return Promise.reject(new ApiError(400, INVALID_PARAMETER, MSG_TOO_LARGE));
  const gzipped = String(req.headers["content-encoding"] ?? "").includes("gzip");
  return new Promise<Body>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (e: ApiError | undefined) => {
      if (done) return;
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (e) {
        reject(e);
        return;
      }
      const raw = Buffer.concat(chunks, size);
      if (!gzipped) return resolve({ kind: "text", text: raw.toString("utf8") });
      gunzip(raw, { maxOutputLength: maxGzip }, (err, out) => {
        if (!err) return resolve({ kind: "text", text: out.toString("utf8") });
        const tooLarge = (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
        reject(new ApiError(400, INVALID_PARAMETER, tooLarge ? MSG_GZIP_TOO_LARGE : "could not decompress the body"));
      });
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > maxBody) return finish(new ApiError(400, INVALID_PARAMETER, MSG_TOO_LARGE));
      chunks.push(c);
    };
    const onEnd = () => finish(undefined);
    const onError = (e: Error) => finish(new ApiError(400, INVALID_PARAMETER, `could not read the body: ${e.message}`));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** Reads and drops the rest of a refused body, so that the client, still sending, gets the answer
 * (a client whose upload is cut off sees a reset, not the error); past another `limit` bytes, or a
 * declared length over twice the limit, the connection is closed instead. */
function discardBody(req: RouterRequest, res: ServerResponse, limit: number): void {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > 2 * limit) {
    res.setHeader("Connection", "close");
    return;
  }
  let dropped = 0;
  req.on("data", (c: Buffer) => {
    dropped += c.length;
    if (dropped > limit) req.socket.destroy();
  });
  req.resume();
}

function send(res: ServerResponse, status: number, body: unknown, pretty: boolean, type = "application/json"): void {
  const text = writeJSON(body as Value, pretty ? { indent: "  " } : {}) + "\n";
  res.statusCode = status;
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

function methodNotAllowed(res: ServerResponse): void {
  res.statusCode = 405;
  res.setHeader("Content-Length", 0);
  res.end();
}

function safePath(path: string | undefined): string {
  const p = (path ?? "").split("?")[0]!;
  return p.length > 200 ? `${p.slice(0, 200)}…` : p;
}
