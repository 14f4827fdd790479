// Golden tests: the generated TypeScript of a few representative plans, committed next to this
// file as <name>.ts (and type-checked with the project by `tsc`), and for some the same module
// generated as JavaScript (what compilePlan loads) as <name>.js. UPDATE_GOLDEN=1 rewrites them;
// review golden diffs like code.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { generateTypeScript } from "regoc/compiler";
import { authz, hostile, partialSet, query, withAndDynamic } from "../../support/samplePlans.js";
import { planSchemaPolicy } from "../../support/schemaPolicy.js";

const dir = new URL(".", import.meta.url);

/** A Rego policy with METADATA `schemas:` (schemaPolicy.ts): Input and Data typed by its schemas. */
function schemaInput(): string {
  const { plan, schemaTypes } = planSchemaPolicy();
  return generateTypeScript(plan, { schemaTypes }).code;
}

const goldens: Record<string, () => string> = {
  authz: () => generateTypeScript(authz().json()).code,
  partial_set: () => generateTypeScript(partialSet().json()).code,
  with_dynamic: () => generateTypeScript(withAndDynamic().json()).code,
  query: () => generateTypeScript(query().json()).code,
  hostile: () => generateTypeScript(hostile().json()).code,
  schema_input: schemaInput,
};

const javascriptGoldens: Record<string, () => string> = {
  authz: () => generateTypeScript(authz().json(), { language: "javascript" }).code,
  with_dynamic: () => generateTypeScript(withAndDynamic().json(), { language: "javascript" }).code,
  hostile: () => generateTypeScript(hostile().json(), { language: "javascript" }).code,
};

function checkGolden(file: URL, code: string): void {
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, code);
  const base = file.pathname.slice(file.pathname.lastIndexOf("/") + 1);
  assert.ok(existsSync(file), `${base} is missing: run with UPDATE_GOLDEN=1 and review it`);
  assert.equal(code, readFileSync(file, "utf8"), `${base} differs: rerun with UPDATE_GOLDEN=1 and review the diff`);
}

describe("golden: generated JavaScript", () => {
  for (const [name, generate] of Object.entries(javascriptGoldens)) {
    it(name, () => checkGolden(new URL(`${name}.js`, dir), generate()));
  }
});

describe("golden: generated TypeScript", () => {
  for (const [name, generate] of Object.entries(goldens)) {
    it(name, () => checkGolden(new URL(`${name}.ts`, dir), generate()));
  }
});
