// `regoc run --server` as a child process on a free loopback port, driven by OPA's own TypeScript
// client (@open-policy-agent/opa) as its README shows it (decisions and data filters), and by raw requests for the bad ones: a
// body over the limit (declared and chunked), malformed JSON, a path with no document, an
// evaluation error — each answered with OPA's status and code, and the server keeps serving.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { OPAClient, type Filters, type PrismaMask } from "@open-policy-agent/opa";
import { fetchJSON, type FetchedReply } from "../support/fetchJson.js";
import { FRUITS_FILTER_POLICY } from "../support/fruitsFilter.js";

const BIN = fileURLToPath(new URL("../../bin/regoc.js", import.meta.url));

// the policy and data of the client's README, plus a default decision, a conflict and a filter policy
const AUTHZ = `package authz

default allow := false
allow if input.subject == "alice"

conflict := x if { x := input.a }
conflict := x if { x := input.b }

good_a := ["a", "A", "A!"]
good_b := ["b"]
response.allowed if input.subject == "alice"
response.details contains "input.a is OK" if input.a in good_a
response.details contains "input.b is OK" if input.b in good_b
`;
const SYSTEM = `package system

main := data.authz.allow
`;

interface Running {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `regoc run --server --addr 127.0.0.1:0 ...` and waits for its "Initializing server." line. */
async function startServer(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, "run", "--server", "--addr", "127.0.0.1:0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /"addrs":\["([^"]+)"\]/.exec(err);
      if (m) resolve(`http://${m[1]}`);
    });
    void exited.then((code) => reject(new Error(`regoc run exited (${code}) before serving: ${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

function post(url: string, body: string | Readable, headers: Record<string, string> = {}): Promise<FetchedReply> {
  const init: RequestInit & { duplex?: string } = { method: "POST", body: body as BodyInit, headers: { "content-type": "application/json", ...headers } };
  if (body instanceof Readable) {
    init.body = Readable.toWeb(body) as unknown as BodyInit;
    init.duplex = "half";
  }
  return fetchJSON(url, init);
}

describe("regoc run --server with OPA's TypeScript client", function () {
  this.timeout(120_000);
  let dir: string;
  let server: Running;
  let opa: OPAClient;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "regoc-opa-server-"));
    mkdirSync(join(dir, "roles"));
    writeFileSync(join(dir, "authz.rego"), AUTHZ);
    writeFileSync(join(dir, "system.rego"), SYSTEM);
    writeFileSync(join(dir, "filters.rego"), FRUITS_FILTER_POLICY);
    writeFileSync(join(dir, "roles", "data.json"), JSON.stringify({ admin: ["read", "write"] }));
    // a limit under the 100 MB bodies below (OPA's default, 256 MiB, would read them)
    server = await startServer(["--set", "server.decoding.max_length=67108864", dir]);
    opa = new OPAClient(server.url);
  });

  after(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("evaluate: a simple query, with input, typed results and a result transformation (the README's examples)", async () => {
    expect(await opa.evaluate("authz/allow")).to.equal(false);
    expect(await opa.evaluate("authz/allow", { subject: "alice" })).to.equal(true);
    expect(await opa.evaluate("authz/allow", { subject: "bob" })).to.equal(false);
    const whole = await opa.evaluate<{ subject: string }, { allow: boolean }>("authz", { subject: "alice" });
    expect(whole.allow).to.equal(true);
    const allowed = await opa.evaluate<Record<string, string>, boolean>("authz/response", { subject: "alice", a: "A", b: "b" }, {
      fromResult: (r?: unknown) => (r as Record<string, boolean>)["allowed"] ?? false,
    });
    expect(allowed).to.equal(true);
    expect(await opa.evaluate("authz/response", { subject: "alice", a: "A", b: "b" })).to.deep.equal({ allowed: true, details: ["input.a is OK", "input.b is OK"] });
  });

  it("evaluate: data files are at their directory's path", async () => {
    expect(await opa.evaluate("roles")).to.deep.equal({ admin: ["read", "write"] });
    expect(await opa.evaluate("roles/admin/1")).to.equal("write");
  });

  it("evaluateDefault: POST / answers data.system.main", async () => {
    expect(await opa.evaluateDefault({ subject: "alice" })).to.equal(true);
    // the client itself refuses a falsy value ("no result in API response"): the raw answer is false
    const bob = await post(`${server.url}/`, JSON.stringify({ subject: "bob" }));
    expect(bob).to.deep.include({ status: 200, text: "false\n" });
  });

  const MASKS = { fruits: { supplier: { replace: { value: "<supplier>" } } } };
  const FRUITS = { fav_colours: ["red", "green"] };

  it("getFilters for Prisma: the where object and a mask function (the README's output)", async () => {
    const { query, mask } = (await opa.getFilters("filters/include", FRUITS, "fruits")) as Filters & PrismaMask;
    expect(query).to.deep.equal({ colour: { in: ["red", "green"] } });
    expect(mask({ id: 1, colour: "red", supplier: "ACME" })).to.deep.equal({ id: 1, colour: "red", supplier: "<supplier>" });
  });

  it("getFilters for PostgreSQL, with and without table mappings (the README's output)", async () => {
    expect(await opa.getFilters("filters/include", FRUITS, { target: "postgresql" })).to.deep.equal({ query: "WHERE fruits.colour IN (E'red', E'green')", masks: MASKS });
    const mapped = await opa.getFilters("filters/include", FRUITS, { target: "postgresql", tableMappings: { fruits: { $self: "f", colour: "col" } } });
    expect(mapped.query).to.equal("WHERE f.col IN (E'red', E'green')");
  });

  it("getMultipleFilters: one answer per target (the README's output)", async () => {
    const result = await opa.getMultipleFilters("filters/include", FRUITS, { targets: ["postgresql", "mysql", "ucastPrisma"] });
    expect(result).to.deep.equal({
      ucast: { query: { type: "field", operator: "in", field: "fruits.colour", value: ["red", "green"] }, masks: MASKS },
      postgresql: { query: "WHERE fruits.colour IN (E'red', E'green')", masks: MASKS },
      mysql: { query: "WHERE fruits.colour IN ('red', 'green')", masks: MASKS },
    });
  });

  it("an evaluation error is a 500 internal_error the client rejects with; the server keeps serving", async () => {
    let error: unknown;
    try {
      await opa.evaluate("authz/conflict", { a: 1, b: 2 });
    } catch (e) {
      error = e;
    }
    expect(error, "evaluate rejected").to.be.instanceOf(Error);
    expect(String((error as Error).message)).to.match(/internal_error|error\(s\) occurred while evaluating query/);
    const raw = await post(`${server.url}/v1/data/authz/conflict`, JSON.stringify({ input: { a: 1, b: 2 } }));
    expect(raw.status).to.equal(500);
    expect(raw.body).to.deep.include({ code: "internal_error", message: "error(s) occurred while evaluating query" });
    const errors = (raw.body as { errors: { code: string; location: { row: number } }[] }).errors;
    expect(errors[0]!.code).to.equal("eval_conflict_error");
    expect(errors[0]!.location.row).to.be.oneOf([6, 7]);
    expect(await opa.evaluate("authz/allow", { subject: "alice" })).to.equal(true);
  });

  it("a path with no document is 200 {} on /v1/data (OPA's answer), with the warning when the input key is missing", async () => {
    const r = await post(`${server.url}/v1/data/no/such/doc`, JSON.stringify({ input: {} }));
    expect(r).to.deep.include({ status: 200, body: {} });
    const w = await post(`${server.url}/v1/data/no/such/doc`, "");
    expect(w.body).to.deep.equal({ warning: { code: "api_usage_warning", message: "'input' key missing from the request" } });
    const get = await fetch(`${server.url}/v1/data/no/such/doc?pretty`);
    expect(get.status).to.equal(200);
    expect(await get.text()).to.equal("{}\n");
  });

  it("malformed JSON is a 400 invalid_parameter; the next request is answered", async () => {
    for (const path of ["/v1/data/authz/allow", "/"]) {
      const r = await post(server.url + path, '{"input": {"subject": ');
      expect(r.status, path).to.equal(400);
      expect((r.body as { code: string }).code, path).to.equal("invalid_parameter");
      expect((r.body as { message: string }).message, path).to.match(/malformed input document/);
    }
    const g = await fetch(`${server.url}/v1/data/authz/allow?input=${encodeURIComponent("{nope")}`);
    expect(g.status).to.equal(400);
    expect(((await g.json()) as { code: string }).code).to.equal("invalid_parameter");
    expect(await opa.evaluate("authz/allow", { subject: "alice" })).to.equal(true);
  });

  it("a 100 MB body, declared or chunked, is a 400 invalid_parameter 'request body too large'; the next request is answered", async () => {
    const big = Buffer.alloc(100 * 1024 * 1024, 0x20);
    const declared = await post(`${server.url}/v1/data/authz/allow`, big.toString("latin1"));
    expect(declared.status).to.equal(400);
    expect(declared.body).to.deep.equal({ code: "invalid_parameter", message: "request body too large" });
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const stream = new Readable({
      read() {
        if (sent >= 100) return void this.push(null);
        sent++;
        this.push(chunk);
      },
    });
    let chunked: FetchedReply | undefined;
    try {
      chunked = await post(`${server.url}/v1/data/authz/allow`, stream);
    } catch (e) {
      // the server may close the connection before the client has sent everything
      expect(String((e as Error).cause ?? e)).to.match(/other side closed|ECONNRESET|EPIPE|socket/i);
    }
    if (chunked) expect(chunked.body).to.deep.equal({ code: "invalid_parameter", message: "request body too large" });
    expect(await opa.evaluate("authz/allow", { subject: "alice" })).to.equal(true);
    const health = await fetch(`${server.url}/health`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({});
  });

  it("--bundle: a bundle directory's data.json files and .manifest roots; --log-level debug logs each request", async () => {
    const b = mkdtempSync(join(tmpdir(), "regoc-opa-server-bundle-"));
    try {
      mkdirSync(join(b, "authz"));
      writeFileSync(join(b, ".manifest"), JSON.stringify({ revision: "r1", roots: ["authz"] }));
      writeFileSync(join(b, "authz", "policy.rego"), "package authz\n\nallow if input.user in data.authz.admins\n");
      writeFileSync(join(b, "authz", "data.json"), JSON.stringify({ admins: ["root"] }));
      writeFileSync(join(b, "authz", "other.json"), JSON.stringify({ ignored: true }));
      const other = await startServer(["--bundle", "--log-level", "debug", b]);
      try {
        const client = new OPAClient(other.url);
        expect(await client.evaluate("authz/allow", { user: "root" })).to.equal(true);
        expect(await client.evaluate("authz", { user: "eve" })).to.deep.equal({ admins: ["root"] });
        for (let i = 0; i < 100 && !other.stderr().includes('"msg":"Sent response."'); i++) await new Promise((r) => setTimeout(r, 20));
        expect(other.stderr()).to.match(/"level":"debug","msg":"Sent response."/);
      } finally {
        other.child.kill("SIGTERM");
        expect(await other.exited).to.equal(0);
      }
    } finally {
      rmSync(b, { recursive: true, force: true });
    }
  });

  it("--v0-compatible serves Rego v0 policies", async () => {
    const v0 = mkdtempSync(join(tmpdir(), "regoc-opa-server-v0-"));
    try {
      writeFileSync(join(v0, "p.rego"), "package p\n\nallow { input.x == 1 }\nnames[n] { n := input.names[_] }\n");
      const other = await startServer(["--v0-compatible", v0]);
      try {
        const client = new OPAClient(other.url);
        expect(await client.evaluate("p/allow", { x: 1 })).to.equal(true);
        expect(await client.evaluate("p/names", { names: ["b", "a"] })).to.deep.equal(["a", "b"]);
      } finally {
        other.child.kill("SIGTERM");
        await other.exited;
      }
    } finally {
      rmSync(v0, { recursive: true, force: true });
    }
  });

  it("stops cleanly on SIGTERM", async () => {
    const other = await startServer([dir]);
    expect((await fetch(`${other.url}/health`)).status).to.equal(200);
    other.child.kill("SIGTERM");
    expect(await other.exited).to.equal(0);
    expect(other.stderr()).to.include('"msg":"Server shutdown."');
  });

  it("a policy that does not compile is reported with file:row:col, exit 1", async () => {
    const bad = mkdtempSync(join(tmpdir(), "regoc-opa-server-bad-"));
    try {
      writeFileSync(join(bad, "p.rego"), "package p\n\nallow if {\n  x := 1\n  x := 2\n}\n");
      const child = spawn(process.execPath, [BIN, "run", "--server", "--addr", "127.0.0.1:0", bad], { stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code).to.equal(1);
      expect(err).to.match(/p\.rego:5:\d+: rego_compile_error/);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
