// README's command line section lists every command `regoc help` lists, and says what is left out:
// `regoc fmt` (OPA's canonical format) while regoc has no such command.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../compiler/cli.js";
import { captureOutput } from "../../support/cli.js";
import { repoRoot } from "../../support/shared.js";

describe("README.md, command line", () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

  /** The command names `regoc help` prints (the indented lines under "commands:"). */
  async function commands(): Promise<string[]> {
    const help = await captureOutput(() => main(["help"]));
    return [...help.out.split("commands:")[1]!.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!);
  }

  it("has a row of its command table for every command", async () => {
    const names = await commands();
    expect(names).to.include.members(["build", "check", "eval", "test"]);
    for (const name of names) expect(readme, `regoc ${name}`).to.match(new RegExp(`^\\| \`regoc ${name}\\b`, "m"));
  });

  it("says `regoc fmt` is left out while there is no such command", async () => {
    if ((await commands()).includes("fmt")) return;
    expect(readme).to.match(/There is no `regoc fmt`[^\n]*left out/);
  });
});
