// The behaviour table as HTTP requests against the example server (policies/data.json's users):
// played by `npm run demo` and by test/integration/server.test.ts.
//
//   users: root (admin) · alice (user; may read/update documents) · bob (user) · carol (user, 100
//   requests) · dave (user, 101 requests) · erin (user, no request count)

export interface DemoRow {
  /** What the row shows, for test names. */
  note: string;
  method: string;
  path: string;
  /** The token's subject and role; undefined = no Authorization header. */
  user?: { id: string; role?: string };
  /** A valid token (default), or one the server must refuse. */
  token?: "valid" | "expired" | "none" | "wrong-key";
  /** The server's clock hour (default 10). */
  hour?: number;
  expect: 200 | 401 | 403;
}

const root = { id: "root", role: "admin" };
const alice = { id: "alice", role: "user" };
const bob = { id: "bob", role: "user" };

export const DEMO_ROWS: readonly DemoRow[] = [
  // authz (/admin/<type>/<owner_id>)
  { note: "authz: admin, any method/path → allow", method: "DELETE", path: "/admin/servers/zed", user: root, expect: 200 },
  { note: "authz: admin, GET → allow", method: "GET", path: "/admin/documents/alice", user: root, expect: 200 },
  { note: "authz: owner == user → allow", method: "DELETE", path: "/admin/documents/bob", user: bob, expect: 200 },
  { note: "authz: other owner, no permission → deny", method: "DELETE", path: "/admin/documents/alice", user: bob, expect: 403 },
  { note: "authz: matching data.permissions[user.id] → allow", method: "GET", path: "/admin/documents/bob", user: alice, expect: 200 },
  { note: "authz: permission for another action → deny", method: "DELETE", path: "/admin/documents/bob", user: alice, expect: 403 },
  // api
  { note: "api: GET users, authenticated → allow", method: "GET", path: "/api/users", user: bob, expect: 200 },
  { note: "api: GET users, unauthenticated → 401", method: "GET", path: "/api/users", expect: 401 },
  { note: "api: GET users/<own id> → allow", method: "GET", path: "/api/users/bob", user: bob, expect: 200 },
  { note: "api: GET users/<other id>, non-admin → deny", method: "GET", path: "/api/users/alice", user: bob, expect: 403 },
  { note: "api: GET users/<other id>, admin → allow", method: "GET", path: "/api/users/alice", user: root, expect: 200 },
  { note: "api: POST orders at 10 → allow", method: "POST", path: "/api/orders", user: bob, hour: 10, expect: 200 },
  { note: "api: POST orders at 22 → deny", method: "POST", path: "/api/orders", user: bob, hour: 22, expect: 403 },
  { note: "api: composed rule, count 100 → allow", method: "GET", path: "/api/reports", user: { id: "carol", role: "user" }, expect: 200 },
  { note: "api: composed rule, count 101 → deny", method: "GET", path: "/api/reports", user: { id: "dave", role: "user" }, expect: 403 },
  { note: "api: composed rule at 9 → allow", method: "GET", path: "/api/reports", user: { id: "erin", role: "user" }, hour: 9, expect: 200 },
  { note: "api: composed rule at 18 → allow", method: "GET", path: "/api/reports", user: { id: "erin", role: "user" }, hour: 18, expect: 200 },
  { note: "api: composed rule at 8 → deny", method: "GET", path: "/api/reports", user: { id: "erin", role: "user" }, hour: 8, expect: 403 },
  { note: "api: composed rule at 19 → deny", method: "GET", path: "/api/reports", user: { id: "erin", role: "user" }, hour: 19, expect: 403 },
  // tokens the server refuses
  { note: "expired token → 401", method: "GET", path: "/api/users", user: bob, token: "expired", expect: 401 },
  { note: "alg: none → 401", method: "GET", path: "/api/users", user: root, token: "none", expect: 401 },
  { note: "wrong signature → 401", method: "GET", path: "/api/users", user: root, token: "wrong-key", expect: 401 },
];
