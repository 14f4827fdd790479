// `regoc parse`: exit codes, the per-error lines, the summary line, --json and --v0-compatible.
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import command from "../../../../compiler/cli/parse.js";
import { captureOutput } from "../../../support/cli.js";

const run = (argv: string[]) => captureOutput(() => command.run(argv));

describe("regoc parse", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-parse-"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "good.rego"), "package a\n\np := 1\n");
    writeFileSync(join(dir, "sub", "bad.rego"), "package b\n\np := [1,\nq := 2\n");
    writeFileSync(join(dir, "sub", "v0.rego"), "package c\n\np[x] { x := 1 }\n");
    writeFileSync(join(dir, "notes.txt"), "not rego");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("parses every .rego file under a directory and reports each error", async () => {
    const { code, out } = await run([dir]);
    expect(code).to.equal(1);
    const bad = join(dir, "sub", "bad.rego");
    const v0 = join(dir, "sub", "v0.rego");
    expect(out.split("\n")).to.deep.equal([
      `${bad}:4:3: rego_parse_error: unexpected assign token: expected "," or "]"`,
      `${bad}:4:3: rego_parse_error: unexpected assign token: expected rule value term (e.g., p := <VALUE> { ... })`,
      `${v0}:3:1: rego_parse_error: \`if\` keyword is required before rule body`,
      `${v0}:3:1: rego_parse_error: \`contains\` keyword is required for partial set rules`,
      "3 files parsed, 2 failed",
      "",
    ]);
  });

  it("exits 0 when every file parses", async () => {
    const { code, out } = await run([join(dir, "good.rego")]);
    expect([code, out]).to.deep.equal([0, "1 files parsed, 0 failed\n"]);
  });

  it("--v0-compatible parses v0 syntax", async () => {
    const { code } = await run(["--v0-compatible", join(dir, "sub", "v0.rego")]);
    expect(code).to.equal(0);
  });

  it("--json prints OPA's AST JSON for one file", async () => {
    const { code, out } = await run(["--json", join(dir, "good.rego")]);
    expect(code).to.equal(0);
    const ast = JSON.parse(out);
    expect(ast.package.path[1]).to.deep.equal({ type: "string", value: "a" });
    expect(ast.rules[0].head).to.deep.equal({ name: "p", ref: [{ type: "var", value: "p" }], value: { type: "number", value: 1 }, assign: true });
  });

  it("--json --locations adds locations", async () => {
    const { out } = await run(["--json", "--locations", join(dir, "good.rego")]);
    expect(JSON.parse(out).rules[0].location).to.deep.equal({ file: join(dir, "good.rego"), row: 3, col: 1 });
  });

  it("usage mistakes are cli_usage_error", async () => {
    for (const argv of [[], [join(dir, "missing.rego")], ["--bogus", dir]]) {
      let code: string | undefined;
      try {
        await run(argv);
      } catch (e) {
        code = (e as { code?: string }).code;
      }
      expect(code, argv.join(" ")).to.equal("cli_usage_error");
    }
  });

  it("is in regoc's command table (exit 1 on failure, 2 on usage)", function () {
    this.timeout(30_000);
    const cli = fileURLToPath(new URL("../../../../compiler/cli.ts", import.meta.url));
    const regoc = (...args: string[]) => spawnSync(process.execPath, ["--conditions=regoc-source", "--import", "tsx", cli, ...args], { encoding: "utf8" });
    const bad = regoc("parse", join(dir, "sub", "bad.rego"));
    expect(bad.status).to.equal(1);
    expect(bad.stdout).to.contain("1 files parsed, 1 failed");
    expect(regoc("parse").status).to.equal(2);
  });
});
