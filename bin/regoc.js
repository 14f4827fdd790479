#!/usr/bin/env node
// Runs the built CLI (dist/) when present; inside a source checkout without a build it runs the
// TypeScript sources through tsx, with the condition that maps `regoc` to its sources.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/compiler/cli.js", import.meta.url);
if (existsSync(built)) {
  const { main } = await import(built.href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  const source = fileURLToPath(new URL("../compiler/cli.ts", import.meta.url));
  const r = spawnSync(process.execPath, ["--no-experimental-require-module", "--conditions=regoc-source", "--import", "tsx", source, ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exitCode = r.status ?? 1;
}
