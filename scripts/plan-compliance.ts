// Quick check of the backend against OPA's own plans in ../shared/compliance (not the official
// runner): compile each case's plan, evaluate it with its input and data, compare with
// want_plan_result the way the compliance README says. Prints a table by category, the missing
// builtins ranked, failures (with --verbose) and `N passed, M failed`.
//   npx tsx --conditions=regoc-source scripts/plan-compliance.ts [--filter REGEX] [--verbose]
import { readFileSync, readdirSync } from "node:fs";
import { compilePlan } from "regoc/compiler";
import { RegoError, toJSON, type Value } from "regoc";

const args = process.argv.slice(2);
const filter = args.includes("--filter") ? new RegExp(args[args.indexOf("--filter") + 1]!) : undefined;
const verbose = args.includes("--verbose");
const root = process.env.REGOC_COMPLIANCE ?? new URL("../../shared/compliance/v1", import.meta.url).pathname;

function canon(v: unknown, sortArrays: boolean): string {
  if (Array.isArray(v)) {
    const items = v.map((x) => canon(x, sortArrays));
    if (sortArrays) items.sort();
    return `[${items.join(",")}]`;
  }
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k], sortArrays)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

function rows(rs: unknown[], sortArrays: boolean): string {
  return JSON.stringify(rs.map((r) => canon(r, sortArrays)).sort());
}

interface Stat { pass: number; fail: number }
const byCat = new Map<string, Stat>();
const missing = new Map<string, number>();
const reasons = new Map<string, number>();
let passed = 0;
let failed = 0;
let skipped = 0;
const t0 = performance.now();
for (const cat of readdirSync(root).sort()) {
  for (const file of readdirSync(`${root}/${cat}`).sort()) {
    for (const c of JSON.parse(readFileSync(`${root}/${cat}/${file}`, "utf8")).cases) {
      if (filter && !filter.test(c.note)) continue;
      if (c.input_term !== undefined) {
        // A Rego term; most are plain JSON (the rest need the Rego parser).
        try {
          c.input = JSON.parse(c.input_term);
        } catch {
          skipped++;
          continue;
        }
      }
      const st = byCat.get(cat) ?? { pass: 0, fail: 0 };
      byCat.set(cat, st);
      let ok = false;
      let why = "";
      try {
        const pq = await compilePlan(c.plan);
        const opts = { input: c.input, data: c.data ?? {}, strictBuiltinErrors: c.strict_error === true };
        try {
          const rs = pq.async ? await pq.evaluateAsync(opts) : pq.evaluate(opts);
          const got = rs.map((r) => toJSON(r as Value));
          if (c.want_error_code || c.want_error) why = `expected error ${c.want_error_code ?? ""} ${c.want_error ?? ""}, got ${JSON.stringify(got)}`;
          else {
            const sortArrays = c.sort_bindings === true;
            ok = rows(got, sortArrays) === rows(c.want_plan_result ?? [], sortArrays);
            if (!ok) why = `got ${JSON.stringify(got)} want ${JSON.stringify(c.want_plan_result)}`;
          }
        } catch (e) {
          if (c.want_error_code || c.want_error) {
            ok = e instanceof RegoError && (!c.want_error_code || e.code === c.want_error_code);
            if (!ok) why = `error ${(e as Error).message} (${(e as RegoError).code}), want ${c.want_error_code}`;
          } else why = `error ${e instanceof RegoError ? e.code : ""} ${(e as Error).message}`;
        }
      } catch (e) {
        const d = (e as RegoError).details as { missingBuiltins?: string[] } | undefined;
        if (d?.missingBuiltins) {
          for (const b of d.missingBuiltins) missing.set(b, (missing.get(b) ?? 0) + 1);
          why = `missing builtins ${d.missingBuiltins.join(", ")}`;
          reasons.set("missing builtins", (reasons.get("missing builtins") ?? 0) + 1);
        } else why = `compile: ${(e as Error).message}`;
      }
      if (ok) {
        passed++;
        st.pass++;
      } else {
        failed++;
        st.fail++;
        if (!why.startsWith("missing")) reasons.set(why.slice(0, 60), (reasons.get(why.slice(0, 60)) ?? 0) + 1);
        if (verbose && !why.startsWith("missing")) console.log(`FAIL ${c.note}: ${why.slice(0, 400)}`);
      }
    }
  }
}
for (const [cat, s] of byCat) if (s.fail > 0 || verbose) console.log(`${cat.padEnd(40)} ${String(s.pass).padStart(4)} pass ${String(s.fail).padStart(4)} fail`);
console.log("\nmissing builtins (cases):", [...missing].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([b, n]) => `${b}:${n}`).join(" "));
console.log("\nfailure reasons:", [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25));
console.log(`\n${skipped} skipped (input_term that is not JSON), ${((performance.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
