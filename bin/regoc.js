#!/usr/bin/env node
// The `regoc` command. Inside a source checkout it runs the TypeScript sources through tsx (with the
// condition that maps `regoc` to its sources), so it never runs a stale build; an installed package
// (which ships dist/ only) runs the built CLI.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../compiler/cli.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../node_modules/tsx/package.json", import.meta.url));
if (existsSync(source) && existsSync(tsx)) {
  const flags = ["--no-experimental-require-module", "--conditions=regoc-source", "--import", "tsx"];
  const r = spawnSync(process.execPath, [...flags, source, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
} else {
  const { main } = await import(new URL("../dist/compiler/cli.js", import.meta.url).href);
  process.exitCode = await main(process.argv.slice(2));
}
