// regoc/server in process: mounted in an Express app (with and without a body parser before it) or
// on node:http, over an Engine, a bundle client or an engine with data filters.
import { expect } from "chai";
import express from "express";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { Engine } from "regoc";
import { fetchJSON } from "../../support/fetchJson.js";
import { FRUITS_FILTER_POLICY } from "../../support/fruitsFilter.js";
import { acceptedTarget, opaRouter, pathSegments, dataQuery, type OpaRouterOptions, type CompileFilterOptions, type CompileFilterResponse } from "regoc/server";

const POLICY = `package authz

default allow := false
allow if input.subject == "alice"

conflict := x if { x := input.a }
conflict := x if { x := input.b }

items := ["zero", "one"]
`;

async function listen(handler: Parameters<typeof createServer>[1] | express.Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler as Parameters<typeof createServer>[1]);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const a = server.address() as { port: number };
  return { url: `http://127.0.0.1:${a.port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const call = fetchJSON;

const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

const FILTERS = `${FRUITS_FILTER_POLICY}
outside if {
  sum([input.fruits.price, 1]) > 3
}
`;

describe("regoc/server", () => {
  let engine: Engine;
  before(async () => {
    engine = await Engine.create({ modules: { "authz.rego": POLICY } });
    engine.loadData("/roles", { admin: ["read", "write"] });
  });

  /** Runs `fn` against an Express app with the router at /opa (and express.json() before it when asked). */
  async function withApp(options: Partial<OpaRouterOptions>, fn: (base: string) => Promise<void>, parser = false): Promise<void> {
    const app = express();
    if (parser) app.use(express.json());
    app.use("/opa", opaRouter({ engine, ...options }));
    app.use((_req, res) => void res.status(404).type("text/plain").send("app 404"));
    const s = await listen(app);
    try {
      await fn(`${s.url}/opa`);
    } finally {
      await s.close();
    }
  }

  for (const parser of [false, true]) {
    it(`answers data queries under an Express mount${parser ? " after express.json()" : ""}`, () =>
      withApp(
        {},
        async (base) => {
          expect((await call(`${base}/v1/data/authz/allow`, json({ input: { subject: "alice" } }))).body).to.deep.equal({ result: true });
          expect((await call(`${base}/v1/data/authz/allow`, json({ input: { subject: "bob" } }))).body).to.deep.equal({ result: false });
          expect((await call(`${base}/v1/data/roles/admin`)).body).to.deep.equal({ result: ["read", "write"] });
          const pretty = await call(`${base}/v1/data/roles?pretty=true`);
          expect(pretty.text).to.equal('{\n  "result": {\n    "admin": [\n      "read",\n      "write"\n    ]\n  }\n}\n');
          expect(pretty.type).to.match(/^application\/json/);
          const bad = await call(`${base}/v1/data/authz/allow`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1, 2]" });
          expect(bad.status).to.equal(400);
          expect((bad.body as { code: string }).code).to.equal("invalid_parameter");
          expect((await call(`${base}/elsewhere`)).text).to.equal("app 404");
        },
        parser,
      ));
  }

  it("GET input comes from the last ?input= parameter; metrics on ?metrics", () =>
    withApp({}, async (base) => {
      const r = await call(`${base}/v1/data/authz/allow?input=${encodeURIComponent('{"subject":"bob"}')}&input=${encodeURIComponent('{"subject":"alice"}')}&metrics`);
      const body = r.body as { result: boolean; metrics: Record<string, number> };
      expect(body.result).to.equal(true);
      expect(body.metrics["timer_server_handler_ns"]).to.be.a("number").above(0);
    }));

  it("paths: integer segments index arrays, %2F stays inside its segment, a quote is a 400", async () => {
    expect(pathSegments("/a/b%2Fc//0/")).to.deep.equal(["a", "b/c", "0"]);
    expect(dataQuery(["authz", "items", "1"])).to.equal('data["authz"]["items"][1]');
    await withApp({}, async (base) => {
      expect((await call(`${base}/v1/data/authz/items/1`)).body).to.deep.equal({ result: "one" });
      expect((await call(`${base}/v1/data/authz%2Fallow`)).body).to.deep.equal({});
      const q = await call(`${base}/v1/data/a%22b`);
      expect(q.status).to.equal(400);
      expect(q.body).to.deep.equal({ code: "invalid_parameter", message: "invalid path: invalid ref term 'a\"b'" });
    });
  });

  it("POST / answers the default decision; undefined is a 404 undefined_document", async () => {
    await withApp({}, async (base) => {
      const r = await call(`${base}/`, json({ subject: "alice" }));
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ code: "undefined_document", message: "document missing or undefined: data.system.main" });
    });
    await withApp({ defaultDecision: "/authz/allow" }, async (base) => {
      expect(await call(`${base}/`, json({ subject: "alice" }))).to.deep.include({ status: 200, text: "true\n" });
    });
  });

  it("an evaluation error is a 500 internal_error with the error in `errors`, logged by code only", async () => {
    const logs: unknown[] = [];
    await withApp({ log: (level, msg, fields) => logs.push({ level, msg, ...fields }) }, async (base) => {
      const r = await call(`${base}/v1/data/authz/conflict`, json({ input: { a: "secret-1", b: "secret-2" } }));
      expect(r.status).to.equal(500);
      const body = r.body as { code: string; message: string; errors: { code: string; location: { file: string } }[] };
      expect(body.code).to.equal("internal_error");
      expect(body.message).to.equal("error(s) occurred while evaluating query");
      expect(body.errors[0]!.code).to.equal("eval_conflict_error");
      expect(body.errors[0]!.location.file).to.equal("authz.rego");
    });
    expect(JSON.stringify(logs)).to.include("internal_error").and.not.include("secret");
  });

  it("body limits: over maxBodyBytes (declared or streamed) and gzip over maxGzipBytes are 400s; gzip within them is read", async () => {
    await withApp({ maxBodyBytes: 1000, maxGzipBytes: 5000 }, async (base) => {
      const big = JSON.stringify({ input: { pad: "x".repeat(2000) } });
      expect((await call(`${base}/v1/data/authz/allow`, { method: "POST", body: big })).body).to.deep.equal({ code: "invalid_parameter", message: "request body too large" });
      const small = gzipSync(JSON.stringify({ input: { subject: "alice" } }));
      expect((await call(`${base}/v1/data/authz/allow`, { method: "POST", headers: { "content-encoding": "gzip" }, body: small })).body).to.deep.equal({ result: true });
      const bomb = gzipSync(JSON.stringify({ input: { pad: " ".repeat(100_000) } }));
      expect(bomb.length).to.be.below(1000);
      expect((await call(`${base}/v1/data/authz/allow`, { method: "POST", headers: { "content-encoding": "gzip" }, body: bomb })).body).to.deep.equal({
        code: "invalid_parameter",
        message: "compressed request body too large",
      });
      expect((await call(`${base}/v1/data/authz/allow`, json({ input: { subject: "alice" } }))).body).to.deep.equal({ result: true });
    });
  });

  it("a body read by an earlier middleware (no req.body) is a 500 at once, not a request left hanging", async () => {
    const app = express();
    app.use((req, _res, next) => {
      req.on("data", () => {});
      req.on("end", () => next());
    });
    app.use(opaRouter({ engine }));
    const s = await listen(app);
    try {
      const r = await call(`${s.url}/v1/data/authz/allow`, { ...json({ input: { subject: "alice" } }), signal: AbortSignal.timeout(2000) });
      expect(r.status).to.equal(500);
      expect((r.body as { code: string }).code).to.equal("internal_error");
    } finally {
      await s.close();
    }
  });

  for (const parser of [false, true]) {
    it(`input nested deeper than Go's 10000 levels is a 400, as OPA's decoder refuses it${parser ? " (after express.json())" : ""}`, async () => {
      const app = express();
      if (parser) app.use(express.json({ limit: "1mb" }));
      app.use(opaRouter({ engine }));
      const s = await listen(app);
      const nested = (depth: number): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: `{"input": {"subject": "alice", "deep": ${"[".repeat(depth)}${"]".repeat(depth)}}}` });
      try {
        // The request object and the input are two levels: 9998 more is Go's limit. Our own JSON
        // reader (exact numbers) may run out of stack below it: also a 400.
        expect((await call(`${s.url}/v1/data/authz/allow`, nested(parser ? 9998 : 1000))).body).to.deep.equal({ result: true });
        const deep = await call(`${s.url}/v1/data/authz/allow`, nested(9999));
        expect([deep.status, (deep.body as { code: string }).code]).to.deep.equal([400, "invalid_parameter"]);
        if (parser) expect(deep.body).to.deep.equal({ code: "invalid_parameter", message: "body contains malformed input document: exceeded max depth" });
      } finally {
        await s.close();
      }
    });
  }

  it("methods OPA does not serve here are 405; /health is 200 {}", () =>
    withApp({}, async (base) => {
      expect((await call(`${base}/v1/data/x`, { method: "PUT", body: "{}" })).status).to.equal(405);
      expect((await call(`${base}/v1/data`, { method: "DELETE" })).status).to.equal(405);
      expect(await call(`${base}/health`)).to.deep.include({ status: 200, body: {} });
      expect(await call(`${base}/health/live`)).to.deep.include({ status: 500, body: { error: "health check (data.system.health.live) was undefined" } });
    }));

  it("over a bundle client: decisions by pkg/rule path; /health?bundles before activation is a 500", async () => {
    let active = false;
    const bundle = {
      decide: async ({ path, input }: { path: string; input?: unknown }) => (path === "authz/allow" ? { result: (input as { subject?: string })?.subject === "alice" } : {}),
      status: () => ({ lastSuccessfulActivation: active ? "now" : undefined }),
    };
    const s = await listen((req: IncomingMessage, res: ServerResponse) => void opaRouter({ bundle })(req, res));
    try {
      expect((await call(`${s.url}/v1/data/authz/allow`, json({ input: { subject: "alice" } }))).body).to.deep.equal({ result: true });
      expect((await call(`${s.url}/v1/data/no/rule`, json({ input: {} }))).body).to.deep.equal({});
      expect((await call(`${s.url}/v1/data/a-b/c`, json({ input: {} }))).status).to.equal(400);
      expect(await call(`${s.url}/health?bundles`)).to.deep.include({ status: 500, body: { error: "one or more bundles are not activated" } });
      active = true;
      expect(await call(`${s.url}/health?bundles`)).to.deep.include({ status: 200, body: {} });
      expect((await call(`${s.url}/nowhere`)).body).to.deep.equal({ code: "resource_not_found", message: "not found" });
    } finally {
      await s.close();
    }
  });

  it("POST /v1/compile/{path} goes to compileFilter with the negotiated target and the request's options", async () => {
    const seen: [string, CompileFilterOptions][] = [];
    const filtering = {
      evaluate: engine.evaluate.bind(engine),
      compileFilter: async (path: string, options: CompileFilterOptions): Promise<CompileFilterResponse> => (seen.push([path, options]), { result: { query: "WHERE fruits.colour = E'red'" } }),
    };
    const s = await listen((req: IncomingMessage, res: ServerResponse) => void opaRouter({ engine: filtering })(req, res));
    try {
      const r = await call(`${s.url}/v1/compile/filters/include`, {
        method: "POST",
        headers: { accept: "application/vnd.opa.sql.postgresql+json", "content-type": "application/json" },
        body: JSON.stringify({ input: { fav: "red" }, unknowns: ["input.fruits"], options: { targetSQLTableMappings: { postgresql: { fruits: { $self: "f" } } } } }),
      });
      expect(r.status).to.equal(200);
      expect(r.type).to.equal("application/vnd.opa.sql.postgresql+json");
      expect(r.body).to.deep.equal({ result: { query: "WHERE fruits.colour = E'red'" } });
      expect(seen[0]).to.deep.equal([
        "filters/include",
        { target: "application/vnd.opa.sql.postgresql+json", input: { fav: "red" }, unknowns: ["input.fruits"], tableMappings: { postgresql: { fruits: { $self: "f" } } } },
      ]);
    } finally {
      await s.close();
    }
    // without compileFilter the route is not served
    await withApp({ engine: { evaluate: engine.evaluate.bind(engine) } }, async (base) => {
      expect((await call(`${base}/v1/compile/filters/include`, json({}))).text).to.equal("app 404");
    });
  });

  it("the compile target is the Accept header, exactly one of OPA's media types", () => {
    expect(acceptedTarget("application/vnd.opa.ucast.prisma+json")).to.equal("application/vnd.opa.ucast.prisma+json");
    expect(() => acceptedTarget(undefined)).to.throw("Accept header: missing required header");
    expect(() => acceptedTarget("application/json;q=1, application/vnd.opa.multitarget+json;q=0.90")).to.throw("Accept header: multiple headers not supported");
    expect(() => acceptedTarget("text/html")).to.throw("Accept header: unsupported header: text/html");
  });

  it("POST /v1/compile/{path} over Engine.compileFilter: OPA's fruits example, its errors, and the server keeps serving", async () => {
    const filters = await Engine.create({ modules: { "filters.rego": FILTERS } });
    const s = await listen((req: IncomingMessage, res: ServerResponse) => void opaRouter({ engine: filters })(req, res));
    const compile = (accept: string, body: unknown) => call(`${s.url}/v1/compile/filters/include`, { method: "POST", headers: { accept, "content-type": "application/json" }, body: JSON.stringify(body) });
    try {
      const pg = await compile("application/vnd.opa.sql.postgresql+json", { input: { fav_colours: ["red", "green"] } });
      expect(pg.status).to.equal(200);
      expect(pg.type).to.equal("application/vnd.opa.sql.postgresql+json");
      expect(pg.body).to.deep.equal({ result: { query: "WHERE fruits.colour IN (E'red', E'green')", masks: { fruits: { supplier: { replace: { value: "<supplier>" } } } } } });
      const outside = await call(`${s.url}/v1/compile/filters/outside`, { method: "POST", headers: { accept: "application/vnd.opa.sql.postgresql+json" }, body: JSON.stringify({ input: {}, unknowns: ["input.fruits"] }) });
      expect(outside.status).to.equal(400);
      const body = outside.body as { code: string; message: string; errors: { code: string; location?: { row: number } }[] };
      expect(body.code).to.equal("evaluation_error");
      expect(body.message).to.equal("error(s) occurred while evaluating query");
      expect(body.errors[0]!.code).to.equal("pe_fragment_error");
      expect(body.errors[0]!.location?.row).to.equal(13);
      const noPath = await call(`${s.url}/v1/compile`, { method: "POST", headers: { accept: "application/vnd.opa.sql.postgresql+json" }, body: "{}" });
      expect(noPath.body).to.deep.equal({ code: "invalid_parameter", message: "missing required 'path' parameter" });
      const badTarget = await compile("application/vnd.opa.sql.oracle+json", {});
      expect(badTarget.body).to.deep.equal({ code: "invalid_parameter", message: "Accept header: unsupported header: application/vnd.opa.sql.oracle+json" });
      const badJson = await call(`${s.url}/v1/compile/filters/include`, { method: "POST", headers: { accept: "application/vnd.opa.sql.postgresql+json" }, body: "{" });
      expect(badJson.status).to.equal(400);
      expect((badJson.body as { code: string }).code).to.equal("invalid_parameter");
      expect((await compile("application/vnd.opa.ucast.all+json", { input: { fav_colours: ["red"] } })).body).to.deep.equal({
        result: { query: { type: "field", operator: "in", field: "fruits.colour", value: ["red"] }, masks: { fruits: { supplier: { replace: { value: "<supplier>" } } } } },
      });
    } finally {
      await s.close();
    }
  });
});
