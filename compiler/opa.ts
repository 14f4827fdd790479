// Optional bridge to a real `opa` binary: when OPA_BIN (or `regoc plan --opa PATH`) names one,
// plans can be produced by `opa build -t plan` instead of regoc's own frontend. The bundle is
// written to a temporary directory and its /plan.json read back. Nothing else in regoc needs it.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { opaBuildError, opaNoPlanError } from "./errors.js";
import type { Policy } from "./ir/types.js";

export interface OpaPlanOptions {
  /** The `opa` executable. */
  opa: string;
  /** Policy (and data) files or directories. */
  paths: readonly string[];
  /** Entrypoints, `authz/allow`. */
  entrypoints: readonly string[];
  v0Compatible?: boolean;
}

/** The opa binary named by the environment, if any. */
export function opaFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const v = env.OPA_BIN;
  return v && v.trim() !== "" ? v : undefined;
}

function run(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { stdout, stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

/** Runs `opa build -t plan` and returns the plan of the bundle. */
export async function planWithOpa(options: OpaPlanOptions): Promise<Policy> {
  const dir = await mkdtemp(join(tmpdir(), "regoc-opa-"));
  try {
    const bundle = join(dir, "bundle.tar.gz");
    const args = ["build", "-t", "plan", "-o", bundle];
    for (const e of options.entrypoints) args.push("-e", e);
    if (options.v0Compatible) args.push("--v0-compatible");
    args.push(...options.paths);
    try {
      await run(options.opa, args);
    } catch (e) {
      const err = e as Error & { stderr?: string; code?: unknown };
      const detail = (err.stderr ?? "").trim() || err.message;
      throw opaBuildError(detail, e);
    }
    const out = join(dir, "out");
    await import("node:fs/promises").then((fs) => fs.mkdir(out));
    await tar.x({ file: bundle, cwd: out, filter: (p) => p.replace(/^\/+/, "") === "plan.json" });
    let text: string;
    try {
      text = await readFile(join(out, "plan.json"), "utf8");
    } catch {
      throw opaNoPlanError();
    }
    return JSON.parse(text) as Policy;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
