// The package surface as a user gets it: after `npm run build`, plain Node (no tsx, no source
// condition) imports `regoc`, `regoc/compiler` and `regoc/express` through package.json `exports`,
// with type declarations next to each.
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../support/shared.js";

describe("package surface (built)", function () {
  this.timeout(180_000);
  let dir = "";

  before(() => {
    try {
      execFileSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(repoRoot, "tsconfig.build.json")], {
        cwd: repoRoot,
        stdio: "pipe",
      });
    } catch (e) {
      throw new Error(`the build (tsc -p tsconfig.build.json) failed:\n${String((e as { stdout?: unknown }).stdout ?? e)}`);
    }
    dir = mkdtempSync(join(tmpdir(), "regoc-pkg-"));
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(repoRoot, join(dir, "node_modules", "regoc"), "dir");
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true }); // not made when the build failed
  });

  it("ships type declarations for every export", () => {
    for (const f of ["dist/runtime/index.d.ts", "dist/compiler/index.d.ts", "dist/runtime/express.d.ts"]) {
      expect(existsSync(join(repoRoot, f)), f).to.equal(true);
    }
  });

  it("compiles and evaluates a policy from plain Node ESM", () => {
    const script = `
      import { compileRego } from "regoc/compiler";
      import { Authorizer, RegoSet, toJSON } from "regoc";
      import { authorize } from "regoc/express";
      const modules = { "p.rego": "package p\\nimport rego.v1\\ndefault allow := false\\nallow if input.user == \\"alice\\"\\nnames contains n if some n in input.names\\n" };
      const q = await compileRego({ modules, query: "data.p.names = x" });
      const rows = q.evaluate({ input: { names: ["b", "a"] } });
      const a = await Authorizer.create({ modules, query: "data.p.allow" });
      console.log(JSON.stringify({
        names: toJSON(rows[0].x), isSet: rows[0].x instanceof RegoSet,
        alice: await a.authorize({ user: "alice" }), bob: a.authorizeSync({ user: "bob" }),
        middleware: typeof authorize({ authorizer: a }),
      }));`;
    writeFileSync(join(dir, "main.mjs"), script);
    const out = execFileSync(process.execPath, ["main.mjs"], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(out)).to.deep.equal({ names: ["a", "b"], isSet: true, alice: true, bob: false, middleware: "function" });
  });
});
