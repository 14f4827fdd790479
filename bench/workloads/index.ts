// The decision benchmark's workloads (bench/decisions.bench.ts): each a Rego policy, its data, the
// inputs the benchmark times, and a hand-written TypeScript function that answers as the policy
// does, written as a careful developer would (test/property/decisions.test.ts compares the two
// on random inputs). Every hand-written function takes any JSON input: missing fields, wrong types.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateTypeScript, loadModule, planRegoDetailed } from "regoc/compiler";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));

type Obj = Record<string, unknown>;

export interface Workload {
  /** Short name, e.g. "authz", "routes-50". */
  name: string;
  /** Rego sources by file name. */
  modules: Record<string, string>;
  /** The rule the decision is, e.g. "authz/allow". */
  entrypoint: string;
  data: unknown;
  /** A boolean decision (Authorizer.authorizeSync applies), else a value (a set, an object). */
  boolean: boolean;
  handwritten(input: unknown, data: unknown): unknown;
  /** The timed inputs, with a note on what each exercises. */
  cases: [string, unknown][];
  /** The decision's JSON form (sets as arrays) in one order, for comparing answers; defaults to
   * the value itself. Applied to toJSON of the generated answer and to the hand-written one. */
  canonical?(json: unknown): unknown;
}

/** The generated decision function of a workload: the module the current code generator writes
 * ahead of time as `regoc build` does (TypeScript, with the types and the Rego names of the
 * policy), loaded as `loadModule` loads it. */
export async function loadGenerated(w: Workload): Promise<(input: unknown, data: unknown) => unknown> {
  const { plan, schemaTypes, localNames } = planRegoDetailed({ modules: w.modules, entrypoints: [w.entrypoint] });
  const generated = generateTypeScript(plan, { schemaTypes, localNames });
  const mod = await loadModule(generated.code, generated);
  const info = mod.entrypoints[w.entrypoint];
  if (info === undefined || info.async) throw new Error(`${w.name}: no synchronous entrypoint ${w.entrypoint}`);
  return info.fn as (input: unknown, data: unknown) => unknown;
}

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `v.k` as Rego reads it from JSON: only objects have fields. `k` is never a name of
 * Object.prototype's (for keys that come from input, use `own`). */
function field(v: unknown, k: string): unknown {
  return isObj(v) ? v[k] : undefined;
}

/** `obj[key]` for a key that comes from input: an own property named by a string, else undefined. */
function own<T>(obj: Record<string, T>, key: unknown): T | undefined {
  return typeof key === "string" && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** What `some x in v` iterates over for JSON: an array's elements, an object's values. */
function elements(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : isObj(v) ? Object.values(v) : [];
}

/** Rego's `==` on JSON values: structural, objects regardless of key order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !jsonEqual((a as Obj)[k], (b as Obj)[k])) return false;
  return true;
}

/** A value as it arrives parsed from JSON text (flat strings, as a server's input is). */
function parsed<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Sorts by JSON text: a set's JSON form in one order. */
export function sortedByText(json: unknown): unknown {
  return Array.isArray(json) ? json.map((x) => [JSON.stringify(x), x] as const).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map((x) => x[1]) : json;
}

// ---- 1, 2: the seed policies ----

interface Grant {
  action: string;
  resource: string;
}
interface SeedData {
  permissions: Record<string, Grant[]>;
  rate_limits: Record<string, { count: number }>;
}
export const seedData = JSON.parse(readFileSync(`${root}policies/data.json`, "utf8")) as SeedData;

export function authzAllow(input: unknown, data: SeedData): boolean {
  const user = field(input, "user");
  if (field(user, "role") === "admin") return true;
  const id = field(user, "id");
  if (id === undefined) return false;
  const resource = field(input, "resource");
  const owner = field(resource, "owner_id");
  if (owner !== undefined && jsonEqual(id, owner)) return true;
  const grants = own(data.permissions, id);
  if (grants === undefined) return false;
  const action = field(input, "action");
  const type = field(resource, "type");
  for (const g of grants) if (g.action === action && g.resource === type) return true;
  return false;
}

/** Go's ParseFloat decimal syntax (to_number of a string); hexadecimal floats are not accepted. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** to_number(input.time) within 9..18. A double, not an exact decimal: a string of more than 15
 * significant digits just outside the bounds may round onto them. */
function businessHours(input: unknown): boolean {
  const t = field(input, "time");
  const hour = typeof t === "number" ? t : typeof t === "string" && DECIMAL.test(t) ? Number(t) : undefined;
  return hour !== undefined && hour >= 9 && hour <= 18;
}

export function apiAllow(input: unknown, data: SeedData): boolean {
  const method = field(input, "method");
  const path = field(input, "path");
  const user = field(input, "user");
  if (method === "GET" && Array.isArray(path)) {
    if (path.length === 1 && path[0] === "users" && field(user, "authenticated") === true) return true;
    if (path.length === 2 && path[0] === "users") {
      const id = field(user, "id");
      if (id !== undefined && jsonEqual(id, path[1])) return true;
      if (field(user, "role") === "admin") return true;
    }
  }
  if (method === "POST" && Array.isArray(path) && path.length === 1 && path[0] === "orders" && field(user, "authenticated") === true && businessHours(input)) {
    return true;
  }
  // The composed rule: a grant for the role, under the rate limit, within business hours.
  const grants = own(data.permissions, field(user, "role"));
  if (grants === undefined) return false;
  const resource = field(input, "resource");
  const action = field(input, "action");
  let granted = false;
  for (const g of grants) {
    if (g.resource === resource && g.action === action) {
      granted = true;
      break;
    }
  }
  if (!granted) return false;
  const limit = own(data.rate_limits, field(user, "id"));
  if (limit !== undefined && limit.count > 100) return false;
  return businessHours(input);
}

const apiBase = { headers: { host: ["example.test"] } };

// ---- 3: OPA's RBAC example ----

interface RbacData {
  user_roles: Record<string, string[]>;
  role_grants: Record<string, { action: string; type: string }[]>;
}
export const rbacData = JSON.parse(readFileSync(`${here}rbac.json`, "utf8")) as RbacData;

export function rbacAllow(input: unknown, data: RbacData): boolean {
  const roles = own(data.user_roles, field(input, "user"));
  if (roles === undefined) return false;
  if (roles.includes("admin")) return true;
  const action = field(input, "action");
  const type = field(input, "type");
  for (const role of roles) {
    const grants = own(data.role_grants, role);
    if (grants === undefined) continue;
    for (const g of grants) if (g.action === action && g.type === type) return true;
  }
  return false;
}

// ---- 4: a route table ----

export interface Route {
  method: string;
  segment: string;
  role: string;
}

const METHODS = ["GET", "POST", "PUT", "DELETE"];
export const ROLES = ["admin", "editor", "viewer"];

/** n routes: GET/POST/PUT/DELETE in turn on ["api", "r<i>"], each for one role. */
export function routeTable(n: number): Route[] {
  return Array.from({ length: n }, (_, i) => ({ method: METHODS[i % 4]!, segment: `r${i}`, role: ROLES[i % 3]! }));
}

/** The route table as Rego: one `allow` rule per route. */
export function routesRego(routes: readonly Route[]): string {
  const rules = routes.map(
    (r) => `allow if {\n\tinput.method == "${r.method}"\n\tinput.path == ["api", "${r.segment}"]\n\tinput.user.role == "${r.role}"\n}\n`,
  );
  return `package routes\n\ndefault allow := false\n\n${rules.join("\n")}`;
}

/** The hand-written route table: a lookup by the path's second segment (every route has its own). */
export function routeMatcher(routes: readonly Route[]): (input: unknown) => boolean {
  const bySegment = new Map(routes.map((r) => [r.segment, r]));
  return (input) => {
    const path = field(input, "path");
    if (!Array.isArray(path) || path.length !== 2 || path[0] !== "api" || typeof path[1] !== "string") return false;
    const r = bySegment.get(path[1]);
    return r !== undefined && field(input, "method") === r.method && field(field(input, "user"), "role") === r.role;
  };
}

function routesWorkload(n: number): Workload {
  const routes = routeTable(n);
  const last = routes[n - 1]!;
  const match = routeMatcher(routes);
  return {
    name: `routes-${n}`,
    modules: { [`routes-${n}.rego`]: routesRego(routes) },
    entrypoint: "routes/allow",
    data: {},
    boolean: true,
    handwritten: (input) => match(input),
    cases: [
      [`the last rule → true`, parsed({ method: last.method, path: ["api", last.segment], user: { role: last.role } })],
      [`no route → default false`, { method: "GET", path: ["api", "nowhere"], user: { role: "admin" } }],
    ],
  };
}

// ---- 5: gatekeeper-style violations over a pod ----

interface PodData {
  allowed_registries: string[];
}
export const podData: PodData = { allowed_registries: ["registry.example.com/", "gcr.io/acme/"] };

const LIMIT_KINDS = ["cpu", "memory"];

export function podViolations(input: unknown, data: PodData): { msg: string }[] {
  const out: { msg: string }[] = [];
  const seen = new Set<string>();
  const containers = field(field(field(field(input, "review"), "object"), "spec"), "containers");
  for (const c of elements(containers)) {
    const name = field(c, "name");
    if (typeof name !== "string") continue; // every message names the container
    const image = field(c, "image");
    if (typeof image === "string" && !startsWithAny(image, data.allowed_registries)) {
      addMessage(out, seen, `container ${name} uses image ${image} from a registry that is not allowed`);
    }
    const limits = field(field(c, "resources"), "limits");
    for (const kind of LIMIT_KINDS) {
      const limit = field(limits, kind);
      if (limit === undefined || limit === false) addMessage(out, seen, `container ${name} has no ${kind} limit`);
    }
  }
  return out;
}

function startsWithAny(s: string, prefixes: readonly string[]): boolean {
  for (const p of prefixes) if (s.startsWith(p)) return true;
  return false;
}

/** Adds {msg} once (a set of messages: two containers of one name give one message). */
function addMessage(out: { msg: string }[], seen: Set<string>, msg: string): void {
  if (seen.has(msg)) return;
  seen.add(msg);
  out.push({ msg });
}

/** A pod of n containers: every 10th from a registry not allowed, every 7th without a memory limit. */
export function pod(n: number): unknown {
  const containers = Array.from({ length: n }, (_, i) => ({
    name: `c${i}`,
    image: i % 10 === 0 ? `docker.io/library/app${i}:1.0` : `registry.example.com/app${i}:1.0`,
    resources: { limits: i % 7 === 0 ? { cpu: "500m" } : { cpu: "500m", memory: "128Mi" } },
  }));
  return parsed({ review: { object: { kind: "Pod", metadata: { name: "web" }, spec: { containers } } } });
}

// ---- 6: a partial set over data records ----

interface Doc {
  id: string;
  owner: string;
  public: boolean;
}
/** n documents: owners user-0..user-99 in turn, every 50th public. */
export function docsData(n: number): { records: Doc[] } {
  return parsed({ records: Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, owner: `user-${i % 100}`, public: i % 50 === 0 })) });
}

/** One pass, into a Set as the rule is a set: an id owned and public, or of two records, is listed
 * once. (The records are the application's own data, of the type Doc.) */
export function allowedDocs(input: unknown, data: { records: Doc[] }): string[] {
  const user = field(input, "user");
  const out = new Set<string>();
  for (const d of data.records) if (d.owner === user || d.public === true) out.add(d.id);
  return [...out];
}

// ---- 7: comprehensions ----

export interface Summary {
  total: number;
  by_department: Record<string, number>;
  admins: string[];
}

export function statsSummary(input: unknown): Summary {
  const counts = new Map<string, number>();
  const admins = new Set<string>();
  let total = 0;
  for (const u of elements(field(input, "users"))) {
    if (!isObj(u)) continue;
    total++;
    const dept = u.dept;
    if (typeof dept === "string") counts.set(dept, (counts.get(dept) ?? 0) + 1);
    if (u.role === "admin" && typeof u.name === "string") admins.add(u.name);
  }
  return { total, by_department: Object.fromEntries(counts), admins: [...admins] };
}

/** n users in 10 departments, every 25th an admin. */
export function users(n: number): unknown {
  return parsed({ users: Array.from({ length: n }, (_, i) => ({ name: `u${i}`, dept: `dept-${i % 10}`, role: i % 25 === 0 ? "admin" : "member" })) });
}

// ---- the list ----

function rego(file: string): string {
  return readFileSync(`${here}${file}`, "utf8");
}

export const WORKLOADS: Workload[] = [
  {
    name: "authz",
    modules: { "authz.rego": readFileSync(`${root}policies/authz.rego`, "utf8") },
    entrypoint: "authz/allow",
    data: seedData,
    boolean: true,
    handwritten: (input, data) => authzAllow(input, data as SeedData),
    cases: [
      ["admin → true", { user: { id: "root", role: "admin" }, action: "delete", resource: { type: "documents", owner_id: "alice" } }],
      ["owner → true", { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "documents", owner_id: "bob" } }],
      ["permission → true (scan)", { user: { id: "alice", role: "user" }, action: "update", resource: { type: "documents", owner_id: "bob" } }],
      ["no rule → default false", { user: { id: "bob", role: "user" }, action: "delete", resource: { type: "documents", owner_id: "alice" } }],
    ],
  },
  {
    name: "api",
    modules: { "api.rego": readFileSync(`${root}policies/api.rego`, "utf8") },
    entrypoint: "api/allow",
    data: seedData,
    boolean: true,
    handwritten: (input, data) => apiAllow(input, data as SeedData),
    cases: [
      ["GET /users → true", { ...apiBase, method: "GET", path: ["users"], user: { id: "bob", role: "user", authenticated: true }, time: 10 }],
      ["GET /users/<own id> → true", { ...apiBase, method: "GET", path: ["users", "bob"], user: { id: "bob", role: "user", authenticated: true }, time: 10 }],
      ["composed rule → true", { ...apiBase, method: "GET", path: ["reports"], action: "read", resource: "reports", user: { id: "carol", role: "user", authenticated: true }, time: 10 }],
      ["composed rule at 22 → false", { ...apiBase, method: "GET", path: ["reports"], action: "read", resource: "reports", user: { id: "carol", role: "user", authenticated: true }, time: 22 }],
    ],
  },
  {
    name: "rbac",
    modules: { "rbac.rego": rego("rbac.rego") },
    entrypoint: "rbac/allow",
    data: rbacData,
    boolean: true,
    handwritten: (input, data) => rbacAllow(input, data as RbacData),
    cases: [
      ["admin → true", { user: "alice", action: "delete", type: "dog" }],
      ["second role's grant → true", { user: "bob", action: "update", type: "finance" }],
      ["no grant → false", { user: "eve", action: "update", type: "dog" }],
    ],
  },
  routesWorkload(5),
  routesWorkload(50),
  routesWorkload(500),
  {
    name: "pod",
    modules: { "pod.rego": rego("pod.rego") },
    entrypoint: "k8s/pod/violation",
    data: podData,
    boolean: false,
    handwritten: (input, data) => podViolations(input, data as PodData),
    cases: [["200 containers, 20 bad images, 29 without memory limit", pod(200)]],
    canonical: sortedByText,
  },
  {
    name: "docs",
    modules: { "docs.rego": rego("docs.rego") },
    entrypoint: "docs/allowed_docs",
    data: docsData(10_000),
    boolean: false,
    handwritten: (input, data) => allowedDocs(input, data as { records: Doc[] }),
    cases: [["10 000 records, 300 allowed", { user: "user-42" }]],
    canonical: sortedByText,
  },
  {
    name: "stats",
    modules: { "stats.rego": rego("stats.rego") },
    entrypoint: "stats/summary",
    data: {},
    boolean: false,
    handwritten: (input) => statsSummary(input),
    cases: [["500 users, 10 departments, 20 admins", users(500)]],
    canonical: (json) => (isObj(json) ? { ...json, admins: sortedByText(json.admins) } : json),
  },
];
