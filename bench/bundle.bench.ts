// A generated module as a user ships it: the cold import of generated/authz.ts compiled to
// JavaScript, importing the built package (dist/, `npm run build`: bench/run does it first), in a
// fresh Node process each time (target ≤ 50 ms); and its size bundled for browsers, minified and
// gzipped (target ≤ 40 KB). The application runtime ("regoc") is imported the same way for
// comparison.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { browserBundle } from "../scripts/browser-bundle.js";
import { median, type Bench } from "./util.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = fileURLToPath(new URL(".out/", import.meta.url));
const RUNS = 15;

/** Milliseconds `import(specifier)` takes in a fresh process, by its clock and by its CPU time
 * (user + system: on a shared machine, time spent descheduled is not counted). */
function coldImport(specifier: string): { wall: number; cpu: number; min: number; max: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const script =
      `const c = process.cpuUsage(), t = performance.now(); await import(${JSON.stringify(specifier)}); ` +
      `const d = process.cpuUsage(c); console.log(performance.now() - t, (d.user + d.system) / 1000);`;
    const [w, c] = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }).trim().split(" ").map(Number);
    wall.push(w!);
    cpu.push(c!);
  }
  return { wall: median(wall), cpu: median(cpu), min: Math.min(...wall), max: Math.max(...wall) };
}

/** generated/<name>.ts as JavaScript in bench/.out/ (its imports kept: the package's dist/). */
async function compiled(name: string): Promise<string> {
  mkdirSync(out, { recursive: true });
  const { code } = await transform(readFileSync(`${root}generated/${name}.ts`, "utf8"), { loader: "ts", format: "esm" });
  const file = `${out}${name}.js`;
  writeFileSync(file, code);
  return pathToFileURL(file).href;
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

const bench: Bench = {
  title: "Generated module: cold import in Node, browser bundle",
  async run() {
    const rows: string[] = [];
    for (const [what, specifier] of [
      ["generated/authz (regoc/eval, no builtin) (goal ≤ 50 ms)", await compiled("authz")],
      ["generated/api (regoc/eval + regoc/builtins/casts)", await compiled("api")],
      ["regoc, the application runtime (builtins load by need)", "regoc"],
    ] as const) {
      const t = coldImport(specifier);
      rows.push(`| ${what} | **${ms(t.cpu)}** | ${ms(t.wall)} | ${ms(t.min)}–${ms(t.max)} |`);
    }
    const sizes: string[] = [];
    for (const name of ["authz", "api"]) {
      const b = await browserBundle(`generated/${name}.ts`, { format: "esm" });
      sizes.push(`| generated/${name}.ts${name === "authz" ? " (goal ≤ 40 KB)" : ""} | ${(b.code.length / 1024).toFixed(1)} KB | **${(b.gzipBytes / 1024).toFixed(1)} KB** |`);
    }
    return [
      `Cold import: \`await import(module)\` timed inside a fresh \`node\` process, median of ${RUNS} processes (CPU time, and wall-clock time with its range).`,
      "",
      "| module | import (CPU) | import (wall) | wall range |",
      "|---|---|---|---|",
      ...rows,
      "",
      "Browser bundle: esbuild `--bundle --platform=browser --minify`, no externals (scripts/browser-bundle.ts), from dist/.",
      "",
      "| module | minified | min+gzip |",
      "|---|---|---|",
      ...sizes,
    ].join("\n");
  },
};
export default bench;
