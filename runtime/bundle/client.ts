// The remote bundle client, as OPA's bundle plugin behaves:
//
//   const client = await BundleClient.create(config); // OPA's services/bundles config (object or YAML text)
//   await client.ready();                      // every bundle activated once (or the first error)
//   await client.decide({ path: "authz/allow", input })  → { result: true, id, provenance }
//   await client.close();                      // no timer or socket left behind
//
// Each configured bundle has its own poll loop: download (If-None-Match with its ETag) → read and
// verify the archive → combine with the other bundles' last good ones → compile → swap. The
// bundles' manifest roots must be disjoint; their modules and data are compiled and served
// together. Periodic bundles poll after a random delay in [min_delay_seconds, max_delay_seconds]
// (at once after an answer from a long-polling server; after a failure, OPA's backoff, backoff.ts,
// up to max_delay_seconds); manual ones when trigger() is called.
// Any failure keeps the last good bundles serving; it is recorded in status() and emitted as
// "failed". Events (client.on(name, fn)): "activated" (status), "unchanged" (status, on a 304 once
// the bundle is active), "failed" (RegoError, status); the status names the bundle.
// Each decision has an id (OPA's decision_id) and is logged when `decision_logs` is configured or
// `onDecision` given (decisionLogs.ts); statusReport() is OPA's status document (status.ts).
import { asRegoError } from "../decision.js";
import { optionsWithDeadline } from "../eval/deadline.js";
import { RegoError } from "../errors.js";
import type { JSONValue } from "../value/json.js";
import { REGOC_VERSION } from "../version.js";
import { backoffMs } from "./backoff.js";
import { activate, checkPackages, type ActiveBundle } from "./activate.js";
import type { ParsedBundle } from "./archive.js";
import { parseBundleConfig, type BundlesConfig, type BundleSourceConfig, type DecisionLogsConfig } from "./config.js";
import { activeSpanIds, DecisionLogger, type DecisionEvent, type DecisionLogMetrics } from "./decisionLogs.js";
import { Listeners } from "./listeners.js";
import { rootsOverlap, underRoots } from "./roots.js";
import { errorFields, StatusReporter, type PluginState, type StatusReport } from "./status.js";
import { bundlesOverlapError, closedBeforeActivationError, decisionPathError, decisionPathTypeError, deltaBeforeSnapshotError, deltaOutsideRootsError, noBundleNamedError, noManualTriggerError, notActiveError, notModifiedFirstError, persistDeltaError, persistFailedError, planNotAloneError } from "./errors.js";

export interface ArchiveLimits {
  /** Compressed archive size (checked while downloading). */
  maxArchiveBytes: number;
  /** Sum of the uncompressed tar stream. */
  maxUncompressedBytes: number;
  maxEntries: number;
}

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
  /** The instance id (OPA SDK's ID): the `id` label of decision logs and status (default: a random UUID). */
  id?: string;
  /** Called with every decision's log event (after the drop and mask rules), with or without `decision_logs` configured. */
  onDecision?: (event: DecisionEvent) => void;
  /** Where the console sinks of decision logs and status write their JSON lines (default: console.log). */
  consoleWrite?: (line: string) => void;
}

/** A decision's answer, as OPA's SDK returns it: the result (absent when undefined), its id and provenance. */
export interface DecisionResult {
  result?: JSONValue;
  /** The decision id, also the `decision_id` of its log event. */
  id: string;
  provenance: Provenance;
}

export interface Provenance {
  version: string;
  /** The revisions of the bundles that decided. */
  bundles: Record<string, { revision: string }>;
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
  /** The decision id to use (OPA SDK's DecisionID), e.g. one the caller already logged; default a random UUID. */
  decisionId?: string;
}

/** One configured bundle: its poll loop's state and its last good parsed bundle. */
interface Source {
  config: BundleSourceConfig;
  /** The last good bundle (a snapshot, deltas applied), part of what serves once all sources have one. */
  parsed: ParsedBundle | undefined;
  etag: string | undefined;
  lastError: RegoError | undefined;
  lastActivation: Date | undefined;
  lastRequest: Date | undefined;
  /** The last download attempt, the last 200, what kind of bundle it held. */
  lastAttempt: Date | undefined;
  lastDownload: Date | undefined;
  type: "snapshot" | "delta" | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Failed polls in a row: the retry delay grows with them. */
  failures: number;
  running: Promise<unknown> | undefined;
}

/** The client's events and their listeners' arguments. */
export interface BundleEvents extends Record<string, unknown[]> {
  activated: [status: BundleStatus];
  /** A 304 once the bundle is active. */
  unchanged: [status: BundleStatus];
  /** The last good bundles keep serving. */
  failed: [error: RegoError, status: BundleStatus];
}

export class BundleClient extends Listeners<BundleEvents> {
  readonly config: BundlesConfig;
  private readonly limits: ArchiveLimits;
  private readonly sources: Source[];
  /** The serving bundles, compiled together: replaced in one assignment, never mutated. */
  private active: ActiveBundle | undefined;
  /** The serving bundles' revisions, assigned with `active`. */
  private revisions: Record<string, { revision: string }> = {};
  /** The instance's labels: `id`, `version` and the config's `labels`. */
  readonly labels: Record<string, string>;
  readonly id: string;
  private readonly logger: DecisionLogger | undefined;
  private readonly reporter: StatusReporter | undefined;
  /** Activations run one at a time, each over the sources' latest good bundles. */
  private activation: Promise<unknown> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private readonly first: Promise<BundleStatus>;
  private settleFirst: ((error: RegoError | undefined) => void) | undefined;
  private readonly started: Promise<void>;
  /** Sources whose server answered as a long-polling server: polled again at once. */
  private readonly longPoll = new WeakSet<Source>();

  /** A client for OPA's services/bundles config (an object, or its YAML/JSON text), polling at
   * once; `ready()` waits for the first activation. A bad config rejects (bundle_error). */
  static async create(config: unknown, options: BundleOptions = {}): Promise<BundleClient> {
    return new BundleClient(parseBundleConfig(config, options.env), options);
  }

  private constructor(config: BundlesConfig, options: BundleOptions) {
    super();
    this.config = config;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.sources = config.bundles.map((c) => ({ config: c, parsed: undefined, etag: undefined, lastError: undefined, lastActivation: undefined, lastRequest: undefined, lastAttempt: undefined, lastDownload: undefined, type: undefined, timer: undefined, failures: 0, running: undefined }));
    this.id = options.id ?? globalThis.crypto.randomUUID();
    // Frozen: every event and status document shares this one object.
    this.labels = Object.freeze({ id: this.id, version: REGOC_VERSION, ...config.labels });
    const logs = config.decisionLogs ?? (options.onDecision ? callbackOnly : undefined);
    if (logs) {
      this.logger = new DecisionLogger(logs, { onDecision: options.onDecision, write: options.consoleWrite });
    }
    if (config.status) {
      this.reporter = new StatusReporter(config.status, options.consoleWrite);
      for (const event of ["activated", "failed", "unchanged"]) this.on(event, () => this.reporter!.update(this.statusReport()));
    }
    this.first = new Promise((resolve, reject) => {
      this.settleFirst = (error) => (error ? reject(error) : resolve(this.status()));
    });
    this.first.catch(() => {}); // reported through ready(), "failed" and status(); never unhandled
    this.started = this.start();
  }

  /** Resolves with the (first bundle's) status once every bundle has been activated; rejects with the first error before that. */
  ready(): Promise<BundleStatus> {
    return this.first;
  }

  /** The status of the named bundle (default: the first configured). */
  status(name?: string): BundleStatus {
    const s = name === undefined ? this.sources[0]! : this.sources.find((x) => x.config.name === name);
    if (!s) throw noBundleNamedError(name);
    return {
      name: s.config.name,
      revision: this.active && s.parsed ? s.parsed.manifest.revision : undefined,
      etag: s.etag,
      lastSuccessfulActivation: s.lastActivation,
      lastSuccessfulRequest: s.lastRequest,
      lastError: s.lastError,
    };
  }

  /** Every bundle's status, by name. */
  statuses(): Record<string, BundleStatus> {
    return Object.fromEntries(this.sources.map((s) => [s.config.name, this.status(s.config.name)]));
  }

  /** The decision at `request.path` for `request.input`: `{ result, id, provenance }`, no `result` when undefined. */
  async decide(request: DecisionRequest): Promise<DecisionResult> {
    const path = decisionPath(request?.path);
    const active = this.active; // one read: the whole decision runs against these bundles
    const bundles = this.revisions;
    if (!active) {
      const error = this.sources.find((s) => s.lastError)?.lastError;
      const why = error ? `: ${error.message}` : this.closed ? " (closed)" : " (waiting for the first download)";
      throw notActiveError(this.sources.map((s) => s.config.name), why);
    }
    const id = typeof request.decisionId === "string" && request.decisionId !== "" ? request.decisionId : globalThis.crypto.randomUUID();
    const logger = this.logger;
    // Read before the first await: the caller's span is the active one only synchronously.
    const span = logger ? activeSpanIds() : undefined;
    const timestamp = logger ? new Date().toISOString() : "";
    const start = logger ? performance.now() : 0;
    let answer: { result?: JSONValue } | undefined;
    let error: RegoError | undefined;
    try {
      answer = await active.decide(path, request.input, optionsWithDeadline(undefined, request));
    } catch (e) {
      error = asRegoError(e);
    }
    if (logger) {
      const metrics = { timer_rego_query_eval_ns: Math.round((performance.now() - start) * 1e6) };
      const event: DecisionEvent = { labels: this.labels, decision_id: id, ...span, bundles, path, timestamp };
      if (request.input !== undefined) event.input = request.input;
      if (answer?.result !== undefined) event.result = answer.result;
      if (error) event.error = { code: error.code, message: error.message };
      await logger.log(event, metrics, (rule, e) => active.optional(rule, e));
    }
    if (error) throw error;
    return { ...answer, id, provenance: { version: REGOC_VERSION, bundles } };
  }

  /** Uploads the buffered decision log events now (rejects when the upload fails; they stay buffered). */
  async flushLogs(): Promise<void> {
    await this.logger?.flush();
  }

  /** The decision logger's buffer: events and bytes waiting, and the most it has held. */
  get logBuffer(): DecisionLogger["buffered"] | undefined {
    return this.logger?.buffered;
  }

  /** The decision logger's counters (dropped, failed, uploaded events). */
  get logMetrics(): DecisionLogMetrics | undefined {
    return this.logger && { ...this.logger.metrics };
  }

  /** OPA's status document: labels, bundles, decision logs, plugin states. */
  statusReport(): StatusReport {
    const bundles: StatusReport["bundles"] = {};
    for (const s of this.sources) {
      const b: StatusReport["bundles"][string] = { name: s.config.name };
      if (this.active && s.parsed) b.active_revision = s.parsed.manifest.revision;
      const times = [["last_successful_activation", s.lastActivation], ["last_successful_download", s.lastDownload], ["last_successful_request", s.lastRequest], ["last_request", s.lastAttempt]] as const;
      for (const [key, d] of times) if (d !== undefined) b[key] = d.toISOString();
      if (s.type) b.type = s.type;
      Object.assign(b, errorFields(s.lastError));
      if (s.lastError) b.errors = [s.lastError.message];
      bundles[s.config.name] = b;
    }
    const running: PluginState = this.closed ? "NOT_READY" : "OK";
    const report: StatusReport = { labels: this.labels, bundles, plugins: { bundle: { state: this.active && !this.closed ? "OK" : "NOT_READY" } } };
    if (this.logger) {
      report.decision_logs = { ...errorFields(this.logger.lastError), metrics: { ...this.logger.metrics } };
      report.plugins["decision_logs"] = { state: running };
    }
    if (this.reporter) report.plugins["status"] = { state: running };
    return report;
  }

  /** OPA's health check: healthy once every bundle is active and every plugin is OK. */
  health(): { healthy: boolean; error?: string } {
    const bad = Object.entries(this.statusReport().plugins).filter(([, p]) => p.state !== "OK").map(([name, p]) => `${name}: ${p.state}`);
    return bad.length === 0 ? { healthy: true } : { healthy: false, error: `not ready: ${bad.join(", ")}` };
  }

  /** Polls every `trigger: manual` bundle now; resolves when done, rejects with the first failure. */
  async trigger(): Promise<void> {
    await this.started;
    const manual = this.sources.filter((s) => s.config.trigger === "manual");
    if (manual.length === 0) throw noManualTriggerError();
    const errors = await Promise.all(manual.map((s) => (s.running = this.poll(s))));
    const error = errors.find((e) => e !== undefined);
    if (error) throw error;
  }

  /** Stops polling, aborts running downloads and waits for the running polls to end; makes one
   * last upload attempt of the buffered decision logs and sends the last status. */
  close(): Promise<void> {
    return (this.closing ??= this.halt());
  }

  private async halt(): Promise<void> {
    this.closed = true;
    for (const s of this.sources) {
      clearTimeout(s.timer);
      s.timer = undefined;
    }
    this.abort.abort();
    await this.started;
    await Promise.all(this.sources.map((s) => s.running));
    await this.activation.catch(() => {});
    this.settleFirst?.(closedBeforeActivationError(this.sources[0]!.config.name));
    await this.logger?.stop();
    this.reporter?.update(this.statusReport());
    await this.reporter?.stop();
  }

  /** Persisted bundles first (when configured), then the periodic poll loops. */
  private async start(): Promise<void> {
    for (const s of this.sources) {
      if (!s.config.persist || this.closed) continue;
      try {
        const { readPersisted } = await import("./persist.js");
        const archive = await readPersisted(this.config.persistenceDirectory, s.config.name, this.limits.maxArchiveBytes);
        if (archive !== undefined) await this.accept(s, await this.read(s, archive), undefined);
      } catch (e) {
        // A persisted bundle that cannot be used is reported; the download still decides readiness.
        this.report(s, e, false);
      }
    }
    for (const s of this.sources) if (s.config.trigger === "periodic" && !this.closed) s.running = this.poll(s).then((error) => this.schedule(s, error));
  }

  /** One download and activation; a failure is recorded, emitted and returned. */
  private async poll(s: Source): Promise<RegoError | undefined> {
    try {
      return await this.fetchAndActivate(s);
    } catch (e) {
      if (this.closed) return undefined;
      return this.report(s, e);
    }
  }

  private report(s: Source, e: unknown, settle = true): RegoError {
    s.lastError = asRegoError(e, "bundle_error");
    if (settle) {
      this.settleFirst?.(s.lastError);
      this.settleFirst = undefined;
    }
    this.emit("failed", s.lastError, this.status(s.config.name));
    return s.lastError;
  }

  private async fetchAndActivate(s: Source): Promise<undefined> {
    // Node-only parts (node:http, node:zlib, node-tar) load here, so the runtime's index stays
    // importable in browsers.
    const { download } = await import("./download.js");
    s.lastAttempt = new Date();
    const got = await download(s.config, { etag: s.etag, maxBytes: this.limits.maxArchiveBytes, signal: this.abort.signal });
    s.lastRequest = new Date();
    if (got.modified) s.lastDownload = s.lastRequest;
    // A 304 carries no Content-Type (RFC 7232): it keeps the mode the last 200 showed.
    if (got.modified && got.longPoll) this.longPoll.add(s);
    else if (got.modified) this.longPoll.delete(s);
    if (!got.modified) {
      // Not modified with nothing active: the server claims a bundle this client never received.
      if (s.parsed === undefined) {
        throw notModifiedFirstError(s.config.name);
      }
      s.lastError = undefined;
      this.emit("unchanged", this.status(s.config.name));
      return undefined;
    }
    const parsed = await this.read(s, got.body);
    s.type = parsed.patch === undefined ? "snapshot" : "delta";
    if (parsed.patch !== undefined && s.config.persist) {
      throw persistDeltaError(s.config.name);
    }
    const committed = await this.accept(s, parsed, got.etag);
    if (committed && s.config.persist) {
      const { writePersisted } = await import("./persist.js");
      await writePersisted(this.config.persistenceDirectory, s.config.name, got.body).catch((e: unknown) => {
        this.emit("failed", persistFailedError(s.config.name, e), this.status(s.config.name));
      });
    }
    return undefined;
  }

  private async read(s: Source, archive: Buffer): Promise<ParsedBundle> {
    const { readArchive } = await import("./archive.js");
    const parsed = await readArchive(archive, this.limits, { name: s.config.name, config: s.config.signing });
    if (parsed.patch === undefined) return parsed;
    // A delta applies to this bundle's last good snapshot, whose policy it keeps.
    if (!s.parsed) throw deltaBeforeSnapshotError(s.config.name);
    const { applyPatch } = await import("./patch.js");
    for (const op of parsed.patch) {
      if (!underRoots(s.parsed.manifest.roots, op.path)) {
        throw deltaOutsideRootsError(s.config.name, s.parsed.manifest.roots, op.path);
      }
    }
    return { ...s.parsed, manifest: { ...s.parsed.manifest, revision: parsed.manifest.revision }, data: applyPatch(s.parsed.data, parsed.patch, s.config.name) };
  }

  /** Makes `parsed` the source's bundle: compiled with the others' (when all have one) and swapped
   * in. False when the client was closed meanwhile. */
  private accept(s: Source, parsed: ParsedBundle, etag: string | undefined): Promise<boolean> {
    const run = this.activation.then(async () => {
      if (this.closed) return false;
      const others = this.sources.filter((o) => o !== s);
      for (const o of others) if (o.parsed) checkDisjoint(s.config.name, parsed, o.config.name, o.parsed);
      // Each bundle's packages under its own roots (activation checks only the union).
      if (others.length > 0) await checkPackages(parsed.modules, parsed.manifest.roots);
      let next: ActiveBundle | undefined;
      if (others.every((o) => o.parsed)) {
        const all = this.sources.map((o) => [o.config.name, o === s ? parsed : o.parsed!] as const);
        next = await activate(all.length === 1 ? parsed : combine(all), this.active?.paths ?? []);
      }
      if (this.closed) return false;
      s.parsed = parsed;
      s.etag = etag;
      s.lastActivation = new Date();
      s.lastError = undefined;
      if (!next) return true;
      const first = this.active === undefined;
      this.active = next;
      // Frozen: shared by the decisions' provenance and their log events.
      this.revisions = Object.freeze(Object.fromEntries(this.sources.map((o) => [o.config.name, Object.freeze({ revision: o.parsed!.manifest.revision })])));
      this.settleFirst?.(undefined);
      this.settleFirst = undefined;
      // The first activation also activates the bundles that waited for this one.
      for (const o of first ? this.sources : [s]) this.emit("activated", this.status(o.config.name));
      return true;
    });
    this.activation = run.catch(() => {});
    return run;
  }

  /** The next poll: after a failure a backoff (so that a failing long-polling server is not
   * polled in a tight loop), else at once for a long-polling server, else a jittered delay. */
  private schedule(s: Source, error: RegoError | undefined): void {
    if (this.closed) return;
    const { minDelaySeconds: min, maxDelaySeconds: max } = s.config.polling;
    s.failures = error ? s.failures + 1 : 0;
    const delay = error ? backoffMs(s.failures, max * 1000) : this.longPoll.has(s) ? 0 : (min + Math.random() * (max - min)) * 1000;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      s.running = this.poll(s).then((error) => this.schedule(s, error));
    }, delay);
  }
}

/** The logger of a client with an `onDecision` callback but no `decision_logs` config: no sink but the callback. */
const callbackOnly: DecisionLogsConfig = {
  resource: "/logs",
  console: false,
  maskDecision: "system/log/mask",
  dropDecision: "system/log/drop",
  reporting: { bufferType: "size", bufferSizeLimitBytes: 0, bufferSizeLimitEvents: 10_000, uploadSizeLimitBytes: 32_768, minDelaySeconds: 300, maxDelaySeconds: 600, trigger: "manual" },
};

/** OPA's rule for several bundles: no root of one may contain or lie inside a root of another. */
function checkDisjoint(name: string, a: ParsedBundle, otherName: string, b: ParsedBundle): void {
  if (rootsOverlap(a.manifest.roots, b.manifest.roots)) {
    throw bundlesOverlapError(name, a.manifest.roots, b.manifest.roots, otherName);
  }
}

/** Several bundles as one: modules named `/<bundle><path>`, data merged (the roots are disjoint). */
function combine(bundles: readonly (readonly [string, ParsedBundle])[]): ParsedBundle {
  const out: ParsedBundle = { manifest: { revision: "", roots: [] }, modules: {}, data: {} };
  for (const [name, b] of bundles) {
    if (b.plan !== undefined) throw planNotAloneError(name);
    out.manifest.roots.push(...b.manifest.roots);
    for (const [path, text] of Object.entries(b.modules)) out.modules[`/${name}${path}`] = text;
    merge(out.data, structuredClone(b.data));
  }
  return out;
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    const cur = Object.hasOwn(into, k) ? into[k] : undefined;
    if (isObject(cur) && isObject(v)) merge(cur, v);
    else Object.defineProperty(into, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** "data.a.b", "/a/b" or "a/b" → "a/b"; each segment must be a Rego identifier (it becomes a rule ref). */
function decisionPath(raw: unknown): string {
  if (typeof raw !== "string") throw decisionPathTypeError();
  const text = raw.trim();
  const segs = text.startsWith("data.") ? text.slice(5).split(".") : text.replace(/^\/+|\/+$/g, "").split("/");
  if (!segs.every((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s))) {
    throw decisionPathError(raw);
  }
  return segs.join("/");
}
