// The behaviour table of policies/authz.rego, against the ahead-of-time generated function.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { authzAllow, type AuthzData, type AuthzInput } from "../../../generated/authz.js";

const data = JSON.parse(readFileSync(new URL("../../../policies/data.json", import.meta.url), "utf8")) as AuthzData;
const perms = { permissions: { alice: [{ action: "read", resource: "documents" }] } };

interface Case {
  note: string;
  input: AuthzInput;
  data?: AuthzData;
  want: boolean;
}

const cases: Case[] = [
  // admin, any method/path → allow
  { note: "admin → allow", input: { user: { id: "root", role: "admin" }, action: "delete", resource: { type: "documents", owner_id: "alice" } }, want: true },
  { note: "admin without a resource → allow", input: { user: { role: "admin" } }, want: true },
  { note: "role is case-sensitive", input: { user: { id: "x", role: "Admin" }, action: "read", resource: { type: "documents", owner_id: "alice" } }, want: false },
  // owner == user → allow
  { note: "owner == user → allow", input: { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "documents", owner_id: "bob" } }, data: {}, want: true },
  // other owner, no permission → deny
  { note: "other owner, no permission → deny", input: { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "documents", owner_id: "alice" } }, data: perms, want: false },
  // matching data.permissions[user.id] → allow
  { note: "matching permission → allow", input: { user: { id: "alice" }, action: "read", resource: { type: "documents", owner_id: "bob" } }, data: perms, want: true },
  { note: "permission, wrong action → deny", input: { user: { id: "alice" }, action: "delete", resource: { type: "documents", owner_id: "bob" } }, data: perms, want: false },
  { note: "permission, wrong type → deny", input: { user: { id: "alice" }, action: "read", resource: { type: "reports", owner_id: "bob" } }, data: perms, want: false },
  { note: "another user's permission → deny", input: { user: { id: "carol" }, action: "read", resource: { type: "documents", owner_id: "bob" } }, data: perms, want: false },
  { note: "permissions from policies/data.json", input: { user: { id: "alice" }, action: "update", resource: { type: "documents", owner_id: "bob" } }, want: true },
  // missing fields → deny
  { note: "missing user → deny", input: { action: "read", resource: { type: "documents", owner_id: "alice" } }, want: false },
  { note: "missing user id and owner never match", input: { user: { role: "user" }, action: "read", resource: { type: "documents" } }, want: false },
  { note: "missing owner → deny", input: { user: { id: "bob" }, action: "read", resource: { type: "documents" } }, data: perms, want: false },
  { note: "missing action → deny", input: { user: { id: "alice" }, resource: { type: "documents", owner_id: "bob" } }, data: perms, want: false },
  { note: "no permissions data → deny", input: { user: { id: "alice" }, action: "read", resource: { type: "documents", owner_id: "bob" } }, data: {}, want: false },
  { note: "empty input → deny", input: {}, want: false },
  // hostile shapes: never an allow, never a throw
  { note: "user is a string → deny", input: { user: "admin" as never, action: "read" }, want: false },
  { note: "resource is an array → deny", input: { user: { id: "bob" }, resource: ["bob"] as never }, want: false },
  { note: "__proto__ keys are ordinary keys", input: JSON.parse('{"user": {"__proto__": {"role": "admin"}, "id": "x"}, "resource": {"owner_id": "y"}}') as AuthzInput, want: false },
  { note: "constructor keys are ordinary keys", input: { user: { id: "constructor" }, resource: { type: "documents", owner_id: "toString" } }, want: false },
];

describe("policies/authz.rego → generated authzAllow", () => {
  for (const c of cases) {
    it(c.note, () => {
      expect(authzAllow(c.input, c.data ?? data)).to.equal(c.want);
    });
  }

  it("an undefined input is denied", () => {
    expect(authzAllow(undefined, data)).to.equal(false);
  });

  it("a data.permissions entry that is not a list is denied, not an error", () => {
    expect(authzAllow({ user: { id: "alice" }, action: "read", resource: { type: "documents", owner_id: "bob" } }, { permissions: { alice: "everything" } } as unknown as AuthzData)).to.equal(false);
  });
});
