// Golden output of the parser: for each input, the AST as OPA's JSON and the module printed back
// as canonical Rego, compared with the files under expected/. UPDATE_GOLDEN=1 rewrites them
// (review the diff as you would code). The inputs are our own samples (inputs/*.rego, with
// locations in the AST) and a representative set of compliance modules (read in place).
import { expect } from "chai";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { formatOpaJson, moduleToOpaJson } from "../../../compiler/ast/opaJson.js";
import { printModule } from "../../../compiler/ast/print.js";
import { parseModule, parseModuleResult } from "../../../compiler/syntax/index.js";
import { loadComplianceSources, type ComplianceSource } from "../../support/complianceModules.js";
import { haveShared } from "../../support/shared.js";

const dir = fileURLToPath(new URL(".", import.meta.url));
const expectedDir = join(dir, "expected");
const update = process.env.UPDATE_GOLDEN === "1";

/** Representative compliance cases: one per area of the language. */
const complianceNotes = [
  "aggregates/count keys virtual",
  "comprehensions/object dereference embedded",
  "elsekeyword/indexed",
  "every/example with two sets",
  "functions/basic call",
  "partialobjectdoc/ref",
  "refheads/many-vars",
  "withkeyword/builtin: nested, multiple mocks",
  "string-interpolation/with outside template string, overrides",
  "defaultkeyword/function with var arg, ref head query",
  "regometadatarule/rule scope only",
  "keywordrefs/contains keyword rule refhead, partial object",
  "negation/pos: ref with variable",
  "containskeyword/ordinary deny rule",
  "sets/set_diff: refs",
  "undos/object-ref-missing-key",
];

function golden(name: string, actual: string): void {
  const path = join(expectedDir, name);
  if (update || !existsSync(path)) {
    if (!update) throw new Error(`missing golden file ${path} (run with UPDATE_GOLDEN=1)`);
    mkdirSync(expectedDir, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(actual, `${name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`).to.equal(readFileSync(path, "utf8"));
}

function fileName(note: string): string {
  return note.replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_|_$/g, "");
}

describe("golden: syntax", () => {
  const inputs = readdirSync(join(dir, "inputs")).filter((f) => f.endsWith(".rego")).sort();
  for (const file of inputs) {
    it(file, () => {
      const text = readFileSync(join(dir, "inputs", file), "utf8");
      const v0 = file.startsWith("v0");
      const m = parseModule(text, { file, regoVersion: v0 ? "v0" : "v1" });
      const base = file.replace(/\.rego$/, "");
      golden(`${base}.ast.json`, `${formatOpaJson(moduleToOpaJson(m, { locations: true }), 2)}\n`);
      const printed = printModule(m);
      golden(`${base}.printed.rego`, printed);
      // and the printed form is stable: printing it again gives the same text
      expect(printModule(parseModule(printed))).to.equal(printed);
    });
  }

  (haveShared ? describe : describe.skip)("compliance modules", () => {
    const byNote = new Map<string, ComplianceSource>(haveShared ? loadComplianceSources().map((c) => [c.note, c]) : []);
    for (const note of complianceNotes) {
      it(note, () => {
        const c = byNote.get(note);
        expect(c, `no compliance case ${note}`).to.not.equal(undefined);
        const modules = c!.modules ?? [];
        const asts = modules.map((text) => {
          const r = parseModuleResult(text);
          expect(r.errors.map(String)).to.deep.equal([]);
          return r.module!;
        });
        const base = `compliance_${fileName(note)}`;
        golden(`${base}.ast.json`, `${formatOpaJson(asts.map((m) => moduleToOpaJson(m)), 2)}\n`);
        golden(`${base}.printed.rego`, asts.map((m) => printModule(m)).join("\n# ---\n\n"));
      });
    }
  });
});
