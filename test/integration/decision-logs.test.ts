// Decision logs, decision ids, status and health of the bundle client, against loopback servers:
// OPA's event fields, the drop and mask rules, the console/onDecision/upload sinks, the bounded
// drop-oldest buffer, retries, and 100 000 decisions under load with the log server restarted.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager } from "@opentelemetry/api";
import { planRegoDetailed } from "regoc/compiler";
import { BundleClient, type RegoError } from "regoc";
import type { DecisionEvent } from "../../runtime/bundle/decisionLogs.js";
import type { StatusReport } from "../../runtime/bundle/status.js";
import { REGOC_VERSION } from "../../runtime/version.js";
import { activated, failed, flushLogsRetrying, startBundleServer, tarGz, type BundleServer } from "../support/bundleServer.js";
import { rejected } from "../support/errors.js";

const POLICY = `package authz

default allow := false

allow if input.user in data.authz.admins
`;

const MASK = `package system.log

mask contains "/input/password"

mask contains {"op": "upsert", "path": "/input/token", "value": "**REDACTED**"} if input.input.token

drop if input.input.user == "healthcheck"
`;

const bundle = (revision: string, extra: Record<string, string> = {}) =>
  tarGz({
    ".manifest": JSON.stringify({ revision, roots: ["authz", "system", "custom"] }),
    "authz/policy.rego": POLICY,
    "authz/data.json": JSON.stringify({ admins: ["alice"] }),
    ...extra,
  });

interface LogServer {
  url: string;
  port: number;
  events: DecisionEvent[];
  posts: { path: string; headers: IncomingHttpHeaders; bytes: number }[];
  statuses: StatusReport[];
  /** Answer the next n posts with 500. */
  failNext: number;
  close(): Promise<void>;
  restart(): Promise<void>;
}

/** A log and status receiver: gunzips /logs batches, parses /status documents. Restartable on its port. */
async function logServer(): Promise<LogServer> {
  let server: Server;
  const self: LogServer = {
    url: "",
    port: 0,
    events: [],
    posts: [],
    statuses: [],
    failNext: 0,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    restart: () => listen(self.port),
  };
  const listen = async (port: number) => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        self.posts.push({ path: req.url ?? "", headers: req.headers, bytes: body.length });
        if (self.failNext > 0) {
          self.failNext--;
          return void res.writeHead(500).end();
        }
        if (req.url?.startsWith("/status")) self.statuses.push(JSON.parse(body.toString()) as StatusReport);
        else self.events.push(...(JSON.parse(gunzipSync(body).toString()) as DecisionEvent[]));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    self.port = (server.address() as AddressInfo).port;
    self.url = `http://127.0.0.1:${self.port}`;
  };
  await listen(0);
  return self;
}

const config = (bundles: BundleServer, logs: LogServer | undefined, decisionLogs: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  services: {
    bundles: { url: bundles.url },
    ...(logs ? { logs: { url: logs.url, credentials: { bearer: { token: "log-token" } } } } : {}),
  },
  bundles: { authz: { service: "bundles", resource: "b.tar.gz", polling: { min_delay_seconds: 30, max_delay_seconds: 30 } } },
  decision_logs: { ...(logs ? { service: "logs" } : {}), ...decisionLogs },
  ...extra,
});

const FAST = { min_delay_seconds: 0.02, max_delay_seconds: 0.05 };

describe("bundle client: decision logs, decision ids, status", () => {
  let bundles: BundleServer;
  let logs: LogServer;
  let client: BundleClient | undefined;
  beforeEach(async () => {
    bundles = await startBundleServer();
    bundles.serve({ body: bundle("r1", { "system/log.rego": MASK }) });
    logs = await logServer();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await bundles.close();
    await logs.close();
  });

  it("gives each decision an id and provenance, and logs it in OPA's event format (console and onDecision)", async () => {
    const seen: DecisionEvent[] = [];
    const lines: string[] = [];
    client = await BundleClient.create({ ...config(bundles, undefined, { console: true }), labels: { app: "billing" } }, { id: "instance-7", onDecision: (e) => seen.push(e), consoleWrite: (l) => lines.push(l) });
    await client.ready();
    const input = { user: "alice", password: "hunter2", token: "Bearer abc" };
    const answer = await client.decide({ path: "authz/allow", input });
    expect(answer.result).to.equal(true);
    expect(answer.id).to.match(/^[0-9a-f-]{36}$/);
    expect(answer.provenance).to.deep.equal({ version: REGOC_VERSION, bundles: { authz: { revision: "r1" } } });
    expect(seen).to.have.length(1);
    const e = seen[0]!;
    expect(e.decision_id).to.equal(answer.id);
    expect(e.labels).to.deep.equal({ id: "instance-7", version: REGOC_VERSION, app: "billing" });
    expect(e.path).to.equal("authz/allow");
    expect(e.bundles).to.deep.equal({ authz: { revision: "r1" } });
    expect(e.result).to.equal(true);
    expect(Date.parse(e.timestamp)).to.be.closeTo(Date.now(), 5000);
    expect(e.metrics?.["timer_rego_query_eval_ns"]).to.be.a("number").above(0);
    // Masked: the password erased, the token upserted; the caller's input untouched.
    expect(e.input).to.deep.equal({ user: "alice", token: "**REDACTED**" });
    expect(e.erased).to.deep.equal(["/input/password"]);
    expect(e.masked).to.deep.equal(["/input/token"]);
    expect(input.password).to.equal("hunter2");
    expect(JSON.parse(lines[0]!)).to.deep.equal(e);
    expect(lines.join("\n")).to.not.contain("hunter2");
    // A caller's own decision id is kept.
    expect((await client.decide({ path: "authz/allow", input, decisionId: "req-42" })).id).to.equal("req-42");
    expect(seen[1]!.decision_id).to.equal("req-42");
  });

  it("drops the events the drop rule selects; an undefined decision and an error are logged too", async () => {
    bundles.serve({ body: bundle("r1", { "system/log.rego": MASK, "authz/conflict.rego": "package authz\n\nc := 1 if input.x\n\nc := 2 if input.x\n" }) });
    const seen: DecisionEvent[] = [];
    client = await BundleClient.create(config(bundles, undefined, { console: false }), { onDecision: (e) => seen.push(e) });
    await client.ready();
    await client.decide({ path: "authz/allow", input: { user: "healthcheck" } });
    await client.decide({ path: "authz/nothing", input: { user: "bob" } });
    const err = await rejected(client.decide({ path: "authz/c", input: { x: true } }));
    expect(seen.map((e) => e.path)).to.deep.equal(["authz/nothing", "authz/c"]);
    expect(seen[0]).to.not.have.property("result");
    expect(seen[1]!.error).to.deep.equal({ code: err.code, message: err.message });
  });

  it("masks through the configured mask_decision path and the result too, without changing the returned result", async () => {
    const custom = `package custom\n\nmask contains "/result/secret"\n`;
    const policy = `package authz\n\nanswer := {"ok": true, "secret": "s3"}\n`;
    bundles.serve({ body: bundle("r2", { "custom/mask.rego": custom, "authz/answer.rego": policy }) });
    const seen: DecisionEvent[] = [];
    client = await BundleClient.create(config(bundles, undefined, { console: false, mask_decision: "/custom/mask" }), { onDecision: (e) => seen.push(e) });
    await client.ready();
    const answer = await client.decide({ path: "authz/answer", input: { password: "p" } });
    expect(answer.result).to.deep.equal({ ok: true, secret: "s3" });
    expect(seen[0]!.result).to.deep.equal({ ok: true });
    expect(seen[0]!.erased).to.deep.equal(["/result/secret"]);
    // The default path's rule is not asked when another path is configured.
    expect(seen[0]!.input).to.deep.equal({ password: "p" });
  });

  it("asks a plan.json bundle's mask entrypoint, and logs unmasked when the plan has none", async () => {
    for (const entrypoints of [["authz/allow", "system/log/mask"], ["authz/allow"]]) {
      const plan = planRegoDetailed({ modules: { "p.rego": POLICY, "m.rego": MASK }, entrypoints }).plan;
      bundles.serve({ body: tarGz({ ".manifest": JSON.stringify({ revision: "p", roots: ["authz", "system"] }), "plan.json": JSON.stringify(plan), "authz/data.json": JSON.stringify({ admins: ["alice"] }) }) });
      const seen: DecisionEvent[] = [];
      const c = await BundleClient.create(config(bundles, undefined, { console: false }), { onDecision: (e) => seen.push(e) });
      await c.ready();
      expect((await c.decide({ path: "authz/allow", input: { user: "alice", password: "pw" } })).result).to.equal(true);
      await c.close();
      expect(seen[0]!.input).to.deep.equal(entrypoints.length === 2 ? { user: "alice" } : { user: "alice", password: "pw" });
    }
  });

  it("does not log an event whose mask rule fails (a pointer outside /input and /result), and counts it", async () => {
    bundles.serve({ body: bundle("r3", { "system/log.rego": `package system.log\n\nmask contains "/labels/id"\n` }) });
    const seen: DecisionEvent[] = [];
    client = await BundleClient.create(config(bundles, undefined, { console: false }), { onDecision: (e) => seen.push(e) });
    await client.ready();
    expect((await client.decide({ path: "authz/allow", input: { user: "alice" } })).result).to.equal(true);
    expect(seen).to.have.length(0);
    expect(client.logMetrics!.counter_decision_logs_encoding_failure).to.equal(1);
    expect(client.statusReport().decision_logs?.code).to.equal("decision_log_error");
  });

  it("uploads gzip JSON batches to <service>/logs with the service's token, each at most upload_size_limit_bytes", async () => {
    client = await BundleClient.create(config(bundles, logs, { reporting: { ...FAST, upload_size_limit_bytes: 2048 } }));
    await client.ready();
    const ids = new Set<string>();
    for (let i = 0; i < 300; i++) ids.add((await client.decide({ path: "authz/allow", input: { user: `u${i}`, pad: "x".repeat(i % 50) } })).id);
    await client.flushLogs();
    expect(new Set(logs.events.map((e) => e.decision_id))).to.deep.equal(ids);
    expect(logs.posts.length).to.be.above(1);
    for (const p of logs.posts) {
      expect(p.path).to.equal("/logs");
      expect(p.headers["content-encoding"]).to.equal("gzip");
      expect(p.headers["content-type"]).to.equal("application/json");
      expect(p.headers["authorization"]).to.equal("Bearer log-token");
      expect(p.bytes).to.be.at.most(2048);
    }
    expect(client.logMetrics!.counter_decision_logs_uploaded).to.equal(300);
  });

  it("keeps at most buffer_size_limit_events while the service is down, dropping the oldest", async () => {
    await logs.close();
    client = await BundleClient.create(config(bundles, logs, { partition_name: "p1", reporting: { buffer_type: "event", buffer_size_limit_events: 100, ...FAST } }));
    await client.ready();
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) ids.push((await client.decide({ path: "authz/allow", input: { user: `u${i}` } })).id);
    expect(client.logBuffer!.peakEvents).to.equal(100);
    expect(client.logMetrics!.counter_decision_logs_dropped_buffer_size_limit_exceeded).to.equal(900);
    await rejected(client.flushLogs());
    await logs.restart();
    await client.flushLogs();
    expect(logs.events.map((e) => e.decision_id)).to.deep.equal(ids.slice(900));
    expect(logs.posts.every((p) => p.path === "/logs/p1")).to.equal(true);
  });

  it("keeps at most buffer_size_limit_bytes of events with the size buffer", async () => {
    await logs.close();
    client = await BundleClient.create(config(bundles, logs, { reporting: { buffer_size_limit_bytes: 20_000, ...FAST } }));
    await client.ready();
    for (let i = 0; i < 500; i++) await client.decide({ path: "authz/allow", input: { user: `u${i}` } });
    expect(client.logBuffer!.peakBytes).to.be.at.most(20_000);
    expect(client.logBuffer!.bytes).to.be.above(15_000);
    expect(client.logMetrics!.counter_decision_logs_dropped_buffer_size_limit_exceeded).to.be.above(0);
  });

  it("retries a failed upload with backoff until the service accepts it", async () => {
    logs.failNext = 3;
    client = await BundleClient.create(config(bundles, logs, { reporting: { ...FAST } }));
    await client.ready();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await client.decide({ path: "authz/allow", input: { user: `u${i}` } })).id);
    const deadline = Date.now() + 10_000;
    // (the client reads the accepting response after the service has the events)
    const settled = () => logs.events.length >= 20 && !("code" in (client!.statusReport().decision_logs ?? {}));
    while (!settled() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(logs.events.map((e) => e.decision_id)).to.deep.equal(ids);
    expect(logs.posts.length).to.be.at.least(4);
    expect(client.statusReport().decision_logs).to.not.have.property("code");
  });

  it("loses no event of 100 000 concurrent decisions while the log server restarts, within the buffer bound", async function () {
    this.timeout(300_000);
    // The receiver shares this process's event loop, so how far uploads lag behind depends on the
    // machine's load: the buffer may hold every event. Drops at a full buffer are tested above.
    const LIMIT = 100_000;
    client = await BundleClient.create(config(bundles, logs, { reporting: { buffer_type: "event", buffer_size_limit_events: LIMIT, upload_size_limit_bytes: 262_144, ...FAST } }));
    await client.ready();
    const ids = new Set<string>();
    const N = 100_000;
    const BATCH = 500;
    const start = performance.now();
    let restarted: Promise<void> | undefined;
    for (let i = 0; i < N; i += BATCH) {
      if (i === N / 2) {
        await logs.close();
        // Back up once an upload has failed against the stopped server.
        restarted = (async () => {
          while (client!.statusReport().decision_logs?.code !== "decision_log_error") await new Promise((r) => setTimeout(r, 5));
          await logs.restart();
        })();
      }
      const batch = await Promise.all(Array.from({ length: BATCH }, (_, j) => client!.decide({ path: "authz/allow", input: { user: j % 2 ? "alice" : `u${i + j}`, password: "pw" } })));
      for (const d of batch) ids.add(d.id);
      // Between batches the event loop runs timers and sockets, as a server's does between requests.
      await new Promise((r) => setImmediate(r));
    }
    const seconds = (performance.now() - start) / 1000;
    await restarted;
    await flushLogsRetrying(client);
    const received = new Set(logs.events.map((e) => e.decision_id));
    const missing = [...ids].filter((id) => !received.has(id));
    if (missing.length) console.log({ received: received.size, events: logs.events.length, posts: logs.posts.length, buffer: client.logBuffer, metrics: client.logMetrics });
    expect(missing).to.have.length(0);
    expect(client.logMetrics!.counter_decision_logs_dropped_buffer_size_limit_exceeded).to.equal(0);
    expect(client.logBuffer!.peakEvents).to.be.at.most(LIMIT);
    expect(logs.events.some((e) => (e.input as { password?: string }).password !== undefined)).to.equal(false);
    if (process.env["REGOC_BENCH_LOG"]) console.log(`decision logs: ${N} decisions in ${seconds.toFixed(2)} s (${Math.round(N / seconds)}/s), ${logs.posts.length} uploads, ${logs.events.length - received.size} duplicates`);
  });

  it("adds trace_id and span_id when an OpenTelemetry span is active", async () => {
    // The smallest context manager (what @opentelemetry/context-async-hooks does, synchronously).
    let current: Context = ROOT_CONTEXT;
    const manager: ContextManager = {
      active: () => current,
      with: (ctx, fn, thisArg, ...args) => {
        const prev = current;
        current = ctx;
        try {
          return fn.call(thisArg, ...args);
        } finally {
          current = prev;
        }
      },
      bind: (_ctx, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    };
    context.setGlobalContextManager(manager);
    try {
      const seen: DecisionEvent[] = [];
      client = await BundleClient.create(config(bundles, undefined, { console: false }), { onDecision: (e) => seen.push(e) });
      await client.ready();
      const traceId = "0af7651916cd43dd8448eb211c80319c";
      const spanId = "b7ad6b7169203331";
      const ctx = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext({ traceId, spanId, traceFlags: 1 }));
      await context.with(ctx, () => client!.decide({ path: "authz/allow", input: { user: "alice" } }));
      await client.decide({ path: "authz/allow", input: { user: "alice" } });
      expect(seen[0]).to.include({ trace_id: traceId, span_id: spanId });
      expect(seen[1]).to.not.have.property("trace_id");
    } finally {
      context.disable();
    }
  });

  it("reports OPA's status document, uploads each update to <service>/status and answers health", async () => {
    bundles.serve({ status: 503 });
    const polled = { authz: { service: "bundles", resource: "b.tar.gz", polling: FAST } };
    client = await BundleClient.create(config(bundles, logs, { reporting: FAST }, { status: { service: "logs" }, bundles: polled }), { id: "i-1" });
    const err = await failed(client);
    expect(err.code).to.equal("bundle_error");
    expect(client.health()).to.deep.include({ healthy: false });
    let report = client.statusReport();
    expect(report.labels).to.deep.equal({ id: "i-1", version: REGOC_VERSION });
    expect(report.bundles["authz"]).to.include({ name: "authz", code: "bundle_error", http_code: 503 });
    expect(report.plugins["bundle"]).to.deep.equal({ state: "NOT_READY" });
    bundles.serve({ body: bundle("r9") });
    const next = activated(client, "r9");
    await client.ready().catch(() => undefined);
    await next.catch(() => undefined);
    const deadline = Date.now() + 10_000;
    while (logs.statuses.at(-1)?.bundles["authz"]?.active_revision !== "r9" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    report = client.statusReport();
    expect(report.bundles["authz"]).to.include({ name: "authz", active_revision: "r9", type: "snapshot" });
    expect(report.bundles["authz"]).to.not.have.property("code");
    for (const key of ["last_successful_activation", "last_successful_download", "last_successful_request", "last_request"] as const) {
      expect(Date.parse(report.bundles["authz"]![key]!)).to.be.a("number").not.NaN;
    }
    expect(report.plugins).to.deep.equal({ bundle: { state: "OK" }, decision_logs: { state: "OK" }, status: { state: "OK" } });
    expect(report.decision_logs?.metrics).to.include({ counter_decision_logs_dropped_buffer_size_limit_exceeded: 0 });
    expect(client.health()).to.deep.equal({ healthy: true });
    const uploaded = logs.statuses.at(-1)!;
    expect(uploaded.bundles["authz"]!.active_revision).to.equal("r9");
    expect(logs.posts.filter((p) => p.path === "/status").every((p) => p.headers["content-type"] === "application/json")).to.equal(true);
    expect(logs.statuses[0]!.bundles["authz"]!.code).to.equal("bundle_error");
  });

  it("uploads only on flushLogs() with reporting.trigger: manual; prints status updates with status.console", async () => {
    const lines: string[] = [];
    client = await BundleClient.create(config(bundles, logs, { reporting: { ...FAST, trigger: "manual" } }, { status: { console: true } }), { consoleWrite: (l) => lines.push(l) });
    await client.ready();
    const { id } = await client.decide({ path: "authz/allow", input: { user: "alice" } });
    await new Promise((r) => setTimeout(r, 200));
    expect(logs.posts).to.have.length(0);
    expect(client.logBuffer!.events).to.equal(1);
    await client.flushLogs();
    expect(logs.events.map((e) => e.decision_id)).to.deep.equal([id]);
    const status = lines.map((l) => JSON.parse(l) as StatusReport);
    expect(status.at(-1)!.bundles["authz"]!.active_revision).to.equal("r1");
    expect(logs.posts.some((p) => p.path.startsWith("/status"))).to.equal(false);
  });

  it("refuses bad decision_logs and status config with the field named", async () => {
    const base = { services: { s: { url: "http://127.0.0.1:1" } }, bundles: { a: { service: "s" } } };
    const bad = async (extra: Record<string, unknown>, field: string) => {
      try {
        await BundleClient.create({ ...base, ...extra });
      } catch (e) {
        expect((e as RegoError).code).to.equal("bundle_error");
        expect((e as RegoError).message).to.contain(field);
        return;
      }
      throw new Error(`accepted ${JSON.stringify(extra)}`);
    };
    await bad({ decision_logs: { service: "nope" } }, "decision_logs.service");
    await bad({ decision_logs: { reporting: { buffer_size_limit_events: 10 } } }, "decision_logs.reporting.buffer_size_limit_events");
    await bad({ decision_logs: { reporting: { buffer_type: "event", buffer_size_limit_bytes: 10 } } }, "decision_logs.reporting.buffer_size_limit_bytes");
    await bad({ decision_logs: { reporting: { min_delay_seconds: 1 } } }, "decision_logs.reporting");
    await bad({ decision_logs: { mask_decision: "/system/log mask" } }, "decision_logs.mask_decision");
    await bad({ status: { service: "nope" } }, "status.service");
    await bad({ labels: { id: "x" } }, "labels.id");
  });

  it("names regoc's version as package.json does", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(REGOC_VERSION).to.equal(pkg.version);
  });
});
