// loader.ts: generated code → a live module sharing the host's runtime instance (a function body
// without Node's module loader, collected once dropped; TS and ES modules by import()); failures
// keep the generated source; .ts files for ahead-of-time use; modules are reentrant.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RegoError, RegoSet, type Value } from "regoc";
import { PreparedQuery, compilePlan, generateTypeScript, loadModule, planRego, toJavaScript, writeModule } from "regoc/compiler";
import { L, PolicyBuilder, block, ruleFunc, st } from "../../../support/plans.js";
import { useTestBuiltins } from "./support.js";
import { runFixture } from "../../../support/child.js";
import { wrapCompileError } from "../../../../runtime/decision.js";

function setPlan(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.func("g0.data.test.s", [0, 1], 2, [
    block(st("MakeSetStmt", { target: 2 })),
    block(b.scan(0, 3, 4, st("SetAddStmt", { set: 2, value: L(4) }))),
    block(st("ReturnLocalStmt", { source: 2 })),
  ]);
  b.entry("test/s", "g0.data.test.s");
  return b;
}

describe("codegen: loader", () => {
  useTestBuiltins();
  it("generated modules share the host's runtime: instanceof works across", async () => {
    const mod = await loadModule(generateTypeScript(setPlan().json()).code);
    const out = (mod.testS as (input: unknown, data: unknown) => Value)(["b", "a", "b"], {});
    assert.ok(out instanceof RegoSet);
    assert.deepEqual(out.sorted(), ["a", "b"]);
  });

  it("a function body shares the runtime too, runs strict, and returns its exports", async () => {
    const generated = generateTypeScript(setPlan().json(), { language: "function" });
    assert.equal(generated.language, "function");
    assert.doesNotMatch(generated.code, /\bimport\b|\bexport\b/);
    assert.ok(generated.runtimeImports.includes("RegoSet"));
    const mod = await loadModule(generated.code, generated);
    const out = (mod.testS as (input: unknown, data: unknown) => Value)(["b", "a", "b"], {});
    assert.ok(out instanceof RegoSet);
    assert.deepEqual(out.sorted(), ["a", "b"]);
    assert.deepEqual(Object.keys(mod.entrypoints), ["test/s"]);
    // Strict, as a module's code is: `this` is undefined, not the global object.
    const strict = await loadModule('"use strict";\nconst self = this;\nreturn { entrypoints: {}, self };\n', { language: "function" });
    assert.equal(strict.self, undefined);
    const own = generateTypeScript(setPlan().json(), { language: "function" });
    assert.match(own.code, /^"use strict";$/m);
  });

  it("a function body that fails to compile or load is a rego_compile_error carrying the source", async () => {
    const failsWith = async (code: string, runtimeImports: string[], message: RegExp) =>
      assert.rejects(
        () => loadModule(code, { language: "function", runtimeImports }),
        (e: unknown) => e instanceof RegoError && e.code === "rego_compile_error" && message.test(e.message) && (e.details as { source: string }).source === code,
      );
    await failsWith("return { entrypoints: {;\n", [], /^generated module: does not compile: /);
    await failsWith('throw new Error(String(RegoSet).slice(0, 0) + "boom");\n', ["RegoSet"], /^generated module: failed to load: boom/);
    await failsWith("return { x: 1 };\n", [], /exports no entrypoints table/);
    await failsWith("return undefined;\n", [], /exports no entrypoints table/);
    await failsWith("return { entrypoints: {} };\n", ["RegoSet", "NoSuchRuntimeName"], /the runtime does not export NoSuchRuntimeName/);
    // A RegoError raised while the body runs (a builtin missing from the site table) keeps its
    // code, message and location, as from an imported module; the source is added.
    const missing = 'const C = builtinSites(' + JSON.stringify(JSON.stringify({ names: ["no.such"], files: ["p.rego"], sites: [0, 0, 3, 5] })) + ');\nreturn { entrypoints: {} };\n';
    await assert.rejects(
      () => loadModule(missing, { language: "function", runtimeImports: ["builtinSites"] }),
      (e: unknown) =>
        e instanceof RegoError && e.code === "rego_compile_error" && /no\.such/.test(e.message) && !/failed to load/.test(e.message) &&
        e.location?.row === 3 && (e.details as { source: string }).source === missing,
    );
  });

  it("a reloaded module is collected once dropped (Node's module map kept every version)", async function () {
    this.timeout(120_000);
    // Also under --disallow-code-generation-from-strings, which a hardened server may run with.
    const { status, stdout, stderr } = await runFixture(new URL("fixtures/reload.ts", import.meta.url), ["--expose-gc", "--disallow-code-generation-from-strings"]);
    assert.equal(status, 0, stderr);
    const r = JSON.parse(stdout) as { growthBytes: number; moduleBytes: number; rounds: number; alive: number };
    assert.equal(r.alive, 0, `${r.alive} of ${r.rounds} dropped modules still alive`);
    // Kept versions would grow the heap by rounds × (at least) the module's size; what may remain
    // is what warming up leaves (caches), independent of the number of versions.
    assert.ok(r.growthBytes < 4 * r.moduleBytes, `heap grew ${r.growthBytes} bytes over ${r.rounds} reloads of a ${r.moduleBytes}-byte module`);
  });

  it("toJavaScript strips the types and keeps the import from \"regoc/eval\"", async () => {
    const js = await toJavaScript(generateTypeScript(setPlan().json()).code);
    assert.match(js, /^import \{[^}]*\} from "regoc\/eval";$/m);
    assert.doesNotMatch(js, /: Value\b/);
  });

  it("a module reads the runtime it is given, by reference, in every form", async () => {
    // A runtime whose RegoSet is a marked subclass: the module's sets must be of that class.
    class MarkedSet extends RegoSet {}
    const runtime = { ...(await import("regoc/eval")), RegoSet: MarkedSet };
    const plan = setPlan().json();
    for (const language of ["typescript", "javascript", "function"] as const) {
      const g = generateTypeScript(plan, { language });
      const mod = await loadModule(g.code, { ...g, runtime });
      const out = (mod.testS as (input: unknown, data: unknown) => Value)(["b", "a"], {});
      assert.ok(out instanceof MarkedSet, language);
      const own = await loadModule(g.code, g);
      assert.ok(!((own.testS as (input: unknown, data: unknown) => Value)(["a"], {}) instanceof MarkedSet), `${language}: default runtime`);
    }
    // Nothing is left on globalThis once loaded.
    const slots = (globalThis as Record<symbol, object | undefined>)[Symbol.for("regoc.loader.runtime")];
    assert.deepEqual(Object.keys(slots ?? {}), []);
    // A runtime lacking a name the module imports fails before any code runs, for every form.
    for (const language of ["typescript", "function"] as const) {
      const g = generateTypeScript(plan, { language });
      await assert.rejects(
        () => loadModule(g.code, { ...g, runtime: {} }),
        (e: unknown) => e instanceof RegoError && /the runtime does not export \w+/.test(e.message),
      );
    }
  });

  it("a module imports the builtin categories it calls, and loads in every form", async () => {
    const plan = planRego({ modules: { "t.rego": 'package t\nallow if startswith(upper(input.x), "A")\n' }, entrypoints: ["t/allow"] });
    for (const language of ["typescript", "javascript", "function"] as const) {
      const g = generateTypeScript(plan, { language });
      const imports = [...g.code.matchAll(/^import \{[^}]*\} from "([^"]+)";$/gm)].map((m) => m[1]);
      // A function body gets its builtins from the registry; a module imports exactly its categories.
      assert.deepEqual(imports, language === "function" ? [] : ["regoc/eval", "regoc/builtins/strings"], language);
      const mod = await loadModule(g.code, g);
      const allow = mod.tAllow as (input: unknown, data: unknown) => Value;
      assert.equal(allow({ x: "abc" }, {}), true, language);
      assert.equal(allow({ x: "bc" }, {}), undefined, language);
    }
  });

  it("a live module loads only the builtin categories its plan calls (Authorizer, Engine); a data filter calls any", async function () {
    this.timeout(120_000);
    const { status, stdout, stderr } = await runFixture(new URL("fixtures/byNeed.ts", import.meta.url), []);
    assert.equal(status, 0, stderr);
    const r = JSON.parse(stdout) as { allow: boolean; deny: boolean; n: number; afterAuthorizer: string[]; loaded: string[]; filter: unknown };
    assert.deepEqual({ allow: r.allow, deny: r.deny, n: r.n }, { allow: true, deny: false, n: 2 });
    assert.deepEqual(r.afterAuthorizer, ["strings"]);
    assert.deepEqual(r.loaded, ["aggregates", "strings"]);
    assert.deepEqual(r.filter, { result: { query: "WHERE docs.name LIKE E'pub%'" } });
  });

  it("a module that cannot be loaded is not reported as a policy that does not compile", () => {
    const internal = new RegoError("eval_internal_error", "generated module: cannot import the runtime (\"regoc\"): Cannot find module");
    const e = wrapCompileError(`Engine: query "true" does not compile`, internal);
    assert.equal(e.code, "eval_internal_error");
    assert.match(e.message, /^Engine: query "true" could not be loaded: generated module: cannot import the runtime/);
    assert.match(wrapCompileError("Authorizer: the policy does not compile", new RegoError("rego_parse_error", "x")).message, /does not compile: x$/);
  });

  it("a module that fails to compile or load is a rego_compile_error carrying the source", async () => {
    const bad = 'import { RegoSet } from "regoc/eval";\nexport const entrypoints = {;\n';
    await assert.rejects(
      () => loadModule(bad),
      (e: unknown) => e instanceof RegoError && e.code === "rego_compile_error" && (e.details as { source: string }).source === bad,
    );
    const throwing = 'import { RegoSet } from "regoc/eval";\nthrow new Error(String(RegoSet).slice(0, 0) + "boom");\nexport const entrypoints = {};\n';
    await assert.rejects(
      () => loadModule(throwing),
      (e: unknown) => e instanceof RegoError && /boom/.test(e.message) && (e.details as { source: string }).source === throwing,
    );
    await assert.rejects(() => loadModule("export const x = 1;\n"), (e: unknown) => e instanceof RegoError && /exports no entrypoints table/.test(e.message));
    await assert.rejects(
      () => loadModule('const a = 1;\nimport { RegoSet } from "regoc/eval";\nexport const entrypoints = { a, RegoSet };\n'),
      (e: unknown) => e instanceof RegoError && /start with its imports from "regoc\/eval"/.test(e.message),
    );
  });

  it("a large module is transformed in pieces cut at its function starts, and behaves the same", async () => {
    // Three rules, each a 1 MiB string: a module big enough to be cut.
    const b = new PolicyBuilder();
    const names = ["a", "b", "c"];
    for (const n of names) ruleFunc(b, `g0.data.big.${n}`, [b.once(b.s(n.repeat(1 << 20)), 3)]);
    for (const n of names) b.entry(`big/${n}`, `g0.data.big.${n}`);
    const generated = generateTypeScript(b.json());
    assert.ok(generated.code.length > 3 << 20);
    // Every function (its doc comment) starts at a recorded position: 3 rules and 3 entrypoints.
    const starts = generated.functionStarts;
    assert.equal(starts.length, 6);
    for (const at of starts) {
      assert.equal(generated.code[at - 1], "\n");
      assert.match(generated.code.slice(at, at + 200), /^\/\* [^\n]* \*\/\n(export )?function /);
    }
    const check = async (functionStarts: readonly number[] | undefined) => {
      const mod = await loadModule(generated.code, { functionStarts });
      for (const n of names) {
        const rows = new PreparedQuery(mod.entrypoints, `big/${n}`, generated.code).evaluateSync({ input: {} });
        assert.equal(rows[0]!.result, n.repeat(1 << 20));
      }
    };
    await check(starts);
    await check(undefined);
    // Positions that are not function starts (mid-line, mid-function) cannot break the module:
    // such a piece does not compile, and the module is transformed whole.
    await check([1, Math.floor(generated.code.length / 2), generated.code.lastIndexOf("\n  ") + 1]);
  });

  it("a large JavaScript module is imported from a temporary file that is gone afterwards", async () => {
    const b = new PolicyBuilder();
    ruleFunc(b, "g0.data.big.a", [b.once(b.s("a".repeat(1 << 20)), 3)]);
    b.entry("big/a", "g0.data.big.a");
    const generated = generateTypeScript(b.json(), { language: "javascript" });
    assert.ok(generated.code.length > 1 << 20);
    // The module says where it was loaded from.
    const mod = await loadModule(`${generated.code}\nexport const loadedFrom = import.meta.url;\n`, { language: "javascript" });
    const from = new URL(mod.loadedFrom as string);
    assert.equal(from.protocol, "file:");
    assert.ok(!existsSync(from), "the module's file is removed");
    assert.ok(!existsSync(new URL(".", from)), "and so is its directory");
    const rows = new PreparedQuery(mod.entrypoints, "big/a", generated.code).evaluateSync({ input: {} });
    assert.equal(rows[0]!.result, "a".repeat(1 << 20));
    // A small module is imported from a data: URL.
    const small = generateTypeScript(setPlan().json(), { language: "javascript" });
    const smallMod = await loadModule(`${small.code}\nexport const loadedFrom = import.meta.url;\n`, { language: "javascript" });
    assert.match(smallMod.loadedFrom as string, /^data:text\/javascript;base64,/);
  });

  it("writeModule saves the TypeScript for ahead-of-time use", async () => {
    const dir = mkdtempSync(join(tmpdir(), "regoc-"));
    try {
      const code = generateTypeScript(setPlan().json()).code;
      const file = join(dir, "nested", "policy.ts");
      await writeModule(file, code);
      assert.equal(readFileSync(file, "utf8"), code);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("modules are reentrant: interleaved async evaluations keep their own state", async () => {
    const b = new PolicyBuilder();
    b.builtin("regoc_test.async_id", 1);
    b.func("g0.data.test.r", [0, 1], 2, [block(b.dot(L(0), b.s("v"), 3), b.call("regoc_test.async_id", [L(3)], 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    b.plan(
      "test/r",
      block(
        st("MakeArrayStmt", { capacity: 0, target: 10 }),
        b.call("g0.data.test.r", [L(0), L(1)], 11),
        st("ArrayAppendStmt", { array: 10, value: L(11) }),
        b.with(0, ["v"], b.s("inner"), b.call("g0.data.test.r", [L(0), L(1)], 12), st("ArrayAppendStmt", { array: 10, value: L(12) })),
        b.call("g0.data.test.r", [L(0), L(1)], 13),
        st("ArrayAppendStmt", { array: 10, value: L(13) }),
        ...b.result("result", L(10), 99),
      ),
    );
    const pq = await compilePlan(b.json());
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => pq.evaluate({ input: { v: i } })));
    runs.forEach((rows, i) => assert.deepEqual(rows[0]!.result, [i, "inner", i]));
  });
});
