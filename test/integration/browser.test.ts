// Generated modules in browsers: bundled with esbuild for platform "browser" (no externals, shims or
// aliases), they run in a fresh V8 context without any of Node's globals, and the page of
// examples/browser decides in headless Chromium (skipped, saying so, where Chromium is absent).
import { expect } from "chai";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { createContext, runInContext } from "node:vm";
import { generateTypeScript, planRego } from "regoc/compiler";
import { browserBundle, buildBrowserExample } from "../../scripts/browser-bundle.js";
import { repoRoot } from "../support/shared.js";

/** A decision made inside `context`: input and data are made there from JSON (a value of the
 * host's realm is not what a page would hand the function). */
function decide(context: object, call: string, input: unknown, data: unknown): unknown {
  return runInContext(`${call}(JSON.parse(${JSON.stringify(JSON.stringify(input))}), JSON.parse(${JSON.stringify(JSON.stringify(data))}))`, context);
}

const GRANTS = { permissions: { carol: [{ action: "read", resource: "reports" }] } };

describe("a generated module bundled for browsers", function () {
  this.timeout(120_000);

  it("authz bundles without Node's modules and decides in a bare V8 context", async () => {
    const bundle = await browserBundle("generated/authz.ts", { format: "iife", globalName: "authz", source: true });
    // Only the runtime's evaluation core and the module: no builtin category, nothing of Node's.
    expect(bundle.inputs.filter((f) => !f.startsWith("runtime/value/") && !f.startsWith("runtime/eval/"))).to.have.members([
      "generated/authz.ts",
      "runtime/errors.ts",
      "runtime/builtins/context.ts",
      "runtime/builtins/registry.ts",
    ]);
    // The goal for the seed module: at most 40 KB minified and gzipped.
    expect(bundle.gzipBytes).to.be.at.most(40 * 1024);
    const context = createContext({});
    expect(runInContext("[typeof process, typeof Buffer, typeof require, typeof TextEncoder]", context)).to.deep.equal(["undefined", "undefined", "undefined", "undefined"]);
    runInContext(bundle.code, context);
    const allow = (input: unknown, data: unknown = GRANTS) => decide(context, "authz.authzAllow", input, data);
    expect(allow({ user: { id: "ann", role: "admin" }, action: "delete", resource: { type: "orders", owner_id: "bob" } })).to.equal(true);
    expect(allow({ user: { id: "bob", role: "user" }, action: "read", resource: { type: "orders", owner_id: "bob" } })).to.equal(true);
    expect(allow({ user: { id: "bob", role: "user" }, action: "read", resource: { type: "orders", owner_id: "alice" } })).to.equal(false);
    expect(allow({ user: { id: "carol", role: "user" }, action: "read", resource: { type: "reports" } })).to.equal(true);
    expect(allow({ user: { id: "carol", role: "user" }, action: "write", resource: { type: "reports" } })).to.equal(false);
    expect(allow({ action: "read" }, {})).to.equal(false);
  });

  it("a module that calls a builtin bundles its category only, and decides", async () => {
    const bundle = await browserBundle("generated/api.ts", { format: "iife", globalName: "api", source: true });
    expect(bundle.inputs.filter((f) => f.startsWith("runtime/builtins/") && !["runtime/builtins/context.ts", "runtime/builtins/registry.ts"].includes(f))).to.include("runtime/builtins/casts.ts");
    expect(bundle.inputs).to.not.include("runtime/builtins/catalog.ts");
    expect(bundle.inputs.some((f) => /graphql|jsonschema|yaml|templates|http|crypto|syntax/.test(f)), bundle.inputs.join(", ")).to.equal(false);
    // The Web APIs the builtins' helpers use, which every browser has; still nothing of Node's.
    const context = createContext({ TextEncoder, TextDecoder });
    runInContext(bundle.code, context);
    const orders = (time: unknown) => decide(context, "api.apiAllow", { method: "POST", path: ["orders"], user: { authenticated: true }, time }, {});
    expect(orders(10)).to.equal(true);
    expect(orders("9")).to.equal(true); // to_number, from the bundled casts category
    expect(orders(22)).to.equal(false);
    expect(orders("soon")).to.equal(false);
  });

  it("the encoding builtins and io.jwt.decode work without Node's Buffer", async () => {
    const policy = [
      "package e",
      "decoded := base64.decode(input.b64)",
      "hexed := hex.encode(input.text)",
      "url64 := base64url.encode_no_pad(input.text)",
      "std64 := base64.encode(input.text)",
      "claims := io.jwt.decode(input.jwt)[1]",
    ].join("\n");
    const plan = planRego({ modules: { "e.rego": policy }, entrypoints: ["e/decoded", "e/hexed", "e/url64", "e/std64", "e/claims"] });
    const bundle = await browserBundle({ code: generateTypeScript(plan).code }, { format: "iife", globalName: "e", source: true });
    // Web APIs every browser has; no Buffer, no process.
    const context = createContext({ TextEncoder, TextDecoder, btoa });
    runInContext(bundle.code, context);
    const jwt = ["eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJhbGljZSIsInJvbGVzIjpbImFkbWluIl19", "c2ln"].join(".");
    const input = { b64: "aMOpbGxv", text: "héllo?", jwt };
    const strict = { strictBuiltinErrors: true };
    const call = (fn: string) => decide(context, `((i, d) => e.${fn}(i, d, ${JSON.stringify(strict)}))`, input, {});
    expect(call("eDecoded")).to.equal("héllo");
    expect(call("eHexed")).to.equal("68c3a96c6c6f3f");
    expect(call("eUrl64")).to.equal("aMOpbGxvPw");
    expect(call("eStd64")).to.equal("aMOpbGxvPw==");
    expect(JSON.parse(JSON.stringify(call("eClaims")))).to.deep.equal({ sub: "alice", roles: ["admin"] });
  });

  it("builtins that need Node's modules bundle, and report in a bare context what they lack", async () => {
    const policy = "package n\naddrs := net.lookup_ip_addr(input.host)\ndigest := crypto.sha256(input.text)\n";
    const plan = planRego({ modules: { "n.rego": policy }, entrypoints: ["n/addrs", "n/digest"] });
    const bundle = await browserBundle({ code: generateTypeScript(plan).code }, { format: "iife", globalName: "n", source: true });
    expect(bundle.inputs).to.include.members(["runtime/builtins/net.ts", "runtime/builtins/crypto.ts"]);
    const context = createContext({ TextEncoder, TextDecoder });
    runInContext(bundle.code, context);
    const strict = "{ strictBuiltinErrors: true }";
    const outcome = (call: string) => runInContext(`(async () => { try { return await ${call}; } catch (e) { return e.code + ": " + e.message; } })()`, context) as Promise<string>;
    expect(await outcome(`n.nAddrs({ host: "localhost" }, {}, ${strict})`)).to.equal("eval_builtin_error: net.lookup_ip_addr: node:dns/promises is not available in this runtime");
    expect(await outcome(`n.nDigest({ text: "x" }, {}, ${strict})`)).to.equal("eval_builtin_error: crypto.sha256: node:crypto is not available in this runtime");
    // Not strict: the call is undefined, as any builtin error makes it.
    expect(await outcome(`n.nDigest({ text: "x" }, {})`)).to.equal(undefined);
  });
});

/** Debian's chromium, where installed (CI installs it: .ci/run). */
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const describeWithChromium = CHROMIUM ? describe : describe.skip;

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };

describeWithChromium(`examples/browser in headless Chromium${CHROMIUM ? "" : " (skipped: chromium is not installed; apt-get install chromium)"}`, function () {
  this.timeout(180_000);
  let server: Server | undefined;
  let profile = "";

  before(async () => {
    await buildBrowserExample();
    const dir = join(repoRoot, "examples", "browser");
    server = createServer((req, res) => {
      const name = new URL(req.url ?? "/", "http://localhost").pathname.slice(1) || "index.html";
      if (!/^[\w.-]+$/.test(name) || !existsSync(join(dir, name))) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": TYPES[extname(name)] ?? "application/octet-stream" }).end(readFileSync(join(dir, name)));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    profile = mkdtempSync(join(tmpdir(), "regoc-chromium-"));
  });

  after(() => {
    server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it("the page decides with the bundled module", async () => {
    const { port } = server!.address() as { port: number };
    // The flags that work on this machine's closed network (no background connections).
    const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`];
    const dom = await new Promise<string>((resolve, reject) =>
      execFile(CHROMIUM!, [...flags, "--dump-dom", `http://127.0.0.1:${port}/index.html`], { timeout: 120_000, maxBuffer: 1 << 24 }, (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(stdout))),
    );
    const m = /data-results="([^"]*)"/.exec(dom);
    expect(m, "the page's script did not run").to.not.equal(null);
    const results = JSON.parse(m![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, "&")) as Record<string, boolean>;
    expect(results).to.deep.equal({
      "an admin deletes anything": true,
      "bob reads his own order": true,
      "bob reads alice's order": false,
      "carol reads reports (granted)": true,
      "carol writes reports (not granted)": false,
      "no user": false,
    });
  });
});
