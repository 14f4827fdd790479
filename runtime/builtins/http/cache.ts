// http.send's caches, as OPA keeps them:
//   - within one evaluation, every response with a cacheable status (and every error) for a
//     request is reused, so one evaluation sees one answer per request (kept in the evaluation's
//     EvalContext.builtinCache, under the key intraKey gives);
//   - across evaluations (`cache: true` or `force_cache: true`), responses are kept until they
//     expire: `force_cache_duration_seconds` after the evaluation's time, else Cache-Control
//     max-age from the Date header, else Expires; `no-store` responses are not kept; a stale
//     entry with an ETag or Last-Modified is revalidated by the caller.
// The cross-evaluation cache is process-wide and bounded (least recently used goes first).
import type { WireResponse } from "./transport.js";

/** Status codes whose responses may be cached (RFC 7231 §6.1). */
export const CACHEABLE = new Set([200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501]);

/** The key of a request's answer in the evaluation's cache (EvalContext.builtinCache). */
export const intraKey = (requestKey: string): string => `http.send:${requestKey}`;

export interface InterEntry {
  response: WireResponse;
  /** Nanoseconds since the epoch; 0n means already expired. */
  expiresAt: bigint;
}

const INTER_LIMIT = 1000;
const inter = new Map<string, InterEntry>();

export function interGet(key: string): InterEntry | undefined {
  const e = inter.get(key);
  if (e) {
    inter.delete(key);
    inter.set(key, e); // most recently used last
  }
  return e;
}

export function interDelete(key: string): void {
  inter.delete(key);
}

export function interPut(key: string, entry: InterEntry): void {
  inter.delete(key);
  inter.set(key, entry);
  while (inter.size > INTER_LIMIT) inter.delete(inter.keys().next().value!);
}

/** Empties the cross-evaluation cache (tests, or an application that wants fresh answers). */
export function clearHttpSendCache(): void {
  inter.clear();
}

function header(res: WireResponse, name: string): string {
  return res.headers.get(name)?.[0] ?? "";
}

function cacheControl(res: WireResponse): Map<string, string> {
  const out = new Map<string, string>();
  for (let part of header(res, "cache-control").split(",")) {
    part = part.trim();
    if (part === "") continue;
    const items = part.split("=");
    if (items.length === 1) out.set(part, "");
    else if (items.length === 2) out.set(items[0]!.trim(), items[1]!);
  }
  return out;
}

export function canStore(res: WireResponse): boolean {
  return !cacheControl(res).has("no-store");
}

const MS = 1_000_000n;

/** When a response expires, in ns since the epoch; throws when max-age is set without a Date. */
export function expiry(res: WireResponse, forceSeconds: number | undefined, nowNs: bigint): bigint {
  if (forceSeconds !== undefined && forceSeconds > 0) return nowNs + BigInt(forceSeconds) * 1_000_000_000n;
  const maxAge = cacheControl(res).get("max-age");
  if (maxAge !== undefined) {
    let seconds = /^\d+$/.test(maxAge) ? Number(maxAge) : NaN;
    if (Number.isNaN(seconds)) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(maxAge)}: invalid syntax`);
    seconds = Math.min(seconds, 2 ** 31 - 1);
    const date = Date.parse(header(res, "date"));
    if (Number.isNaN(date)) throw new Error("no date header");
    return BigInt(date) * MS + BigInt(seconds) * 1_000_000_000n;
  }
  const expires = Date.parse(header(res, "expires"));
  return Number.isNaN(expires) ? 0n : BigInt(expires) * MS;
}
