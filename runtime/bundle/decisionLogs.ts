// Decision logs as OPA's decision log plugin writes them: one event per decision (OPA's EventV1
// fields), the drop rule asked first, then the mask rule's erasures and upserts; the event goes to
// the console, to the `onDecision` callback and into a bounded buffer that a loop uploads as gzip
// JSON arrays to `<service>/logs`. A full buffer drops its oldest events; a failed upload keeps its
// events and retries after OPA's exponential backoff (backoff.ts, up to max_delay_seconds).
// Node-only parts (gzip, HTTP) load on the first upload, so the runtime index stays browser-safe.
import { backoffMs } from "./backoff.js";
import { RegoError } from "../errors.js";
import type { JSONValue } from "../value/json.js";
import type { DecisionLogsConfig } from "./config.js";
import { badMaskError, decisionLogError, logRuleFailedError, maskNotSetError } from "./errors.js";

/** A decision log event (OPA's EventV1 fields that apply to a library client). */
export interface DecisionEvent {
  labels: Record<string, string>;
  decision_id: string;
  trace_id?: string;
  span_id?: string;
  bundles: Record<string, { revision?: string }>;
  path: string;
  input?: unknown;
  result?: JSONValue;
  erased?: string[];
  masked?: string[];
  error?: { code: string; message: string };
  /** RFC 3339 with nanoseconds, as OPA writes it. */
  timestamp: string;
  metrics?: Record<string, number>;
}

/** Counters of the logger, as OPA names them (reported in status()). */
export interface DecisionLogMetrics {
  /** Events dropped because the buffer was full (the oldest go first). */
  counter_decision_logs_dropped_buffer_size_limit_exceeded: number;
  /** Events that could not be logged: a drop or mask rule failed, or the event alone exceeds upload_size_limit_bytes. */
  counter_decision_logs_encoding_failure: number;
  /** Events accepted by the upload service. */
  counter_decision_logs_uploaded: number;
}

/** Asks a rule of the bundles that decided (drop or mask) with the event as input; undefined when they lack it. */
export type RuleQuery = (path: string, event: DecisionEvent) => Promise<JSONValue | undefined>;

export interface DecisionLoggerOptions {
  /** Receives every event that is not dropped, after masking. */
  onDecision?: ((event: DecisionEvent) => void) | undefined;
  /** The console sink's writer (default: console.log). */
  write?: ((line: string) => void) | undefined;
}


/** FIFO of encoded events with a head index (no O(n) shift); each event keeps its sequence number. */
class EventBuffer {
  private items: string[] = [];
  private seqs: number[] = [];
  private head = 0;
  bytes = 0;
  /** The largest number of events and bytes the buffer ever held (the bound a test asserts). */
  peakEvents = 0;
  peakBytes = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(seq: number, json: string): void {
    this.items.push(json);
    this.seqs.push(seq);
    this.bytes += json.length;
  }

  /** Notes the current size as a peak (called once the limits are enforced). */
  mark(): void {
    if (this.length > this.peakEvents) this.peakEvents = this.length;
    if (this.bytes > this.peakBytes) this.peakBytes = this.bytes;
  }

  shift(): void {
    this.bytes -= this.items[this.head]!.length;
    this.items[this.head] = "";
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }

  at(i: number): { seq: number; json: string } {
    return { seq: this.seqs[this.head + i]!, json: this.items[this.head + i]! };
  }

  /** Removes the events up to and including sequence number `seq` (those still at the front). */
  removeThrough(seq: number): number {
    let n = 0;
    while (this.length > 0 && this.seqs[this.head]! <= seq) {
      this.shift();
      n++;
    }
    return n;
  }
}

export class DecisionLogger {
  readonly metrics: DecisionLogMetrics = {
    counter_decision_logs_dropped_buffer_size_limit_exceeded: 0,
    counter_decision_logs_encoding_failure: 0,
    counter_decision_logs_uploaded: 0,
  };
  /** The last upload's failure (undefined after a success): OPA's decision_logs status. */
  lastError: RegoError | undefined;
  private readonly buffer = new EventBuffer();
  private seq = 0;
  /** Uncompressed bytes per upload chunk: grows while chunks compress well below the limit (OPA's soft limit). */
  private softLimit: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private uploading: Promise<void> | undefined;
  private retries = 0;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(
    readonly config: DecisionLogsConfig,
    private readonly options: DecisionLoggerOptions = {},
  ) {
    this.softLimit = config.reporting.uploadSizeLimitBytes;
    if (config.service && config.reporting.trigger === "periodic") this.schedule(this.delay(true));
  }

  /** Events waiting for upload, and the most the buffer has held. */
  get buffered(): { events: number; bytes: number; peakEvents: number; peakBytes: number } {
    const b = this.buffer;
    return { events: b.length, bytes: b.bytes, peakEvents: b.peakEvents, peakBytes: b.peakBytes };
  }

  /** Drop rule, then masks, then the sinks. Never throws: a failure is counted and the decision stands. */
  async log(event: DecisionEvent, metrics: Record<string, number>, query: RuleQuery): Promise<void> {
    try {
      if ((await query(this.config.dropDecision, event)) === true) return;
      event.metrics = metrics;
      const rules = await query(this.config.maskDecision, event);
      if (rules !== undefined) applyMasks(event, rules);
    } catch (e) {
      this.metrics.counter_decision_logs_encoding_failure++;
      // An evaluation error's message may quote the input (a token): status carries its code only.
      const own = e instanceof RegoError && e.code === "decision_log_error";
      this.lastError = own ? e : logRuleFailedError(e);
      return;
    }
    let json: string | undefined;
    if (this.config.console || this.config.service) {
      try {
        json = JSON.stringify(event);
      } catch (e) {
        // An input JSON cannot encode (a BigInt, a cycle): the event is lost, the decision stands.
        this.metrics.counter_decision_logs_encoding_failure++;
        this.lastError = decisionLogError(e, "decision log: the event is not JSON");
        return;
      }
      if (this.config.console) (this.options.write ?? console.log)(json);
    }
    if (this.options.onDecision) {
      try {
        this.options.onDecision(event);
      } catch (e) {
        console.error("regoc decision log: the onDecision callback threw:", e);
      }
    }
    if (json !== undefined && this.config.service) this.enqueue(json);
  }

  private enqueue(json: string): void {
    const { bufferType, bufferSizeLimitEvents, bufferSizeLimitBytes } = this.config.reporting;
    const b = this.buffer;
    b.push(++this.seq, json);
    const over = bufferType === "event" ? () => b.length > bufferSizeLimitEvents : () => bufferSizeLimitBytes > 0 && b.bytes > bufferSizeLimitBytes;
    while (over()) {
      b.shift();
      this.metrics.counter_decision_logs_dropped_buffer_size_limit_exceeded++;
    }
    b.mark();
  }

  /** Uploads every buffered event now; rejects with the upload's failure (the events stay buffered). */
  async flush(): Promise<void> {
    if (!this.config.service) return;
    while (this.uploading) await this.uploading;
    const run = this.uploadAll();
    this.uploading = run.finally(() => (this.uploading = undefined)).catch(() => {});
    await run;
  }

  /** Stops the loop after one last upload attempt of what is buffered. */
  async stop(): Promise<void> {
    this.stopped = true; // before the flush: a periodic upload ending meanwhile schedules nothing
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
    this.abort.abort();
  }

  private delay(ok: boolean): number {
    const { minDelaySeconds: min, maxDelaySeconds: max } = this.config.reporting;
    return ok ? (min + Math.random() * (max - min)) * 1000 : backoffMs(this.retries, max * 1000);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().then(
        () => {
          this.retries = 0;
          this.schedule(this.delay(true));
        },
        () => {
          this.schedule(this.delay(false));
          this.retries++;
        },
      );
    }, ms);
  }

  /** Chunks of the events buffered now, each POSTed; the first failure ends the round. */
  private async uploadAll(): Promise<void> {
    const service = this.config.service!;
    const { postGzipJSON } = await import("./upload.js");
    const limit = this.config.reporting.uploadSizeLimitBytes;
    const last = this.seq;
    try {
      while (this.buffer.length > 0 && this.buffer.at(0).seq <= last) {
        const chunk = await this.nextChunk(limit, last);
        if (chunk === undefined) continue;
        await postGzipJSON(service, this.config.resource, chunk.body, this.abort.signal);
        this.metrics.counter_decision_logs_uploaded += this.buffer.removeThrough(chunk.lastSeq);
      }
      this.lastError = undefined;
    } catch (e) {
      this.lastError = decisionLogError(e, "decision log upload failed");
      throw this.lastError;
    }
  }

  /** The next gzip body of at most `limit` bytes; an event too large alone is dropped (undefined). */
  private async nextChunk(limit: number, last: number): Promise<{ body: Buffer; lastSeq: number } | undefined> {
    const { gzipJSONArray } = await import("./upload.js");
    for (;;) {
      const parts: string[] = [];
      let size = 2;
      let lastSeq = 0;
      let cut = false;
      for (let i = 0; i < this.buffer.length; i++) {
        const { seq, json } = this.buffer.at(i);
        if (seq > last) break;
        if (parts.length > 0 && size + json.length + 1 > this.softLimit) {
          cut = true;
          break;
        }
        parts.push(json);
        size += json.length + 1;
        lastSeq = seq;
      }
      const body = await gzipJSONArray(parts);
      if (body.length <= limit) {
        // Scale up while a chunk the soft limit cut compresses to under 90 % of the limit.
        if (cut && body.length < 0.9 * limit) this.softLimit = Math.min(this.softLimit * 2, limit * 1024);
        return { body, lastSeq };
      }
      if (parts.length === 1) {
        this.buffer.shift();
        this.metrics.counter_decision_logs_encoding_failure++;
        return undefined;
      }
      // Scale down to what this chunk's compression ratio fits under the limit, with a margin.
      this.softLimit = Math.max(1, Math.floor((size * limit * 0.9) / body.length));
    }
  }
}


/** Applies the mask rule's answer (JSON pointers to erase, or {op, path, value}) to the event, as OPA does. */
export function applyMasks(event: DecisionEvent, rules: JSONValue): void {
  if (!Array.isArray(rules)) throw maskNotSetError(rules);
  const parsed = rules.map(parseMaskRule);
  if (parsed.some((r) => r.parts[0] === "input")) event.input = copy(event.input);
  if (parsed.some((r) => r.parts[0] === "result")) event.result = copy(event.result) as JSONValue;
  for (const r of parsed) {
    const [part, ...rest] = r.parts as ["input" | "result", ...string[]];
    if (event[part] === undefined) continue;
    if (r.op === "remove") {
      if (rest.length === 0) delete event[part];
      else if (!remove(event[part], rest)) continue;
      (event.erased ??= []).push(r.path);
    } else {
      if (rest.length === 0) (event as unknown as Record<string, unknown>)[part] = r.value;
      else if (!isPlainObject(event[part]) || !upsert(event[part], rest, r.value)) continue;
      (event.masked ??= []).push(r.path);
    }
  }
}

interface MaskRule {
  op: "remove" | "upsert";
  path: string;
  parts: string[];
  value: unknown;
}

function parseMaskRule(raw: JSONValue): MaskRule {
  let op: unknown = "remove";
  let path: unknown = raw;
  let value: unknown;
  if (isPlainObject(raw)) {
    op = raw["op"] ?? "remove";
    path = raw["path"];
    value = raw["value"];
  }
  const bad = (why: string): never => {
    throw badMaskError(raw, why);
  };
  if (op !== "remove" && op !== "upsert") bad(`op must be "remove" or "upsert"`);
  if (typeof path !== "string" || path === "") return bad("the path must be a non-empty string");
  if (!path.startsWith("/")) bad("the path must start with /");
  const parts = path.slice(1).split("/");
  if (parts[0] !== "input" && parts[0] !== "result") bad(`mask prefix not allowed: ${parts[0]} (use /input or /result)`);
  return { op: op as MaskRule["op"], path, parts, value };
}

function remove(root: unknown, path: string[]): boolean {
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    node = child(node, path[i]!);
    if (node === undefined) return false;
  }
  const key = path[path.length - 1]!;
  if (Array.isArray(node)) {
    const i = index(key, node.length);
    if (i === undefined) return false;
    node.splice(i, 1);
    return true;
  }
  if (!isPlainObject(node) || !Object.hasOwn(node, key)) return false;
  delete node[key];
  return true;
}

function upsert(root: Record<string, unknown>, path: string[], value: unknown): boolean {
  let node: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    if (isPlainObject(node)) {
      if (!Object.hasOwn(node, key)) define(node, key, {});
      node = node[key];
    } else if (Array.isArray(node)) {
      const i2 = index(key, Number.MAX_SAFE_INTEGER);
      if (i2 === undefined) return false;
      while (node.length <= i2) node.push(null);
      node = node[i2];
    } else return false;
  }
  const key = path[path.length - 1]!;
  if (isPlainObject(node)) define(node, key, value);
  else if (Array.isArray(node)) {
    const i = index(key, node.length);
    if (i === undefined) return false;
    node[i] = value;
  } else return false;
  return true;
}

function child(node: unknown, key: string): unknown {
  if (Array.isArray(node)) {
    const i = index(key, node.length);
    return i === undefined ? undefined : node[i];
  }
  return isPlainObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
}

function index(key: string, length: number): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(key)) return undefined;
  const i = Number(key);
  return i < length ? i : undefined;
}

/** Own property even for "__proto__" (a pointer is caller-controlled text). */
function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON copy: masking must not change the caller's input or the returned result. */
function copy(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

/** The active OpenTelemetry span's ids, read through the API's global registry (no dependency): undefined without one. */
export function activeSpanIds(): { trace_id: string; span_id: string } | undefined {
  type Ctx = { getValue?: (key: symbol) => unknown };
  const api = (globalThis as Record<symbol, unknown>)[Symbol.for("opentelemetry.js.api.1")] as { context?: { active?: () => Ctx } } | undefined;
  const span = api?.context?.active?.()?.getValue?.(Symbol.for("OpenTelemetry Context Key SPAN")) as { spanContext?: () => { traceId?: unknown; spanId?: unknown } } | undefined;
  const sc = span?.spanContext?.();
  const { traceId, spanId } = sc ?? {};
  if (typeof traceId !== "string" || typeof spanId !== "string" || /^0*$/.test(traceId) || /^0*$/.test(spanId)) return undefined;
  return { trace_id: traceId, span_id: spanId };
}
