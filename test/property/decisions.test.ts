// The decision benchmark's hand-written functions (bench/workloads) answer as the code generated
// from their policies does, on random JSON inputs: missing fields, wrong types (numbers for
// strings, arrays for objects, null), keys named like Object.prototype's, and inputs biased to
// reach every rule, so that allow and deny (empty and non-empty sets) are both seen often.
import assert from "node:assert/strict";
import util from "node:util";
import fc from "fast-check";
import { toJSON, type Value } from "regoc";
import { ROLES, WORKLOADS, loadGenerated, routeTable, sortedByText, type Workload } from "../../bench/workloads/index.js";

/** Any JSON value, shallow. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 30 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 6 }),
  fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", ""),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Mostly one of `values`, sometimes anything. */
function likely<T>(...values: T[]): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 4 }, { arbitrary: junk, weight: 1 });
}

/** An object with any subset of these fields; sometimes not an object at all. */
function obj(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 6 }, { arbitrary: junk, weight: 1 });
}

/** Some x in it: an array, an object (iterated by value), or neither. */
function collection(element: fc.Arbitrary<unknown>, maxLength: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.array(element, { maxLength }), weight: 6 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 3 }), element, { maxKeys: maxLength }), weight: 2 },
    { arbitrary: junk, weight: 1 },
  );
}

/** A deep copy with every object's keys in reverse order (Rego's equality ignores key order). */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
}

/** JSON inputs as a decision gets them (plain objects, no undefined members, no -0). */
function asJSON(arb: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return arb.map((v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v))));
}

const ids = likely("alice", "bob", "carol", "dave", "eve", "root", "__proto__", "constructor");
const seedRoles = likely("admin", "user", "manager", "alice");
const actions = likely("read", "update", "create", "delete", "adopt");

const hours = fc.oneof(
  fc.integer({ min: 0, max: 23 }),
  fc.double({ min: 0, max: 24, noNaN: true }),
  fc.constantFrom("9", "18", "8", "19", "12", "9.5", "18.0", "18.5", "8.999", "1e1", "+9", ".9e1", "9.", "-0", " 9", "9 ", "0x9", "0x10", "", "abc", "Inf", "NaN", "infinity", "1_0", "1e400"),
  junk,
);

const authzInput = fc.oneof(
  obj({ user: obj({ id: ids, role: seedRoles }), action: actions, resource: obj({ type: likely("documents", "reports"), owner_id: ids }) }),
  // the owner rule on structured ids: equal values, keys in another order
  fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.boolean()).map(([id, same]) => ({ user: { id }, resource: { owner_id: same ? reordered(id) : [id] } })),
);

const apiInput = fc.oneof(
  obj({
    method: likely("GET", "POST", "PUT"),
    path: fc.oneof(
      fc.constantFrom(["users"], ["orders"], ["reports"], ["users", "bob"], ["users", "carol"]),
      fc.array(likely("users", "orders", "bob"), { maxLength: 3 }),
      junk,
    ),
    user: obj({ id: ids, role: seedRoles, authenticated: fc.oneof(fc.constant(true), junk) }),
    action: likely("read", "create"),
    resource: likely("reports", "documents"),
    time: hours,
  }),
  fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.boolean()).map(([id, same]) => ({ method: "GET", path: ["users", id], user: { id: same ? reordered(id) : [id] } })),
  // the composed rule, near the rate limit (carol 100, dave 101) and the business hours' bounds
  obj({ path: fc.constant(["reports"]), action: likely("read"), resource: likely("reports"), user: obj({ id: ids, role: likely("user", "manager") }), time: hours }),
);

const rbacInput = fc.oneof(
  obj({
    user: likely("alice", "bob", "eve", "dave", "mallory", "__proto__", "constructor", "hasOwnProperty"),
    action: actions,
    type: likely("dog", "cat", "finance"),
  }),
  // granted through a role other than the first
  fc.constantFrom({ user: "bob", action: "read", type: "finance" }, { user: "dave", action: "update", type: "cat" }),
);

function routesInput(n: number): fc.Arbitrary<unknown> {
  const routes = routeTable(n);
  const METHODS = ["GET", "POST", "PUT", "DELETE"];
  const segment = fc.integer({ min: 0, max: n + 2 }).map((i) => `r${i}`);
  return fc.oneof(
    // a route's own request, one field changed or dropped now and then
    fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.oneof({ arbitrary: fc.constant("none"), weight: 3 }, { arbitrary: fc.constantFrom("method", "path", "role", "drop"), weight: 4 }), junk).map(([i, change, other]) => {
      const r = routes[i]!;
      const input: Record<string, unknown> = { method: r.method, path: ["api", r.segment], user: { role: r.role } };
      if (change === "method") input.method = other;
      if (change === "path") input.path = ["api", other];
      if (change === "role") input.user = { role: other };
      if (change === "drop") delete input.path;
      return input;
    }),
    obj({
      method: likely(...METHODS),
      path: fc.oneof(fc.tuple(fc.constant("api"), segment), fc.array(fc.oneof(fc.constant("api"), segment, junk), { maxLength: 3 }), junk),
      user: obj({ role: likely(...ROLES) }),
    }),
  );
}

const limit = fc.oneof(fc.constantFrom("1", "500m", 0, false, null), junk);
const container = obj({
  name: likely("web", "sidecar", "init"),
  image: likely("registry.example.com/app:1", "gcr.io/acme/tool", "docker.io/library/nginx", "gcr.io/other/x", "registry.example.com", ""),
  resources: obj({ limits: obj({ cpu: limit, memory: limit }) }),
});
const podInput = obj({ review: obj({ object: obj({ spec: obj({ containers: collection(container, 6) }) }) }) });

const docsInput = obj({ user: likely<unknown>("user-1", "user-42", "user-99", "user-100", "nobody", ["user-42"]) });

const statsUser = obj({
  name: likely("ann", "bo", "cy"),
  dept: likely("eng", "ops", "sales", "__proto__", "constructor"),
  role: likely("admin", "member"),
});
const statsInput = obj({ users: collection(statsUser, 12) });

const INPUTS: Record<string, fc.Arbitrary<unknown>> = {
  authz: authzInput,
  api: apiInput,
  rbac: rbacInput,
  "routes-5": routesInput(5),
  "routes-50": routesInput(50),
  "routes-500": routesInput(500),
  pod: podInput,
  docs: docsInput,
  stats: statsInput,
};

/** A JSON value with plain objects only (toJSON gives objects without a prototype). */
function plain(json: unknown): unknown {
  return JSON.parse(JSON.stringify(json ?? null));
}

describe("decision workloads: the hand-written functions answer as the generated ones", function () {
  this.timeout(120_000);

  for (const w of WORKLOADS) {
    it(`${w.name}: on random inputs, allow and deny both seen`, async () => {
      const generated = await loadGenerated(w);
      const canonical = w.canonical ?? ((x: unknown) => x);
      const arb = INPUTS[w.name];
      assert.ok(arb, `no input generator for the workload ${w.name}`);
      const answer = (input: unknown) => canonical(plain(toJSON(generated(input, w.data) as Value)));
      // "deny": the answer to an empty input (false, an empty set, only the public records, no users)
      const denied = answer({});
      const seen = { allow: 0, deny: 0 };
      const numRuns = w.name === "docs" ? 300 : 1000;
      fc.assert(
        fc.property(asJSON(arb), (input) => {
          const expected = answer(input);
          assert.deepStrictEqual(canonical(plain(w.handwritten(input, w.data))), expected, `input ${JSON.stringify(input)}`);
          seen[util.isDeepStrictEqual(expected, denied) ? "deny" : "allow"]++;
        }),
        { numRuns },
      );
      // the generators reach both answers, a tenth of the runs at least
      assert.ok(seen.allow >= numRuns / 10 && seen.deny >= numRuns / 10, `${w.name}: allow ${seen.allow}, deny ${seen.deny}`);
    });
  }

  it("docs: on random records too (an id repeated, or owned and public)", async () => {
    const w = WORKLOADS.find((x) => x.name === "docs")!;
    const generated = await loadGenerated(w);
    // (records of the application's type, as the hand-written function takes them)
    const record = fc.record({ id: fc.constantFrom("doc-1", "doc-2", "doc-3", "doc-4"), owner: fc.constantFrom("user-42", "user-1", "user-99"), public: fc.boolean() });
    const data = fc.record({ records: fc.array(record, { maxLength: 8 }) });
    let repeated = 0;
    fc.assert(
      fc.property(asJSON(docsInput), data, (input, d) => {
        const expected = sortedByText(plain(toJSON(generated(input, d) as Value)));
        assert.deepStrictEqual(sortedByText(plain(w.handwritten(input, d))), expected, JSON.stringify({ input, data: d }));
        if (new Set(d.records.map((r) => r.id)).size < d.records.length) repeated++;
      }),
      { numRuns: 1000 },
    );
    assert.ok(repeated >= 100, `records with a repeated id: ${repeated}`);
  });

  it("every workload has an input generator", () => {
    assert.deepStrictEqual(WORKLOADS.map((w: Workload) => w.name).sort(), Object.keys(INPUTS).sort());
  });
});
