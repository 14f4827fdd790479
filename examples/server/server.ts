// The example server: Express, JWT authentication, decisions by the policies in policies/.
//
//   /api/*    decided by data.api.allow,   input + {action, resource: <first path segment>}
//   /admin/*  decided by data.authz.allow, input + {action, resource: {type, owner_id}} from
//             /admin/<type>/<owner_id>
//   action: GET/HEAD → "read", POST → "create", PUT/PATCH → "update", DELETE → "delete"
//   /healthz  unprotected
//
// `npm start` serves on PORT (default 8080) until SIGINT/SIGTERM. JWT_SECRET is the HS256 secret.
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import express, { type NextFunction, type Request, type Response } from "express";
import { Engine } from "regoc";
import { authorize, type RequestInput } from "regoc/express";
import { authenticate, secretFromEnv } from "./auth.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerOptions {
  /** Port to listen on; default $PORT or 8080; 0 picks a free port. */
  port?: number;
  /** Interface to listen on; default all. */
  host?: string;
  /** HS256 key; default from JWT_SECRET (with a warning for the development default). */
  key?: Uint8Array;
  /** Rego sources; default every .rego file of policies/. */
  modules?: Record<string, string>;
  /** The data document; default policies/data.json. */
  data?: unknown;
  /** Clock and hour for `input.time` (default: now, local hour). */
  now?: () => Date;
  hourOf?: (d: Date) => number;
  /** Where decision errors are logged (default console.error). */
  log?: (message: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  engine: Engine;
  server: Server;
  close(): Promise<void>;
}

const ACTIONS: Record<string, string> = { GET: "read", HEAD: "read", POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" };

export function actionOf(method: string): string {
  return Object.hasOwn(ACTIONS, method) ? ACTIONS[method]! : method.toLowerCase();
}

/** The Express app and the engine behind it. */
export async function createApp(options: ServerOptions = {}) {
  const engine = await Engine.create(options.modules ? { modules: options.modules } : { policyDir: `${root}policies` });
  engine.loadData("/", options.data ?? JSON.parse(readFileSync(`${root}policies/data.json`, "utf8")));
  const [api, authz] = await Promise.all([engine.authorizer("data.api.allow"), engine.authorizer("data.authz.allow")]);
  const key = options.key ?? secretFromEnv();
  const clock = {
    ...(options.now ? { now: options.now } : {}),
    ...(options.hourOf ? { hourOf: options.hourOf } : {}),
    ...(options.log ? { log: options.log } : {}),
  };

  const app = express();
  app.disable("x-powered-by");
  app.get("/healthz", (_req, res) => {
    res.type("text/plain").send("ok");
  });

  app.use(
    "/api",
    authenticate(key),
    authorize({
      authorizer: api,
      ...clock,
      extendInput: (input: RequestInput) => {
        input.action = actionOf(input.method);
        if (input.path.length > 0) input.resource = input.path[0];
      },
    }),
    granted,
  );

  app.use(
    "/admin",
    authenticate(key),
    authorize({
      authorizer: authz,
      ...clock,
      extendInput: (input: RequestInput) => {
        input.action = actionOf(input.method);
        const resource: Record<string, string> = {};
        if (input.path[0] !== undefined) resource.type = input.path[0];
        if (input.path[1] !== undefined) resource.owner_id = input.path[1];
        input.resource = resource;
      },
    }),
    granted,
  );

  app.use((_req: Request, res: Response) => {
    res.status(404).type("text/plain").send("Not Found");
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    (options.log ?? console.error)(`server error: ${err instanceof Error ? err.message : "unknown"}`);
    if (!res.headersSent) res.status(500).type("text/plain").send("Internal Server Error");
  });
  return { app, engine };
}

/** What a request that passed authorization gets. */
function granted(req: Request, res: Response): void {
  const user = (req as Request & { user?: { id?: unknown } }).user;
  res.json({ ok: true, method: req.method, path: req.baseUrl + req.path, user: user?.id ?? null });
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { app, engine } = await createApp(options);
  const port = options.port ?? (process.env.PORT ? Number(process.env.PORT) : 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${String(options.port ?? process.env.PORT)}`);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, options.host ?? "", () => resolve(s));
    s.once("error", reject);
  });
  const addr = server.address() as AddressInfo;
  const host = addr.address === "::" || addr.address === "0.0.0.0" ? "localhost" : addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    port: addr.port,
    engine,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

async function main(): Promise<void> {
  const running = await startServer();
  console.log(`regoc example server listening on ${running.url} (Ctrl-C to stop)`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const force = setTimeout(() => running.server.closeAllConnections(), 5000);
    force.unref();
    running.close().then(
      () => console.log("stopped"),
      (e: unknown) => {
        console.error(`shutdown: ${(e as Error).message}`);
        process.exitCode = 1;
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(`server failed to start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
