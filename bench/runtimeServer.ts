// The servers `bench/runtime.bench.ts` loads with autocannon, in their own process (the load
// generator gets the other core). Three listeners serve the same route, GET /api/users, with the
// same handler; a stub sets req.user in each, so that they differ only in what they measure:
//   open       no authorization
//   protected  regoc/express authorize() with an Authorizer for data.api.allow
//   jwt        JWT authentication (jose, HS256) + the same authorization: the example server's stack
// Prints one line of JSON with the ports (and a control port: GET /cpu), then serves until killed.
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { Engine } from "regoc";
import { authorize } from "regoc/express";
import { authenticate } from "../examples/server/auth.js";

const root = new URL("..", import.meta.url);
const key = new TextEncoder().encode(process.env.BENCH_JWT_SECRET ?? "bench-secret-bench-secret-bench-secret");

const engine = await Engine.create({
  modules: {
    "api.rego": readFileSync(new URL("policies/api.rego", root), "utf8"),
  },
});
engine.loadData("/", JSON.parse(readFileSync(new URL("policies/data.json", root), "utf8")));
const authorizer = await engine.authorizer("data.api.allow");

const stubUser = (req: Request, _res: Response, next: NextFunction) => {
  (req as Request & { user?: unknown }).user = { id: "bob", role: "user", authenticated: true };
  next();
};
const handler = (_req: Request, res: Response) => {
  res.json({ ok: true });
};
const guard = authorize({ authorizer, extendInput: (i) => void ((i.action = "read"), (i.resource = i.path[0])) });

function listen(app: express.Express): Promise<number> {
  return new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port));
  });
}

// Mounted at /api as in the example server: the policy sees the path ["users"].
const routes = () => express.Router().get("/users", handler);
const open = express();
open.use("/api", stubUser, routes());
const prot = express();
prot.use("/api", stubUser, guard, routes());
const jwt = express();
jwt.use("/api", authenticate(key), guard, routes());
for (const app of [open, prot, jwt]) app.disable("x-powered-by");

// The server process's CPU time (µs), read between load runs: CPU per request is less disturbed by
// other processes on a shared machine than requests/s.
const control = express();
control.get("/cpu", (_req, res) => {
  const u = process.cpuUsage();
  res.json({ cpu: u.user + u.system });
});

const ports = { open: await listen(open), protected: await listen(prot), jwt: await listen(jwt), control: await listen(control) };
process.stdout.write(`${JSON.stringify(ports)}\n`);
// Exit normally on a signal (so that --cpu-prof writes its profile when profiling this server).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
