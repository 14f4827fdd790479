// The decision log's mask operations (OPA's mask.go cases: erase, upsert, arrays, undefined
// pointers), its retry backoff, and an input that JSON cannot encode.
import { expect } from "chai";
import { backoffMs } from "../../../../runtime/bundle/backoff.js";
import { applyMasks, DecisionLogger, type DecisionEvent } from "../../../../runtime/bundle/decisionLogs.js";
import type { JSONValue } from "../../../../runtime/value/json.js";
import { thrown } from "../../../support/errors.js";

const event = (input: unknown, result?: JSONValue): DecisionEvent => ({
  labels: { id: "i" },
  decision_id: "d",
  bundles: {},
  path: "a/b",
  input,
  ...(result === undefined ? {} : { result }),
  timestamp: "2026-01-01T00:00:00.000Z",
});

describe("decision logs: masks", () => {
  it("erases object keys and array elements, ignoring undefined pointers", () => {
    const e = event({ a: { b: 1, c: 2 }, list: [{ v: 1 }, { v: 2 }], keep: true });
    applyMasks(e, ["/input/a/b", "/input/list/0", "/input/nope/x", "/input/list/9"]);
    expect(e.input).to.deep.equal({ a: { c: 2 }, list: [{ v: 2 }], keep: true });
    expect(e.erased).to.deep.equal(["/input/a/b", "/input/list/0"]);
  });

  it("upserts values, creating missing objects, and erases a whole part", () => {
    const e = event({ user: "bob" }, { allow: true, reason: "x" });
    applyMasks(e, [{ op: "upsert", path: "/input/auth/token", value: "***" }, "/result"]);
    expect(e.input).to.deep.equal({ user: "bob", auth: { token: "***" } });
    expect(e).to.not.have.property("result");
    expect(e.masked).to.deep.equal(["/input/auth/token"]);
    expect(e.erased).to.deep.equal(["/result"]);
  });

  it("copies before masking: the caller's input is unchanged", () => {
    const input = { password: "p", n: { x: 1 } };
    const e = event(input);
    applyMasks(e, ["/input/password", { op: "upsert", path: "/input/n/x", value: 0 }]);
    expect(input).to.deep.equal({ password: "p", n: { x: 1 } });
  });

  it("writes a `__proto__` key as an own property, never the prototype", () => {
    const e = event({});
    applyMasks(e, [{ op: "upsert", path: "/input/__proto__/polluted", value: true }]);
    expect(({} as Record<string, unknown>)["polluted"]).to.equal(undefined);
    expect(Object.hasOwn(e.input as object, "__proto__")).to.equal(true);
  });

  it("refuses pointers outside /input and /result, an unknown op and a non-set answer", () => {
    expect(thrown(() => applyMasks(event({}), ["/labels/id"])).code).to.equal("decision_log_error");
    expect(thrown(() => applyMasks(event({}), [{ op: "replace", path: "/input/a" }])).message).to.contain("op must be");
    expect(thrown(() => applyMasks(event({}), "/input/a")).message).to.contain("must be a set");
  });
});

describe("decision logs: retries and encoding", () => {
  it("backs off as OPA's DefaultBackoff: none before a failure, then growing 1.6 times a failure up to the maximum, with jitter", () => {
    for (let i = 0; i < 50; i++) {
      expect(backoffMs(0, 600_000)).to.equal(0);
      expect(backoffMs(1, 600_000)).to.be.within(160 * 0.8, 160 * 1.2);
      expect(backoffMs(5, 600_000)).to.be.within(100 * 1.6 ** 5 * 0.8, 100 * 1.6 ** 5 * 1.2);
      expect(backoffMs(40, 2000)).to.be.within(2000 * 0.8, 2000 * 1.2);
    }
  });

  it("counts an event JSON cannot encode (console or upload sink) and keeps going", async () => {
    const seen: DecisionEvent[] = [];
    const config = { resource: "/logs", console: true, maskDecision: "m", dropDecision: "d", reporting: { bufferType: "size" as const, bufferSizeLimitBytes: 0, bufferSizeLimitEvents: 1, uploadSizeLimitBytes: 1, minDelaySeconds: 1, maxDelaySeconds: 1, trigger: "manual" as const } };
    const lines: string[] = [];
    const logger = new DecisionLogger(config, { onDecision: (e) => seen.push(e), write: (l) => lines.push(l) });
    await logger.log(event({ n: 1n }), {}, async () => undefined);
    await logger.log(event({ n: 1 }), {}, async () => undefined);
    expect(logger.metrics.counter_decision_logs_encoding_failure).to.equal(1);
    expect(seen).to.have.length(1);
    expect(lines).to.have.length(1);
  });
});
