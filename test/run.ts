// `npm test`: the type-check of the whole project, then every mocha suite under test/ (unit,
// golden, property, fuzz, conformance ratchets, integration), then one plain closing line
// `N passed, M failed` over all of it. CI reads that line.
//
//   npm test                      everything
//   npm test -- test/unit/value   only suites whose path contains one of the arguments
//   REPORTER=spec npm test        mocha's reporter (default: dot)
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import Mocha from "mocha";

const root = fileURLToPath(new URL("..", import.meta.url));
const filters = process.argv.slice(2);

function listTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listTests(full));
    else if (name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

let passed = 0;
let failed = 0;

if (filters.length === 0) {
  process.stdout.write("type-check (tsc --noEmit)...\n");
  const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], {
    stdio: "inherit",
    cwd: root,
  });
  if (tsc.status === 0) passed++;
  else {
    failed++;
    process.stdout.write("type-check FAILED\n");
  }
}

const files = listTests(join(root, "test")).filter(
  (f) => filters.length === 0 || filters.some((flt) => relative(root, f).includes(flt)),
);
const mocha = new Mocha({ reporter: process.env.REPORTER ?? "dot", timeout: 60_000 });
for (const f of files) mocha.addFile(f);
await mocha.loadFilesAsync();
const stats = await new Promise<Mocha.Stats>((resolve) => {
  const runner = mocha.run(() => resolve(runner.stats ?? ({ passes: 0, failures: 0 } as Mocha.Stats)));
});
passed += stats.passes;
failed += stats.failures;

process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
