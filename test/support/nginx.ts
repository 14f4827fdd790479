// A private nginx for integration tests: its own temp directory (config, pid, logs, temp paths,
// document root), a free loopback port, started in the foreground and stopped by its pid. With
// `logSink`, it also takes `POST /logs` as a decision-log service: each body is kept as a file.
// `findNginx()` is undefined where nginx is not installed (tests skip then; CI installs it).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function findNginx(): string | undefined {
  for (const p of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(p)) return p;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() !== "" ? which.stdout.trim() : undefined;
}

export interface Nginx {
  url: string;
  /** The document root: files written here are served at `url/<path>`. */
  root: string;
  /** Writes a file under the document root (directories created). */
  put(path: string, content: string | Buffer): void;
  /** The access log (one line per request: `$request $status $http_authorization`) once a line
   * matches: nginx writes a request's line after its response, so a client can see the response
   * before the line is there. */
  logged(line: RegExp): Promise<string>;
  /** The bodies POSTed to `/logs` so far, in no particular order (with `logSink`). */
  logBodies(): Buffer[];
  /** Stops nginx, awaits `whileDown`, and starts it again on the same port and directory (files
   * and bodies kept). */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** Answer `POST /logs` with 204, keeping each request body as a file (a decision-log sink). */
  logSink?: boolean;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts nginx with `locations` (nginx `location` blocks) inside its one server block. */
export async function startNginx(binary: string, locations: string, options: NginxOptions = {}): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), "regoc-nginx-"));
  const root = join(dir, "www");
  mkdirSync(root);
  for (const t of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, t));
  const port = await freePort();
  const bodies = join(dir, "logs");
  mkdirSync(bodies);
  // nginx reads a request body only for a handler that uses it: the proxy reads it (kept as a file
  // by client_body_in_file_only) and asks this server for an empty answer.
  const logSink = options.logSink
    ? `
    location = /logs {
      client_body_in_file_only on;
      client_body_temp_path ${bodies};
      client_max_body_size 64m;
      proxy_method GET;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header Content-Encoding "";
      proxy_pass http://127.0.0.1:${port}/logs-stored;
    }
    location = /logs-stored { return 204; }
`
    : "";
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  writeFileSync(
    join(dir, "nginx.conf"),
    `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  log_format bundles '$request $status "$http_authorization"';
  access_log ${dir}/access.log bundles;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  default_type application/gzip;
  server {
    listen 127.0.0.1:${port};
    root ${root};
${locations}${logSink}
  }
}
`,
  );
  let child: ChildProcess;
  let exited: Promise<void>;
  const start = async () => {
    child = spawn(binary, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const end = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited at start: ${stderr}${readLog(join(dir, "error.log"))}`);
      if (await accepts(port)) break;
      if (Date.now() > end) {
        child.kill("SIGKILL");
        throw new Error(`nginx did not listen on ${port}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const halt = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    put(path, content) {
      const file = join(root, path);
      mkdirSync(dirname(file), { recursive: true });
      // A new file renamed into place: nginx never serves half of it.
      writeFileSync(`${file}.tmp`, content);
      renameSync(`${file}.tmp`, file);
    },
    async logged(line) {
      const until = Date.now() + 5000;
      for (;;) {
        const log = readLog(join(dir, "access.log"));
        if (line.test(log) || Date.now() > until) return log;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    logBodies() {
      return readdirSync(bodies).map((name) => readFileSync(join(bodies, name)));
    },
    async restart(whileDown) {
      await halt();
      await whileDown?.();
      await start();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}
