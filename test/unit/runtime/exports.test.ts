// The front door applications use: `regoc` exports these names and no others (a new export is a
// decision: add it here), at most 30 with the types; generated code goes through `regoc/eval`
// and `regoc/builtins/<category>` only (runtimeDoor.test.ts holds what those export).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { Project } from "ts-morph";
import { generateTypeScript, planRegoDetailed } from "regoc/compiler";

const VALUES = [
  "Authorizer",
  "BigNum",
  "BundleClient",
  "Engine",
  "HotReloader",
  "RegoError",
  "RegoErrors",
  "RegoObject",
  "RegoSet",
  "Store",
  "registerBuiltins",
  "toJSON",
  "toJSONText",
];
const TYPES = [
  "AuthorizerOptions",
  "BuiltinDef",
  "BuiltinTable",
  "BundleOptions",
  "BundleStatus",
  "CompileFilterOptions",
  "CompileFilterResponse",
  "DecisionResult",
  "EngineOptions",
  "EvalContext",
  "EvalOptions",
  "HotReloaderOptions",
  "JSONValue",
  "QueryResult",
  "ReloadEvent",
  "Transaction",
  "Value",
];

/** The module specifiers of a generated module's imports (static ones: generated code has no other). */
function importsOf(code: string): string[] {
  return [...code.matchAll(/^\s*import\s[^;]*?from\s*"([^"]+)";/gm)].map((m) => m[1]!);
}

describe("regoc: the public runtime API", () => {
  it("exports exactly these values", async () => {
    const regoc = await import("regoc");
    assert.deepEqual(Object.keys(regoc).sort(), [...VALUES].sort());
  });

  it("exports exactly these names with the types, 30 at most", () => {
    const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: false } });
    const index = project.addSourceFileAtPath(new URL("../../../runtime/index.ts", import.meta.url).pathname);
    project.resolveSourceFileDependencies();
    const names = [...index.getExportedDeclarations().keys()].sort();
    assert.deepEqual(names, [...VALUES, ...TYPES].sort());
    assert.ok(names.length <= 30, `${names.length} names`);
  });

  it("README's paragraph on what regoc exports gives their number and names each", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const paragraph = /^- \*\*What `regoc` exports\*\* \((\d+) names;[\s\S]*?(?=\n- )/m.exec(readme);
    assert.ok(paragraph, "README has a paragraph starting '- **What `regoc` exports** (N names;'");
    assert.equal(Number(paragraph[1]), VALUES.length + TYPES.length);
    const named = new Set([...paragraph[0].matchAll(/`(\w+)`/g)].map((m) => m[1]));
    assert.deepEqual([...VALUES, ...TYPES].filter((n) => !named.has(n)), []);
  });

  it("generated modules import nothing from regoc itself: only regoc/eval and regoc/builtins/<category>", () => {
    const door = (s: string) => s === "regoc/eval" || /^regoc\/builtins\/[a-z]+$/.test(s);
    const committed = new URL("../../../generated/", import.meta.url);
    for (const file of readdirSync(committed).filter((f) => f.endsWith(".ts"))) {
      const specifiers = importsOf(readFileSync(new URL(file, committed), "utf8"));
      assert.ok(specifiers.length > 0, file);
      for (const s of specifiers) assert.ok(door(s), `${file} imports ${s}`);
    }
    // A policy calling builtins of several categories, async ones included, in both languages.
    const source = `package p
import rego.v1
x := sprintf("%v", [count(input.a)]) if time.now_ns() > 0
y := http.send({"method": "get", "url": input.url}) if input.url
z contains upper(s) if some s in input.b
`;
    const { plan } = planRegoDetailed({ modules: { "p.rego": source }, entrypoints: ["p/x", "p/y", "p/z"] });
    for (const language of ["typescript", "javascript"] as const) {
      const specifiers = importsOf(generateTypeScript(plan, { language }).code);
      assert.ok(specifiers.includes("regoc/eval") && specifiers.includes("regoc/builtins/http"), `${language}: ${specifiers.join(", ")}`);
      for (const s of specifiers) assert.ok(door(s), `${language} imports ${s}`);
    }
  });
});
