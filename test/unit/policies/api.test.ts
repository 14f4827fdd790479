// The behaviour table of policies/api.rego, against the ahead-of-time generated function.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { apiAllow, type ApiData, type ApiInput } from "../../../generated/api.js";

const data = JSON.parse(readFileSync(new URL("../../../policies/data.json", import.meta.url), "utf8")) as ApiData;
const perms = { permissions: { user: [{ resource: "reports", action: "read" }] }, rate_limits: {} };

/** A value of a type the generated types reject (the policy compares it with something else), as
 * a JSON request or document may still carry: the decision must still be OPA's. */
function untyped<T>(value: unknown): T {
  return value as T;
}

/** A request under the composed rule: role "user" reading reports. */
function composed(id: string, time: unknown): ApiInput {
  return { user: { id, role: "user" }, resource: "reports", action: "read", time: untyped(time) };
}
function limits(count: unknown): ApiData {
  return { ...perms, rate_limits: { u1: { count: untyped(count) } } };
}

interface Case {
  note: string;
  input: ApiInput;
  data?: ApiData;
  want: boolean;
}

const cases: Case[] = [
  // GET /users
  { note: "GET users, authenticated → allow", input: { method: "GET", path: ["users"], user: { authenticated: true } }, want: true },
  { note: "GET users, unauthenticated → deny", input: { method: "GET", path: ["users"], user: { authenticated: false } }, want: false },
  { note: "GET users, no user → deny", input: { method: "GET", path: ["users"] }, want: false },
  { note: "GET users, authenticated \"yes\" is not true → deny", input: { method: "GET", path: ["users"], user: { authenticated: untyped("yes") } }, want: false },
  { note: "POST users → deny", input: { method: "POST", path: ["users"], user: { authenticated: true } }, want: false },
  // GET /users/<id>
  { note: "GET users/<own id> → allow", input: { method: "GET", path: ["users", "bob"], user: { id: "bob", role: "user" } }, want: true },
  { note: "GET users/<other id>, non-admin → deny", input: { method: "GET", path: ["users", "alice"], user: { id: "bob", role: "user" } }, want: false },
  { note: "GET users/<other id>, admin → allow", input: { method: "GET", path: ["users", "alice"], user: { id: "root", role: "admin" } }, want: true },
  { note: "GET users/<id>, no user id → deny", input: { method: "GET", path: ["users", "alice"], user: { role: "user" } }, want: false },
  { note: "GET users/<id>/more → deny", input: { method: "GET", path: ["users", "bob", "x"], user: { id: "bob", role: "admin" } }, want: false },
  { note: "DELETE users/<id> as admin → deny", input: { method: "DELETE", path: ["users", "alice"], user: { id: "root", role: "admin" } }, want: false },
  { note: "path as a string is not a path → deny", input: { method: "GET", path: untyped("users/bob"), user: { id: "bob" } }, want: false },
  // POST /orders
  { note: "POST orders, authenticated at 10 → allow", input: { method: "POST", path: ["orders"], user: { authenticated: true }, time: 10 }, want: true },
  { note: "POST orders, authenticated at 22 → deny", input: { method: "POST", path: ["orders"], user: { authenticated: true }, time: 22 }, want: false },
  { note: "POST orders at 9 → allow", input: { method: "POST", path: ["orders"], user: { authenticated: true }, time: 9 }, want: true },
  { note: "POST orders at 18 → allow", input: { method: "POST", path: ["orders"], user: { authenticated: true }, time: 18 }, want: true },
  { note: "POST orders at 8 → deny", input: { method: "POST", path: ["orders"], user: { authenticated: true }, time: 8 }, want: false },
  { note: "POST orders at 19 → deny", input: { method: "POST", path: ["orders"], user: { authenticated: true }, time: 19 }, want: false },
  { note: "POST orders, unauthenticated → deny", input: { method: "POST", path: ["orders"], user: { authenticated: false }, time: 10 }, want: false },
  { note: "POST orders, no time → deny", input: { method: "POST", path: ["orders"], user: { authenticated: true } }, want: false },
  // the composed rule
  { note: "composed: no count → allow", input: composed("u1", 10), data: perms, want: true },
  { note: "composed: count 100 → allow", input: composed("u1", 10), data: limits(100), want: true },
  { note: "composed: count 101 → deny", input: composed("u1", 10), data: limits(101), want: false },
  { note: "composed: count from data.json, carol (100) → allow", input: composed("carol", 10), want: true },
  { note: "composed: count from data.json, dave (101) → deny", input: composed("dave", 10), want: false },
  { note: "composed: time 8 → deny", input: composed("u1", 8), data: perms, want: false },
  { note: "composed: time 9 → allow", input: composed("u1", 9), data: perms, want: true },
  { note: "composed: time 18 → allow", input: composed("u1", 18), data: perms, want: true },
  { note: "composed: time 19 → deny", input: composed("u1", 19), data: perms, want: false },
  { note: "composed: time \"9\" (a string) → allow", input: composed("u1", "9"), data: perms, want: true },
  { note: "composed: time \"18\" → allow", input: composed("u1", "18"), data: perms, want: true },
  { note: "composed: time \"8\" → deny", input: composed("u1", "8"), data: perms, want: false },
  { note: "composed: time \"19\" → deny", input: composed("u1", "19"), data: perms, want: false },
  { note: "composed: time \"nine\" → deny", input: composed("u1", "nine"), data: perms, want: false },
  { note: "composed: time null → deny", input: composed("u1", null), data: perms, want: false },
  { note: "composed: time [10] → deny", input: composed("u1", [10]), data: perms, want: false },
  { note: "composed: time 12.5 → allow", input: composed("u1", 12.5), data: perms, want: true },
  { note: "composed: no time → deny", input: { user: { id: "u1", role: "user" }, resource: "reports", action: "read" }, data: perms, want: false },
  { note: "composed: wrong action → deny", input: { ...composed("u1", 10), action: "delete" }, data: perms, want: false },
  { note: "composed: wrong resource → deny", input: { ...composed("u1", 10), resource: "orders" }, data: perms, want: false },
  { note: "composed: no role → deny", input: { user: { id: "u1" }, resource: "reports", action: "read", time: 10 }, data: perms, want: false },
  { note: "composed: count of another user ignored", input: composed("u2", 10), data: limits(500), want: true },
  { note: "composed: count \"101\" (a string sorts above every number) → deny", input: composed("u1", 10), data: limits("101"), want: false },
  // hostile shapes
  { note: "empty input → deny", input: {}, want: false },
  { note: "__proto__ in the user → deny", input: JSON.parse('{"method": "GET", "path": ["users", "x"], "user": {"__proto__": {"role": "admin", "id": "x"}}}') as ApiInput, want: false },
];

describe("policies/api.rego → generated apiAllow", () => {
  for (const c of cases) {
    it(c.note, () => {
      expect(apiAllow(c.input, c.data ?? data)).to.equal(c.want);
    });
  }

  it("an undefined input is denied", () => {
    expect(apiAllow(undefined, data)).to.equal(false);
  });
});
