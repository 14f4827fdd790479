// Runtime benchmark: the generated decision functions (ns per decision), the Authorizer's overhead
// over calling them directly, and requests/s of a protected route against the same route
// unprotected, measured in one run with autocannon (goal: protected/open ≥ 0.9).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Authorizer } from "regoc";
import { authorize } from "regoc/express";
import { apiAllow, type ApiData, type ApiInput } from "../generated/api.js";
import { authzAllow, type AuthzData, type AuthzInput } from "../generated/authz.js";
import { signToken } from "../examples/server/auth.js";
import { median, nsPerCall, type Bench } from "./util.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const data = JSON.parse(readFileSync(`${root}policies/data.json`, "utf8")) as ApiData & AuthzData;

const authzInputs: [string, AuthzInput][] = [
  ["admin → true (first rule)", { user: { id: "root", role: "admin" }, action: "delete", resource: { type: "documents", owner_id: "alice" } }],
  ["owner → true", { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "documents", owner_id: "bob" } }],
  ["permission → true (scan)", { user: { id: "alice", role: "user" }, action: "update", resource: { type: "documents", owner_id: "bob" } }],
  ["no rule → default false", { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "documents", owner_id: "alice" } }],
];
const apiBase = { headers: { host: ["example.test"] } };
const apiInputs: [string, ApiInput][] = [
  ["GET /users → true", { ...apiBase, method: "GET", path: ["users"], user: { id: "bob", role: "user", authenticated: true }, time: 10 }],
  ["GET /users/<own id> → true", { ...apiBase, method: "GET", path: ["users", "bob"], user: { id: "bob", role: "user", authenticated: true }, time: 10 }],
  ["composed rule → true (to_number, scan)", { ...apiBase, method: "GET", path: ["reports"], action: "read", resource: "reports", user: { id: "carol", role: "user", authenticated: true }, time: 10 }],
  ["composed rule at 22 → default false", { ...apiBase, method: "GET", path: ["reports"], action: "read", resource: "reports", user: { id: "carol", role: "user", authenticated: true }, time: 22 }],
];

const ROUNDS = 6;
const SECONDS = 3;

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}

interface Cannon {
  requests: { average: number; total: number };
  /** Server CPU µs per request during the run (added here). */
  cpuPerRequest?: number;
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

async function cannon(port: number, seconds: number, headers: Record<string, string> = {}): Promise<Cannon> {
  const { default: autocannon } = await import("autocannon");
  return autocannon({ url: `http://127.0.0.1:${port}/api/users`, connections: 32, pipelining: 1, duration: seconds, headers });
}

async function serverCpu(port: number): Promise<number> {
  const r = await fetch(`http://127.0.0.1:${port}/cpu`);
  return ((await r.json()) as { cpu: number }).cpu;
}

async function httpSection(middlewareNs: number): Promise<string> {
  const child = spawn(process.execPath, ["--conditions=regoc-source", "--import", "tsx", `${root}bench/runtimeServer.ts`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const ports = await new Promise<{ open: number; protected: number; jwt: number; control: number }>((resolve, reject) => {
      let buf = "";
      child.stdout.on("data", (c: Buffer) => {
        buf += c.toString();
        if (buf.includes("\n")) resolve(JSON.parse(buf.split("\n")[0]!));
      });
      child.on("exit", (code) => reject(new Error(`bench server exited (${code})`)));
    });
    const token = await signToken({ sub: "bob", role: "user" }, new TextEncoder().encode("bench-secret-bench-secret-bench-secret"));
    const auth = { authorization: `Bearer ${token}` };
    // Warm-up, then rounds of open/protected/jwt back to back (the order rotating), each round giving
    // its own ratios: paired rounds cancel the drift of a shared, busy machine.
    await cannon(ports.open, 2);
    await cannon(ports.protected, 2);
    await cannon(ports.jwt, 2, auth);
    type Key = "open" | "protected" | "jwt";
    const runs: Record<Key, Cannon[]> = { open: [], protected: [], jwt: [] };
    const ratios: { protected: number[]; jwt: number[] } = { protected: [], jwt: [] };
    const order: Key[] = ["open", "protected", "jwt"];
    for (let i = 0; i < ROUNDS; i++) {
      const round = {} as Record<Key, Cannon>;
      for (const k of [...order.slice(i % 3), ...order.slice(0, i % 3)]) {
        const cpu0 = await serverCpu(ports.control);
        round[k] = await cannon(ports[k], SECONDS, k === "jwt" ? auth : {});
        round[k].cpuPerRequest = ((await serverCpu(ports.control)) - cpu0) / round[k].requests.total;
        runs[k].push(round[k]);
      }
      ratios.protected.push(round.protected.requests.average / round.open.requests.average);
      ratios.jwt.push(round.jwt.requests.average / round.open.requests.average);
    }
    const rps = (k: Key) => median(runs[k].map((r) => r.requests.average));
    const cpu = (k: Key) => median(runs[k].map((r) => r.cpuPerRequest!));
    const p50 = (k: Key) => median(runs[k].map((r) => r.latency.p50));
    const bad = Object.values(runs).flat().reduce((n, r) => n + r.errors + r.non2xx, 0);
    const ratio = median(ratios.protected);
    const rows = [
      `| route GET /api/users | requests/s (median of ${ROUNDS} × ${SECONDS} s) | vs open (median of the rounds' ratios) | p50 latency | server CPU per request | vs open, from CPU |`,
      "|---|---|---|---|---|---|",
      `| open (no authorization) | ${fmt(rps("open"))} | 1.00 | ${p50("open")} ms | ${fmt(cpu("open"))} µs | 1.00 |`,
      `| **protected** (authorize() + Authorizer data.api.allow) | **${fmt(rps("protected"))}** | **${ratio.toFixed(2)}** | ${p50("protected")} ms | ${fmt(cpu("protected"))} µs | ${(cpu("open") / cpu("protected")).toFixed(2)} |`,
      `| JWT (jose HS256) + protected: the example server's stack | ${fmt(rps("jwt"))} | ${median(ratios.jwt).toFixed(2)} | ${p50("jwt")} ms | ${fmt(cpu("jwt"))} µs | ${(cpu("open") / cpu("jwt")).toFixed(2)} |`,
    ];
    return [
      "autocannon, 32 connections, the servers in their own process (one core each on this 2-core machine), the same handler on each route.",
      "Server CPU per request (process.cpuUsage around each run) is the steadier figure on a shared machine.",
      "",
      ...rows,
      "",
      `The middleware's own cost measured in process (${fmt(middlewareNs)} ns/request) against the open route's server CPU (${fmt(cpu("open"))} µs/request) bounds the ratio at ${(cpu("open") / (cpu("open") + middlewareNs / 1000)).toFixed(2)}.`,
      "",
      `Goal protected/open ≥ 0.9: **${ratio >= 0.9 ? "met" : "NOT met"}** (${ratio.toFixed(2)} by requests/s, rounds: ${ratios.protected.map((r) => r.toFixed(2)).join(", ")}; ${(cpu("open") / cpu("protected")).toFixed(2)} by server CPU). Errors and non-2xx answers: ${bad}.`,
    ].join("\n");
  } finally {
    child.kill("SIGTERM");
  }
}

const bench: Bench = {
  title: "Runtime: generated decisions, Authorizer overhead, protected vs open route",
  async run() {
    const lines: string[] = ["| decision | input | ns/decision |", "|---|---|---|"];
    for (const [note, input] of authzInputs) lines.push(`| authzAllow | ${note} | ${fmt(nsPerCall(() => authzAllow(input, data)))} |`);
    for (const [note, input] of apiInputs) lines.push(`| apiAllow | ${note} | ${fmt(nsPerCall(() => apiAllow(input, data)))} |`);

    const authorizer = await Authorizer.create({ modules: { "api.rego": readFileSync(`${root}policies/api.rego`, "utf8") }, query: "data.api.allow", data });
    const [, input] = apiInputs[2]!;
    const store = authorizer.store.read() as ApiData;
    const samples: [number, number][] = [];
    for (let i = 0; i < 5; i++) samples.push([nsPerCall(() => apiAllow(input, store), 300), nsPerCall(() => authorizer.authorizeSync(input), 300)]);
    const direct = median(samples.map((s) => s[0]));
    const wrapped = median(samples.map((s) => s[1]));
    const overhead = [
      "| call (composed rule → true) | ns/decision |",
      "|---|---|",
      `| generated apiAllow(input, data) | ${fmt(direct)} |`,
      `| authorizer.authorizeSync(input) (runtime-compiled, store snapshot, result check) | ${fmt(wrapped)} |`,
      `| **overhead** | **${fmt(wrapped - direct)} ns (${((wrapped / direct - 1) * 100).toFixed(0)} %)** |`,
    ];
    const mw = authorize({ authorizer, extendInput: (i) => void ((i.action = "read"), (i.resource = i.path[0])) });
    const req = { method: "GET", path: "/users", headers: { host: "127.0.0.1", "user-agent": "autocannon", accept: "*/*" }, user: { id: "bob", role: "user", authenticated: true } };
    const res = { status: () => res, type: () => res, send: () => res };
    let granted = 0;
    const mwNs = nsPerCall(() => void mw(req, res, () => void granted++));
    const middleware = [
      "| authorize() middleware, one request (fake req/res: input built, decided, next()) | ns/request |",
      "|---|---|",
      `| GET /users, Authorizer (sync path) | ${fmt(mwNs)} |`,
    ];
    if (granted === 0) throw new Error("the middleware never granted the request");
    return [lines.join("\n"), "", overhead.join("\n"), "", middleware.join("\n"), "", await httpSection(mwNs)].join("\n");
  },
};

export default bench;
