// Golden output of the planner: for each input policy (its first line names the entrypoints or
// the query to plan), the IR plan JSON compared with expected/<name>.plan.json. UPDATE_GOLDEN=1
// rewrites them (review the diff as you would code). Every plan must also pass the IR validator
// and be in the decoded shape.
import { expect } from "chai";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { planRego } from "../../../compiler/compile.js";
import { decodePolicy, isDecoded } from "../../../compiler/ir/decode.js";
import { validatePolicy } from "../../../compiler/ir/validate.js";

const dir = fileURLToPath(new URL(".", import.meta.url));
const expectedDir = join(dir, "expected");
const update = process.env.UPDATE_GOLDEN === "1";

function splitModules(text: string): string[] {
  // several packages in one input: each `package` line after the first starts a module
  const [header, first, ...rest] = text.split(/\n(?=package )/);
  return first === undefined ? [header!] : [`${header}\n${first}`, ...rest];
}

describe("golden: planner", () => {
  const inputs = readdirSync(join(dir, "inputs")).filter((f) => f.endsWith(".rego")).sort();
  for (const file of inputs) {
    it(file, () => {
      const text = readFileSync(join(dir, "inputs", file), "utf8");
      const header = /^# (entrypoints|query): (.*)$/m.exec(text);
      if (!header) throw new Error(`${file}: first line must be "# entrypoints: ..." or "# query: ..."`);
      const modules: Record<string, string> = {};
      splitModules(text).forEach((m, i) => (modules[i === 0 ? file : `${file}.${i}`] = m));
      const plan = planRego(header[1] === "query" ? { modules, query: header[2]! } : { modules, entrypoints: header[2]!.split(/\s+/) });
      validatePolicy(decodePolicy(JSON.parse(JSON.stringify(plan))));
      // the code generator takes the planner's plan as it is (decodePolicy does not copy it)
      expect(isDecoded(plan), `${file}: the plan is not in the decoded shape`).to.equal(true);
      const actual = `${JSON.stringify(plan, null, 1)}\n`;
      const path = join(expectedDir, file.replace(/\.rego$/, ".plan.json"));
      if (update || !existsSync(path)) {
        if (!update) throw new Error(`missing golden file ${path} (run with UPDATE_GOLDEN=1)`);
        mkdirSync(expectedDir, { recursive: true });
        writeFileSync(path, actual);
        return;
      }
      expect(actual, `${file}: plan differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`).to.equal(readFileSync(path, "utf8"));
    });
  }
});
