// Generated modules type-check under the project's strict TypeScript settings: the modules of the
// compliance plans (from ../shared: every plan with a rarer statement — with, not, CallDynamic,
// merge, set tests — and every fourth of the others; all of them with REGOC_TYPECHECK_ALL=1) are
// written to node_modules/.cache and checked with the project's tsc (errors in other files are not
// this test's business).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateTypeScript } from "regoc/compiler";
import { describeWithShared, repoRoot, sharedDir } from "../../../support/shared.js";

describeWithShared("codegen: generated modules type-check (strict)", function () {
  this.timeout(180_000);

  it("the modules of the compliance plans", () => {
    const dir = join(repoRoot, "node_modules", ".cache", `regoc-typecheck-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      check(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const RARE = /"(WithStmt|NotStmt|CallDynamicStmt|ObjectMergeStmt|IsSetStmt)"/;

function check(dir: string): void {
  const root = join(sharedDir, "compliance", "v1");
  const all = process.env.REGOC_TYPECHECK_ALL === "1";
  const notes: string[] = [];
  let seen = 0;
  for (const cat of readdirSync(root).sort()) {
    for (const f of readdirSync(join(root, cat)).sort()) {
      for (const c of JSON.parse(readFileSync(join(root, cat, f), "utf8")).cases) {
        seen++;
        if (!all && seen % 4 !== 0 && !RARE.test(JSON.stringify(c.plan))) continue;
        writeFileSync(join(dir, `m${notes.length}.ts`), generateTypeScript(c.plan).code);
        notes.push(c.note);
      }
    }
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: { noEmit: true }, include: ["*.ts"], exclude: [] }),
  );
  const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  assert.ok(notes.length > 0, "no generated module was type-checked");
  assert.equal(tsc.error, undefined, `tsc did not run: ${tsc.error?.message}`);
  const errors = tsc.stdout
    .split("\n")
    .filter((l) => l.includes("regoc-typecheck"))
    .map((l) => l.replace(/^.*?m(\d+)\.ts/, (_m, i: string) => `${notes[Number(i)]}`));
  assert.deepEqual(errors.slice(0, 20), [], `${errors.length} type errors in generated modules`);
  assert.equal(tsc.status, 0, `tsc failed:\n${tsc.stdout.slice(0, 2000)}${tsc.stderr.slice(0, 2000)}`);
}
