// The remote bundle client, as OPA's bundle plugin behaves:
//
//   const client = startBundle(config);        // OPA's services/bundles config (object or YAML text)
//   await client.ready();                      // the first activation (or its error)
//   await client.decision({ path: "authz/allow", input })  → { result: true }
//   await client.stop();                       // no timer or socket left behind
//
// One poll: download (If-None-Match with the active ETag) → read the archive → compile → swap.
// Polls follow each other with a random delay in [min_delay_seconds, max_delay_seconds]. Any failure
// keeps the last good bundle serving; it is recorded in status() and emitted as "failed".
// Events (client.on(name, fn)): "activated" (status), "unchanged" (status, on a 304 once a bundle is active),
// "failed" (RegoError, status).
import { asRegoError } from "../decision.js";
import { optionsWithDeadline } from "../eval/deadline.js";
import { RegoError } from "../errors.js";
import type { JSONValue } from "../value/json.js";
import { activate, type ActiveBundle } from "./activate.js";
import type { ArchiveLimits } from "./archive.js";
import { parseBundleConfig, type BundleSourceConfig } from "./config.js";
import { Listeners } from "./listeners.js";

export const DEFAULT_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 64 * 1024 * 1024,
  maxUncompressedBytes: 256 * 1024 * 1024,
  maxEntries: 10_000,
};

export interface BundleOptions {
  /** Size and entry limits for the archive (defaults: 64 MiB compressed, 256 MiB uncompressed, 10 000 entries). */
  limits?: Partial<ArchiveLimits>;
  /** Where `${VAR}` placeholders are looked up (default: process.env). */
  env?: Record<string, string | undefined>;
}

export interface BundleStatus {
  name: string;
  /** The active bundle's manifest revision ("" without a manifest); undefined before the first activation. */
  revision: string | undefined;
  etag: string | undefined;
  lastSuccessfulActivation: Date | undefined;
  lastSuccessfulRequest: Date | undefined;
  lastError: RegoError | undefined;
}

export interface DecisionRequest {
  /** "authz/allow", "/authz/allow" or "data.authz.allow". */
  path: string;
  input?: unknown;
  /** Milliseconds the evaluation may run; past them the decision fails with eval_cancel_error. */
  timeoutMs?: number;
  /** Aborting it cancels the decision (eval_cancel_error). */
  signal?: AbortSignal;
}

export function startBundle(config: unknown, options: BundleOptions = {}): BundleClient {
  return new BundleClient(parseBundleConfig(config, options.env), options);
}

export class BundleClient extends Listeners {
  readonly config: BundleSourceConfig;
  private readonly limits: ArchiveLimits;
  /** The serving bundle: replaced in one assignment, never mutated. */
  private active: ActiveBundle | undefined;
  private etag: string | undefined;
  private lastError: RegoError | undefined;
  private lastActivation: Date | undefined;
  private lastRequest: Date | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly first: Promise<BundleStatus>;
  private settleFirst: ((error: RegoError | undefined) => void) | undefined;

  constructor(config: BundleSourceConfig, options: BundleOptions = {}) {
    super();
    this.config = config;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.first = new Promise((resolve, reject) => {
      this.settleFirst = (error) => (error ? reject(error) : resolve(this.status()));
    });
    this.first.catch(() => {}); // reported through ready(), "failed" and status(); never unhandled
    this.running = this.poll();
  }

  /** Resolves with the status after the first activation; rejects with the first attempt's error. */
  ready(): Promise<BundleStatus> {
    return this.first;
  }

  status(): BundleStatus {
    return {
      name: this.config.name,
      revision: this.active?.revision,
      etag: this.etag,
      lastSuccessfulActivation: this.lastActivation,
      lastSuccessfulRequest: this.lastRequest,
      lastError: this.lastError,
    };
  }

  async decision(request: DecisionRequest): Promise<{ result?: JSONValue }> {
    const path = decisionPath(request?.path);
    const active = this.active; // one read: the whole decision runs against this bundle
    if (!active) {
      const why = this.lastError ? `: ${this.lastError.message}` : this.stopped ? " (stopped)" : " (waiting for the first download)";
      throw new RegoError("bundle_error", `bundle ${this.config.name} is not active yet${why}`);
    }
    try {
      return await active.decide(path, request.input, optionsWithDeadline(undefined, request));
    } catch (e) {
      throw asRegoError(e);
    }
  }

  /** Stops polling, aborts a running download and waits for the running poll to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
    await this.running;
    this.settleFirst?.(new RegoError("bundle_error", `bundle ${this.config.name}: stopped before the first activation`));
  }

  private async poll(): Promise<void> {
    try {
      await this.fetchAndActivate();
    } catch (e) {
      if (this.stopped) return;
      this.lastError = asRegoError(e, "bundle_error");
      this.settleFirst?.(this.lastError);
      this.settleFirst = undefined;
      this.emit("failed", this.lastError, this.status());
    }
    this.schedule();
  }

  private async fetchAndActivate(): Promise<void> {
    // Node-only parts (node:http, node:zlib, node-tar) load here, so the runtime's index stays
    // importable in browsers.
    const [{ download }, { readArchive }] = await Promise.all([import("./download.js"), import("./archive.js")]);
    const got = await download(this.config, { etag: this.etag, maxBytes: this.limits.maxArchiveBytes, signal: this.abort.signal });
    this.lastRequest = new Date();
    if (!got.modified) {
      // Not modified with nothing active: the server claims a bundle this client never received.
      if (this.active === undefined) {
        throw new RegoError("bundle_error", `bundle ${this.config.name}: server replied with HTTP 304 Not Modified before any bundle was downloaded`);
      }
      this.lastError = undefined;
      this.emit("unchanged", this.status());
      return;
    }
    const parsed = await readArchive(got.body, this.limits);
    const next = await activate(parsed, this.active?.paths ?? []);
    if (this.stopped) return;
    this.active = next;
    this.etag = got.etag;
    this.lastActivation = new Date();
    this.lastError = undefined;
    this.settleFirst?.(undefined);
    this.settleFirst = undefined;
    this.emit("activated", this.status());
  }

  private schedule(): void {
    if (this.stopped) return;
    const { minDelaySeconds: min, maxDelaySeconds: max } = this.config.polling;
    const delay = (min + Math.random() * (max - min)) * 1000;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.poll();
    }, delay);
  }
}

/** "data.a.b", "/a/b" or "a/b" → "a/b"; each segment must be a Rego identifier (it becomes a rule ref). */
function decisionPath(raw: unknown): string {
  if (typeof raw !== "string") throw new RegoError("bundle_error", "decision: `path` must be a string such as \"authz/allow\"");
  const text = raw.trim();
  const segs = text.startsWith("data.") ? text.slice(5).split(".") : text.replace(/^\/+|\/+$/g, "").split("/");
  if (!segs.every((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s))) {
    throw new RegoError("bundle_error", `decision: invalid path ${JSON.stringify(raw)}: use "pkg/rule" with identifier segments`);
  }
  return segs.join("/");
}
