// A tiny bundle server: packs ./bundle (a .manifest, data.json and .rego files) into a tar.gz with
// node-tar on every request, serves it at /bundles/authz.tar.gz with an ETag (a hash of the archive),
// answers 304 to a matching If-None-Match, and wants `Authorization: Bearer <BUNDLE_TOKEN>`.
//
//   BUNDLE_TOKEN=dev-token PORT=8181 node --conditions=regoc-source --import tsx examples/bundle/server.ts
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { create } from "tar";

const dir = fileURLToPath(new URL("./bundle", import.meta.url));
const token = process.env.BUNDLE_TOKEN ?? "dev-token";
const port = Number(process.env.PORT ?? 8181);

async function pack(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  // portable + a fixed mtime: the same files give the same bytes, so the ETag only changes with them.
  const stream = create({ gzip: true, cwd: dir, portable: true, mtime: new Date(0) }, [".manifest", "authz"]);
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const server = createServer(async (req, res) => {
  if (req.url !== "/bundles/authz.tar.gz") return void res.writeHead(404).end("not found\n");
  if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end("unauthorized\n");
  const body = await pack();
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
  if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { ETag: etag }).end();
  console.log(`serving the bundle (${body.length} bytes, ETag ${etag})`);
  res.writeHead(200, { "Content-Type": "application/gzip", ETag: etag }).end(body);
});
server.listen(port, "127.0.0.1", () => console.log(`bundle server on http://127.0.0.1:${port}/bundles/authz.tar.gz`));
