// Codegen benchmark: IR plan → TypeScript → live module, per plan, over every plan of the
// compliance cases (median and p90, warm: after a first pass), split into generation (decode,
// validate, analyse, emit, ts-morph) and loading (esbuild + import), and the live route compilePlan
// takes (a JavaScript function body, vm.compileFunction); then the evaluation speed of a
// few generated entrypoints (ns per evaluation).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compilePlan, generateTypeScript, loadModule } from "../compiler/index.js";
import { F, L, PolicyBuilder, T, block, st } from "../test/support/plans.js";
import { median, nsPerCall, type Bench } from "./util.js";

const shared = process.env.REGOC_SHARED ?? new URL("../../shared", import.meta.url).pathname;
const casesDir = join(shared, "compliance", "v1");

function compliancePlans(): Array<{ note: string; plan: unknown; input?: unknown; data?: unknown }> {
  if (!existsSync(casesDir)) return [];
  const out = [];
  for (const cat of readdirSync(casesDir).sort()) {
    for (const f of readdirSync(join(casesDir, cat)).sort()) {
      for (const c of JSON.parse(readFileSync(join(casesDir, cat, f), "utf8")).cases) out.push(c);
    }
  }
  return out;
}

function p90(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.9)]!;
}

/** authz/allow: default false; admin, or GET of a public path (no builtins: `==` as EqualStmt). */
function authzPlan(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.func("g0.data.authz.allow", [0, 1], 2, [
    block(st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("user"), 4), b.dot(L(4), b.s("role"), 5), st("EqualStmt", { a: L(5), b: b.s("admin") }), b.once(T, 3)),
    block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    block(st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("method"), 6), st("EqualStmt", { a: L(6), b: b.s("GET") }), b.dot(L(0), b.s("public"), 7), st("NotEqualStmt", { a: L(7), b: F }), b.once(T, 3)),
    block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    block(st("IsUndefinedStmt", { source: 2 }), b.once(F, 2)),
    block(st("ReturnLocalStmt", { source: 2 })),
  ]);
  b.entry("authz/allow", "g0.data.authz.allow");
  return b;
}

/** authz/admin: `input.user.role == "admin"` as OPA plans `==`: a call of the `equal` builtin. */
function equalPlan(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin("equal", 2, { type: "boolean" });
  b.func("g0.data.authz.admin", [0, 1], 2, [
    block(
      st("ResetLocalStmt", { target: 3 }),
      b.dot(L(0), b.s("user"), 4),
      b.dot(L(4), b.s("role"), 5),
      b.call("equal", [L(5), b.s("admin")], 6),
      st("NotEqualStmt", { a: L(6), b: F }),
      b.once(T, 3),
    ),
    block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    block(st("IsUndefinedStmt", { source: 2 }), b.once(F, 2)),
    block(st("ReturnLocalStmt", { source: 2 })),
  ]);
  b.entry("authz/admin", "g0.data.authz.admin");
  return b;
}

/** A partial set over input.items: the ids of items whose tags include "x" (a scan in a scan). */
function scanPlan(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.func("g0.data.shop.flagged", [0, 1], 2, [
    block(st("MakeSetStmt", { target: 2 })),
    block(
      b.dot(L(0), b.s("items"), 3),
      b.scan(3, 4, 5, b.dot(L(5), b.s("tags"), 6), b.scan(6, 7, 8, st("EqualStmt", { a: L(8), b: b.s("x") }), b.dot(L(5), b.s("id"), 9), st("SetAddStmt", { set: 2, value: L(9) }))),
    ),
    block(st("ReturnLocalStmt", { source: 2 })),
  ]);
  b.entry("shop/flagged", "g0.data.shop.flagged");
  return b;
}

const bench: Bench = {
  title: "Codegen: IR plan → TypeScript → module, and generated-code evaluation",
  async run() {
    const lines: string[] = [];
    const cases = compliancePlans();
    // Evaluation first, in a fresh process: 2000 loaded modules would make the shared runtime
    // helpers' call sites megamorphic, which is not what one policy in an application sees.
    lines.push("Evaluation (fresh process, before the codegen pass):", "", "| evaluation | input | ns/eval |", "|---|---|---|");
    const authz = await compilePlan(authzPlan().json());
    const allowMod = await loadModule(generateTypeScript(authzPlan().json()).code);
    const allow = allowMod.authzAllow as (input: unknown, data: unknown) => boolean;
    const admin = { user: { role: "admin" }, method: "POST" };
    const guest = { user: { role: "guest" }, method: "GET", public: true };
    const denied = { user: { role: "guest" }, method: "POST" };
    lines.push(`| authzAllow(input) direct (admin → true) | 2 Dot, 1 Equal | ${nsPerCall(() => allow(admin, undefined)).toFixed(0)} |`);
    lines.push(`| authzAllow(input) direct (public GET → true) | second rule body | ${nsPerCall(() => allow(guest, undefined)).toFixed(0)} |`);
    lines.push(`| authzAllow(input) direct (→ default false) | | ${nsPerCall(() => allow(denied, undefined)).toFixed(0)} |`);
    lines.push(`| PreparedQuery.evaluate (admin) | result set of one row | ${nsPerCall(() => authz.evaluateSync({ input: admin })).toFixed(0)} |`);
    const adminMod = await loadModule(generateTypeScript(equalPlan().json()).code);
    const isAdmin = adminMod.authzAdmin as (input: unknown, data: unknown) => boolean;
    lines.push(`| authzAdmin(input) direct, \`==\` as the equal builtin (→ true) | 2 Dot, 1 builtin call | ${nsPerCall(() => isAdmin(admin, undefined)).toFixed(0)} |`);
    const flagged = await compilePlan(scanPlan().json());
    const items = Array.from({ length: 100 }, (_, i) => ({ id: `i${i}`, tags: i % 3 === 0 ? ["a", "x"] : ["a", "b"] }));
    lines.push(`| shop/flagged (partial set, scan in scan) | 100 items × 2 tags | ${nsPerCall(() => flagged.evaluateSync({ input: { items } })).toFixed(0)} |`);
    for (const note of ["every/empty domain (array)", "comprehensions/array nested", "partialsetdoc/iteration", "withkeyword/with virtual doc exact value"]) {
      const c = cases.find((x) => x.note === note);
      if (!c) continue;
      try {
        const pq = await compilePlan(c.plan);
        const opts = { input: c.input, data: c.data ?? {} };
        lines.push(`| compliance: ${note} | | ${nsPerCall(() => pq.evaluateSync(opts)).toFixed(0)} |`);
      } catch {
        // a builtin it needs is not there yet
      }
    }
    lines.push("");
    if (cases.length > 0) {
      // First pass warms up ts-morph, esbuild and the JIT; the second is measured. Two routes per
      // plan: the typed module a user writes to disk (ts-morph layout, esbuild, import()), and what
      // compilePlan/compileRego load (a JavaScript function body, vm.compileFunction).
      const gen: number[] = [];
      const load: number[] = [];
      const total: number[] = [];
      const liveGen: number[] = [];
      const liveLoad: number[] = [];
      const liveTotal: number[] = [];
      let bytes = 0;
      let skipped = 0;
      for (let pass = 0; pass < 2; pass++) {
        for (const c of cases) {
          const t0 = performance.now();
          const g = generateTypeScript(c.plan);
          const t1 = performance.now();
          try {
            await loadModule(g.code);
          } catch {
            if (pass === 1) skipped++; // a builtin it needs is not implemented (yet): not timed
            continue;
          }
          const t2 = performance.now();
          const f = generateTypeScript(c.plan, { language: "function" });
          const t3 = performance.now();
          await loadModule(f.code, f);
          const t4 = performance.now();
          if (pass === 1) {
            gen.push(t1 - t0);
            load.push(t2 - t1);
            total.push(t2 - t0);
            liveGen.push(t3 - t2);
            liveLoad.push(t4 - t3);
            liveTotal.push(t4 - t2);
            bytes += g.code.length;
          }
        }
      }
      const ms = (x: number) => `${x.toFixed(2)} ms`;
      const stepRow = (label: string, xs: number[]) => `| ${label} | ${ms(median(xs))} | ${ms(p90(xs))} | ${ms(Math.max(...xs))} |`;
      lines.push(`Over the ${total.length} plans of the compliance cases whose builtins exist (${skipped} skipped), warm (second pass):`, "");
      lines.push("| step | median | p90 | max |", "|---|---|---|---|");
      lines.push(stepRow("generate TS (decode, validate, analyse, emit, ts-morph module)", gen));
      lines.push(stepRow("load (esbuild transform + import)", load));
      lines.push(`| **codegen + load** (goal ≤ 20 ms) | **${ms(median(total))}** | ${ms(p90(total))} | ${ms(Math.max(...total))} |`);
      lines.push(stepRow("live route (compilePlan): generate a JavaScript function body", liveGen));
      lines.push(stepRow("live route: load (vm.compileFunction)", liveLoad));
      lines.push(`| **live route: codegen + load** | **${ms(median(liveTotal))}** | ${ms(p90(liveTotal))} | ${ms(Math.max(...liveTotal))} |`);
      lines.push("", `Generated TypeScript: ${(bytes / total.length / 1024).toFixed(1)} KiB per plan on average.`, "");
    } else lines.push(`(${casesDir} is absent: codegen timing over the compliance plans skipped)`, "");

    return lines.join("\n");
  },
};

export default bench;
