// Fuzzing the parser (as OPA's fuzz_test.go does, seeded from the compliance modules): random
// text, random token soups, random bytes and mutations of valid modules. Whatever the input, the
// parser returns an AST or RegoErrors: no other exception, no hang (mocha's timeout catches one;
// speed is the benchmarks' business, bench/parser.bench.ts), no stack overflow on deep nesting.
// Successful parses also print and export without throwing.
import { expect } from "chai";
import fc from "fast-check";

import { formatOpaJson, moduleToOpaJson } from "../../compiler/ast/opaJson.js";
import { printModule } from "../../compiler/ast/print.js";
import { INTERNAL_ERROR, parseModuleResult, parseQueryResult, parseTermResult } from "../../compiler/syntax/index.js";
import { RegoError } from "../../runtime/errors.js";
import { haveShared } from "../support/shared.js";
import { complianceModules } from "../support/complianceModules.js";

const SEED = Number(process.env.FC_SEED ?? 1234);
const runs = (n: number) => ({ numRuns: Number(process.env.FC_RUNS ?? n), seed: SEED });

let total = 0;

function check(text: string, v0 = false): void {
  total++;
  const opts = { regoVersion: v0 ? ("v0" as const) : ("v1" as const) };
  const m = parseModuleResult(text, opts);
  const q = parseQueryResult(text, opts);
  const t = parseTermResult(text, opts);
  for (const r of [m, q, t]) {
    for (const e of r.errors) {
      expect(e).to.be.instanceOf(RegoError);
      expect(e.code).to.equal("rego_parse_error");
      expect(e.location?.row).to.be.at.least(1);
      expect(e.message.startsWith(INTERNAL_ERROR), e.message).to.equal(false);
    }
  }
  expect(m.module !== undefined || m.errors.length > 0, "module or errors").to.equal(true);
  expect(m.module === undefined || m.errors.length === 0, "not both").to.equal(true);
  expect(q.body !== undefined || q.errors.length > 0).to.equal(true);
  if (m.module) {
    printModule(m.module);
    formatOpaJson(moduleToOpaJson(m.module, { locations: true }));
  }
}

const tokens = [
  "# METADATA\n# a: &a [1, 2]\n# b: [*a, *a]\n", "# METADATA\n# title: [\n",
  "package", "import", "as", "default", "else", "not", "some", "with", "null", "true", "false", "if", "contains", "in", "every",
  "and", "or", "future.keywords", "future.keywords.not", "rego.v1", "rego.v2", "x", "y", "_", "input", "data", "p", "f", "1", "-1", "1.5", "1e3", "01", '"s"', '"\\n"',
  "`raw`", '$"a{', "}", "{", "[", "]", "(", ")", ",", ":", ";", ".", ":=", "=", "==", "!=", "<", ">", "+", "-", "*", "/", "%",
  "&", "|", "$", "!", "#c\n", "\n", " ", "\t", "# METADATA\n# title: t\n", "set()", "[x | x := 1]", "{k: v | true}",
];
const soup = fc.array(fc.constantFrom(...tokens), { maxLength: 40 }).map((ts) => ts.join(" "));
const soupWithPackage = soup.map((s) => `package test\n\n${s}`);

describe("parser fuzz", function () {
  this.timeout(120_000);

  it("random text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 120 }), (s) => check(s)), runs(1500));
  });

  it("random unicode text", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (s) => check(`package p\n${s}`)), runs(500));
  });

  it("random bytes (decoded as UTF-8)", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 120 }), (b) => check(Buffer.from(b).toString("utf8"))), runs(500));
  });

  it("token soups, v1 and v0", () => {
    fc.assert(fc.property(soupWithPackage, fc.boolean(), (s, v0) => check(s, v0)), runs(2000));
  });

  it("deep nesting gives an error, not a stack overflow", () => {
    const deep = [
      "[".repeat(100_000),
      "{".repeat(100_000),
      "(".repeat(100_000),
      "f(".repeat(100_000),
      "x[".repeat(100_000),
      "[x | ".repeat(50_000),
      `package p\np := ${"[".repeat(100_000)}1${"]".repeat(100_000)}`,
      `package p\np := 1 if { false }${" else := 1 if { false }".repeat(20_000)}`,
      `package p\nimport future.keywords\np if { ${"not (".repeat(50_000)}a or b${")".repeat(50_000)} }`,
      `package p\np := ${'$"{'.repeat(20_000)}1${'}"'.repeat(20_000)}`,
      `package p\np if { ${"every x in y { ".repeat(50_000)} }`,
    ];
    for (const text of deep) {
      const r = parseModuleResult(text);
      expect(r.module, text.slice(0, 40)).to.equal(undefined);
      expect(r.errors.map((e) => e.message)).to.include("max parsing recursion depth exceeded");
      expect(r.errors.length, "the depth error is not followed by a cascade").to.be.below(5);
      check(text);
    }
  });

  it("long flat inputs parse (no recursion per operand or per statement)", () => {
    const r = parseModuleResult(`package p\np := 1${" + 1".repeat(50_000)}\nq if {\n${"\tx\n".repeat(50_000)}}\n`);
    expect(r.errors).to.deep.equal([]);
    expect(r.module!.rules.map((rule) => rule.body.length)).to.deep.equal([1, 50_000]);
  });

  (haveShared ? describe : describe.skip)("mutations of compliance modules", () => {
    const seeds = haveShared ? complianceModules().map((m) => m.text) : [];
    const mutation = fc.record({
      seed: fc.nat(),
      edits: fc.array(
        fc.record({ at: fc.nat(), len: fc.nat({ max: 12 }), kind: fc.constantFrom("delete", "insert", "duplicate", "replace"), with: fc.constantFrom(...tokens) }),
        { minLength: 1, maxLength: 4 },
      ),
    });
    it("every mutation parses or fails with RegoErrors", () => {
      fc.assert(
        fc.property(mutation, fc.boolean(), ({ seed, edits }, v0) => {
          let text = seeds[seed % seeds.length]!;
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            if (e.kind === "delete") text = text.slice(0, at) + text.slice(at + e.len);
            else if (e.kind === "insert") text = text.slice(0, at) + e.with + text.slice(at);
            else if (e.kind === "duplicate") text = text.slice(0, at) + text.slice(at, at + e.len) + text.slice(at);
            else text = text.slice(0, at) + e.with + text.slice(at + e.len);
          }
          check(text, v0);
        }),
        runs(3000),
      );
    });
  });

  after(() => {
    if (process.env.REGOC_VERBOSE) process.stdout.write(`fuzz: ${total} inputs checked\n`);
  });
});
