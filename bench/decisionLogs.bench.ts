// Bundle client decisions per second without decision logs, with the onDecision callback, and with
// the upload sink (drop and mask rules in the bundle, gzip batches to a loopback receiver). The
// decisions run in concurrent batches with the event loop free between batches, as in a server.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { BundleClient, type BundleOptions } from "regoc";
import { startBundleServer, tarGz } from "../test/support/bundleServer.js";
import { median, type Bench } from "./util.js";

const POLICY = "package authz\n\ndefault allow := false\n\nallow if input.user in data.authz.admins\n";
const LOG_RULES = 'package system.log\n\nmask contains "/input/password"\n\ndrop if input.input.user == "healthcheck"\n';

const N = 20_000;
const BATCH = 500;

/** Decisions per second (wall clock, the uploads flushed) and the process's CPU µs per decision
 * (all threads: gzip runs on the thread pool), medians of 3 rounds after a warm-up. */
async function measure(config: unknown, options: BundleOptions): Promise<[number, number]> {
  const client = await BundleClient.create(config, options);
  await client.ready();
  const rates: number[] = [];
  const cpus: number[] = [];
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  for (let round = 0; round < 4; round++) {
    const start = performance.now();
    const c0 = cpu();
    for (let i = 0; i < N; i += BATCH) {
      await Promise.all(Array.from({ length: BATCH }, (_, j) => client.decide({ path: "authz/allow", input: { user: j % 2 ? "alice" : `u${i + j}`, password: "pw" } })));
      await new Promise((r) => setImmediate(r));
    }
    await client.flushLogs();
    if (round > 0) {
      rates.push(N / ((performance.now() - start) / 1000));
      cpus.push((cpu() - c0) / N);
    }
  }
  await client.close();
  return [median(rates), median(cpus)];
}

const bench: Bench = {
  title: "Decision logs: bundle client decisions per second",
  async run() {
    const bundles = await startBundleServer();
    bundles.serve({ body: tarGz({ ".manifest": JSON.stringify({ revision: "1", roots: ["authz", "system"] }), "authz/policy.rego": POLICY, "authz/data.json": JSON.stringify({ admins: ["alice"] }), "system/log.rego": LOG_RULES }) });
    let received = 0;
    const sink = createServer((req, res) => {
      req.on("data", (c: Buffer) => (received += c.length));
      req.on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    const base = { services: { b: { url: bundles.url }, logs: { url: sinkUrl } }, bundles: { authz: { service: "b", resource: "x.tar.gz", polling: { min_delay_seconds: 60, max_delay_seconds: 60 } } } };
    const rows: [string, [number, number]][] = [];
    rows.push(["no decision logs", await measure(base, {})]);
    rows.push(["onDecision callback (drop and mask rules asked)", await measure(base, { onDecision: () => {} })]);
    const upload = { ...base, decision_logs: { service: "logs", reporting: { buffer_type: "event", buffer_size_limit_events: 100_000, min_delay_seconds: 0.05, max_delay_seconds: 0.1 } } };
    rows.push(["upload sink (gzip batches to a loopback service)", await measure(upload, {})]);
    sink.close();
    await bundles.close();
    const lines = [
      `${N} decisions per round in concurrent batches of ${BATCH} (\`client.decision\`, a 1-rule policy), median of 3 rounds after a warm-up; ${(received / 1e6).toFixed(1)} MB of gzip uploaded. CPU is the process's (all threads) per decision.`,
      "",
      "| decision logs | decisions/s | CPU µs/decision |",
      "|---|---|---|",
      ...rows.map(([what, [rate, us]]) => `| ${what} | ${Math.round(rate)} | ${us.toFixed(1)} |`),
    ];
    return lines.join("\n");
  },
};

export default bench;
