// Generated modules type-check under the strictest settings a user's build may have (Vite's
// templates turn most of these on): the committed generated/*.ts, the modules of the compliance
// plans (from ../shared: every plan with a rarer statement — with, not, CallDynamic, merge, set
// tests — and every fourth of the others; all of them with REGOC_TYPECHECK_ALL=1), and modules
// planned from a sample of the compliance cases' Rego (with the policy's names). They are written
// to node_modules/.cache and checked with the project's tsc (errors in other files are not this
// test's business).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateTypeScript, planRegoDetailed } from "regoc/compiler";
import { loadCases } from "../../../../compiler/compliance/cases.js";
import { describeWithShared, repoRoot, sharedDir } from "../../../support/shared.js";

/** What the generated code must pass, on top of the project's own settings. */
export const STRICT_OPTIONS = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  allowUnreachableCode: false,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noEmit: true,
};

describeWithShared("codegen: generated modules type-check (strict)", function () {
  this.timeout(300_000);

  it("generated/, the modules of the compliance plans and of their Rego", () => {
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
  const all = process.env.REGOC_TYPECHECK_ALL === "1";
  const notes: string[] = [];
  const write = (code: string, note: string) => {
    writeFileSync(join(dir, `m${notes.length}.ts`), code);
    notes.push(note);
  };
  let seen = 0;
  for (const c of loadCases(join(sharedDir, "compliance"))) {
    seen++;
    if (c.plan !== undefined && (all || seen % 4 === 0 || RARE.test(JSON.stringify(c.plan)))) write(generateTypeScript(c.plan).code, `${c.note} (plan)`);
    if (c.query === undefined || (!all && seen % 4 !== 1)) continue;
    const modules: Record<string, string> = {};
    (c.modules ?? []).forEach((m, i) => (modules[`module-${i}.rego`] = m));
    let planned;
    try {
      planned = planRegoDetailed({ modules, query: c.query, queryName: "eval" });
    } catch {
      continue; // a case about a compile error
    }
    write(generateTypeScript(planned.plan, { schemaTypes: planned.schemaTypes, localNames: planned.localNames }).code, `${c.note} (rego)`);
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: STRICT_OPTIONS, include: ["*.ts", "../../../generated/*.ts"], exclude: [] }),
  );
  const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8", maxBuffer: 1 << 28 });
  assert.ok(notes.length > 100, `only ${notes.length} generated modules were type-checked`);
  assert.equal(tsc.error, undefined, `tsc did not run: ${tsc.error?.message}`);
  const errors = tsc.stdout
    .split("\n")
    .filter((l) => l.includes("regoc-typecheck") || l.startsWith("generated/") || l.includes("/generated/"))
    .map((l) => l.replace(/^.*?regoc-typecheck-\d+\/m(\d+)\.ts/, (_m, i: string) => `${notes[Number(i)]}`));
  assert.deepEqual(errors.slice(0, 20), [], `${errors.length} type errors in generated modules`);
  // (The project's own sources the modules import are checked under the project's settings by
  // `npm run typecheck`, not these: only an error of tsc itself, or of its configuration, counts.)
  const ran = tsc.status === 0 || tsc.stdout.split("\n").every((l) => l === "" || /^[\w./-]+\.ts\(\d+,\d+\): error TS/.test(l) || /^\s/.test(l));
  assert.ok(ran && tsc.stderr === "", `tsc failed:\n${tsc.stdout.slice(0, 2000)}${tsc.stderr.slice(0, 2000)}`);
}
