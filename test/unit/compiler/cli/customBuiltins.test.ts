// `--builtins <module>` and `--capabilities <file>` on `regoc test`, `eval` and `check`: suites that
// call builtins an OPA distribution adds in Go, supplied here by a JavaScript module.
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import capabilitiesJson from "../../../../compiler/builtins/capabilities.json" with { type: "json" };
import checkCommand from "../../../../compiler/cli/check.js";
import evalCommand from "../../../../compiler/cli/eval.js";
import testCommand from "../../../../compiler/cli/test.js";
import { getBuiltin } from "../../../../runtime/builtins/registry.js";
import { captureOutput, type CommandOutput } from "../../../support/cli.js";

const GREET_DECL = { name: "custom.greet", decl: { type: "function", args: [{ type: "string" }], result: { type: "string" } } };

const MODULE = `export const declarations = ${JSON.stringify([GREET_DECL])};
export const implementations = { "custom.greet": { fn: (_ctx, name) => "hello " + name } };
`;

const caps = (builtins: unknown[]) => JSON.stringify({ ...capabilitiesJson, builtins });

const SUITE: Record<string, string> = {
  "suite/p.rego": "package p\n\ngreeting := custom.greet(input.name)\n",
  "suite/p_test.rego": 'package p\n\ntest_greet if greeting == "hello bob" with input as {"name": "bob"}\n\ntest_direct if custom.greet("x") == "hello x"\n',
  "mod.mjs": MODULE,
  "caps.json": caps([...capabilitiesJson.builtins, GREET_DECL]),
};

/** Runs `check` in a fresh temporary directory holding `files`, as the working directory. */
async function inSuite(files: Record<string, string>, check: () => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "regoc-custom-builtins-"));
  const cwd = process.cwd();
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    process.chdir(dir);
    await check();
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
}

const run = (command: { run(argv: string[]): Promise<number> }, argv: string[]): Promise<CommandOutput> => captureOutput(() => command.run(argv));

async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string; location?: { file: string; row: number; col: number } }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error("expected an error");
}

describe("cli: --builtins and --capabilities", () => {
  it("regoc test --builtins mod.mjs: the suite's custom builtin is declared and implemented", () =>
    inSuite(SUITE, async () => {
      expect(await run(testCommand, ["suite", "--builtins", "mod.mjs"])).to.include({ code: 0, out: "PASS: 2/2\n", err: "" });
      // registered for the run only
      expect(getBuiltin("custom.greet")).to.equal(undefined);
    }));

  it("a .js module in a `type: module` package loads too", () =>
    inSuite({ ...SUITE, "package.json": '{"type": "module"}', "mod.js": MODULE }, async () => {
      expect(await run(testCommand, ["suite", "--builtins", "mod.js"])).to.include({ code: 0, out: "PASS: 2/2\n" });
    }));

  it("without the module the load fails as in OPA: undefined function, file:row(:col)", () =>
    inSuite(SUITE, async () => {
      const t = await run(testCommand, ["suite"]);
      expect(t).to.include({ code: 2, out: "" });
      expect(t.err).to.equal(
        "2 errors occurred:\nsuite/p.rego:3: rego_type_error: undefined function custom.greet\nsuite/p_test.rego:5: rego_type_error: undefined function custom.greet\n",
      );
      const c = await run(checkCommand, ["suite"]);
      expect(c.code).to.equal(1);
      expect(c.out).to.include("suite/p.rego:3:13: rego_type_error: undefined function custom.greet");
      expect((await run(checkCommand, ["suite", "--builtins", "mod.mjs"])).code).to.equal(0);
    }));

  it("the type checker knows the declaration: a wrong arity or argument type is a compile error", () =>
    inSuite({ ...SUITE, "arity/q_test.rego": 'package q\n\ntest_a if custom.greet("a", "b") == "x"\n', "type/q_test.rego": 'package q\n\ntest_b if custom.greet(1) == "x"\n' }, async () => {
      const t = await run(testCommand, ["arity", "--builtins", "mod.mjs"]);
      expect(t.code).to.equal(2);
      expect(t.err).to.include("arity/q_test.rego:3: rego_type_error: custom.greet: arity mismatch");
      expect((await run(checkCommand, ["arity", "--builtins", "mod.mjs"])).out).to.include("arity/q_test.rego:3:11: rego_type_error: custom.greet: arity mismatch");
      expect((await run(checkCommand, ["type", "--builtins", "mod.mjs"])).out).to.include("type/q_test.rego:3:11: rego_type_error: custom.greet: invalid argument(s)");
    }));

  it("--capabilities alone: the calls compile, and fail where they run as OPA's evaluator fails (eval_internal_error: unsupported built-in)", () =>
    inSuite({ ...SUITE, "input.json": '{"name": "ann"}' }, async () => {
      const t = await run(testCommand, ["suite", "--capabilities", "caps.json"]);
      expect(t.code).to.equal(1);
      expect(t.out).to.include("data.p.test_greet: ERROR");
      expect(t.out).to.include("  suite/p.rego:3: eval_internal_error: unsupported built-in\n");
      expect(t.out).to.include("  suite/p_test.rego:5: eval_internal_error: unsupported built-in\n");
      expect((await run(checkCommand, ["suite", "--capabilities", "caps.json"])).code).to.equal(0);
      // not a builtin's own error: raised in non-strict mode too
      const e = await rejection(run(evalCommand, ["-d", "suite", "-i", "input.json", "data.p.greeting = x", "--capabilities", "caps.json"]));
      expect(e).to.include({ code: "eval_internal_error", message: "unsupported built-in" });
      expect(e.location).to.include({ file: "suite/p.rego", row: 3, col: 13 });
      expect(getBuiltin("custom.greet")).to.equal(undefined);
    }));

  it("--capabilities without a builtin the policy calls refuses the policy, as opa --capabilities does", () =>
    inSuite({ "s/s_test.rego": 'package s\n\ntest_s if startswith("abc", "a")\n', "caps.json": caps(capabilitiesJson.builtins.filter((b) => b.name !== "startswith")) }, async () => {
      expect(await run(testCommand, ["s", "--capabilities", "caps.json"])).to.include({ code: 2, err: "1 error occurred: s/s_test.rego:3: rego_type_error: undefined function startswith\n" });
      expect((await run(checkCommand, ["s", "--capabilities", "caps.json"])).out).to.include("s/s_test.rego:3:11: rego_type_error: undefined function startswith");
      expect(await run(testCommand, ["s"])).to.include({ code: 0, out: "PASS: 1/1\n" });
    }));

  it("--capabilities and --builtins together: the file's builtins plus the module's", () =>
    inSuite({ ...SUITE, "small.json": caps(capabilitiesJson.builtins.filter((b) => ["eq", "equal"].includes(b.name))) }, async () => {
      expect(await run(testCommand, ["suite", "--builtins", "mod.mjs", "--capabilities", "small.json"])).to.include({ code: 0, out: "PASS: 2/2\n" });
    }));

  it("an async implementation, and one that throws (the builtin's error: undefined in opa test, raised by eval --strict)", () =>
    inSuite(
      {
        "a/a_test.rego": 'package a\n\ntest_async if custom.later("x") == "x!"\n\ntest_throws if custom.boom("x")\n\ntest_not_throws if not custom.boom("x")\n',
        "m.mjs": `export const declarations = [
  { name: "custom.later", decl: { type: "function", args: [{ type: "string" }], result: { type: "string" } } },
  { name: "custom.boom", decl: { type: "function", args: [{ type: "string" }], result: { type: "boolean" } } },
];
export const implementations = {
  "custom.later": { async: true, fn: async (_ctx, s) => s + "!" },
  "custom.boom": { fn: () => { throw new Error("no boom today"); } },
};
`,
      },
      async () => {
        const t = await run(testCommand, ["a", "--builtins", "m.mjs", "-v"]);
        expect(t.out).to.include("data.a.test_async: PASS");
        expect(t.out).to.include("data.a.test_throws: FAIL");
        expect(t.out).to.include("data.a.test_not_throws: PASS");
        const e = await rejection(run(evalCommand, ["-d", "a", "--builtins", "m.mjs", "--strict", 'custom.boom("x")']));
        expect(e).to.include({ code: "eval_builtin_error", message: "custom.boom: no boom today" });
      },
    ));

  it("regoc eval --builtins evaluates the custom builtin", () =>
    inSuite({ ...SUITE, "input.json": '{"name": "ann"}' }, async () => {
      const r = await run(evalCommand, ["-d", "suite", "-i", "input.json", "--builtins", "mod.mjs", "data.p.greeting"]);
      expect(r.code).to.equal(0);
      expect(JSON.parse(r.out).result[0].expressions[0].value).to.equal("hello ann");
    }));

  it("a bad module or capabilities file is a load error naming it", () =>
    inSuite(
      {
        ...SUITE,
        "undeclared.mjs": 'export const declarations = [];\nexport const implementations = { "custom.greet": { fn: () => "x" } };\n',
        "clash.mjs": 'export const declarations = [{ name: "count", decl: { type: "function", args: [{ type: "any" }], result: { type: "number" } } }];\n',
        "badtype.mjs": 'export const declarations = [{ name: "custom.greet", decl: { type: "function", args: [{ type: "strng" }] } }];\n',
        "nofn.mjs": `export const declarations = ${JSON.stringify([GREET_DECL])};\nexport const implementations = { "custom.greet": (_ctx, n) => n };\n`,
        "bad.json": "{",
        "mod.txt": MODULE,
      },
      async () => {
        const err = async (argv: string[]) => (await run(testCommand, ["suite", ...argv])).err;
        expect(await err(["--builtins", "undeclared.mjs"])).to.include("undeclared.mjs: custom.greet has an implementation but no declaration");
        expect(await err(["--builtins", "clash.mjs"])).to.include("clash.mjs: custom builtin count conflicts with an existing builtin");
        expect(await err(["--builtins", "badtype.mjs"])).to.include("custom.greet: decl.args[0]: not a type");
        expect(await err(["--builtins", "nofn.mjs"])).to.include('implementations["custom.greet"] must be { fn: (ctx, ...args) => value }');
        expect(await err(["--builtins", "missing.mjs"])).to.include("missing.mjs: cannot load builtins module");
        expect(await err(["--builtins", "mod.txt"])).to.include("mod.txt: a builtins module is an ES module");
        expect(await err(["--capabilities", "bad.json"])).to.include("bad.json: not JSON");
        expect(await err(["--capabilities", "v0.70.0"])).to.include("v0.70.0: capabilities versions are not bundled");
      },
    ));
});
