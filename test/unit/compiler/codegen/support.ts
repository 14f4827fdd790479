// Test support: builtins of our own (so codegen tests do not depend on the builtin library being
// written in parallel), a one-call compile + evaluate, and tsc over generated modules.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compilePlan, type EvaluateOptions, type PreparedQuery } from "regoc/compiler";
import { RegoError, registerBuiltins, toJSON, type BuiltinTable, type Value } from "regoc";
import { repoRoot } from "../../../support/shared.js";
import type { PolicyBuilder } from "../../../support/plans.js";

export const calls = { counter: 0, log: [] as unknown[] };

const table: BuiltinTable = {
  /** Identity. */
  "regoc_test.id": { fn: (_ctx, a) => a },
  /** Always fails with a type error (undefined unless strict). */
  "regoc_test.fail": {
    fn: () => {
      throw new RegoError("eval_type_error", "operand 1 must be something else");
    },
  },
  /** Async identity. */
  "regoc_test.async_id": { async: true, fn: async (_ctx, a) => a },
  /** Nondeterministic: a new number per call unless cached. */
  "regoc_test.counter": { nondeterministic: true, fn: () => ++calls.counter },
  /** Void: records its argument. */
  "regoc_test.log": {
    fn: (_ctx, a) => {
      calls.log.push(a);
      return undefined;
    },
  },
  /** Joins its (string) arguments with "-". */
  "regoc_test.concat": { fn: (_ctx, ...args) => args.join("-") },
  /** a + b on small integers (for loops and memo tests). */
  "regoc_test.add": { fn: (_ctx, a, b) => (a as number) + (b as number) },
};

/** Registers the regoc_test.* builtins for the enclosing mocha suite only. */
export function useTestBuiltins(): void {
  let unregister: (() => void) | undefined;
  before(() => (unregister = registerBuiltins(table)));
  after(() => unregister?.());
}

export async function prepare(b: PolicyBuilder, entrypoint?: string): Promise<PreparedQuery> {
  return compilePlan(b.json(), entrypoint === undefined ? {} : { entrypoint });
}

/** Compiles and evaluates; rows converted to JSON. */
export async function run(b: PolicyBuilder, options: EvaluateOptions = {}, entrypoint?: string): Promise<unknown[]> {
  const pq = await prepare(b, entrypoint);
  const rs = pq.async ? await pq.evaluate(options) : pq.evaluateSync(options);
  // JSON round trip: plain objects (the runtime's have a null prototype) for deepStrictEqual.
  return rs.map((r) => JSON.parse(JSON.stringify(toJSON(r as Value))) as unknown);
}

/** The value of the `result` binding of the only row, or undefined for an empty result. */
export async function value(b: PolicyBuilder, options: EvaluateOptions = {}): Promise<unknown> {
  const rows = (await run(b, options)) as Array<Record<string, unknown>>;
  if (rows.length > 1) throw new Error(`expected at most one row, got ${JSON.stringify(rows)}`);
  return rows[0]?.result;
}

/** Type-checks `files` (name → TypeScript) with the project's tsc and strict settings, in a fresh
 * directory under node_modules/.cache; returns the error lines about those files (the path up to
 * the directory cut off: `uses.ts(3,1): error ...`). */
export function typecheckFiles(files: Record<string, string>, tag: string): string[] {
  const dir = join(repoRoot, "node_modules", ".cache", `${tag}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: { noEmit: true }, include: ["*.ts"], exclude: [] }));
    const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    if (tsc.error) throw new Error(`tsc did not run: ${tsc.error.message}`);
    const at = `${tag}-${process.pid}/`;
    return tsc.stdout
      .split("\n")
      .filter((l) => l.includes(at))
      .map((l) => l.slice(l.indexOf(at) + at.length));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
