// One bundle download: `GET <service url>/<resource>` with If-None-Match, the bearer header and
// the service's headers. 200 → the body (at most maxBytes, streamed, so an endless body cannot
// fill memory); 304 → not modified; anything else → bundle_error with the status.
// `agent: false`: one connection per request, closed after it, so stop() leaves no socket behind.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { RegoError } from "../errors.js";
import type { BundleSourceConfig } from "./config.js";

export type DownloadResult = { modified: true; body: Buffer; etag: string | undefined } | { modified: false };

export interface DownloadOptions {
  /** The ETag of the active bundle: sent as If-None-Match. */
  etag?: string | undefined;
  /** Largest accepted body in bytes (the compressed archive). */
  maxBytes: number;
  /** Aborts the request (stop()). */
  signal: AbortSignal;
}

export async function download(config: BundleSourceConfig, options: DownloadOptions): Promise<DownloadResult> {
  const url = new URL(`${config.service.url}/${config.resource}`);
  const headers: Record<string, string> = { ...config.service.headers, Accept: "application/gzip, application/octet-stream" };
  if (config.service.bearer) headers["Authorization"] = `${config.service.bearer.scheme} ${config.service.bearer.token}`;
  if (options.etag !== undefined) headers["If-None-Match"] = options.etag;
  // A timer held here and cleared at the end (not AbortSignal.timeout, which Node 20 may garbage
  // collect inside AbortSignal.any before it fires): headers and body both end by the deadline.
  const controller = new AbortController();
  const signal = controller.signal;
  const stop = (): void => controller.abort();
  options.signal.addEventListener("abort", stop);
  if (options.signal.aborted) stop();
  const timer = setTimeout(stop, config.service.timeoutSeconds * 1000);
  try {
    const res = await get(url, headers, signal);
    if (res.statusCode === 304) {
      res.resume();
      return { modified: false };
    }
    if (res.statusCode !== 200) {
      res.resume();
      throw new RegoError("bundle_error", `bundle ${config.name}: ${url.href}: server replied with HTTP ${res.statusCode} ${res.statusMessage ?? ""}`.trimEnd(), undefined, {
        details: { status: res.statusCode },
      });
    }
    const body = await readBody(res, options.maxBytes, config.name, signal);
    const etag = res.headers.etag;
    return { modified: true, body, etag: typeof etag === "string" && etag !== "" ? etag : undefined };
  } catch (e) {
    if (e instanceof RegoError) throw e;
    const why = options.signal.aborted ? "stopped" : signal.aborted ? `timed out after ${config.service.timeoutSeconds} s` : (e as Error).message;
    throw new RegoError("bundle_error", `bundle ${config.name}: download of ${url.href} failed: ${why}`, undefined, { cause: e });
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", stop);
  }
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
        reject(new RegoError("bundle_error", `bundle ${name}: archive larger than the limit of ${maxBytes} bytes`));
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
