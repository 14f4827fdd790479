// Decision benchmark: for each workload of bench/workloads (a Rego policy and a hand-written
// function with the same answers), ns per decision of the code the current generator makes from
// the policy, of the runtime route (Authorizer.authorizeSync for a boolean decision, else a
// compileRego PreparedQuery), and of the hand-written function, interleaved; and whether a million
// seed decisions collect garbage (bench/decisionsGc.ts under --trace-gc). Both run in child
// processes that load regoc from dist/ (built by `npm run bench`), as an application does: the
// sources as tsx transforms them run some of the runtime slower.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Authorizer, toJSON, type Value } from "regoc";
import { compileRego } from "regoc/compiler";
import { WORKLOADS, loadGenerated, type Workload } from "./workloads/index.js";
import { cpuNsPerCall, median, type Bench } from "./util.js";

const ROUNDS = 7;
const MS = 60;
const WARMUP_MS = 200;
/** Seed decisions in the GC check. */
const GC_DECISIONS = 1_000_000;

const root = fileURLToPath(new URL("..", import.meta.url));

/** Before each timing: time for the GC work the previous function's garbage left (concurrent
 * marking, sweeping, their finalising tasks), which would otherwise count in the next one's CPU time. */
const SETTLE_MS = 15;

type Contender = "generated" | "runtime" | "hand";
const CONTENDERS: Contender[] = ["generated", "runtime", "hand"];

interface Row {
  workload: Workload;
  note: string;
  fns: Record<Contender, () => unknown>;
  ns: Record<Contender, number[]>;
}

/** The runtime route's decision function and its label. */
async function runtimeRoute(w: Workload): Promise<[string, (input: unknown) => unknown]> {
  if (w.boolean) {
    const authorizer = await Authorizer.create({ modules: w.modules, query: `data.${w.entrypoint.replaceAll("/", ".")}`, data: w.data as Record<string, unknown> });
    return ["authorizeSync", (input) => authorizer.authorizeSync(input)];
  }
  const q = await compileRego({ modules: w.modules, entrypoints: [w.entrypoint] });
  return ["PreparedQuery", (input) => q.evaluateSync({ input, data: w.data as Value })[0]?.result];
}

/** The three answers agree (as JSON, in the workload's canonical order). */
function checkAnswers(w: Workload, note: string, answers: Record<Contender, unknown>): void {
  const canonical = w.canonical ?? ((x: unknown) => x);
  const text = (v: unknown) => JSON.stringify(canonical(JSON.parse(JSON.stringify(toJSON(v as Value) ?? null))));
  const expected = text(answers.generated);
  for (const c of CONTENDERS) {
    if (text(answers[c]) !== expected) throw new Error(`${w.name}, ${note}: ${c} answers ${text(answers[c])}, the generated code ${expected}`);
  }
}

const fmt = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e4 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);

interface GcCount {
  scavenges: number;
  markSweeps: number;
  observed: number;
}

/** Runs bench/decisionsGc.ts under --trace-gc: its GC lines, and the GCs it observed in the loop. */
function gcRun(mode: string, decisions: number): GcCount {
  const lines = fromDist(["--trace-gc", `${root}bench/decisionsGc.ts`, mode, String(decisions)]).split("\n");
  const result = JSON.parse(lines.find((l) => l.startsWith("{"))!) as { observed: number };
  return {
    scavenges: lines.filter((l) => /: (Scavenge|Minor Mark-Compact)\b/.test(l)).length,
    markSweeps: lines.filter((l) => /: Mark-(Compact|sweep)\b/i.test(l)).length,
    observed: result.observed,
  };
}

/** The timing table and its notes (run in the child process: `decisions.bench.ts --measure`). */
async function measure(): Promise<string[]> {
  const rows: Row[] = [];
  const routes = new Map<string, string>();
  let sink: unknown;
  for (const w of WORKLOADS) {
    const generated = await loadGenerated(w);
    const [label, runtime] = await runtimeRoute(w);
    routes.set(w.name, label);
    for (const [note, input] of w.cases) {
      checkAnswers(w, note, { generated: generated(input, w.data), runtime: runtime(input), hand: w.handwritten(input, w.data) });
      rows.push({
        workload: w,
        note,
        fns: {
          generated: () => (sink = generated(input, w.data)),
          runtime: () => (sink = runtime(input)),
          hand: () => (sink = w.handwritten(input, w.data)),
        },
        ns: { generated: [], runtime: [], hand: [] },
      });
    }
  }
  // Every function is warm before any is timed: the runtime's helpers see every workload's values
  // first, as in a process that serves them all.
  for (const row of rows) for (const c of CONTENDERS) cpuNsPerCall(row.fns[c], WARMUP_MS);
  const ratios = new Map<Row, { generated: number[]; runtime: number[] }>(rows.map((r) => [r, { generated: [], runtime: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const row of rows) {
      const order = [...CONTENDERS.slice(round % 3), ...CONTENDERS.slice(0, round % 3)];
      for (const c of order) {
        await sleep(SETTLE_MS);
        row.ns[c].push(cpuNsPerCall(row.fns[c], MS));
      }
      const last = (c: Contender) => row.ns[c][row.ns[c].length - 1]!;
      ratios.get(row)!.generated.push(last("generated") / last("hand"));
      ratios.get(row)!.runtime.push(last("runtime") / last("hand"));
    }
  }
  void sink;

  const load = loadavg()[0]!.toFixed(1);
  const lines = [
    `ns per decision by the process's CPU time, median of ${ROUNDS} interleaved rounds (${MS} ms of CPU per function per round, the order rotating); ratios are the median of the rounds' ratios. ` +
      `CPU time, not wall time: the machine is shared (load average ${load} at the end of the rounds).`,
    "_generated_: the module the current code generator writes ahead of time from the workload's policy (TypeScript, loaded at bench start, with regoc from dist/ as an application loads it); " +
      "_runtime_: `Authorizer.authorizeSync` for a boolean decision, `compileRego(...).evaluate` (a result set) for a set or object; " +
      "_hand-written_: bench/workloads/index.ts, which test/property/decisions.test.ts checks against the generated code on random inputs.",
    "",
    "| workload | input | generated | runtime route | hand-written | generated / hand-written | runtime / hand-written |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const r = ratios.get(row)!;
    lines.push(
      `| ${row.workload.name} | ${row.note} | ${fmt(median(row.ns.generated))} | ${fmt(median(row.ns.runtime))} (${routes.get(row.workload.name)}) | ${fmt(median(row.ns.hand))} | **${median(r.generated).toFixed(2)}×** | ${median(r.runtime).toFixed(2)}× |`,
    );
  }
  const noRoute = (n: number) => rows.find((r) => r.workload.name === `routes-${n}` && r.note.startsWith("no route"));
  const [few, many] = [noRoute(5), noRoute(500)];
  if (few && many) {
    const t = (r: Row, c: Contender) => fmt(median(r.ns[c]));
    lines.push("", `Route tables, no route matching, 5 → 500 rules: generated ${t(few, "generated")} → ${t(many, "generated")}, hand-written ${t(few, "hand")} → ${t(many, "hand")} (a lookup by path).`);
  }
  lines.push(
    "",
    "`@open-policy-agent/opa-wasm`: not measured, no policy.wasm of these policies at hand: no `opa` binary here to build one, and no npm package ships one " +
      "(the tarballs of `@open-policy-agent/opa-wasm` 1.10.0, the SDK alone, and `@open-policy-agent/opa` 2.0.0, the REST client, hold no .wasm; OPA's wasm test fixtures are not published to npm).",
  );
  return lines;
}

/** A child process loading regoc from dist/ (no regoc-source condition): its stdout. */
function fromDist(args: string[]): string {
  if (!existsSync(`${root}dist/runtime/index.js`)) throw new Error("bench decisions: no dist/ (npm run bench builds it first)");
  const r = spawnSync(process.execPath, ["--no-experimental-require-module", "--import", "tsx", ...args], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

const bench: Bench = {
  title: "Decisions: generated code against hand-written functions",
  async run() {
    const out = fromDist([fileURLToPath(import.meta.url), "--measure"]);
    const lines = JSON.parse(out.split("\n").find((l) => l.startsWith("["))!) as string[];
    const gc = (mode: string) => ({ base: gcRun(mode, 0), run: gcRun(mode, GC_DECISIONS) });
    const runs = [["generated", gc("generated")], ["hand-written", gc("hand")]] as const;
    lines.push(
      "",
      `GC check: a child process under \`--trace-gc\` loads the seed workloads, warms up, then makes ${GC_DECISIONS.toLocaleString("en")} decisions (authz/allow and api/allow in turn over the 8 inputs above); ` +
        "the same process making none is the baseline (its lines include tsx's loader thread, which has its own heap). perf_hooks counts the main thread's GCs during the loop alone.",
      "",
      "| decisions | GC lines, baseline (scavenges / mark-sweeps) | with the decisions | beyond the baseline | GCs during the loop (perf_hooks) |",
      "|---|---|---|---|---|",
      ...runs.map(
        ([label, { base, run }]) =>
          `| ${GC_DECISIONS.toLocaleString("en")} ${label} | ${base.scavenges} / ${base.markSweeps} | ${run.scavenges} / ${run.markSweeps} | ` +
          `${run.scavenges - base.scavenges} / ${run.markSweeps - base.markSweeps} | **${run.observed}** |`,
      ),
    );
    return lines.join("\n");
  },
};

export default bench;

if (process.argv[2] === "--measure" && process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${JSON.stringify(await measure())}\n`);
