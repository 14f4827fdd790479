// docs/architecture.md is the map of the tree: every folder under compiler/ and runtime/ is named
// there (as `compiler/x/` in backquotes), and every folder it names exists.
import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../support/shared.js";

function folders(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(repoRoot, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(join(repoRoot, rel)).isDirectory()) out.push(`${rel}/`, ...folders(rel));
  }
  return out;
}

describe("docs/architecture.md", () => {
  const doc = readFileSync(join(repoRoot, "docs", "architecture.md"), "utf8");

  it("names every folder under compiler/ and runtime/", () => {
    const missing = [...folders("compiler"), ...folders("runtime")].filter((f) => !doc.includes(`\`${f}\``));
    expect(missing, "add a line for each to docs/architecture.md").to.deep.equal([]);
  });

  it("names no folder that does not exist", () => {
    const named = [...doc.matchAll(/`((?:compiler|runtime)\/(?:[\w.-]+\/)+)`/g)].map((m) => m[1]!);
    const existing = new Set([...folders("compiler"), ...folders("runtime")]);
    expect(named.filter((f) => !existing.has(f))).to.deep.equal([]);
  });
});
