// http.send against a real node:http server on 127.0.0.1 (an ephemeral port), through the
// registry's async invoke policy, as generated code calls it.
import { expect } from "chai";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { RegoError, toJSON, toJSONText, type Value } from "regoc";
import { EvalContext } from "../../runtime/builtins/context.js";
import { type PlainObject } from "../../runtime/value/value.js";
import { clearHttpSendCache } from "../../runtime/builtins/http/cache.js";
import { builtinErrorAsync, callBuiltinAsync } from "../support/builtins.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
let server: Server;
let base = "";

function route(path: string, handler: Handler): void {
  routes.set(path, handler);
}

async function send(request: Value, ctx = new EvalContext({ strictBuiltinErrors: true })): Promise<Record<string, unknown>> {
  const got = await callBuiltinAsync("http.send", [request], {}, ctx);
  return toJSON(got!) as Record<string, unknown>;
}

/** The error http.send fails with (strict), checked to have this code. */
async function sendError(request: Value, code = "eval_builtin_error"): Promise<RegoError> {
  const err = await builtinErrorAsync("http.send", [request]);
  expect(err.code, err.message).to.equal(code);
  return err;
}

describe("integration: http.send", function () {
  this.timeout(20_000);

  before(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const h = routes.get(path);
        if (h) h(req, body, res);
        else {
          res.statusCode = 404;
          res.end("not found");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    route("/echo", (req, body, res) => {
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.end(JSON.stringify({ method: req.method, body, headers: req.headers, url: req.url }));
    });
    route("/text", (_req, _body, res) => {
      res.setHeader("content-type", "text/plain");
      res.setHeader("x-multi", ["a", "b"]);
      res.end('{"not": "decoded"}');
    });
    route("/yaml", (_req, _body, res) => {
      res.setHeader("content-type", "application/yaml");
      res.end("a: 1\nb: [x, y]\n");
    });
    route("/yamljson", (_req, _body, res) => {
      res.setHeader("content-type", "application/x-yaml");
      res.end('{"n": 12345678901234567890123, "s": "y"}');
    });
    route("/badjson", (_req, _body, res) => {
      res.setHeader("content-type", "application/json");
      res.end("{oops");
    });
    route("/redirect", (_req, _body, res) => {
      res.statusCode = 302;
      res.setHeader("location", "/echo");
      res.end();
    });
    route("/loop", (_req, _body, res) => {
      res.statusCode = 302;
      res.setHeader("location", "/loop");
      res.end();
    });
    route("/slow", () => {
      // never answers: the client's timeout ends the exchange (the after hook closes what is left)
    });
    route("/counted", (_req, _body, res) => {
      res.setHeader("cache-control", "max-age=60");
      res.setHeader("date", new Date().toUTCString());
      res.end(String(hits.get("/counted")));
    });
    route("/nostore", (_req, _body, res) => {
      res.setHeader("cache-control", "no-store");
      res.end(String(hits.get("/nostore")));
    });
    route("/fail", (_req, _body, res) => {
      res.statusCode = 500;
      res.end(String(hits.get("/fail")));
    });
  });

  after(() => {
    server.closeAllConnections();
    server.close();
    clearHttpSendCache(); // the inter-query cache is process-wide: leave nothing for other suites
  });

  beforeEach(() => {
    hits.clear();
    clearHttpSendCache();
  });

  it("sends the method, JSON body and headers, and decodes a JSON response", async () => {
    const res = await send({ method: "post", url: `${base}/echo`, body: { a: [1, 2] }, headers: { "X-Test": "yes" } });
    expect(res["status_code"]).to.equal(200);
    expect(res["status"]).to.equal("200 OK");
    const body = res["body"] as { method: string; body: string; headers: Record<string, string> };
    expect(body.method).to.equal("POST");
    expect(body.body).to.equal('{"a":[1,2]}');
    expect(body.headers["x-test"]).to.equal("yes");
    expect(body.headers["user-agent"]).to.match(/^Open Policy Agent\//);
    expect(res["raw_body"]).to.equal(JSON.stringify(body));
    expect((res["headers"] as Record<string, string[]>)["content-type"]).to.deep.equal(["application/json; charset=utf-8"]);
  });

  it("sends raw_body as it is, and keeps the caller's User-Agent", async () => {
    const res = await send({ method: "PUT", url: `${base}/echo`, raw_body: "plain text", headers: { "User-Agent": "mine" } });
    const body = res["body"] as { body: string; headers: Record<string, string> };
    expect(body.body).to.equal("plain text");
    expect(body.headers["user-agent"]).to.equal("mine");
  });

  it("leaves non-JSON bodies undecoded unless forced; lists repeated headers", async () => {
    const res = await send({ method: "GET", url: `${base}/text` });
    expect(res["body"]).to.equal(null);
    expect(res["raw_body"]).to.equal('{"not": "decoded"}');
    expect((res["headers"] as Record<string, string[]>)["x-multi"]).to.deep.equal(["a", "b"]);
    const forced = await send({ method: "GET", url: `${base}/text`, force_json_decode: true });
    expect(forced["body"]).to.deep.equal({ not: "decoded" });
  });

  it("decodes YAML, and gives null for a body that does not decode", async () => {
    // OPA decodes with go-yaml v2 (YAML 1.1), as yaml.unmarshal does: a plain `y` is the boolean true.
    expect((await send({ method: "GET", url: `${base}/yaml` }))["body"]).to.deep.equal({ a: 1, b: ["x", true] });
    // JSON text under a YAML type is decoded as JSON first (OPA's util.Unmarshal): exact numbers.
    const res = await callBuiltinAsync("http.send", [{ method: "GET", url: `${base}/yamljson` }]);
    expect(toJSONText((res as PlainObject)["body"]!)).to.equal('{"n":12345678901234567890123,"s":"y"}');
    expect((await send({ method: "GET", url: `${base}/badjson` }))["body"]).to.equal(null);
  });

  it("does not follow redirects unless enable_redirect is set", async () => {
    const res = await send({ method: "GET", url: `${base}/redirect` });
    expect(res["status_code"]).to.equal(302);
    expect((res["headers"] as Record<string, string[]>)["location"]).to.deep.equal(["/echo"]);
    const followed = await send({ method: "GET", url: `${base}/redirect`, enable_redirect: true });
    expect(followed["status_code"]).to.equal(200);
    expect((followed["body"] as { url: string }).url).to.equal("/echo");
  });

  it("stops a redirect loop after 10 redirects", async () => {
    const err = await sendError({ method: "GET", url: `${base}/loop`, enable_redirect: true });
    expect(err.message).to.equal(`http.send: Get "${base}/loop": stopped after 10 redirects`);
  });

  it("times out with OPA's message, or an error object with raise_error false", async () => {
    const err = await sendError({ method: "GET", url: `${base}/slow`, timeout: "100ms" });
    expect(err.message).to.equal(`http.send: Get ${base}/slow: request timed out`);
    const res = await send({ method: "GET", url: `${base}/slow`, timeout: 100_000_000, raise_error: false });
    expect(res["status_code"]).to.equal(0);
    expect((res["error"] as { code: string }).code).to.equal("eval_http_send_network_error");
  });

  it("turns a refused connection into a network error", async () => {
    const err = await sendError({ method: "GET", url: "http://127.0.0.1:1/" });
    expect(err.message).to.equal('http.send: Get "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: connection refused');
    const res = await send({ method: "GET", url: "http://127.0.0.1:1/", raise_error: false });
    expect(res).to.deep.equal({
      status_code: 0,
      error: { code: "eval_http_send_network_error", message: 'Get "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: connection refused' },
    });
  });

  it("retries failed connections max_retry_attempts times", async () => {
    // A TCP server that hangs up on every connection: each attempt is one connection.
    let attempts = 0;
    const hangUp = createTcpServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(hangUp.address() as AddressInfo).port}/`;
    try {
      const res = await send({ method: "GET", url, raise_error: false, max_retry_attempts: 2 });
      expect(res["status_code"]).to.equal(0);
      expect((res["error"] as { code: string }).code).to.equal("eval_http_send_network_error");
      expect(attempts).to.equal(3);
      attempts = 0;
      await send({ method: "GET", url, raise_error: false });
      expect(attempts).to.equal(1);
    } finally {
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });

  it("checks the request object with OPA's messages", async () => {
    const bad = await sendError({ method: "GET", url: base, nope: 1 }, "eval_type_error");
    expect(bad.message).to.equal('http.send: operand 1 invalid request parameters(s): {"nope"}');
    expect((await sendError({ url: base }, "eval_type_error")).message).to.equal('http.send: operand 1 missing required request parameters(s): {"method"}');
    expect((await sendError({ method: "GET", url: 1 })).message).to.equal('http.send: "url" must be a string');
    expect((await sendError({ method: "GET", url: base, timeout: "soon" })).message).to.equal(
      'http.send: invalid timeout value "soon": time: invalid duration "soon"',
    );
    expect((await sendError({ method: "GET", url: base, raise_error: "no" })).message).to.equal("http.send: invalid value for raise_error field");
    expect((await sendError({ method: "GET", url: base, headers: { a: 1 } })).message).to.equal("http.send: invalid type for headers value 1");
    const quiet = await send({ url: base, raise_error: false });
    expect(quiet["error"]).to.deep.equal({
      code: "eval_http_send_internal_error",
      message: 'eval_type_error: http.send: operand 1 missing required request parameters(s): {"method"}',
    });
  });

  it("refuses unsupported schemes", async () => {
    const err = await sendError({ method: "GET", url: "ftp://127.0.0.1/x" });
    expect(err.message).to.equal('http.send: Get "ftp://127.0.0.1/x": unsupported protocol scheme "ftp"');
  });

  it("gives one answer per request within an evaluation", async () => {
    const ctx = new EvalContext();
    const a = await send({ method: "GET", url: `${base}/counted` }, ctx);
    const b = await send({ method: "GET", url: `${base}/counted` }, ctx);
    expect(a["raw_body"]).to.equal("1");
    expect(b["raw_body"]).to.equal("1");
    expect(hits.get("/counted")).to.equal(1);
    // another evaluation asks again
    expect((await send({ method: "GET", url: `${base}/counted` }))["raw_body"]).to.equal("2");
  });

  it("asks again for uncacheable statuses within an evaluation", async () => {
    const ctx = new EvalContext();
    await send({ method: "GET", url: `${base}/fail` }, ctx);
    await send({ method: "GET", url: `${base}/fail` }, ctx);
    expect(hits.get("/fail")).to.equal(2);
  });

  it("ignores cache_ignored_headers in the cache key", async () => {
    const ctx = new EvalContext();
    await send({ method: "GET", url: `${base}/counted`, headers: { "X-Req": "1" }, cache_ignored_headers: ["X-Req"] }, ctx);
    await send({ method: "GET", url: `${base}/counted`, headers: { "X-Req": "2" }, cache_ignored_headers: ["X-Req"] }, ctx);
    expect(hits.get("/counted")).to.equal(1);
  });

  it("keeps responses across evaluations with cache: true, as Cache-Control allows", async () => {
    const first = await send({ method: "GET", url: `${base}/counted`, cache: true });
    const second = await send({ method: "GET", url: `${base}/counted`, cache: true });
    expect(first["raw_body"]).to.equal("1");
    expect(second["raw_body"]).to.equal("1");
    expect(hits.get("/counted")).to.equal(1);
    await send({ method: "GET", url: `${base}/nostore`, cache: true });
    await send({ method: "GET", url: `${base}/nostore`, cache: true });
    expect(hits.get("/nostore")).to.equal(2);
  });

  it("honours force_cache for force_cache_duration_seconds of evaluation time", async () => {
    let now = 1_700_000_000_000_000_000n;
    const ctx = () => new EvalContext({ now: () => now });
    const req = { method: "GET", url: `${base}/nostore`, force_cache: true, force_cache_duration_seconds: 10 };
    await send(req, ctx());
    await send(req, ctx());
    expect(hits.get("/nostore")).to.equal(1);
    now += 11_000_000_000n;
    await send(req, ctx());
    expect(hits.get("/nostore")).to.equal(2);
    expect((await sendError({ method: "GET", url: base, force_cache: true })).message).to.equal(
      "http.send: 'force_cache' set but 'force_cache_duration_seconds' parameter is missing",
    );
  });

  it("is undefined for a failure when not strict", async () => {
    const got = await callBuiltinAsync("http.send", [{ method: "GET", url: "http://127.0.0.1:1/" }], {});
    expect(got).to.equal(undefined);
  });
});
