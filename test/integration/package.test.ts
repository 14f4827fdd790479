// The package surface as a user gets it: after `npm run build`, plain Node (no tsx, no source
// condition) imports `regoc`, `regoc/compiler` and `regoc/express` through package.json `exports`,
// with type declarations next to each.
import { expect } from "chai";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import semver from "semver";
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
      const rows = await q.evaluate({ input: { names: ["b", "a"] } });
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

  it("README's TypeScript snippets type-check under strict against the built declarations", () => {
    const snippets = readmeSnippets();
    expect(snippets.length).to.be.greaterThan(5);
    const check = join(dir, "readme");
    mkdirSync(check);
    symlinkSync(join(repoRoot, "generated"), join(check, "generated"), "dir");
    symlinkSync(join(repoRoot, "node_modules", "@types"), join(dir, "node_modules", "@types"), "dir");
    writeFileSync(join(check, "package.json"), JSON.stringify({ type: "module" }));
    // What the snippets take from their surroundings: a request's input, the policy's data, an Express app.
    writeFileSync(
      join(check, "context.d.ts"),
      `declare const input: import("./generated/authz.js").AuthzInput;
declare const data: import("./generated/authz.js").AuthzData;
declare const apiData: import("./generated/api.js").ApiData;
declare const source: string;
declare const modules: Record<string, string>;
declare const planJson: unknown;
declare const app: import("express").Express;
declare const authenticate: import("express").RequestHandler;
declare const engine: import("regoc").Engine;
declare const api: import("regoc").Authorizer;
declare const client: import("regoc").BundleClient;
declare const config: { services: Record<string, unknown>; bundles: Record<string, unknown> };
declare const prepared: import("regoc/compiler").PreparedQuery;
declare function log(message: string): void;
declare function audit(event: unknown): void;
`,
    );
    for (const s of snippets) writeFileSync(join(check, `readme-${s.line}.ts`), `${s.code}\nexport {};\n`);
    writeFileSync(
      join(check, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "nodenext", moduleResolution: "nodenext", lib: ["ES2023"], types: ["node"], skipLibCheck: true }, include: ["*.ts"] }),
    );
    const out = tsc(check);
    expect(out.status, `README snippets (readme-<line of the block>.ts) do not type-check:\n${out.output}`).to.equal(0);
  });

  it("the runtime's declarations type-check without @types/node (a browser project)", () => {
    const check = join(dir, "browser");
    mkdirSync(check);
    writeFileSync(join(check, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(check, "main.ts"),
      `import { Authorizer, RegoSet, toJSON, type Value } from "regoc";
import { EvalState } from "regoc/eval";
const a = await Authorizer.create({ policy: "package p\\nallow := true", query: "data.p.allow" });
const v: Value = new RegoSet([1]);
console.log(await a.authorize({}), toJSON(v), EvalState);
`,
    );
    writeFileSync(
      join(check, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "nodenext", moduleResolution: "nodenext", lib: ["ES2023", "DOM"], types: [], skipLibCheck: false }, include: ["*.ts"] }),
    );
    const out = tsc(check);
    expect(out.status, out.output).to.equal(0);
  });
});

/** The ```ts blocks of README.md, with the line each starts at. */
function readmeSnippets(): { line: number; code: string }[] {
  const lines = readFileSync(join(repoRoot, "README.md"), "utf8").split("\n");
  const out: { line: number; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts") continue;
    const end = lines.indexOf("```", i + 1);
    out.push({ line: i + 1, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return out;
}

/** The project's TypeScript on a directory's tsconfig.json: its exit status and diagnostics. */
function tsc(dir: string): { status: number; output: string } {
  return runToEnd(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", dir]);
}

/** A command run to its end: its exit status and everything it printed. */
function runToEnd(file: string, args: string[], cwd?: string): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync(file, args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" }) };
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    return { status: err.status ?? 1, output: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

/** The environment without npm's lifecycle variables (`npm test` sets them; a nested npm would read them as its config). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, env: cleanEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("package tarball (npm pack, installed in an app)", function () {
  this.timeout(300_000);
  let dir = "";
  let app = "";
  let files: string[] = [];
  let tarball = "";
  const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
    version: string;
    types: string;
    engines: { node: string };
    exports: Record<string, string | Record<string, string>>;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-tarball-"));
    // No dist/ beforehand: prepack must build it.
    rmSync(join(repoRoot, "dist"), { recursive: true, force: true });
    const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", dir], repoRoot)) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed[0]!.files.map((f) => f.path);
    tarball = join(dir, packed[0]!.filename);
    app = join(dir, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships dist/ (built by prepack), the LICENSE and bin, no maps and no TypeScript sources", () => {
    for (const f of ["dist/runtime/index.js", "dist/compiler/cli.js", "LICENSE", "README.md", "bin/regoc.js", "package.json"]) expect(files, f).to.include(f);
    expect(files.filter((f) => f.endsWith(".map"))).to.deep.equal([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).to.deep.equal([]);
    expect(readFileSync(join(repoRoot, "LICENSE"), "utf8")).to.match(/Apache License\s+Version 2\.0/);
  });

  it("every types and exports target a user resolves is in the tarball", () => {
    const targets = [pkg.types];
    for (const entry of Object.values(pkg.exports)) {
      if (typeof entry === "string") targets.push(entry);
      else for (const [condition, target] of Object.entries(entry)) if (condition !== "regoc-source") targets.push(target);
    }
    for (const t of targets) {
      const path = t.replace(/^\.\//, "");
      // A subpath pattern's target (`./dist/runtime/builtins/*.js`) must match a shipped file.
      if (path.includes("*")) expect(files.some((f) => f.startsWith(path.split("*")[0]!) && f.endsWith(path.split("*")[1]!)), t).to.equal(true);
      else expect(files, t).to.include(path);
    }
  });

  it("installs with --engine-strict on this Node, without packages the library does not import", () => {
    npm(["install", "--engine-strict", "--no-audit", "--no-fund", "--prefer-offline", tarball], app);
    for (const name of ["express", "mocha", "tsx"]) expect(existsSync(join(app, "node_modules", name)), name).to.equal(false);
    // jose verifies and signs bundle signatures: a runtime dependency
    expect(existsSync(join(app, "node_modules", "jose")), "jose").to.equal(true);
  });

  it("the installed `regoc` prints its version and evaluates, from the app's directory", () => {
    const regoc = join(app, "node_modules", ".bin", "regoc");
    expect(execFileSync(regoc, ["--version"], { cwd: app, encoding: "utf8" }).trim()).to.equal(`regoc ${pkg.version}`);
    writeFileSync(join(app, "p.rego"), 'package p\nallow if input.user == "alice"\n');
    writeFileSync(join(app, "input.json"), '{"user": "alice"}');
    const out = execFileSync(regoc, ["eval", "-d", "p.rego", "-i", "input.json", "data.p.allow"], { cwd: app, encoding: "utf8" });
    expect((JSON.parse(out) as { result: Array<{ expressions: Array<{ value: unknown }> }> }).result[0]!.expressions[0]!.value).to.equal(true);
  });

  it("an app decides with the installed copy (plain Node, ESM)", () => {
    writeFileSync(
      join(app, "main.js"),
      `import { Authorizer } from "regoc";
       const a = await Authorizer.create({ modules: { "p.rego": "package p\\nallow if input.user == \\"alice\\"\\n" }, query: "data.p.allow" });
       console.log(JSON.stringify([await a.authorize({ user: "alice" }), await a.authorize({ user: "bob" })]));`,
    );
    expect(JSON.parse(execFileSync(process.execPath, ["main.js"], { cwd: app, encoding: "utf8" }))).to.deep.equal([true, false]);
  });

  it("a module the installed regoc builds imports regoc/eval and its builtin categories from the installed copy", () => {
    const regoc = join(app, "node_modules", ".bin", "regoc");
    mkdirSync(join(app, "policies"), { recursive: true });
    writeFileSync(join(app, "policies", "q.rego"), 'package q\ndefault allow := false\nallow if startswith(input.path, "/public/")\n');
    execFileSync(regoc, ["build", "policies", "-e", "q/allow", "-o", "gen", "--target", "js"], { cwd: app, encoding: "utf8" });
    const code = readFileSync(join(app, "gen", "q.js"), "utf8");
    expect(code).to.contain('from "regoc/eval"').and.to.contain('import { stringsBuiltins } from "regoc/builtins/strings"');
    writeFileSync(join(app, "q-main.js"), `import { qAllow } from "./gen/q.js";\nconsole.log(JSON.stringify([qAllow({ path: "/public/a" }, {}), qAllow({ path: "/admin" }, {})]));\n`);
    expect(JSON.parse(execFileSync(process.execPath, ["q-main.js"], { cwd: app, encoding: "utf8" }))).to.deep.equal([true, false]);
  });

  it("the installed `regoc build --check` exits 0 on an up-to-date output and 1 naming a stale one, writing nothing", () => {
    const regoc = join(app, "node_modules", ".bin", "regoc");
    mkdirSync(join(app, "checked"), { recursive: true });
    writeFileSync(join(app, "checked", "c.rego"), "package c\nallow if input.n > 1\n");
    const argv = ["build", "checked", "-e", "c/allow", "-o", "checked-gen"];
    execFileSync(regoc, argv, { cwd: app, encoding: "utf8" });
    const built = readFileSync(join(app, "checked-gen", "c.ts"), "utf8");
    expect(runToEnd(regoc, [...argv, "--check"], app).status).to.equal(0);
    writeFileSync(join(app, "checked", "c.rego"), "package c\nallow if input.n > 2\n");
    const stale = runToEnd(regoc, [...argv, "--check"], app);
    expect(stale.status, stale.output).to.equal(1);
    expect(stale.output).to.contain(join("checked-gen", "c.ts"));
    expect(readFileSync(join(app, "checked-gen", "c.ts"), "utf8")).to.equal(built);
  });

  it("the installed `regoc build --watch` rebuilds the user's module when a policy changes", async () => {
    const regoc = join(app, "node_modules", ".bin", "regoc");
    mkdirSync(join(app, "watched"), { recursive: true });
    writeFileSync(join(app, "watched", "w.rego"), 'package w\nallow if input.role == "admin"\n');
    const proc = spawn(regoc, ["build", "watched", "-e", "w/allow", "-o", "watched-gen", "--watch"], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
    let seen = "";
    proc.stdout.on("data", (d: Buffer) => (seen += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (seen += d.toString()));
    const until = async (what: string, ok: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!ok()) {
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`${what}: not seen; regoc printed:\n${seen}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const gen = () => (existsSync(join(app, "watched-gen", "w.ts")) ? readFileSync(join(app, "watched-gen", "w.ts"), "utf8") : "");
    try {
      await until("watching", () => /watching/.test(seen));
      expect(gen()).to.contain('"admin"');
      writeFileSync(join(app, "watched", "w.rego"), 'package w\nallow if input.role == "editor"\n');
      await until("the rebuilt module", () => gen().includes('"editor"'));
    } finally {
      proc.kill("SIGTERM");
    }
  });

  it("every package the app installed accepts the lowest Node package.json's engines allows (npm i --engine-strict there)", () => {
    const floor = semver.minVersion(pkg.engines.node)!.version;
    expect(floor).to.equal("20.19.0");
    const installed = packagesUnder(join(app, "node_modules"));
    expect(installed.map((p) => p.name)).to.include.members(["regoc", "graphql", "chokidar", "esbuild", "ts-morph"]);
    const failing = installed.filter((p) => p.node !== undefined && !semver.satisfies(floor, p.node)).map((p) => `${p.name}@${p.version} (node ${p.node})`);
    expect(failing).to.deep.equal([]);
  });
});

/** Every package installed under a node_modules directory, nested ones and scopes included, with its engines.node. */
function packagesUnder(nodeModules: string): { name: string; version: string; node?: string }[] {
  const out: { name: string; version: string; node?: string }[] = [];
  if (!existsSync(nodeModules)) return out;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith(".")) continue;
    const dirs = entry.startsWith("@") ? readdirSync(join(nodeModules, entry)).map((d) => join(nodeModules, entry, d)) : [join(nodeModules, entry)];
    for (const d of dirs) {
      const manifest = join(d, "package.json");
      if (!existsSync(manifest)) continue;
      const p = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; version: string; engines?: { node?: string } };
      out.push({ name: p.name, version: p.version, node: p.engines?.node });
      out.push(...packagesUnder(join(d, "node_modules")));
    }
  }
  return out;
}

describe("bin/regoc.js in a source checkout", function () {
  this.timeout(60_000);
  const bin = join(repoRoot, "bin", "regoc.js");

  it("runs from a directory outside the repository (tsx resolved from the package, not the cwd)", () => {
    const out = execFileSync(process.execPath, [bin, "--version"], { cwd: tmpdir(), encoding: "utf8" });
    expect(out.trim()).to.match(/^regoc \d+\.\d+\.\d+/);
  });

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    it(`killed by pid (${signal}), it leaves no child running`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "regoc-bin-"));
      try {
        writeFileSync(join(dir, "p.rego"), "package p\nallow := true\n");
        const parent = spawn(process.execPath, [bin, "build", dir, "-e", "p/allow", "-o", join(dir, "out"), "--watch"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
        // Watching: the CLI (the child) has started and built.
        await new Promise<void>((resolve, reject) => {
          let seen = "";
          parent.stdout.on("data", (d: Buffer) => ((seen += d.toString()), /watching/.test(seen) && resolve()));
          parent.on("exit", () => reject(new Error(`regoc exited before watching: ${seen}`)));
        });
        const child = childrenOf(parent.pid!);
        expect(child, "the CLI runs in a child process").to.have.length(1);
        parent.kill(signal);
        const deadline = Date.now() + 10_000;
        while (alive(child[0]!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(alive(child[0]!), `child ${child[0]} still running`).to.equal(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

/** The pids whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \S+ Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^\d+ \(.*\) /, "0 x "));
  } catch {
    return false;
  }
}
