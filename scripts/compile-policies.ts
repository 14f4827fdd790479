// `npm run compile-policies`: `regoc build` of policies/ into generated/, one module per package,
// each exporting its decision as a typed function:
//   package authz → generated/authz.ts  export function authzAllow(input, data): boolean
//   package api   → generated/api.ts    export function apiAllow(input, data): boolean
// `npm run compile-policies -- --check` exits 1 when generated/ differs from what the compiler
// produces now (the test in test/unit/policies/generated.test.ts does the same check).
import { fileURLToPath } from "node:url";
import { RegoErrors } from "../runtime/errors.js";
import { buildOutputs, runBuild, type BuildOptions } from "../compiler/cli/build.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The build: `regoc build policies -e authz/allow -e api/allow -o generated`, from the project root;
 * the modules' headers name this script as the command that regenerates them. */
export const POLICY_BUILD: BuildOptions = {
  paths: ["policies"],
  entrypoints: ["authz/allow", "api/allow"],
  outDir: "generated",
  command: "npm run compile-policies",
  cwd: root,
};

/** The text of every generated file, by path relative to the project root. */
export function generatePolicies(): Record<string, string> {
  const { errors, files } = buildOutputs(POLICY_BUILD);
  if (errors.length > 0) throw new RegoErrors(errors);
  return Object.fromEntries(Object.entries(files).map(([file, code]) => [`${POLICY_BUILD.outDir}/${file}`, code]));
}

if (fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = runBuild(POLICY_BUILD, { check: process.argv.slice(2).includes("--check") });
  } catch (e) {
    process.stderr.write(`compile-policies: ${e instanceof Error ? e.toString() : String(e)}\n`);
    process.exitCode = 1;
  }
}
