// `regoc run --server [--addr host:port] [--bundle] <paths...>`: serves OPA's REST API
// (runtime/server.ts) over the policies and data under the paths, loaded as `opa run` loads them
// (data files at their directory's path; with --bundle each path is a bundle directory or
// archive), until SIGINT or SIGTERM. Logs are JSON lines on stderr, as OPA's.
import { createServer, type Server } from "node:http";
import { parseArgs } from "node:util";
import { RegoError, RegoErrors } from "../../runtime/errors.js";
import type { LogLevel } from "../../runtime/server.js";
import type { CliCommand } from "../cli.js";
import { formatDiagnostics, loadBundles, loadSources } from "./sources.js";
import { flagError, unsupportedFlagValueError, usageError } from "./errors.js";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

/** The `--set` keys of OPA's configuration this server reads. */
const SETTINGS = ["server.decoding.max_length", "server.decoding.gzip.max_length", "default_decision"] as const;

const command: CliCommand = {
  summary: "serve OPA's REST API (data, compile, health) over Rego policies and data",
  usage:
    "usage: regoc run --server [-a host:port] [-b] [--v0-compatible] [--log-level debug|info|error] [--set key=value]... [--ignore GLOB]... <paths...>\n" +
    "  -s, --server   serve OPA's REST API (the only mode; OPA's REPL is not provided)\n" +
    "  -a, --addr     where to listen (default localhost:8181; port 0 picks a free port, logged at start)\n" +
    "  -b, --bundle   each path is a bundle (directory or .tar.gz)\n" +
    "  --log-level    debug (every request), info (default), error\n" +
    `  --set          OPA configuration values: ${SETTINGS.join(", ")}\n` +
    "  --ignore       skip files and directories whose name matches (Go filepath.Match; repeatable)",
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        server: { type: "boolean", short: "s", default: false },
        addr: { type: "string", short: "a", multiple: true },
        bundle: { type: "boolean", short: "b", default: false },
        "v0-compatible": { type: "boolean", default: false },
        "log-level": { type: "string", short: "l", default: "info" },
        "log-format": { type: "string", default: "json" },
        set: { type: "string", multiple: true },
        ignore: { type: "string", multiple: true },
      },
      allowPositionals: true,
      strict: true,
    });
    if (!values.server) throw usageError("regoc run: only the server mode is supported: pass --server");
    const level = values["log-level"] as LogLevel;
    if (!LEVELS.includes(level)) throw flagError("--log-level", `'${level}' is not one of ${LEVELS.join(", ")}`);
    if (values["log-format"] !== "json") throw flagError("--log-format", "only 'json' is supported");
    const addrs = values.addr ?? ["localhost:8181"];
    if (addrs.length !== 1) throw flagError("--addr", "one address only");
    const { host, port } = parseAddr(addrs[0]!);
    const settings = parseSettings(values.set ?? []);
    const v0 = values["v0-compatible"] === true;
    const log = logger(level);

    const loaded = values.bundle ? await loadBundles(positionals, { ignore: values.ignore ?? [], v0Compatible: v0 }) : loadSources(positionals, { ignore: values.ignore ?? [] });
    const { Engine } = await import("../../runtime/engine.js");
    const { toJSON } = await import("../../runtime/value/json.js");
    let engine;
    try {
      engine = await Engine.create({ modules: loaded.modules, v0Compatible: v0 });
    } catch (e) {
      const cause = (e as { cause?: unknown }).cause ?? e;
      const errors = cause instanceof RegoErrors ? [...cause.errors] : cause instanceof RegoError ? [cause] : undefined;
      if (!errors) throw e;
      process.stderr.write(formatDiagnostics(errors, [], loaded.modules));
      return 1;
    }
    engine.loadData("/", toJSON(loaded.data));

    const { opaRouter } = await import("../../runtime/server.js");
    const handler = opaRouter({
      engine,
      log,
      ...(settings["server.decoding.max_length"] !== undefined && { maxBodyBytes: settings["server.decoding.max_length"] }),
      ...(settings["server.decoding.gzip.max_length"] !== undefined && { maxGzipBytes: settings["server.decoding.gzip.max_length"] }),
      ...(settings["default_decision"] !== undefined && { defaultDecision: settings["default_decision"] }),
    });
    const server = createServer((req, res) => {
      log("debug", "Received request.", { req_method: req.method, req_path: (req.url ?? "").split("?")[0] });
      void handler(req, res, () => {
        // Go's ServeMux answer for a path no route serves
        res.statusCode = 404;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("404 page not found\n");
      });
    });
    await listen(server, host, port);
    const a = server.address();
    const bound = typeof a === "object" && a !== null ? `${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}` : String(a);
    log("info", "Initializing server.", { addrs: [bound], modules: Object.keys(loaded.modules).length });
    return new Promise<number>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        log("info", "Shutting down...", { signal });
        server.close(() => {
          log("info", "Server shutdown.", {});
          resolve(0);
        });
        server.closeIdleConnections();
        // requests still running get a grace period, then their connections are cut
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
  },
};

/** "host:port", ":port" (every interface) or "[v6]:port". */
function parseAddr(addr: string): { host: string | undefined; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(addr);
  if (!m) throw flagError("--addr", `'${addr}' is not host:port`);
  const port = Number(m[3]);
  if (port > 65535) throw flagError("--addr", `port ${port} is out of range`);
  const host = m[1] ?? m[2];
  return { host: host === "" ? undefined : host, port };
}

function parseSettings(sets: readonly string[]): { "server.decoding.max_length"?: number; "server.decoding.gzip.max_length"?: number; default_decision?: string } {
  const out: Record<string, number | string> = {};
  for (const s of sets) {
    const i = s.indexOf("=");
    const key = i === -1 ? s : s.slice(0, i);
    const value = i === -1 ? "" : s.slice(i + 1);
    if (!(SETTINGS as readonly string[]).includes(key)) throw unsupportedFlagValueError("--set", key, SETTINGS.join(", "));
    if (key === "default_decision") {
      if (value.replace(/^\/+|\/+$/g, "") === "") throw flagError("--set default_decision", "a path such as /system/main");
      out[key] = value;
    } else {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n <= 0) throw flagError(`--set ${key}`, "should be a positive number of bytes");
      out[key] = n;
    }
  }
  return out;
}

function logger(min: LogLevel) {
  const floor = LEVELS.indexOf(min);
  return (level: LogLevel, msg: string, fields: Record<string, unknown>): void => {
    if (LEVELS.indexOf(level) < floor) return;
    process.stderr.write(`${JSON.stringify({ ...fields, level, msg, time: new Date().toISOString() })}\n`);
  };
}

function listen(server: Server, host: string | undefined, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => reject(flagError("--addr", `cannot listen on ${host ?? ""}:${port}: ${e.code ?? e.message}`));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

export default command;
