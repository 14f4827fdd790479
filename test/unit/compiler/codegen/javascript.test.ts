// A module generated as JavaScript is the TypeScript module with its types taken out, nothing
// else: for every compliance plan (when ../shared is present) and the golden tests' plans,
// esbuild's printing of the TypeScript with the types stripped equals its printing of the
// JavaScript. (What compilePlan and compileRego load, and the compliance ratchets evaluate, is
// that JavaScript laid out by the same code as a function body: module.ts, loader.test.ts.)
import assert from "node:assert/strict";
import { join } from "node:path";
import { transform } from "esbuild";
import { RegoError } from "regoc";
import { generateTypeScript, loadModule } from "regoc/compiler";
import { loadCases } from "../../../../compiler/compliance/cases.js";
import { L, PolicyBuilder, ruleFunc, st } from "../../../support/plans.js";
import { haveShared, sharedDir } from "../../../support/shared.js";
import { authz, hostile, partialSet, query, withAndDynamic } from "../../../support/samplePlans.js";

/** The program both texts print as: comments and layout dropped, one statement per line. */
async function printed(code: string, loader: "ts" | "js"): Promise<string> {
  return (await transform(code, { loader, format: "esm", target: "es2022", minifyWhitespace: true, legalComments: "none" })).code;
}

async function assertSameProgram(plan: unknown, label: string): Promise<void> {
  const ts = generateTypeScript(plan);
  const js = generateTypeScript(plan, { language: "javascript" });
  assert.equal(js.language, "javascript");
  assert.deepEqual(js.entrypoints, ts.entrypoints, label);
  assert.deepEqual(js.builtins, ts.builtins, label);
  assert.equal(await printed(js.code, "js"), await printed(ts.code, "ts"), label);
}

describe("codegen: JavaScript output", () => {
  const samples = { authz, partialSet, withAndDynamic, query, hostile };
  for (const [name, plan] of Object.entries(samples)) {
    it(`${name}: the TypeScript module without its types`, async () => {
      await assertSameProgram(plan().json(), name);
    });
  }

  it("a language it does not know is refused, not taken for TypeScript", () => {
    assert.throws(
      () => generateTypeScript(authz().json(), { language: "js" as "javascript" }),
      (e: unknown) => e instanceof RegoError && e.code === "rego_compile_error" && /language must be .* not "js"/.test(e.message),
    );
  });

  it("loads and evaluates without a type-stripping pass", async () => {
    const js = generateTypeScript(authz().json(), { language: "javascript" });
    assert.doesNotMatch(js.code, /: V\b|\bas V\b|^type /m);
    const mod = await loadModule(js.code, { language: "javascript" });
    const fn = mod.entrypoints["authz/allow"]!.fn as (input: unknown, data: unknown) => unknown;
    assert.equal(fn({ user: { role: "admin" } }, {}), true);
    assert.equal(fn({ method: "GET", path: "/public/x" }, {}), true);
    assert.equal(fn({ user: { role: "guest" }, method: "POST" }, {}), false);
  });

  it("a function's locals are declared in number order, whatever order they are first used in", () => {
    // first used in descending order (a plan may number its locals in any order)
    const b = new PolicyBuilder();
    const targets = Array.from({ length: 40 }, (_, i) => 60 - i);
    const reads = targets.map((t) => st("IsDefinedStmt", { source: t }));
    ruleFunc(b, "g0.data.p.q", [...targets.map((t) => b.int(t, t)), ...reads, b.assign(L(21), 3)]);
    b.entry("p/q", "g0.data.p.q");
    const js = generateTypeScript(b.json(), { language: "javascript", optimize: false }).code;
    const decl = /function g0DataPQ\(_\$, _input, _data\) \{\nlet ([^;]*);/.exec(js)?.[1];
    assert.equal(decl, ["l2", "l3", ...targets.map((t) => `l${t}`).reverse()].join(", "));
  });

  it("a module of many chunks (module.ts joins functions' text in chunks of 128 K characters): the same program, every function start recorded", async () => {
    // 60 rules, each with a 9 000-character string: 120 functions, ~540 K characters.
    const b = new PolicyBuilder();
    const n = 60;
    for (let i = 0; i < n; i++) ruleFunc(b, `g0.data.big.r${i}`, [b.once(b.s(`${i}:`.padEnd(9000, "x")), 3)]);
    for (let i = 0; i < n; i++) b.entry(`big/r${i}`, `g0.data.big.r${i}`);
    await assertSameProgram(b.json(), "many chunks");
    for (const language of ["javascript", "function"] as const) {
      const g = generateTypeScript(b.json(), { language });
      assert.ok(g.code.length > 3 << 17, language); // 4 chunks or more
      assert.equal(g.functionStarts.length, 2 * n, language);
      let last = 0;
      for (const at of g.functionStarts) {
        assert.ok(at > last && g.code[at - 1] === "\n", language);
        assert.match(g.code.slice(at, at + 40), /^(export )?function \w+\(/, language);
        last = at;
      }
      const mod = await loadModule(g.code, g);
      const fn = mod.entrypoints[`big/r${n - 1}`]!.fn as (input: unknown, data: unknown) => unknown;
      assert.ok(fn({}, {}) === `${n - 1}:`.padEnd(9000, "x"), language);
    }
  });

  (haveShared ? it : it.skip)("every compliance plan: the same program as its TypeScript", async function () {
    this.timeout(120_000);
    let compared = 0;
    for (const c of loadCases(join(sharedDir, "compliance"))) {
      if (c.plan === undefined) continue;
      let refused = false;
      try {
        generateTypeScript(c.plan);
      } catch {
        refused = true;
      }
      if (refused) {
        // A plan the generator refuses (the compliance ratchets say why) is refused either way.
        assert.throws(() => generateTypeScript(c.plan, { language: "javascript" }), c.note);
        continue;
      }
      await assertSameProgram(c.plan, c.note);
      compared++;
    }
    assert.ok(compared > 2000, `compared ${compared} plans`);
  });
});
