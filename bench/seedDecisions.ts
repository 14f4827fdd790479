// The seed decisions (generated/authz.ts, generated/api.ts) in a tight loop: ns per decision, and
// with `node --trace-gc` whether 1 000 000 decisions trigger a garbage collection (the lines
// between `-- name: begin` and `-- name: end`; the first 100 000 decisions warm up).
//   node --conditions=regoc-source --import tsx --trace-gc bench/seedDecisions.ts [decisions] [rounds]
import { readFileSync } from "node:fs";
import { authzAllow } from "../generated/authz.js";
import { apiAllow } from "../generated/api.js";

const data = JSON.parse(readFileSync(new URL("../policies/data.json", import.meta.url), "utf8"));
const authzInputs = [
  { user: { id: "root", role: "admin" }, action: "delete", resource: { type: "documents", owner_id: "x" } },
  { user: { id: "bob", role: "user" }, action: "update", resource: { type: "documents", owner_id: "bob" } },
  { user: { id: "alice", role: "user" }, action: "update", resource: { type: "documents", owner_id: "x" } },
  { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "reports", owner_id: "x" } },
];
const apiInputs = [
  { method: "GET", path: ["users"], user: { id: "alice", role: "user", authenticated: true } },
  { method: "GET", path: ["users", "alice"], user: { id: "alice", role: "user", authenticated: true } },
  { method: "POST", path: ["orders"], user: { id: "alice", role: "user", authenticated: true }, time: 10 },
  { method: "PUT", path: ["reports"], user: { id: "carol", role: "manager" }, action: "create", resource: "reports", time: "9" },
  { method: "PUT", path: ["reports"], user: { id: "dave", role: "manager" }, action: "create", resource: "reports", time: 12 },
];

const n = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 3);
let allowed = 0;
function run(name: string, fn: (input: never, data: never) => boolean, inputs: readonly object[]): void {
  for (let i = 0; i < 100_000; i++) if (fn(inputs[i % inputs.length] as never, data as never)) allowed++;
  // Under --trace-gc, the collections printed between these two lines happened during the rounds.
  console.log(`-- ${name}: begin`);
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (fn(inputs[i % inputs.length] as never, data as never)) allowed++;
    const ns = Number(process.hrtime.bigint() - t0) / n;
    console.log(`${name} round ${r + 1}: ${ns.toFixed(1)} ns/decision`);
  }
  console.log(`-- ${name}: end`);
}
run("authzAllow", authzAllow, authzInputs);
run("apiAllow", apiAllow, apiInputs);
console.log(`allowed ${allowed}`);
