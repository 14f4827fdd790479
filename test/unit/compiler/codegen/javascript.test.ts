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
import { haveShared, sharedDir } from "../../../support/shared.js";
import { authz, hostile, partialSet, query, withAndDynamic } from "./samplePlans.js";

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
