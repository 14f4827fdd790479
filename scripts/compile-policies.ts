// `npm run compile-policies`: compiles policies/*.rego ahead of time into generated/*.ts, one module
// per policy, each exporting its decision as a typed function:
//   policies/authz.rego → generated/authz.ts  export function authzAllow(input, data): boolean
//   policies/api.rego   → generated/api.ts    export function apiAllow(input, data): boolean
// Input and data types come from the policy's JSON-schema annotations where it has them, else the
// code generator derives them from the refs each policy reads.
// `npm run compile-policies -- --check` exits 1 when generated/ differs from what the compiler
// produces now (the test in test/unit/policies/generated.test.ts does the same check).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateTypeScript, planRegoDetailed, writeModule } from "../compiler/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Each generated module: its policy, the rule it exports and where it goes. */
export const POLICY_MODULES = [
  { policy: "policies/authz.rego", entrypoint: "authz/allow", out: "generated/authz.ts" },
  { policy: "policies/api.rego", entrypoint: "api/allow", out: "generated/api.ts" },
] as const;

/** The module's header: the generator writes it as comment lines. */
function header(policy: string, entrypoint: string): string[] {
  return [
    "GENERATED FILE — do not edit. Regenerate with `npm run compile-policies`.",
    `Source: ${policy} (entrypoint data.${entrypoint.replace(/\//g, ".")}), compiled by regoc.`,
  ];
}

/** The text of every generated file, by path relative to the project root. */
export function generatePolicies(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of POLICY_MODULES) {
    const source = readFileSync(join(root, m.policy), "utf8");
    const { plan, schemaTypes, localNames } = planRegoDetailed({ modules: { [m.policy]: source }, entrypoints: [m.entrypoint] });
    out[m.out] = generateTypeScript(plan, { schemaTypes, localNames, header: header(m.policy, m.entrypoint) }).code;
  }
  return out;
}

/** Paths whose file on disk differs from what the compiler produces now. */
export function stalePolicies(): string[] {
  const expected = generatePolicies();
  return Object.keys(expected).filter((f) => {
    const file = join(root, f);
    return !existsSync(file) || readFileSync(file, "utf8") !== expected[f];
  });
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--check")) {
    const stale = stalePolicies();
    for (const f of stale) process.stderr.write(`${f} is out of date: run npm run compile-policies\n`);
    return stale.length === 0 ? 0 : 1;
  }
  for (const [file, code] of Object.entries(generatePolicies())) {
    await writeModule(join(root, file), code);
    process.stdout.write(`wrote ${file}\n`);
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}` || fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`compile-policies: ${e instanceof Error ? e.toString() : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
