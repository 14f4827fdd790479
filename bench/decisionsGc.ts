// The decision benchmark's GC check, run by bench/decisions.bench.ts under --trace-gc:
//   decisionsGc.ts <generated|hand> <decisions>
// loads the seed workloads (authz/allow, api/allow), warms up, then makes <decisions> decisions
// over their inputs in turn, and prints {"observed": n}: the GCs perf_hooks saw during the loop.
import { PerformanceObserver } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { WORKLOADS, loadGenerated } from "./workloads/index.js";

const [mode = "generated", count = "0"] = process.argv.slice(2);
const decisions = Number(count);

const calls: (() => unknown)[] = [];
for (const w of WORKLOADS.filter((x) => x.name === "authz" || x.name === "api")) {
  const fn = mode === "hand" ? w.handwritten : await loadGenerated(w);
  for (const [, input] of w.cases) calls.push(() => fn(input, w.data));
}
for (let i = 0; i < 20_000; i++) calls[i % calls.length]!();

let observed = 0;
const observer = new PerformanceObserver((list) => void (observed += list.getEntries().length));
observer.observe({ entryTypes: ["gc"] });
await sleep(50);
observed = 0;
let allowed = 0;
for (let i = 0; i < decisions; i++) if (calls[i % calls.length]!() === true) allowed++;
await sleep(50);
observer.disconnect();
process.stdout.write(`${JSON.stringify({ observed, allowed })}\n`);
