// POSTs to a service, as OPA's decision log and status plugins send them: the service's headers and
// bearer token, a 2xx answer is success, anything else (or no answer within the service's
// response_header_timeout_seconds) a RegoError. One connection per request (`agent: false`).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { promisify } from "node:util";
import { constants, gzip } from "node:zlib";
import { RegoError, type RegoErrorCode } from "../errors.js";
import type { ServiceConfig } from "./config.js";
import { httpStatusError, requestFailedError, requestFailure } from "./errors.js";

const gzipAsync = promisify(gzip);

/** A gzip JSON array of already-encoded events, compressed on libuv's thread pool (off the event
 * loop) at the fastest level: decision log JSON compresses well at any level. */
export function gzipJSONArray(events: readonly string[]): Promise<Buffer> {
  return gzipAsync(`[${events.join(",")}]`, { level: constants.Z_BEST_SPEED });
}

/** A decision log batch (failures are decision_log_error). */
export function postGzipJSON(service: ServiceConfig, resource: string, body: Buffer, signal: AbortSignal): Promise<void> {
  return post("decision_log_error", service, resource, body, { "Content-Type": "application/json", "Content-Encoding": "gzip" }, signal);
}

/** A status update (failures are status_error). */
export function postJSON(service: ServiceConfig, resource: string, value: unknown, signal: AbortSignal): Promise<void> {
  return post("status_error", service, resource, Buffer.from(JSON.stringify(value)), { "Content-Type": "application/json" }, signal);
}

function post(code: RegoErrorCode, service: ServiceConfig, resource: string, body: Buffer, extra: Record<string, string>, outer: AbortSignal): Promise<void> {
  const url = new URL(`${service.url}/${resource.replace(/^\/+/, "")}`);
  const headers: Record<string, string> = { ...service.headers, ...extra, "Content-Length": String(body.length) };
  if (service.bearer) headers["Authorization"] = `${service.bearer.scheme} ${service.bearer.token}`;
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  outer.addEventListener("abort", stop);
  if (outer.aborted) stop();
  const timer = setTimeout(stop, service.timeoutSeconds * 1000);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<void>((resolve, reject) => {
    const req = request(url, { method: "POST", headers, signal: controller.signal, agent: false }, (res) => {
      res.resume();
      res.on("end", () => {
        const http = res.statusCode ?? 0;
        if (http >= 200 && http < 300) resolve();
        else reject(httpStatusError(code, `POST ${url.href}`, http, res.statusMessage));
      });
      res.on("error", reject);
    });
    req.on("error", (e) => {
      const why = requestFailure(outer.aborted, controller.signal.aborted, service.timeoutSeconds, e);
      reject(requestFailedError(code, `POST ${url.href}`, why, e));
    });
    req.end(body);
  }).finally(() => {
    clearTimeout(timer);
    outer.removeEventListener("abort", stop);
  });
}
