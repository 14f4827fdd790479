// The Rego frontend: source → checked program → IR plan → generated module, loaded.
//  - a small authz/api policy pair with its tests (the seed policies' shape), warm: goal ≤ 50 ms;
//  - a synthesised 1 MB policy set: goal ≤ 2 s.
// Each phase is timed separately (parse, compiler stages, planner, code generation + load).
// The compiler is measured as users run it: the built dist/ (`npm run bench` builds it first),
// not the sources through tsx (whose transforms add to every closure, and whose loader hooks add
// to every import); from the sources only when dist/ is absent, and the output says which.
import { existsSync } from "node:fs";
import { median, type Bench } from "./util.js";

const fromDist = existsSync(new URL("../dist/compiler/compile.js", import.meta.url));
const base = fromDist ? "../dist/compiler" : "../compiler";
const { planRegoDetailed } = (await import(`${base}/compile.js`)) as typeof import("../compiler/compile.js");
const { compilePlan } = (await import(`${base}/index.js`)) as typeof import("../compiler/index.js");
const { compileModules, compileQuery } = (await import(`${base}/passes/runner.js`)) as typeof import("../compiler/passes/runner.js");
const { planProgram } = (await import(`${base}/planner/planner.js`)) as typeof import("../compiler/planner/planner.js");
const { parseModule, parseQuery } = (await import(`${base}/syntax/index.js`)) as typeof import("../compiler/syntax/index.js");

const AUTHZ = `package authz

import rego.v1

default allow := false

roles := {"admin": {"read", "write", "delete"}, "editor": {"read", "write"}, "viewer": {"read"}}

user_roles contains role if some role in data.users[input.user].roles

permitted contains action if {
	some role in user_roles
	some action in roles[role]
}

allow if {
	not deny
	input.action in permitted
}

allow if "admin" in user_roles

deny if input.user in data.blocked

deny if {
	input.action == "delete"
	not owner(input.user, input.resource)
}

owner(user, resource) if data.resources[resource].owner == user

reasons contains msg if {
	deny
	msg := sprintf("%s may not %s %s", [input.user, input.action, input.resource])
}

test_admin_allowed if allow with input as {"user": "ann", "action": "delete", "resource": "r1"}
	with data.users as {"ann": {"roles": ["admin"]}}

test_viewer_cannot_write if not allow with input as {"user": "vic", "action": "write", "resource": "r1"}
	with data.users as {"vic": {"roles": ["viewer"]}}

test_blocked if deny with input as {"user": "bob", "action": "read", "resource": "r1"}
	with data.blocked as ["bob"]
`;

const API = `package api

import rego.v1

routes := [
	{"method": "GET", "path": ["orders"], "action": "read"},
	{"method": "POST", "path": ["orders"], "action": "write"},
	{"method": "DELETE", "path": ["orders", "*"], "action": "delete"},
]

matches(route, req) if {
	route.method == req.method
	count(route.path) == count(req.path)
	every i, seg in route.path {
		seg in {"*", req.path[i]}
	}
}

action := route.action if {
	some route in routes
	matches(route, input)
}

resource := concat("/", input.path)

decision := {"allow": allowed, "reasons": reasons} if {
	allowed := data.authz.allow with input as {"user": input.user, "action": action, "resource": resource}
	reasons := [r | some r in data.authz.reasons] with input as {"user": input.user, "action": action, "resource": resource}
}

test_get_orders if action == "read" with input as {"method": "GET", "path": ["orders"]}

test_delete_order if action == "delete" with input as {"method": "DELETE", "path": ["orders", "7"]}

test_decision if decision.allow with input as {"method": "GET", "path": ["orders"], "user": "ann"}
	with data.users as {"ann": {"roles": ["viewer"]}}
`;

/** A synthetic policy set of about `bytes` bytes: many packages mixing the language's constructs. */
export function synthesize(bytes: number): Record<string, string> {
  const modules: Record<string, string> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = `package gen.p${i}

import rego.v1

default allow := false

limits := {"max": ${i % 97}, "tiers": ["free", "pro", "team"]}

allowed_tiers contains t if {
	some t in limits.tiers
	t != "free"
}

allow if {
	input.tier in allowed_tiers
	input.count <= limits.max
	not blocked[input.user]
}

blocked[u] := true if {
	some u in data.blocked_${i % 7}
}

score(x, y) := s if {
	s := (x * ${i % 13 + 1}) + y
} else := 0

totals := {k: v | some k, v in input.items; v > ${i % 5}}

report := {"allow": allow, "score": score(count(totals), ${i}), "tiers": [t | some t in allowed_tiers]} if {
	every item in input.list { item.ok }
}

messages contains msg if {
	some item in input.list
	not item.ok
	msg := sprintf("item %v of p${i} failed", [item.id])
}
`;
    modules[`gen/p${i}.rego`] = text;
    size += text.length;
  }
  return modules;
}

function mb(chars: number): string {
  return (chars / 1e6).toFixed(1);
}

interface Phases {
  parse: number;
  passes: number;
  plan: number;
  codegen: number;
  total: number;
  /** Sizes (not timed): the plan as JSON text and the generated module, in characters. */
  planChars?: number;
  codeChars?: number;
}

async function compileOnce(modules: Record<string, string>, entrypoints: string[], sizes = false): Promise<Phases> {
  const t0 = performance.now();
  const parsed = Object.entries(modules).map(([file, text]) => parseModule(text, { file }));
  const t1 = performance.now();
  const ctx = compileModules(parsed);
  if (ctx.errors.length > 0) throw ctx.errors[0];
  const queries = entrypoints.map((e) => {
    compileQuery(ctx, parseQuery(`result = data.${e.split("/").join(".")}`));
    if (ctx.errors.length > 0) throw ctx.errors[0];
    return { name: e, query: ctx.query!.body, rewritten: ctx.query!.rewritten };
  });
  const t2 = performance.now();
  const { plan } = planProgram({ modules: ctx.modules, ruleRef: (r) => ctx.ruleRef(r), ruleTree: ctx.ruleTree!, builtins: ctx.builtins, queries });
  const t3 = performance.now();
  const prepared = await compilePlan(plan, { entrypoint: entrypoints[0]! });
  const t4 = performance.now();
  const phases: Phases = { parse: t1 - t0, passes: t2 - t1, plan: t3 - t2, codegen: t4 - t3, total: t4 - t0 };
  if (sizes) {
    phases.planChars = JSON.stringify(plan).length;
    phases.codeChars = prepared.source.length;
  }
  return phases;
}

function row(label: string, p: Phases): string {
  const f = (x: number): string => x.toFixed(1);
  return `| ${label} | ${f(p.parse)} | ${f(p.passes)} | ${f(p.plan)} | ${f(p.codegen)} | **${f(p.total)}** |`;
}

function medianPhases(runs: Phases[]): Phases {
  const pick = (k: "parse" | "passes" | "plan" | "codegen" | "total"): number => median(runs.map((r) => r[k]));
  return { parse: pick("parse"), passes: pick("passes"), plan: pick("plan"), codegen: pick("codegen"), total: pick("total") };
}

const bench: Bench = {
  title: "Rego frontend: source to loaded module",
  async run() {
    const small = { "authz.rego": AUTHZ, "api.rego": API };
    const smallEntrypoints = ["authz/allow", "api/decision"];
    // sanity: the policies compile and the public API agrees
    planRegoDetailed({ modules: small, entrypoints: smallEntrypoints });
    const cold = await compileOnce(small, smallEntrypoints);
    const warmRuns: Phases[] = [];
    for (let i = 0; i < 100; i++) warmRuns.push(await compileOnce(small, smallEntrypoints));
    const warm = medianPhases(warmRuns);

    const big = synthesize(1_000_000);
    const bigBytes = Object.values(big).reduce((n, t) => n + t.length, 0);
    const bigEntrypoints = Object.keys(big).map((f) => `${f.replace(/\.rego$/, "").replace(/^gen\//, "gen/")}/report`);
    // Three runs (each a few seconds, on a shared machine): the median by total, and the range.
    const bigRuns: Phases[] = [];
    for (let i = 0; i < 3; i++) bigRuns.push(await compileOnce(big, bigEntrypoints));
    const byTotal = [...bigRuns].sort((a, b) => a.total - b.total);
    const oneRun = await compileOnce(big, [bigEntrypoints[0]!]);
    // The sizes from a run of their own after the timed ones: serialising a 25 MB plan between
    // timed runs would charge the bench's own garbage to the next run's collector.
    const sized = await compileOnce(big, bigEntrypoints, true);
    const bigRun = { ...byTotal[1]!, planChars: sized.planChars, codeChars: sized.codeChars };
    const bigWall = bigRun.total;
    // In order: the JIT is still settling in the first runs (later runs of a process are faster).
    const bigOrder = bigRuns.map((r) => (r.total / 1000).toFixed(2)).join(", ");

    const lines = [
      `Milliseconds per phase: parse → compiler stages (incl. entrypoint queries) → planner → code generation and loading (a JavaScript function body, \`vm.compileFunction\`); the compiler ${fromDist ? "as built in dist/" : "from its TypeScript sources through tsx (dist/ was absent)"}.`,
      "",
      "| case | parse | stages | plan | codegen + load | total |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      row("authz + api with tests (cold, first run)", cold),
      row("authz + api with tests (warm, median of 100)", warm),
      row(`synthesised set: ${Object.keys(big).length} modules, ${(bigBytes / 1e6).toFixed(2)} MB, ${bigEntrypoints.length} entrypoints (median of 3 by total; runs in order ${bigOrder} s)`, bigRun),
      row("the same set, one entrypoint (all stages, planner only what it reaches)", oneRun),
      "",
      `Goals: small pair warm ≤ 50 ms (${warm.total <= 50 ? "met" : "NOT met"}: ${warm.total.toFixed(1)} ms); ` +
        `1 MB set ≤ 2 s (${bigWall <= 2000 ? "met" : "NOT met"}: ${(bigWall / 1000).toFixed(2)} s).`,
      "",
      `Frontend only (parse + stages + plan, i.e. Rego → IR plan JSON): small pair warm ${(warm.parse + warm.passes + warm.plan).toFixed(1)} ms, ` +
        `1 MB set ${((bigRun.parse + bigRun.passes + bigRun.plan) / 1000).toFixed(2)} s.`,
      "",
      `Where the 1 MB set's time goes: its ${bigEntrypoints.length} entrypoints reach nearly every rule, so the planner emits ` +
        `${mb(bigRun.planChars!)} MB of plan (as JSON) and the code generator ${mb(bigRun.codeChars!)} MB of JavaScript ` +
        "(a live module is generated as a JavaScript function body: no ts-morph layout, no esbuild pass, no module loader), which V8 parses: " +
        "code generation and loading grow with that text. " +
        "With one entrypoint the planner and code generator see only what it reaches, and the compiler stages dominate.",
    ];
    return lines.join("\n");
  },
};

export default bench;
