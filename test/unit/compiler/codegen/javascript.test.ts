// A module generated as JavaScript (what compilePlan and compileRego load) is the TypeScript module
// with its types taken out, nothing else: for every compliance plan (when ../shared is present)
// and a few plans of our own, esbuild's printing of the TypeScript with the types stripped equals
// its printing of the JavaScript. Evaluating the JavaScript is what the compliance ratchets do.
import assert from "node:assert/strict";
import { join } from "node:path";
import { transform } from "esbuild";
import { generateTypeScript, loadModule } from "regoc/compiler";
import { loadCases } from "../../../../compiler/compliance/cases.js";
import { haveShared, sharedDir } from "../../../support/shared.js";
import { F, L, PolicyBuilder, T, block, st } from "./plans.js";

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

/** `allow if input.user.role == "admin"`, a scan and a with, as the golden tests' kind of plan. */
function samplePlan(): unknown {
  const b = new PolicyBuilder();
  b.builtin("equal", 2, { type: "boolean" });
  b.func("g0.data.a.allow", [0, 1], 2, [
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
  b.entry("a/allow", "g0.data.a.allow");
  return b.json();
}

describe("codegen: JavaScript output", () => {
  it("is the TypeScript module without its types", async () => {
    await assertSameProgram(samplePlan(), "sample");
  });

  it("loads and evaluates without a type-stripping pass", async () => {
    const js = generateTypeScript(samplePlan(), { language: "javascript" });
    assert.doesNotMatch(js.code, /: V\b|\bas V\b|^type /m);
    const mod = await loadModule(js.code, { language: "javascript" });
    const fn = mod.entrypoints["a/allow"]!.fn as (input: unknown, data: unknown) => unknown;
    assert.equal(fn({ user: { role: "admin" } }, {}), true);
    assert.equal(fn({ user: { role: "guest" } }, {}), false);
  });

  (haveShared ? it : it.skip)("every compliance plan: the same program as its TypeScript", async function () {
    this.timeout(120_000);
    let compared = 0;
    for (const c of loadCases(join(sharedDir, "compliance"))) {
      if (c.plan === undefined) continue;
      let ts;
      try {
        ts = generateTypeScript(c.plan);
      } catch {
        continue; // plans the generator refuses are the compliance ratchets' business
      }
      if (ts.code === "") continue;
      await assertSameProgram(c.plan, c.note);
      compared++;
    }
    assert.ok(compared > 2000, `compared ${compared} plans`);
  });
});
