// Fuzzing the whole compiler, seeded from the compliance cases (as OPA's fuzz_test.go is):
// mutations of the cases' modules (kept with their queries), random programs from a small Rego
// grammar, combinations of modules from different cases, and random expression soups in a rule
// body. Whatever the input, compileRego — and planRego + compilePlan, which compileRego wraps —
// throws nothing but RegoErrors with a code (and a location where there is source to point at),
// each input compiles in bounded time, and what compiles evaluates on a few inputs without any
// exception but a RegoError. The default run takes about 20 s; FC_RUNS and FC_SEED run it longer
// or elsewhere (REGOC_VERBOSE=1 prints how many inputs got how far).
import { expect } from "chai";
import fc from "fast-check";

import { compileRego, INTERNAL_COMPILER_ERROR, planRegoDetailed, type CompileRegoOptions } from "../../compiler/compile.js";
import { compilePlan, type PreparedQuery } from "../../compiler/index.js";
import { INTERNAL_PLANNER_ERROR } from "../../compiler/planner/planner.js";
import { INTERNAL_ERROR as INTERNAL_PARSER_ERROR } from "../../compiler/syntax/index.js";
import { RegoError, RegoErrors } from "../../runtime/errors.js";
import { loadComplianceSources } from "../support/complianceModules.js";
import { haveShared } from "../support/shared.js";

const SEED = Number(process.env.FC_SEED ?? 20261121);
const runs = (n: number): fc.Parameters<unknown> => ({ numRuns: Math.ceil(Number(process.env.FC_RUNS ?? n)), seed: SEED, endOnFailure: true });

/** Time one input may take to plan, and to generate, load and evaluate (generous: CI machines
 * are slow; the point is to catch a hang or a blow-up, not to benchmark). */
const PLAN_MS = 10_000;
const COMPILE_MS = 30_000;

const stats = { inputs: 0, planned: 0, compiled: 0, evaluated: 0, compileErrors: 0, evalErrors: 0 };
/** Why inputs failed to compile (REGOC_VERBOSE=2 prints the commonest: a guide to the generators). */
const reasons = new Map<string, number>();

// ---------------------------------------------------------------------------------------------
// the checks

interface Input {
  modules: Record<string, string>;
  query?: string;
  entrypoints?: string[];
}

function describeInput(input: Input): string {
  const mods = Object.entries(input.modules).map(([f, t]) => `--- ${f}\n${t}`);
  return [...mods, `--- query: ${input.query ?? ""} entrypoints: ${(input.entrypoints ?? []).join(" ")}`].join("\n");
}

const INTERNAL = [INTERNAL_COMPILER_ERROR, INTERNAL_PLANNER_ERROR, INTERNAL_PARSER_ERROR];
/** Compile errors that have no source to point at. */
const LOCATIONLESS = ["error limit reached", "entrypoint", "nothing to plan", "empty query", "missing builtin"];

/** A compile-time failure must be a RegoError with a code, never an internal error, and located
 * when it is about source. */
function checkCompileError(e: unknown, input: Input, phase: string): void {
  if (!(e instanceof RegoError)) {
    throw new Error(`${phase} threw ${(e as Error)?.stack ?? String(e)}\nfor the input:\n${describeInput(input)}`);
  }
  stats.compileErrors++;
  const all = e instanceof RegoErrors ? e.errors : [e];
  const reason = `${phase} ${all[0]!.code}: ${all[0]!.message.replace(/\d+/g, "N").replace(/"[^"]*"|\b(var|rule|function) \S+/g, "$1 _").slice(0, 70)}`;
  reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  if (process.env.FUZZ_SHOW && reason.includes(process.env.FUZZ_SHOW) && (reasons.get(reason) ?? 0) < 4) process.stdout.write(`${String(e)}\n${describeInput(input)}\n\n`);
  for (const x of all) {
    expect(x, `${phase}: a RegoError in the list`).to.be.instanceOf(RegoError);
    expect(x.code, `${phase}: code of ${x.message}`).to.be.a("string").and.match(/^[a-z_]+$/);
    const internal = INTERNAL.find((p) => x.message.startsWith(p));
    if (internal) throw new Error(`${phase}: ${x.message}\n${(x.cause as Error)?.stack ?? ""}\nfor the input:\n${describeInput(input)}`);
    if (x.code.startsWith("rego_") && !LOCATIONLESS.some((m) => x.message.includes(m))) {
      expect(x.location, `${phase}: location of "${x.message}" for:\n${describeInput(input)}`).to.not.equal(undefined);
      expect(x.location!.row, `${phase}: row of ${x.message}`).to.be.at.least(1);
    }
  }
}

function checkEvalError(e: unknown, input: Input): void {
  if (!(e instanceof RegoError) || typeof e.code !== "string" || e.code.length === 0) {
    throw new Error(`evaluation threw ${(e as Error)?.stack ?? String(e)}\nfor the input:\n${describeInput(input)}`);
  }
  stats.evalErrors++;
}

/** Inputs every compiled policy is evaluated on. */
const EVAL_INPUTS: unknown[] = [undefined, {}, { x: 1, y: "a", a: [1, 2], o: { k: "v" }, user: "alice", roles: ["admin"] }];

async function evaluateAll(prepared: PreparedQuery, input: Input, extra: unknown): Promise<void> {
  if (prepared.async) return; // network builtins: not here
  for (const value of [...EVAL_INPUTS, extra]) {
    try {
      prepared.evaluateSync({ input: value as never });
      stats.evaluated++;
    } catch (e) {
      checkEvalError(e, input);
    }
  }
}

/** Builtins whose cost grows with their arguments (a mutated number could ask for 10^9). */
const HEAVY = /numbers\.range|http\.send|net\./;

/** Plans an input (planRego), then generates, loads and evaluates it (compilePlan, or compileRego
 * as a whole): only RegoErrors, in bounded time. */
async function check(input: Input, mode: { full: boolean; viaCompileRego: boolean; extra?: unknown }): Promise<void> {
  stats.inputs++;
  const options: CompileRegoOptions = { modules: input.modules };
  if (input.query !== undefined) options.query = input.query;
  if (input.entrypoints) options.entrypoints = input.entrypoints;
  const t0 = performance.now();
  let planned: ReturnType<typeof planRegoDetailed>;
  try {
    planned = planRegoDetailed(options);
  } catch (e) {
    checkCompileError(e, input, "planRego");
    return;
  } finally {
    const ms = performance.now() - t0;
    if (ms > PLAN_MS) throw new Error(`planning took ${ms.toFixed(0)} ms for the input:\n${describeInput(input)}`);
  }
  stats.planned++;
  if (!mode.full) return;
  const heavy = Object.values(input.modules).some((m) => HEAVY.test(m)) || HEAVY.test(input.query ?? "");
  const t1 = performance.now();
  let prepared: PreparedQuery;
  try {
    prepared = mode.viaCompileRego ? await compileRego(options) : await compilePlan(planned.plan, { entrypoint: planned.names[0]! });
  } catch (e) {
    checkCompileError(e, input, mode.viaCompileRego ? "compileRego" : "compilePlan");
    return;
  }
  stats.compiled++;
  if (!heavy) await evaluateAll(prepared, input, mode.extra);
  const ms = performance.now() - t1;
  if (ms > COMPILE_MS) throw new Error(`compiling and evaluating took ${ms.toFixed(0)} ms for the input:\n${describeInput(input)}`);
}

// ---------------------------------------------------------------------------------------------
// generators

/** Small JSON values for `input`. */
const jsonInput = fc.jsonValue({ maxDepth: 3 });

const TOKENS = [
  "x", "y", "z", "k", "v", "_", "input", "data", "input.x", "input.a", "data.fuzz", "p", "q", "f", "s", "1", "0", "-1", "2.5", '"a"', '""',
  "true", "false", "null", "[", "]", "{", "}", "(", ")", ",", ":", ";", ".", ":=", "=", "==", "!=", "<", ">", "+", "-", "*", "/", "%", "&", "|",
  "not", "some", "in", "every", "with", "as", "if", "contains", "else", "default", "count", "sum", "max", "sprintf", "object.get", "[x | x := 1]",
  "{k: v | true}", "set()", "\n",
];

// A small Rego grammar: terms, expressions, bodies and rules over a fixed set of names, so that
// refs resolve and variables are bound often enough to reach the later stages: every body starts
// by binding x, y, k and v, terms use only those (and `_`), and new variables get fresh names.
const VARS = ["x", "y", "k", "v"];
const PRELUDE = 'x := input.x; y := input.a; k := "k"; v := 1';
const fresh = (prefix: string) => fc.nat(99_999).map((n) => `${prefix}${n}`);
const scalar = fc.constantFrom("null", "true", "false", "0", "1", "2", "-3", "2.5", "1e2", '"a"', '"b"', '""', '"x"');
const variable = fc.constantFrom(...VARS);
const inputRef = fc.constantFrom("input", "input.x", "input.a", "input.o", "input.a[0]", "input.o.k", "input.a[_]", "input.o[k]", "input.a[v]");
const ruleRef = fc.constantFrom("data.fuzz.r0", "data.fuzz.r1", "data.fuzz.s0", "data.fuzz.o0", "data.fuzz.o0[k]", "data.fuzz.g.h", "data.fuzz.g");
const BUILTINS: [string, number][] = [
  ["count", 1], ["is_string", 1], ["to_number", 1], ["json.marshal", 1], ["type_name", 1], ["object.get", 3], ["f0", 1], ["f1", 2],
];
const infix = fc.constantFrom("+", "-", "*", "/", "%", "==", "!=", "<", ">=", "&", "|", "in");

const { term, expr, body } = fc.letrec<{ term: string; coll: string; simple: string; expr: string; body: string }>((tie) => ({
  // what iterations and `every` range over (other domains are type errors)
  coll: fc.oneof(
    { maxDepth: 4, depthIdentifier: "rego" },
    fc.constantFrom("input.a", "input.o", "input", "y", "data.fuzz.s0", "data.fuzz.o0", "data.fuzz.g", "[1, 2]", '{"a", "b"}', '{"k": 1, "j": [2]}'),
    fc.array(tie("term"), { maxLength: 3 }).map((ts) => `[${ts.join(", ")}]`),
    fc.tuple(tie("term"), tie("body")).map(([t, b]) => `{${t} | ${b}}`),
  ),
  term: fc.oneof(
    { maxDepth: 4, depthIdentifier: "rego" },
    scalar,
    variable,
    inputRef,
    ruleRef,
    fc.array(tie("term"), { maxLength: 3 }).map((ts) => `[${ts.join(", ")}]`),
    fc.array(tie("term"), { minLength: 1, maxLength: 3 }).map((ts) => `{${ts.join(", ")}}`),
    fc.array(fc.tuple(fc.oneof(scalar, fc.constantFrom(...VARS)), tie("term")), { maxLength: 3 }).map((kvs) => `{${kvs.map(([k, v]) => `${k}: ${v}`).join(", ")}}`),
    fc.tuple(tie("term"), tie("body")).map(([t, b]) => `[${t} | ${b}]`),
    fc.tuple(tie("term"), tie("body")).map(([t, b]) => `{${t} | ${b}}`),
    fc.tuple(fc.constantFrom(...VARS), tie("term"), tie("body")).map(([k, t, b]) => `{${k}: ${t} | ${b}}`),
    fc.constantFrom(...BUILTINS).chain(([name, arity]) => fc.array(tie("term"), { minLength: arity, maxLength: arity }).map((args) => `${name}(${args.join(", ")})`)),
    fc.tuple(tie("term"), infix, tie("term")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    // a ref on a name or a ref (never on a number: `1[0]` does not parse)
    fc.tuple(tie("term"), fc.constantFrom("[0]", "[x]", "[_]", ".k", '["a"]')).map(([t, sfx]) => (/^[a-z_][a-z_.[\]0-9]*$/.test(t) && !/^(null|true|false)$/.test(t) ? `${t}${sfx}` : t)),
    fc.tuple(scalar, tie("term")).map(([sc, t]) => `$"{${sc}}-{${t}}"`),
  ),
  // expressions that `not` and `with` apply to
  simple: fc.oneof(
    { maxDepth: 4, depthIdentifier: "rego" },
    tie("term"),
    fc.tuple(fc.constantFrom("x", "y", "input.x", "input.a[0]", "data.fuzz.r0"), fc.constantFrom("=", "==", "!=", "<", ">"), tie("term")).map(([a, op, b]) => `${a} ${op} ${b}`),
  ),
  expr: fc.oneof(
    { maxDepth: 4, depthIdentifier: "rego" },
    tie("simple"),
    tie("simple"),
    fc.tuple(fresh("n"), tie("term")).map(([x, t]) => `${x} := ${t}`),
    fc.tuple(fresh("n"), tie("term")).map(([x, t]) => `${x} = ${t}`),
    fc.tuple(fresh("s"), tie("coll")).map(([x, t]) => `some ${x} in ${t}; ${x} != "zz"`),
    fc.tuple(fresh("s"), fresh("t"), tie("coll")).map(([k, v, t]) => `some ${k}, ${v} in ${t}; [${k}, ${v}] != []`),
    fc.tuple(fresh("s"), tie("coll")).map(([x, t]) => `${t}[${x}]`),
    fresh("s").map((x) => `some ${x}; input.a[${x}]`),
    tie("simple").map((e) => `not ${e}`),
    fc.tuple(fresh("e"), tie("coll"), tie("body")).map(([x, t, b]) => `every ${x} in ${t} { ${x} != "zz"; ${b} }`),
    fc
      .tuple(tie("simple"), fc.constantFrom("input", "input.x", "input.a", "data.q"), tie("term"))
      .map(([e, target, v]) => `${e} with ${target} as ${v}`),
    fc.tuple(tie("simple"), fc.constantFrom("count as sum", "upper as lower", "count as 7", "upper as x")).map(([e, m]) => `${e} with ${m}`),
    fc.tuple(fc.constantFrom(...VARS), tie("term")).map(([x, t]) => `print(${x}, ${t})`),
    fc.tuple(tie("body"), tie("body")).map(([a, b]) => `[1 | ${a}] != [1 | ${b}]`),
  ),
  body: fc.array(tie("expr"), { minLength: 1, maxLength: 4 }).map((es) => es.join("; ")),
}));

/** Constants (what a default rule may have). */
const constant = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`), fc.constantFrom("{}", '{"a": 1}', "set()"));

const ruleName = fc.constantFrom("r0", "r1");
const ruleBody = body.map((b) => `{\n  ${PRELUDE}\n  ${b}\n}`);
const rule = fc.oneof(
  fc.tuple(ruleName, term, ruleBody).map(([n, t, b]) => `${n} := ${t} if ${b}`),
  fc.tuple(ruleName, ruleBody).map(([n, b]) => `${n} if ${b}`),
  fc.tuple(ruleName, constant).map(([n, t]) => `default ${n} := ${t}`),
  fc.tuple(ruleName, term, ruleBody, term, ruleBody).map(([n, t, b, u, c]) => `${n} := ${t} if ${b} else := ${u} if ${c}`),
  fc.tuple(term, ruleBody).map(([t, b]) => `s0 contains ${t} if ${b}`),
  fc.tuple(term, term, ruleBody).map(([k, t, b]) => `o0[${k}] := ${t} if ${b}`),
  fc.tuple(fc.constantFrom("f0(a)", "f1(a, b)", "f0([a, b])", 'f0("a")'), term, ruleBody).map(([h, t, b]) => `${h} := ${t} if ${b}`),
  fc.tuple(term, ruleBody).map(([t, b]) => `g.h := ${t} if ${b}`),
  fc.tuple(fc.constantFrom("test_a", "test_b"), ruleBody).map(([n, b]) => `${n} if ${b}`),
  fc.tuple(ruleName, fc.constantFrom("input.x", "input.a[0] == 1", "data.fuzz.r1", "count(input.a) > 1")).map(([n, e]) => `${n} if ${e}`),
);
const program = fc.array(rule, { minLength: 1, maxLength: 4 }).map((rules) => `package fuzz\n\nf0(a) := a\n\nf1(a, b) := [a, b]\n\n${rules.join("\n\n")}\n`);
const query = fc.oneof(
  fc.constantFrom("data.fuzz = x", "x := data.fuzz.r0", "x := data.fuzz.r1", "x := data.fuzz.f0(1)", "x := data.fuzz.s0", "data.fuzz.o0[k] = v", "x := data.fuzz.g"),
  body.map((b) => `${PRELUDE}; ${b}`.replace(/(^|[^.\w])(r0|r1|s0|o0)\b/g, "$1data.fuzz.$2")),
);

// ---------------------------------------------------------------------------------------------
// mutations of the compliance cases (text edits that often keep a module parseable)

interface Seed {
  modules: string[];
  query: string;
}

const seeds: Seed[] = haveShared
  ? loadComplianceSources()
      .filter((c) => c.query !== undefined && (c.modules?.length ?? 0) > 0)
      .map((c) => ({ modules: c.modules!, query: c.query! }))
  : [];

interface Edit {
  at: number;
  other: number;
  kind: string;
  token: string;
  expr: string;
  number: string;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  other: fc.nat(),
  kind: fc.constantFrom("deleteLine", "duplicateLine", "swapLines", "replaceName", "replaceNumber", "insertToken", "insertExpr", "deleteChars", "spliceLine", "spliceLine"),
  token: fc.constantFrom(...TOKENS),
  expr,
  number: fc.constantFrom("0", "1", "2", "-1", "10", "0.5", '"1"'),
});

/** A line of another case's module (rules, expressions and imports from elsewhere). */
function donorLine(n: number): string {
  const mods = seeds[n % seeds.length]!.modules;
  const lines = mods[n % mods.length]!.split("\n");
  return lines[(n >> 3) % lines.length]!;
}

function mutate(text: string, edits: Edit[]): string {
  for (const e of edits) {
    const lines = text.split("\n");
    const i = e.at % lines.length;
    const j = e.other % lines.length;
    switch (e.kind) {
      case "deleteLine":
        if (i > 0) lines.splice(i, 1); // keep the package line
        break;
      case "duplicateLine":
        if (i > 0) lines.splice(i, 0, lines[i]!);
        break;
      case "swapLines":
        if (i > 0 && j > 0) [lines[i], lines[j]] = [lines[j]!, lines[i]!];
        break;
      case "replaceName": {
        const names = [...new Set(text.match(/\b[a-z_][a-z0-9_]*\b/g) ?? [])];
        if (names.length > 1) {
          const from = names[e.at % names.length]!;
          const to = names[e.other % names.length]!;
          if (from !== "package") lines[i] = lines[i]!.replace(new RegExp(`\\b${from}\\b`, "g"), to);
        }
        break;
      }
      case "replaceNumber":
        lines[i] = lines[i]!.replace(/\b\d+(\.\d+)?\b/, e.number);
        break;
      case "insertToken": {
        const line = lines[i]!;
        const at = e.other % (line.length + 1);
        lines[i] = `${line.slice(0, at)} ${e.token} ${line.slice(at)}`;
        break;
      }
      case "insertExpr":
        if (i > 0 && /\{\s*$/.test(lines[i - 1]!)) lines.splice(i, 0, `\t${e.expr}`);
        else if (i > 0) lines.splice(i, 0, `\t${e.expr}`);
        break;
      case "spliceLine":
        if (i > 0) lines.splice(i, 0, donorLine(e.other));
        break;
      case "deleteChars": {
        const line = lines[i]!;
        const at = e.other % (line.length + 1);
        lines[i] = line.slice(0, at) + line.slice(at + 1 + (e.at % 5));
        break;
      }
    }
    text = lines.join("\n");
  }
  return text;
}

const mutatedCase = fc.record({
  seed: fc.nat(),
  module: fc.nat(),
  edits: fc.array(edit, { minLength: 1, maxLength: 4 }),
  // now and then the query too
  queryEdits: fc.oneof({ arbitrary: fc.constant([] as Edit[]), weight: 4 }, { arbitrary: fc.array(edit, { minLength: 1, maxLength: 2 }), weight: 1 }),
});

function modulesOf(texts: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  texts.forEach((t, i) => (out[`module-${i}.rego`] = t));
  return out;
}

// ---------------------------------------------------------------------------------------------

describe("compiler fuzz: only RegoErrors, bounded time, generated code evaluates", function () {
  this.timeout(300_000);

  (haveShared ? it : it.skip)("mutated compliance modules, with their queries", async () => {
    await fc.assert(
      fc.asyncProperty(mutatedCase, fc.boolean(), jsonInput, async ({ seed, module, edits, queryEdits }, viaCompileRego, extra) => {
        const s = seeds[seed % seeds.length]!;
        const texts = s.modules.slice();
        const m = module % texts.length;
        texts[m] = mutate(texts[m]!, edits);
        // (a query is one line: its edits keep to that line, never the package line rule)
        const query = queryEdits.length === 0 ? s.query : mutate(`\n${s.query}`, queryEdits).replace(/^\n/, "");
        await check({ modules: modulesOf(texts), query }, { full: true, viaCompileRego, extra });
      }),
      runs(2000),
    );
  });

  (haveShared ? it : it.skip)("modules of different cases together, with one case's query", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 2, maxLength: 3 }), fc.nat(), async (picks, q) => {
        const texts = picks.flatMap((p) => seeds[p % seeds.length]!.modules);
        await check({ modules: modulesOf(texts), query: seeds[q % seeds.length]!.query }, { full: true, viaCompileRego: false });
      }),
      runs(300),
    );
  });

  it("random programs of a small Rego grammar", async () => {
    await fc.assert(
      fc.asyncProperty(program, query, fc.boolean(), fc.boolean(), jsonInput, async (text, q, asEntrypoint, viaCompileRego, extra) => {
        // an entrypoint: a rule the program defines
        const name = ["r0", "r1", "s0", "o0", "g/h"].find((n) => new RegExp(`^(default )?${n.replace("/", "\\.")}\\b`, "m").test(text)) ?? "r0";
        const input: Input = asEntrypoint ? { modules: { "fuzz.rego": text }, entrypoints: [`fuzz/${name}`] } : { modules: { "fuzz.rego": text }, query: q };
        await check(input, { full: true, viaCompileRego, extra });
      }),
      runs(2500),
    );
  });

  it("token soups in a rule body (planned only)", async () => {
    // expressions of atoms and operators, a keyword in front now and then: soups that parse
    // often enough to reach the stages (and plain token soups, which mostly do not)
    const atom = fc.constantFrom("x", "y", "1", "2.5", '"a"', "input.x", "input.a[_]", "data.fuzz.q", "[1, x]", "{x}", '{"k": y}', "count(y)", "[z | z := 1]", "true", "null", "f(x)", "x[y]", "y[_]", "{z | some z in y}");
    const binop = fc.constantFrom(" + ", " - ", " == ", " != ", " = ", " in ", " | ", " & ", " < ", " * ");
    const prefix = fc.constantFrom("", "", "", "", "not ", "w := ", "w = ", "some w in [1]; w == ", "every w in y { w != 0 }; ");
    const suffix = fc.constantFrom("", "", "", "", " with input as 1", " with input.x as y", " with data.fuzz.q as 2", " with count as sum");
    const soupExpr = fc.tuple(prefix, fc.array(fc.tuple(atom, binop), { maxLength: 3 }), atom, suffix).map(([p, ps, a, sfx]) => `${p}${ps.map(([x, o]) => x + o).join("")}${a}${sfx}`);
    const soup = fc.oneof(
      { arbitrary: fc.array(soupExpr, { minLength: 1, maxLength: 6 }).map((es) => `x := input.x; y := input.a\n  ${es.map((e, i) => e.replace(/\bw\b/g, `w${i}`)).join("\n  ")}`), weight: 4 },
      { arbitrary: fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 25 }).map((ts) => ts.join(" ")), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(soup, fc.boolean(), async (s, v0) => {
        if (!v0) {
          const text = `package fuzz\n\nr0 if {\n  ${s}\n}\n\nf(a) := a\n\nq := 1\n`;
          await check({ modules: { "fuzz.rego": text }, query: "x := data.fuzz" }, { full: false, viaCompileRego: false });
          return;
        }
        // a v0 module
        const text = `package fuzz\n\nimport future.keywords.in\nimport future.keywords.every\n\np[x] {\n  ${s}\n}\n\nf(a) = a\n\nq = 1\n`;
        try {
          stats.inputs++;
          planRegoDetailed({ modules: { "fuzz.rego": text }, query: "x := data.fuzz", v0Compatible: true });
          stats.planned++;
        } catch (e) {
          checkCompileError(e, { modules: { "fuzz.rego": text } }, "planRego (v0)");
        }
      }),
      runs(3000),
    );
  });

  afterEach(function () {
    if (process.env.REGOC_VERBOSE) process.stdout.write(`      seed ${SEED}: ${JSON.stringify(stats)}\n`);
    if (process.env.REGOC_VERBOSE === "2") {
      for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 12)) process.stdout.write(`        ${n}\t${r}\n`);
    }
    for (const k of Object.keys(stats) as (keyof typeof stats)[]) stats[k] = 0;
    reasons.clear();
  });
});
