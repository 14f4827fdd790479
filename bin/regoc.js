#!/usr/bin/env node
// The `regoc` command. Inside a source checkout it runs the TypeScript sources through tsx (with the
// condition that maps `regoc` to its sources), so it never runs a stale build; an installed package
// (which ships dist/ only) runs the built CLI in this process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../compiler/cli.ts", import.meta.url));
const tsx = existsSync(source) ? tsxLoader() : undefined;
if (tsx) {
  const flags = ["--no-experimental-require-module", "--conditions=regoc-source", "--import", tsx];
  const guard = new URL("./exit-with-parent.js", import.meta.url).href;
  const child = spawn(process.execPath, [...flags, "--import", guard, source, ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  // A signal that ends this process ends the child too (and the guard covers SIGKILL).
  const signals = ["SIGTERM", "SIGINT", "SIGHUP"];
  for (const s of signals) process.on(s, () => child.kill(s));
  child.on("error", (e) => {
    process.stderr.write(`regoc: cannot start the CLI: ${e.message}\n`);
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      for (const s of signals) process.removeAllListeners(s);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
} else {
  const { main } = await import(new URL("../dist/compiler/cli.js", import.meta.url).href);
  process.exitCode = await main(process.argv.slice(2));
}

/** tsx's loader as this package resolves it (not from the working directory), or undefined. */
function tsxLoader() {
  try {
    return import.meta.resolve("tsx");
  } catch {
    return undefined;
  }
}
