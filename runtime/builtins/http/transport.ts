// The wire side of http.send: one HTTP exchange with OPA's client behaviour (no redirects unless
// asked, at most 10 when asked, a deadline for the whole exchange, TLS options, unix sockets).
// In Node it uses node:http/node:https (loaded on first use), which take every TLS option;
// elsewhere (browsers) the global fetch, without the TLS and socket options.
import type { IncomingMessage, RequestOptions } from "node:http";
import { nodeModule } from "../node.js";

export interface TlsOptions {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
  timeoutMs: number;
  followRedirects: boolean;
  tls: TlsOptions | undefined;
  /** A unix socket to connect to instead of the URL's host (OPA's unix:// URLs). */
  socketPath: string | undefined;
}

export interface WireResponse {
  statusCode: number;
  status: string;
  /** Header names lower-cased, values in arrival order. */
  headers: Map<string, string[]>;
  body: Uint8Array;
}

/** A transport failure, in Go's *url.Error terms (`Get "http://x": <detail>`). */
export class NetworkError extends Error {
  constructor(
    readonly op: string,
    readonly url: string,
    readonly detail: string,
    readonly timeout = false,
  ) {
    super(`${op} ${JSON.stringify(url)}: ${detail}`);
  }
}

/** Go's url.Error Op for a method: "Get", "Post", ... */
export function opOf(method: string): string {
  return method.slice(0, 1) + method.slice(1).toLowerCase();
}

type NodeModules = { http: typeof import("node:http"); https: typeof import("node:https") };
let nodeModules: Promise<NodeModules | undefined> | undefined;

function loadNode(): Promise<NodeModules | undefined> {
  const isNode = typeof process === "object" && process !== null && typeof process.versions?.node === "string";
  nodeModules ??= isNode
    ? Promise.resolve({ http: nodeModule<NodeModules["http"]>("http"), https: nodeModule<NodeModules["https"]>("https") })
    : Promise.resolve(undefined);
  return nodeModules;
}

const MAX_REDIRECTS = 10;

export async function exchange(req: WireRequest): Promise<WireResponse> {
  const node = await loadNode();
  const deadline = Date.now() + req.timeoutMs;
  let current = req;
  for (let hops = 0; ; hops++) {
    const remaining = req.timeoutMs > 0 ? deadline - Date.now() : 0;
    if (req.timeoutMs > 0 && remaining <= 0) throw new NetworkError(opOf(req.method), req.url, "context deadline exceeded", true);
    const res = node ? await nodeExchange(node, current, remaining) : await fetchExchange(current, remaining);
    const location = res.headers.get("location")?.[0];
    if (!req.followRedirects || ![301, 302, 303, 307, 308].includes(res.statusCode) || location === undefined) return res;
    if (hops + 1 >= MAX_REDIRECTS) throw new NetworkError(opOf(req.method), current.url, `stopped after ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, current.url).href;
    const keepBody = res.statusCode === 307 || res.statusCode === 308;
    const method = keepBody || current.method === "HEAD" ? current.method : "GET";
    const sameHost = new URL(next).host === new URL(current.url).host;
    const headers = current.headers.filter(([k]) => sameHost || !["authorization", "cookie", "www-authenticate"].includes(k.toLowerCase()));
    current = { ...current, url: next, method, headers, body: keepBody ? current.body : new Uint8Array() };
  }
}

function nodeExchange(node: NodeModules, req: WireRequest, timeoutMs: number): Promise<WireResponse> {
  const op = opOf(req.method);
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      reject(new NetworkError(op, req.url, `unsupported protocol scheme ""`));
      return;
    }
    const secure = url.protocol === "https:";
    if (!secure && url.protocol !== "http:") {
      reject(new NetworkError(op, req.url, `unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))}`));
      return;
    }
    const headers: Record<string, string[]> = {};
    for (const [k, v] of req.headers) (headers[k] ??= []).push(v);
    const options: RequestOptions & TlsOptions = { method: req.method, headers, ...(req.tls ?? {}) };
    if (req.socketPath) options.socketPath = req.socketPath;
    if (req.body.length > 0 || !["GET", "HEAD", "DELETE", "OPTIONS"].includes(req.method)) headers["content-length"] = [String(req.body.length)];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const client = (secure ? node.https : node.http).request(url, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (e) => fail(e));
      res.on("end", () => {
        clearTimeout(timer);
        const h = new Map<string, string[]>();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          h.set(name, [...(h.get(name) ?? []), res.rawHeaders[i + 1]!]);
        }
        const code = res.statusCode ?? 0;
        resolve({ statusCode: code, status: `${code} ${res.statusMessage ?? ""}`.trimEnd(), headers: h, body: Buffer.concat(chunks) });
      });
    });
    const fail = (e: Error & { code?: string }, timeout = false) => {
      clearTimeout(timer);
      reject(new NetworkError(op, req.url, timeout ? "context deadline exceeded (Client.Timeout exceeded while awaiting headers)" : networkDetail(e), timeout));
    };
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        fail(new Error("timeout"), true);
        client.destroy();
      }, timeoutMs);
    }
    client.on("error", (e) => fail(e));
    client.end(req.body);
  });
}

/** A Node socket error in words close to Go's ("dial tcp 127.0.0.1:1: connect: connection refused"). */
function networkDetail(e: Error & { code?: string; address?: string; port?: number; hostname?: string }): string {
  const target = e.address !== undefined ? `${e.address}${e.port !== undefined ? `:${e.port}` : ""}` : "";
  switch (e.code) {
    case "ECONNREFUSED":
      return `dial tcp ${target}: connect: connection refused`;
    case "ENOTFOUND":
      return `dial tcp: lookup ${e.hostname ?? ""}: no such host`;
    case "ECONNRESET":
      return "read: connection reset by peer";
    default:
      return e.message;
  }
}

async function fetchExchange(req: WireRequest, timeoutMs: number): Promise<WireResponse> {
  const op = opOf(req.method);
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body.length > 0 ? new Blob([req.body as Uint8Array<ArrayBuffer>]) : undefined,
      redirect: "manual",
      signal: timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined,
    });
  } catch (e) {
    const timeout = (e as Error).name === "TimeoutError";
    throw new NetworkError(op, req.url, timeout ? "context deadline exceeded" : (e as Error).message, timeout);
  }
  const headers = new Map<string, string[]>();
  res.headers.forEach((v, k) => headers.set(k, [v]));
  return { statusCode: res.status, status: `${res.status} ${res.statusText}`.trimEnd(), headers, body: new Uint8Array(await res.arrayBuffer()) };
}
