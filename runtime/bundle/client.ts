// The remote bundle client, as OPA's bundle plugin behaves:
//
//   const client = startBundle(config);        // OPA's services/bundles config (object or YAML text)
//   await client.ready();                      // every bundle activated once (or the first error)
//   await client.decision({ path: "authz/allow", input })  → { result: true }
//   await client.stop();                       // no timer or socket left behind
//
// Each configured bundle has its own poll loop: download (If-None-Match with its ETag) → read and
// verify the archive → combine with the other bundles' last good ones → compile → swap. The
// bundles' manifest roots must be disjoint; their modules and data are compiled and served
// together. Periodic bundles poll after a random delay in [min_delay_seconds, max_delay_seconds]
// (at once after an answer from a long-polling server; after a failure, OPA's backoff from 100 ms up
// to max_delay_seconds); manual ones when trigger() is called.
// Any failure keeps the last good bundles serving; it is recorded in status() and emitted as
// "failed". Events (client.on(name, fn)): "activated" (status), "unchanged" (status, on a 304 once
// the bundle is active), "failed" (RegoError, status); the status names the bundle.
import { asRegoError } from "../decision.js";
import { RegoError } from "../errors.js";
import type { JSONValue } from "../value/json.js";
import { activate, checkPackages, type ActiveBundle } from "./activate.js";
import type { ArchiveLimits, ParsedBundle } from "./archive.js";
import { parseBundleConfig, type BundlesConfig, type BundleSourceConfig } from "./config.js";
import { Listeners } from "./listeners.js";
import { formatRoots, rootsOverlap, underRoots } from "./roots.js";

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
}

export function startBundle(config: unknown, options: BundleOptions = {}): BundleClient {
  return new BundleClient(parseBundleConfig(config, options.env), options);
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
  timer: NodeJS.Timeout | undefined;
  /** Failed polls in a row: the retry delay grows with them. */
  failures: number;
  running: Promise<unknown> | undefined;
}

export class BundleClient extends Listeners {
  readonly config: BundlesConfig;
  private readonly limits: ArchiveLimits;
  private readonly sources: Source[];
  /** The serving bundles, compiled together: replaced in one assignment, never mutated. */
  private active: ActiveBundle | undefined;
  /** Activations run one at a time, each over the sources' latest good bundles. */
  private activation: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly first: Promise<BundleStatus>;
  private settleFirst: ((error: RegoError | undefined) => void) | undefined;
  private readonly started: Promise<void>;
  /** Sources whose server answered as a long-polling server: polled again at once. */
  private readonly longPoll = new WeakSet<Source>();

  constructor(config: BundlesConfig, options: BundleOptions = {}) {
    super();
    this.config = config;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.sources = config.bundles.map((c) => ({ config: c, parsed: undefined, etag: undefined, lastError: undefined, lastActivation: undefined, lastRequest: undefined, timer: undefined, failures: 0, running: undefined }));
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
    if (!s) throw new RegoError("bundle_error", `status: no bundle named ${JSON.stringify(name)}`);
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

  async decision(request: DecisionRequest): Promise<{ result?: JSONValue }> {
    const path = decisionPath(request?.path);
    const active = this.active; // one read: the whole decision runs against these bundles
    if (!active) {
      const error = this.sources.find((s) => s.lastError)?.lastError;
      const why = error ? `: ${error.message}` : this.stopped ? " (stopped)" : " (waiting for the first download)";
      throw new RegoError("bundle_error", `bundle ${this.sources.map((s) => s.config.name).join(", ")} is not active yet${why}`);
    }
    try {
      return await active.decide(path, request.input);
    } catch (e) {
      throw asRegoError(e);
    }
  }

  /** Polls every `trigger: manual` bundle now; resolves when done, rejects with the first failure. */
  async trigger(): Promise<void> {
    await this.started;
    const manual = this.sources.filter((s) => s.config.trigger === "manual");
    if (manual.length === 0) throw new RegoError("bundle_error", "trigger: no bundle has trigger: manual");
    const errors = await Promise.all(manual.map((s) => (s.running = this.poll(s))));
    const error = errors.find((e) => e !== undefined);
    if (error) throw error;
  }

  /** Stops polling, aborts running downloads and waits for the running polls to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.sources) {
      clearTimeout(s.timer);
      s.timer = undefined;
    }
    this.abort.abort();
    await this.started;
    await Promise.all(this.sources.map((s) => s.running));
    await this.activation.catch(() => {});
    this.settleFirst?.(new RegoError("bundle_error", `bundle ${this.sources[0]!.config.name}: stopped before the first activation`));
  }

  /** Persisted bundles first (when configured), then the periodic poll loops. */
  private async start(): Promise<void> {
    for (const s of this.sources) {
      if (!s.config.persist || this.stopped) continue;
      try {
        const { readPersisted } = await import("./persist.js");
        const archive = await readPersisted(this.config.persistenceDirectory, s.config.name, this.limits.maxArchiveBytes);
        if (archive !== undefined) await this.accept(s, await this.read(s, archive), undefined);
      } catch (e) {
        // A persisted bundle that cannot be used is reported; the download still decides readiness.
        this.report(s, e, false);
      }
    }
    for (const s of this.sources) if (s.config.trigger === "periodic" && !this.stopped) s.running = this.poll(s).then((error) => this.schedule(s, error));
  }

  /** One download and activation; a failure is recorded, emitted and returned. */
  private async poll(s: Source): Promise<RegoError | undefined> {
    try {
      return await this.fetchAndActivate(s);
    } catch (e) {
      if (this.stopped) return undefined;
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
    const got = await download(s.config, { etag: s.etag, maxBytes: this.limits.maxArchiveBytes, signal: this.abort.signal });
    s.lastRequest = new Date();
    // A 304 carries no Content-Type (RFC 7232): it keeps the mode the last 200 showed.
    if (got.modified && got.longPoll) this.longPoll.add(s);
    else if (got.modified) this.longPoll.delete(s);
    if (!got.modified) {
      // Not modified with nothing active: the server claims a bundle this client never received.
      if (s.parsed === undefined) {
        throw new RegoError("bundle_error", `bundle ${s.config.name}: server replied with HTTP 304 Not Modified before any bundle was downloaded`);
      }
      s.lastError = undefined;
      this.emit("unchanged", this.status(s.config.name));
      return undefined;
    }
    const parsed = await this.read(s, got.body);
    if (parsed.patch !== undefined && s.config.persist) {
      throw new RegoError("bundle_error", `bundle ${s.config.name}: 'persist' is true in the config: persisting a delta bundle to disk is not supported`);
    }
    const committed = await this.accept(s, parsed, got.etag);
    if (committed && s.config.persist) {
      const { writePersisted } = await import("./persist.js");
      await writePersisted(this.config.persistenceDirectory, s.config.name, got.body).catch((e: unknown) => {
        this.emit("failed", new RegoError("bundle_error", `bundle ${s.config.name}: persisting the bundle failed: ${(e as Error).message}`, undefined, { cause: e }), this.status(s.config.name));
      });
    }
    return undefined;
  }

  private async read(s: Source, archive: Buffer): Promise<ParsedBundle> {
    const { readArchive } = await import("./archive.js");
    const parsed = await readArchive(archive, this.limits, { name: s.config.name, config: s.config.signing });
    if (parsed.patch === undefined) return parsed;
    // A delta applies to this bundle's last good snapshot, whose policy it keeps.
    if (!s.parsed) throw new RegoError("bundle_error", `bundle ${s.config.name}: a delta bundle arrived before any snapshot bundle`);
    const { applyPatch } = await import("./patch.js");
    for (const op of parsed.patch) {
      if (!underRoots(s.parsed.manifest.roots, op.path)) {
        throw new RegoError("bundle_error", `bundle ${s.config.name}: delta: manifest roots ${formatRoots(s.parsed.manifest.roots)} do not permit data patch at path '${op.path.join("/")}'`);
      }
    }
    return { ...s.parsed, manifest: { ...s.parsed.manifest, revision: parsed.manifest.revision }, data: applyPatch(s.parsed.data, parsed.patch, s.config.name) };
  }

  /** Makes `parsed` the source's bundle: compiled with the others' (when all have one) and swapped
   * in. False when the client stopped meanwhile. */
  private accept(s: Source, parsed: ParsedBundle, etag: string | undefined): Promise<boolean> {
    const run = this.activation.then(async () => {
      if (this.stopped) return false;
      const others = this.sources.filter((o) => o !== s);
      for (const o of others) if (o.parsed) checkDisjoint(s.config.name, parsed, o.config.name, o.parsed);
      // Each bundle's packages under its own roots (activation checks only the union).
      if (others.length > 0) await checkPackages(parsed.modules, parsed.manifest.roots);
      let next: ActiveBundle | undefined;
      if (others.every((o) => o.parsed)) {
        const all = this.sources.map((o) => [o.config.name, o === s ? parsed : o.parsed!] as const);
        next = await activate(all.length === 1 ? parsed : combine(all), this.active?.paths ?? []);
      }
      if (this.stopped) return false;
      s.parsed = parsed;
      s.etag = etag;
      s.lastActivation = new Date();
      s.lastError = undefined;
      if (!next) return true;
      const first = this.active === undefined;
      this.active = next;
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
    if (this.stopped) return;
    const { minDelaySeconds: min, maxDelaySeconds: max } = s.config.polling;
    s.failures = error ? s.failures + 1 : 0;
    const delay = error ? retryDelay(s.failures, max * 1000) : this.longPoll.has(s) ? 0 : (min + Math.random() * (max - min)) * 1000;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      s.running = this.poll(s).then((error) => this.schedule(s, error));
    }, delay);
  }
}

/** The first retry's delay, in ms (OPA's downloader's). */
const RETRY_DELAY_MS = 100;

/** OPA's retry delay after the n-th failure in a row (n >= 1): 100 ms growing 1.6 times a failure
 * up to max_delay_seconds, then ±20% of jitter. */
function retryDelay(failures: number, maxMs: number): number {
  let delay = RETRY_DELAY_MS;
  for (let n = failures - 1; n > 0 && delay < maxMs; n--) delay *= 1.6;
  return Math.min(delay, maxMs) * (1 + 0.2 * (Math.random() * 2 - 1));
}

/** OPA's rule for several bundles: no root of one may contain or lie inside a root of another. */
function checkDisjoint(name: string, a: ParsedBundle, otherName: string, b: ParsedBundle): void {
  if (rootsOverlap(a.manifest.roots, b.manifest.roots)) {
    throw new RegoError("bundle_error", `bundle ${name}: manifest roots ${formatRoots(a.manifest.roots)} overlap the roots ${formatRoots(b.manifest.roots)} of bundle ${otherName}`);
  }
}

/** Several bundles as one: modules named `/<bundle><path>`, data merged (the roots are disjoint). */
function combine(bundles: readonly (readonly [string, ParsedBundle])[]): ParsedBundle {
  const out: ParsedBundle = { manifest: { revision: "", roots: [] }, modules: {}, data: {} };
  for (const [name, b] of bundles) {
    if (b.plan !== undefined) throw new RegoError("bundle_error", `bundle ${name}: a bundle with /plan.json must be the client's only bundle`);
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
  if (typeof raw !== "string") throw new RegoError("bundle_error", "decision: `path` must be a string such as \"authz/allow\"");
  const text = raw.trim();
  const segs = text.startsWith("data.") ? text.slice(5).split(".") : text.replace(/^\/+|\/+$/g, "").split("/");
  if (!segs.every((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s))) {
    throw new RegoError("bundle_error", `decision: invalid path ${JSON.stringify(raw)}: use "pkg/rule" with identifier segments`);
  }
  return segs.join("/");
}
