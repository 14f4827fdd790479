// Deadlines (issue 20, defect 9): every decision API takes `timeoutMs` and/or an AbortSignal; the
// generated loops and the builtins that iterate or allocate check it, and past it the decision
// fails with OPA's eval_cancel_error while the process keeps answering. The bounds asserted here
// are generous (only to keep a broken deadline from hanging the suite): how close to the deadline
// a decision stops is measured in bench/RESULTS.md.
import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { Authorizer, BundleClient, Engine, toJSON } from "regoc";
import { DEFAULT_MAX_RANGE_LENGTH } from "../../../runtime/builtins/context.js";
import { compileRego } from "regoc/compiler";
import { authorize } from "regoc/express";
import { startBundleServer, tarGz } from "../../support/bundleServer.js";
import { rejected, thrown } from "../../support/errors.js";

const RUNAWAY = `package p
import rego.v1

# a constant range a billion numbers long, and one as long as the input says
const_range := count(numbers.range(0, 1000000000))
input_range := count(numbers.range(0, input.n))

# nested loops over two 100 000-element arrays: 10^10 iterations
pairs := count([1 | some x in input.a; some y in input.b; x == y + 1000000])

allow if input.ok == true
`;

const big = Array.from({ length: 100_000 }, (_, i) => i);
const DEADLINE_MS = 100;
/** Far above any deadline here: only keeps a broken deadline from hanging the suite. */
const GENEROUS_MS = 5_000;

/** Runs `fn`, returning its RegoError and how long it took (ms). */
function timed(fn: () => unknown): { code: string; ms: number } {
  const t0 = performance.now();
  const e = thrown(fn);
  return { code: e.code, ms: performance.now() - t0 };
}

describe("runtime: deadlines", function () {
  this.timeout(60_000);

  describe("prepared queries (compileRego)", () => {
    const cases: Array<[string, unknown]> = [
      ["const_range", {}],
      ["input_range", { n: 1e9 }],
      ["pairs", { a: big, b: big }],
    ];
    for (const [rule, input] of cases) {
      it(`${rule}: past timeoutMs it fails with eval_cancel_error, and the next decision is answered`, async () => {
        const q = await compileRego({ modules: { "p.rego": RUNAWAY }, entrypoints: [`p/${rule}`, "p/allow"] });
        const r = timed(() => q.evaluateSync({ input, timeoutMs: DEADLINE_MS }));
        expect(r.code).to.equal("eval_cancel_error");
        expect(r.ms).to.be.below(GENEROUS_MS);
        expect(q.evaluateSync({ entrypoint: "p/allow", input: { ok: true } })).to.deep.equal([{ result: true }]);
      });
    }

    it("a range that cannot be built before the deadline fails as soon as its pace shows it, not at the deadline", async () => {
      const src = "package p\nn := count(numbers.range(0, input.n))\n";
      const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/n"] });
      const timeoutMs = 2_000;
      const r = timed(() => q.evaluateSync({ input: { n: 5e9 }, timeoutMs, maxRangeLength: 1e9 }));
      expect(r.code).to.equal("eval_cancel_error");
      expect(thrown(() => q.evaluateSync({ input: { n: 5e9 }, timeoutMs, maxRangeLength: 1e9 })).message).to.match(/numbers.range: a range of 5000000001 numbers cannot be built before the deadline/);
      expect(r.ms).to.be.below(timeoutMs / 2);
      expect(q.evaluateSync({ input: { n: 200_000 }, timeoutMs })).to.deep.equal([{ result: 200_001 }]);
    });

    it("an aborted AbortSignal is the same error, at once", async () => {
      const q = await compileRego({ modules: { "p.rego": RUNAWAY }, entrypoints: ["p/pairs"] });
      const ac = new AbortController();
      ac.abort();
      const r = timed(() => q.evaluateSync({ input: { a: big, b: big }, signal: ac.signal }));
      expect(r.code).to.equal("eval_cancel_error");
      expect(r.ms).to.be.below(GENEROUS_MS);
    });

    it("a signal aborted while an async decision waits cancels it when it resumes", async () => {
      // (a synchronous loop cannot see an abort that comes from a timer: only a decision that waits
      // on I/O can, and it is cancelled as it resumes, before its loops run)
      const slow: Server = createServer((_req, res) => void setTimeout(() => res.end("{}"), 300));
      await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
      try {
        const src = `package p\nimport rego.v1\nn := count([1 | http.send({"method": "get", "url": input.url}); some x in input.a; some y in input.a; x == y + 1000000])\n`;
        const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/n"] });
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 50);
        const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
        const e = await rejected(q.evaluate({ input: { url, a: big }, signal: ac.signal }));
        expect(e.code).to.equal("eval_cancel_error");
      } finally {
        slow.closeAllConnections();
        await new Promise((resolve) => slow.close(resolve));
      }
    });
  });

  describe("bounds without a deadline", () => {
    for (const strictBuiltinErrors of [false, true]) {
      it(`numbers.range longer than maxRangeLength is an eval_internal_error, never undefined (strict: ${strictBuiltinErrors})`, async () => {
        const src = `package p\ndeny contains "range" if { some i in numbers.range(0, input.n); i == 3 }\n`;
        const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/deny"] });
        const e = thrown(() => q.evaluateSync({ input: { n: 1e9 }, strictBuiltinErrors }));
        expect(e.code).to.equal("eval_internal_error");
        expect(e.message).to.match(new RegExp(`numbers.range: a range of 1000000001 numbers is over the limit of ${DEFAULT_MAX_RANGE_LENGTH}`));
        expect(toJSON(q.evaluateSync({ input: { n: 10 }, strictBuiltinErrors })[0]!.result)).to.deep.equal(["range"]);
        expect(thrown(() => q.evaluateSync({ input: { n: 10 }, maxRangeLength: 5 })).code).to.equal("eval_internal_error");
      });
    }

    it("json.marshal and walk of a cyclic input are a clear error (not a hang or out of memory)", async () => {
      const src = `package p\nm := json.marshal(input)\nw := count([p | walk(input, [p, _])])\n`;
      const q = await compileRego({ modules: { "p.rego": src }, entrypoints: ["p/m", "p/w"] });
      const cyclic: Record<string, unknown> = { a: [1] };
      (cyclic["a"] as unknown[]).push(cyclic);
      for (const entrypoint of ["p/m", "p/w"]) {
        const e = thrown(() => q.evaluateSync({ entrypoint, input: cyclic }));
        expect(e.code).to.equal("eval_internal_error");
        expect(e.message).to.match(/value contains itself/);
      }
      // a deep acyclic input is no cycle
      let deep: unknown = 1;
      for (let i = 0; i < 2000; i++) deep = [deep, { x: deep === 1 ? 0 : 1 }];
      expect(q.evaluateSync({ entrypoint: "p/m", input: [1, 2] })).to.deep.equal([{ result: "[1,2]" }]);
      expect(q.evaluateSync({ entrypoint: "p/w", input: { a: [[[]]] } })).to.deep.equal([{ result: 4 }]);
    });
  });

  describe("decision APIs", () => {
    it("Authorizer: authorizeSync and authorize take a deadline; evalOptions.timeoutMs bounds every decision", async () => {
      const authz = await Authorizer.create({ policy: RUNAWAY, query: "data.p.pairs > 0" });
      const input = { a: big, b: big };
      expect(thrown(() => authz.authorizeSync(input, { timeoutMs: DEADLINE_MS })).code).to.equal("eval_cancel_error");
      expect((await rejected(authz.authorize(input, { timeoutMs: DEADLINE_MS }))).code).to.equal("eval_cancel_error");
      expect(authz.authorizeSync({ a: [1000001], b: [1] })).to.equal(true);
      const bounded = await Authorizer.create({ policy: RUNAWAY, query: "data.p.pairs > 0", evalOptions: { timeoutMs: DEADLINE_MS } });
      expect(thrown(() => bounded.authorizeSync(input)).code).to.equal("eval_cancel_error");
      expect(bounded.authorizeSync({ a: [1000001], b: [1] })).to.equal(true);
    });

    it("Engine.evaluate takes a deadline", async () => {
      const engine = await Engine.create({ modules: { "p.rego": RUNAWAY } });
      expect((await rejected(engine.evaluate("data.p.input_range", { n: 1e9 }, { timeoutMs: DEADLINE_MS }))).code).to.equal("eval_cancel_error");
      const ac = new AbortController();
      ac.abort();
      expect((await rejected(engine.evaluate("data.p.allow", { ok: true }, { signal: ac.signal }))).code).to.equal("eval_cancel_error");
      expect((await engine.evaluate("data.p.allow", { ok: true }))[0]!.expressions[0]!.value).to.equal(true);
    });

    it("the bundle client's decision takes a deadline", async () => {
      const server = await startBundleServer();
      const client = await BundleClient.create({
        services: { s: { url: server.url } },
        bundles: { p: { service: "s", resource: "b.tar.gz", polling: { min_delay_seconds: 60, max_delay_seconds: 60 } } },
      });
      try {
        server.serve({ body: tarGz({ ".manifest": JSON.stringify({ revision: "1", roots: ["p"] }), "p/p.rego": RUNAWAY }) });
        await client.ready();
        const e = await rejected(client.decide({ path: "p/pairs", input: { a: big, b: big }, timeoutMs: DEADLINE_MS }));
        expect(e.code).to.equal("eval_cancel_error");
        expect((await client.decide({ path: "p/allow", input: { ok: true } })).result).to.equal(true);
      } finally {
        await client.close();
        await server.close();
      }
    });

    it("Express: a runaway decision answers 500 and the next request is answered", async () => {
      const authz = await Authorizer.create({ policy: RUNAWAY, query: "data.p.pairs > 0" });
      const logs: string[] = [];
      const app = express();
      app.use((req, _res, next) => {
        (req as unknown as { user: unknown }).user = { id: "u" };
        next();
      });
      app.use(
        authorize({
          authorizer: authz,
          timeoutMs: DEADLINE_MS,
          extendInput: (input) => ({ ...input, ...(input.path[0] === "runaway" ? { a: big, b: big } : { a: [1000001], b: [1] }) }),
          log: (m) => logs.push(m),
        }),
      );
      app.get("/*splat", (_req, res) => {
        res.send("ok");
      });
      const server: Server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const runaway = await fetch(`${base}/runaway`, { signal: AbortSignal.timeout(GENEROUS_MS) });
        expect(runaway.status).to.equal(500);
        expect(logs.join("\n")).to.match(/eval_cancel_error/);
        const next = await fetch(`${base}/fine`, { signal: AbortSignal.timeout(GENEROUS_MS) });
        expect(next.status).to.equal(200);
        expect(await next.text()).to.equal("ok");
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
});
