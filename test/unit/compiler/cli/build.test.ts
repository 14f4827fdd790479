// `regoc build`: one module per package from a policy directory, --check, --watch, diagnostics as
// `regoc check` prints them, --target js|plan, and `regoc --version`.
import { expect } from "chai";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import buildCommand, { watchBuild, type BuildIO } from "../../../../compiler/cli/build.js";
import { main } from "../../../../compiler/cli.js";
import { loadModule } from "../../../../compiler/index.js";
import { captureOutput } from "../../../support/cli.js";

const run = (argv: string[]) => captureOutput(() => buildCommand.run(argv));

const A = 'package a\n\nallow if input.x == 1\n\nname := "a"\n';
const B = 'package b.c\n\ndeny if input.user == "eve"\n';

/** Polls `test` every 20 ms until it holds; fails after `ms` (a bound, not a timing assertion). */
async function until(what: string, test: () => boolean, log: string[], ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}; the build said:\n${log.join("")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("regoc build", () => {
  let dir: string;
  let src: string;
  let out: string;
  const write = (rel: string, text: string) => {
    mkdirSync(join(src, rel, ".."), { recursive: true });
    writeFileSync(join(src, rel), text);
  };
  const read = (rel: string) => readFileSync(join(out, rel), "utf8");
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-build-"));
    src = join(dir, "policies");
    out = join(dir, "out");
    write("a.rego", A);
    write("sub/b.rego", B);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes one module per package, its entrypoints each an exported function, with a header naming the command", async () => {
    const r = await run([src, "-e", "a/allow", "-e", "data.a.name", "-e", "b/c/deny", "-o", out]);
    expect(r.code, r.err).to.equal(0);
    expect(readdirSync(out).sort()).to.deep.equal(["a.ts", "b"]);
    expect(readdirSync(join(out, "b"))).to.deep.equal(["c.ts"]); // no temporary file left behind
    const a = read("a.ts");
    expect(a.split("\n")[0]).to.equal(`// GENERATED FILE — do not edit. Regenerate with \`regoc build ${src} -e a/allow -e data.a.name -e b/c/deny -o ${out}\`.`);
    expect(a.split("\n")[1]).to.equal(`// Source: ${join(src, "a.rego")} (entrypoints data.a.allow, data.a.name), compiled by regoc.`);
    expect(a).to.contain("export function aAllow(").and.to.contain("export function aName(");
    expect(a).not.to.contain("bCDeny");
    const mod = await loadModule(a);
    expect(mod.entrypoints["a/allow"]!.fn({ x: 1 } as never, {} as never)).to.equal(true);
    expect(read("b/c.ts")).to.contain("export function bCDeny(");
    expect(r.out).to.contain(`wrote ${join(out, "a.ts")}`).and.to.contain(`wrote ${join(out, "b", "c.ts")}`);
  });

  it("types input from --schema", async () => {
    writeFileSync(join(dir, "input.json"), JSON.stringify({ type: "object", properties: { x: { type: "number" }, user: { type: "string" } }, required: ["x"] }));
    const r = await run([src, "-e", "a/allow", "-o", out, "--schema", join(dir, "input.json")]);
    expect(r.code, r.err).to.equal(0);
    expect(read("a.ts")).to.match(/export type AInput = \{\s*"user"\?: string;\s*"x": number;\s*\};/);
  });

  it("--check: 0 when up to date, 1 naming a stale or missing output; writes nothing", async () => {
    const argv = [src, "-e", "a/allow", "-e", "b/c/deny", "-o", out];
    expect((await run(argv)).code).to.equal(0);
    expect((await run([...argv, "--check"])).code).to.equal(0);
    write("a.rego", A.replace("== 1", "== 2"));
    const before = read("a.ts");
    const stale = await run([...argv, "--check"]);
    expect(stale.code).to.equal(1);
    expect(stale.err).to.contain(`${join(out, "a.ts")} is out of date`);
    expect(stale.err).not.to.contain("c.ts");
    expect(read("a.ts")).to.equal(before);
    rmSync(join(out, "b"), { recursive: true });
    const missing = await run([...argv, "--check"]);
    expect(missing.code).to.equal(1);
    expect(missing.err).to.contain(`${join(out, "b", "c.ts")} is missing`);
    expect(existsSync(join(out, "b"))).to.equal(false);
  });

  it("a compile error: file:row:col with a code frame, exit 1, the previous output kept", async () => {
    expect((await run([src, "-e", "a/allow", "-o", out])).code).to.equal(0);
    const good = read("a.ts");
    write("a.rego", "package a\n\nallow if {\n  input.x == y\n}\n");
    const r = await run([src, "-e", "a/allow", "-o", out]);
    expect(r.code).to.equal(1);
    expect(r.err).to.contain(`${join(src, "a.rego")}:4:3: rego_unsafe_var_error: var y is unsafe`);
    expect(r.err).to.contain("4 |   input.x == y\n");
    expect(read("a.ts")).to.equal(good);
  });

  it("negation warnings are printed as regoc check prints them; --strict makes them errors", async () => {
    write("sub/b.rego", 'package b.c\n\ndeny if not startswith(lower(input.x), "a")\n');
    const argv = [src, "-e", "b/c/deny", "-o", out];
    const r = await run(argv);
    expect(r.code).to.equal(0);
    expect(r.err).to.contain(`${join(src, "sub", "b.rego")}:3:9: rego_negation_warning:`).and.to.contain("1 warning");
    rmSync(out, { recursive: true });
    const strict = await run([...argv, "--strict"]);
    expect(strict.code).to.equal(1);
    expect(strict.err).to.contain("rego_negation_warning").and.to.contain("1 error");
    expect(existsSync(out)).to.equal(false);
  });

  it("an entrypoint in no package is an error", async () => {
    const r = await run([src, "-e", "nope/allow", "-o", out]);
    expect(r.code).to.equal(1);
    expect(r.err).to.contain('entrypoint "nope/allow" is in no package');
  });

  it("does not delete the output of a package no longer built: names it in a warning", async () => {
    expect((await run([src, "-e", "a/allow", "-e", "b/c/deny", "-o", out])).code).to.equal(0);
    const r = await run([src, "-e", "a/allow", "-o", out]);
    expect(r.code).to.equal(0);
    expect(r.err).to.contain(`warning: ${join(out, "b", "c.ts")} was generated by regoc build but not by this one`);
    expect(existsSync(join(out, "b", "c.ts"))).to.equal(true);
  });

  it("--target js writes JavaScript ES modules; --target plan the plan JSON", async () => {
    expect((await run([src, "-e", "a/allow", "-e", "b/c/deny", "-o", out, "--target", "js"])).code).to.equal(0);
    const js = read("a.js");
    expect(js).to.match(/^\/\/ GENERATED FILE/).and.to.contain('from "regoc/eval"').and.to.match(/export function aAllow\(input, _?data, _?options\)/);
    expect((await loadModule(js, { language: "javascript" })).entrypoints["a/allow"]!.fn({ x: 1 } as never, {} as never)).to.equal(true);
    expect(existsSync(join(out, "b", "c.js"))).to.equal(true);
    expect((await run([src, "-e", "a/allow", "-e", "a/name", "-o", out, "-t", "plan"])).code).to.equal(0);
    const plan = JSON.parse(read("a.json")) as { plans: { plans: { name: string }[] } };
    expect(plan.plans.plans.map((p) => p.name)).to.deep.equal(["a/allow", "a/name"]);
    const wasm = await captureOutput(() => main(["build", src, "-e", "a/allow", "-o", out, "-t", "wasm"]));
    expect(wasm.code).to.equal(2);
    expect(wasm.err).to.contain("--target must be ts, js, plan or bundle");
  });

  it("--watch rebuilds on change and keeps the last good output on a broken save", async function () {
    this.timeout(60000);
    const log: string[] = [];
    const io: BuildIO = { out: (t) => log.push(t), err: (t) => log.push(t) };
    const options = { paths: [src], entrypoints: ["a/allow"], outDir: out, command: "regoc build (test)" };
    const watch = await watchBuild(options, { io, debounceMs: 20 });
    try {
      expect(read("a.ts")).to.contain("export function aAllow(");
      write("a.rego", A.replace("input.x == 1", 'input.x == "changed"'));
      await until("the change is built", () => read("a.ts").includes('"changed"'), log);
      const good = read("a.ts");
      const errors = () => log.filter((l) => l.includes("rego_parse_error")).length;
      write("a.rego", "package a\n\nallow if input.x ==\n");
      await until("the error is reported", () => errors() > 0, log);
      expect(log.join("")).to.contain(`${join(src, "a.rego")}:`).and.to.contain("the last good output stays");
      expect(read("a.ts")).to.equal(good);
      write("a.rego", A.replace("input.x == 1", 'input.x == "fixed"'));
      await until("the fix is built", () => read("a.ts").includes('"fixed"'), log);
    } finally {
      await watch.close();
    }
  });
});

describe("regoc --version", () => {
  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8")) as { version: string };
    const r = await captureOutput(() => main(["--version"]));
    expect(r.code).to.equal(0);
    expect(r.out).to.equal(`regoc ${version}\n`);
  });
});
