import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { builtinReports } from "../../../../compiler/cli/builtins.js";
import builtinsCommand from "../../../../compiler/cli/builtins.js";
import { isBuiltin } from "../../../../runtime/builtins/catalog.js";
import { captureOutput } from "../../../support/cli.js";

const capabilities = JSON.parse(readFileSync(new URL("../../../../compiler/builtins/capabilities.json", import.meta.url), "utf8")) as {
  builtins: { name: string }[];
};

const capture = (argv: string[]) => captureOutput(() => builtinsCommand.run(argv));

describe("cli: regoc builtins", () => {
  it("reports every builtin of the capabilities, once, sorted", () => {
    const names = builtinReports().map((r) => r.name);
    expect(names).to.deep.equal(capabilities.builtins.map((b) => b.name).sort());
    expect(new Set(names).size).to.equal(names.length);
  });

  it("agrees with the registry and marks the compiler's own builtins", () => {
    for (const r of builtinReports()) {
      if (r.name === "eq" || r.name === "assign") expect(r.status, r.name).to.equal("compile-time");
      else if (isBuiltin(r.name)) expect(r.status, r.name).to.equal("implemented");
      else {
        expect(r.status, r.name).to.equal("not implemented");
        expect(r.reason, r.name).to.be.a("string").and.not.equal("");
      }
    }
    const byName = new Map(builtinReports().map((r) => [r.name, r]));
    expect(byName.get("net.cidr_merge")?.status).to.equal("implemented");
    expect(byName.get("http.send")).to.deep.equal({ name: "http.send", status: "implemented", category: "http" });
    // an implemented builtin's category names its file under runtime/builtins/
    for (const r of builtinReports()) {
      if (r.status === "implemented") expect(existsSync(new URL(`../../../../runtime/builtins/${r.category}.ts`, import.meta.url)), `${r.name}: ${r.category}`).to.equal(true);
    }
  });

  it("prints a table with a summary line", async () => {
    const { code, out } = await capture([]);
    expect(code).to.equal(0);
    expect(out.split("\n")[0]).to.match(/^builtin\s+status\s+note$/);
    expect(out).to.match(/^graphql\.parse\s+implemented$/m);
    expect(out).to.match(/^eq\s+compile-time\s+`=` unification/m);
    expect(out).to.match(/^\d+ implemented, 2 compile-time, \d+ not implemented \(of \d+\)$/m);
  });

  it("prints JSON with --json", async () => {
    const { code, out } = await capture(["--json"]);
    expect(code).to.equal(0);
    const parsed = JSON.parse(out) as { name: string; status: string; reason?: string }[];
    expect(parsed).to.deep.equal(builtinReports());
    expect(parsed.find((r) => r.name === "assign")).to.deep.include({ status: "compile-time" });
  });

  it("refuses unknown options as a usage error", async () => {
    let err: unknown;
    try {
      await builtinsCommand.run(["--tabel"]);
    } catch (e) {
      err = e;
    }
    expect((err as { code?: string }).code).to.equal("cli_usage_error");
  });
});
