// Bundles for the bundle-client tests: tar.gz archives built in memory with node-tar's Header
// (so that tests can also build hostile entries: "../x", symlinks), and a real HTTP bundle server
// on 127.0.0.1 (ephemeral port) whose answer each test sets.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { Header } from "tar";
import type { BundleClient, BundleStatus, RegoError } from "regoc";

export interface TarEntry {
  path: string;
  /** File content; absent for non-file entries. */
  content?: string | Buffer;
  type?: "File" | "Directory" | "SymbolicLink";
  linkpath?: string;
}

/** A tar.gz of the entries, in order. Plain `{path: content}` objects are accepted too. */
export function tarGz(entries: TarEntry[] | Record<string, string>): Buffer {
  const list: TarEntry[] = Array.isArray(entries) ? entries : Object.entries(entries).map(([path, content]) => ({ path, content }));
  const blocks: Buffer[] = [];
  for (const e of list) {
    const body = e.content === undefined ? Buffer.alloc(0) : Buffer.from(e.content);
    const header = Buffer.alloc(512);
    const type = e.type ?? "File";
    new Header({ path: e.path, mode: type === "Directory" ? 0o755 : 0o644, size: body.length, mtime: new Date(0), type, ...(e.linkpath ? { linkpath: e.linkpath } : {}) }).encode(header, 0);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export interface ServedBundle {
  status?: number;
  body?: Buffer;
  etag?: string;
}

export interface BundleServer {
  url: string;
  /** What the next requests get. */
  serve(bundle: ServedBundle): void;
  /** Headers of every request so far. */
  requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startBundleServer(): Promise<BundleServer> {
  let current: ServedBundle = { status: 404 };
  const requests: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    const { status = 200, body, etag } = current;
    if (status === 200 && etag !== undefined && req.headers["if-none-match"] === etag) {
      res.writeHead(304, { ETag: etag }).end();
      return;
    }
    res.writeHead(status, { "Content-Type": "application/gzip", ...(etag ? { ETag: etag } : {}) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (b) => void (current = b),
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The client's next `name` event for which `test` holds. */
export function nextEvent<T>(client: BundleClient, name: "activated" | "failed" | "unchanged", test: (x: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    // (the listener takes the event's first argument: its status, or its error for "failed")
    const on = ((x: T) => test(x) && (client.off(name, on), resolve(x))) as never;
    client.on(name, on);
  });
}

/** The next "activated" event with this revision (of the named bundle, when given). */
export const activated = (client: BundleClient, revision: string, bundle?: string): Promise<BundleStatus> =>
  nextEvent<BundleStatus>(client, "activated", (s) => s.revision === revision && (bundle === undefined || s.name === bundle));

/** The next "failed" event. */
export const failed = (client: BundleClient): Promise<RegoError> => nextEvent<RegoError>(client, "failed");

/** The decision authz/allow for the user, as the bundle tests' policies define it. */
export const allow = async (client: BundleClient, user: string): Promise<unknown> => (await client.decide({ path: "authz/allow", input: { user } })).result;

/** Uploads the client's buffered decision logs, trying again (every 100 ms, at most 50 times)
 * while the log service is still coming back. */
export async function flushLogsRetrying(client: BundleClient): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      return await client.flushLogs();
    } catch (e) {
      if (tries > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
