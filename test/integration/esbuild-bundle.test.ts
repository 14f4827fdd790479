// A Node server bundled with esbuild (regoc inside the bundle) creates an Authorizer and an Engine
// and decides: the live loader reaches the runtime by reference, not by a path next to its own file.
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "../support/shared.js";

const SERVER = `
import { Authorizer, Engine } from "regoc";
const modules = { "p.rego": "package p\\nallow if input.user == \\"alice\\"\\n" };
const a = await Authorizer.create({ modules, query: "data.p.allow" });
const e = await Engine.create({ modules });
const rows = await e.evaluate("data.p.allow", { user: "alice" });
console.log(JSON.stringify({ alice: await a.authorize({ user: "alice" }), bob: await a.authorize({ user: "bob" }), engine: rows }));
`;

describe("a server bundled with esbuild", function () {
  this.timeout(180_000);
  let dir = "";

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-esbuild-"));
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(repoRoot, join(dir, "node_modules", "regoc"), "dir");
    writeFileSync(join(dir, "server.mjs"), SERVER);
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("creates an Authorizer and an Engine and decides, run from a directory of its own", async () => {
    const out = join(dir, "out", "server.mjs");
    await build({
      entryPoints: [join(dir, "server.mjs")],
      absWorkingDir: dir,
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      conditions: ["regoc-source"], // bundle from the sources, as the tests run
      logLevel: "silent",
      // What an ESM bundle for Node needs for the CommonJS dependencies inside it (README).
      banner: { js: 'import { createRequire as __regocRequire } from "node:module"; const require = __regocRequire(import.meta.url);' },
    });
    // Nothing of the repository is reachable from the bundle's directory.
    rmSync(join(dir, "node_modules"), { recursive: true });
    const stdout = execFileSync(process.execPath, [out], { cwd: join(dir, "out"), encoding: "utf8" });
    expect(JSON.parse(stdout)).to.deep.equal({ alice: true, bob: false, engine: [{ bindings: {}, expressions: [{ value: true, text: "data.p.allow", location: { row: 1, col: 1 } }] }] });
  });
});
