// One bundle download: `GET <service url>/<resource>` with If-None-Match, the bearer header and
// the service's headers. 200 → the body (at most maxBytes, streamed, so an endless body cannot
// fill memory); 304 → not modified; anything else → bundle_error with the status.
// Redirects are followed as Go's HTTP client (OPA's) does: at most 10, the credential headers
// (Authorization, WWW-Authenticate, Cookie, Cookie2) kept only for the same host or a subdomain of
// it, and, unlike Go, never sent over plain http after an https URL. With long polling configured the request
// carries `Prefer: modes=snapshot;wait=N` and may take N seconds more; a server that answers with
// OPA's bundle content type supports it, and the client polls again at once.
// `agent: false`: one connection per request, closed after it, so close() leaves no socket behind.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { RegoError } from "../errors.js";
import { MAX_TIMER_SECONDS, type BundleSourceConfig } from "./config.js";
import { archiveTooLargeError, httpStatusError, requestFailedError, requestFailure } from "./errors.js";

/** `longPoll`: the server answered with OPA's bundle content type, so it holds requests until a change. */
export type DownloadResult = ({ modified: true; body: Buffer; etag: string | undefined } | { modified: false }) & { longPoll: boolean };

/** The Content-Type of a server that supports long polling. */
export const LONG_POLL_CONTENT_TYPE = "application/vnd.openpolicyagent.bundles";

const MAX_REDIRECTS = 10;

export interface DownloadOptions {
  /** The ETag of the active bundle: sent as If-None-Match. */
  etag?: string | undefined;
  /** Largest accepted body in bytes (the compressed archive). */
  maxBytes: number;
  /** Aborts the request (close()). */
  signal: AbortSignal;
}

export async function download(config: BundleSourceConfig, options: DownloadOptions): Promise<DownloadResult> {
  const url = new URL(`${config.service.url}/${config.resource}`);
  const shown = redacted(url);
  const headers: Record<string, string> = { ...config.service.headers, Accept: "application/gzip, application/octet-stream" };
  if (config.service.bearer) headers["Authorization"] = `${config.service.bearer.scheme} ${config.service.bearer.token}`;
  if (options.etag !== undefined) headers["If-None-Match"] = options.etag;
  const wait = config.polling.longPollingTimeoutSeconds;
  if (wait !== undefined) headers["Prefer"] = `modes=snapshot;wait=${wait}`;
  // A timer held here and cleared at the end (not AbortSignal.timeout, which Node 20 may garbage
  // collect inside AbortSignal.any before it fires): headers and body both end by the deadline.
  const controller = new AbortController();
  const signal = controller.signal;
  const stop = (): void => controller.abort();
  options.signal.addEventListener("abort", stop);
  if (options.signal.aborted) stop();
  const timeoutSeconds = config.service.timeoutSeconds + (wait ?? 0);
  const timer = setTimeout(stop, Math.min(timeoutSeconds, MAX_TIMER_SECONDS) * 1000);
  try {
    const res = await follow(url, headers, signal);
    const longPoll = wait !== undefined && (res.headers["content-type"] ?? "").split(";")[0]!.trim() === LONG_POLL_CONTENT_TYPE;
    if (res.statusCode === 304) {
      res.resume();
      return { modified: false, longPoll };
    }
    if (res.statusCode !== 200) {
      res.resume();
      throw httpStatusError("bundle_error", `bundle ${config.name}: ${shown}`, res.statusCode, res.statusMessage);
    }
    const body = await readBody(res, options.maxBytes, config.name, signal);
    const etag = res.headers.etag;
    return { modified: true, body, etag: typeof etag === "string" && etag !== "" ? etag : undefined, longPoll };
  } catch (e) {
    if (e instanceof RegoError) throw e;
    const why = requestFailure(options.signal.aborted, signal.aborted, timeoutSeconds, e);
    throw requestFailedError("bundle_error", `bundle ${config.name}: download of ${shown}`, why, e);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", stop);
  }
}

/** The URL as errors show it: a password in it replaced, as Go's URL.Redacted does (errors reach
 * logs and status). */
function redacted(url: URL): string {
  if (url.password === "") return url.href;
  const copy = new URL(url.href);
  copy.password = "xxxxx";
  return copy.href;
}

/** GET with redirects followed; the credential headers go only where redirectHeaders allows. */
async function follow(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const res = await get(current, headers, signal);
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(res.statusCode ?? 0) || location === undefined) return res;
    res.resume();
    if (hops === MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, current);
    if (next.protocol !== "http:" && next.protocol !== "https:") throw new Error(`redirect to ${next.protocol} URL refused`);
    headers = redirectHeaders(url, current, next, headers);
    current = next;
  }
}

/** Headers that carry credentials, which a redirect may take only to the first URL's host (or a
 * subdomain of it), as Go's client decides. */
const CREDENTIAL_HEADERS = ["authorization", "www-authenticate", "cookie", "cookie2"];

/** The headers of a redirect from `from` (first requested as `initial`) to `to`: without the
 * credential headers when `to` is another host, or plain http after https. */
export function redirectHeaders(initial: URL, from: URL, to: URL, headers: Record<string, string>): Record<string, string> {
  const sameHost = to.hostname === initial.hostname || to.hostname.endsWith(`.${initial.hostname}`);
  const downgrade = to.protocol === "http:" && (from.protocol === "https:" || initial.protocol === "https:");
  if (sameHost && !downgrade) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase())));
}

function get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers, signal, agent: false }, resolve);
    req.on("error", reject);
    req.end();
  });
}

function readBody(res: IncomingMessage, maxBytes: number, name: string, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      reject(new Error("aborted"));
      res.destroy();
    };
    if (signal.aborted) return aborted();
    signal.addEventListener("abort", aborted, { once: true });
    res.on("close", () => signal.removeEventListener("abort", aborted));
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        // Reject before destroying: destroy() emits "aborted" at once, which would reject first.
        reject(archiveTooLargeError(name, maxBytes));
        res.destroy();
        return;
      }
      chunks.push(c);
    });
    res.on("end", () => resolve(Buffer.concat(chunks)));
    res.on("error", reject);
    res.on("aborted", () => reject(new Error("connection closed before the end of the body")));
  });
}
