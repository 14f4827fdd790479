// A raw HTTP/1.1 client for the server tests: exact bytes on the wire (repeated headers, odd paths,
// hand-made tokens), one request per connection.
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `GET path` (or another method) with the given header lines and reads the whole answer. */
export function rawRequest(port: number, method: string, path: string, headerLines: string[] = []): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("timeout")));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (!m) return reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers, body: rest.join("\r\n\r\n") });
    });
    const req = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close", ...headerLines, "", ""].join("\r\n");
    socket.write(req);
  });
}
