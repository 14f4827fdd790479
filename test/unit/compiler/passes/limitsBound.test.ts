// The nesting limit's short cut (compiler/syntax/nesting.ts): a module fresh from the parser
// whose statements are short is not walked, since no rule nests deeper than its statement has
// characters plus OWN_LEVELS. Here: that bound on the densest shapes there are, and the same
// errors whether or not the short cut is taken.
import { expect } from "chai";
import type { Module } from "../../../../compiler/ast/nodes.js";
import { MAX_NESTING, OWN_LEVELS, ruleNesting } from "../../../../compiler/passes/limits.js";
import { compileModules } from "../../../../compiler/passes/runner.js";
import { parseModule } from "../../../../compiler/syntax/index.js";
import { takeLongestStatement } from "../../../../compiler/syntax/nesting.js";

const rep = (n: number, s: string): string => s.repeat(n);
const nest = (n: number, open: string, mid: string, close: string): string => open.repeat(n) + mid + close.repeat(n);

/** Rule statements that nest as much as they can per character, by kind of nesting. */
const dense: Record<string, (n: number) => string> = {
  arrays: (n) => `p := ${nest(n, "[", "x", "]")}`,
  sets: (n) => `p := ${nest(n, "{", "x", "}")}`,
  objects: (n) => `p := ${nest(n, "{a:", "1", "}")}`,
  "data in arrays": (n) => `p := ${nest(n, "[", "data", "]")}`,
  calls: (n) => `p := ${nest(n, "f(", "x", ")")}`,
  "calls without arguments": (n) => `p := ${nest(n, "f(", "", ")")}`,
  refs: (n) => `p := ${nest(n, "x[", "x", "]")}`,
  "ref calls": (n) => `p := a${rep(n, ".b()")}`,
  "call refs": (n) => `p := a${rep(n, "()[0]")}`,
  "infix chain": (n) => `p := 1${rep(n, "+1")}`,
  "mixed operators": (n) => `p := 1${rep(n, "*1-1|1&1<1%1")}`,
  "in chain": (n) => `p if { 1${rep(n, " in x")} }`,
  "key-value in chain": (n) => `p if { k, 1${rep(n, " in x")} }`,
  "parenthesized sums": (n) => `p := ${nest(n, "(1+", "1", ")")}`,
  "array comprehensions": (n) => `p := ${nest(n, "[x|x:=", "1", "]")}`,
  "comprehension bodies": (n) => `p := ${nest(n, "[x|", "1", "]")}`,
  "rule body of comprehensions": (n) => `p if ${nest(n, "{x|", "1", "}")}`,
  "not comprehensions": (n) => `p if { ${nest(n, "not [x|", "1", "]")} }`,
  "comprehension terms": (n) => `p := ${nest(n, "{", "x", "|x}")}`,
  "object comprehensions": (n) => `p := ${nest(n, "{x:y|y:=", "1", "}")}`,
  every: (n) => `p if { ${nest(n, "every x in y {", "x", "}")} }`,
  "not groups": (n) => `p if { ${nest(n, "not (", "x", ")")} }`,
  "not bodies": (n) => `p if { ${nest(n, "not {", "x", "}")} }`,
  "and chain": (n) => `p if { x${rep(n, " and x")} }`,
  "or chain": (n) => `p if { x${rep(n, " or x")} }`,
  "and bodies": (n) => `p if { ${nest(n, "x and {", "x", "}")} }`,
  "template strings": (n) => `p := ${nest(n, '$"{', "x", '}"')}`,
  "with chain": (n) => `p if { x ${rep(n, "with input as 1 ")}}`,
  "some in nested": (n) => `p if { ${nest(n, "[x|some x in ", "y", "]")} }`,
  "head ref and key": (n) => `p${rep(n, ".q")}[${nest(n, "[", "x", "]")}] := 1 if x`,
  "function head": (n) => `f(${nest(n, "[", "x", "]")}) := ${nest(n, "{", "1", "}")}`,
  "else chain": (n) => `p := ${nest(n, "[", "1", "]")} if x ${rep(n, "else := [[1]] if y ")}`,
  "rule from a call": () => `f(1)`,
  "rule without a body": () => `p if x`,
};

describe("compiler limits: the parser's nesting bound", () => {
  for (const [kind, statement] of Object.entries(dense)) {
    it(`${kind}: no deeper than its statement's length + ${OWN_LEVELS}`, () => {
      for (const n of [1, 2, 3, 10, 60]) {
        const text = statement(n).trimEnd();
        // the statement last, and before another one (its length measured up to the next)
        for (const after of ["", "q := 1\n"]) {
          const module = parseModule(`package p\nimport rego.v2\n${text}\n${after}`);
          expect(takeLongestStatement(module), `${kind} ${n} ${JSON.stringify(after)}`).to.be.at.least(text.length);
          for (const rule of module.rules) expect(ruleNesting(rule), `${kind} ${n}`).to.be.at.most(text.length + OWN_LEVELS);
        }
      }
    });
  }
});

describe("compiler limits: the same errors with or without the parser's bound", () => {
  const deep = `package p\np := 1${rep(MAX_NESTING + 10, "+1")}\n`;
  const nestingError = (modules: Module[]): string | undefined => {
    const e = compileModules(modules).errors[0];
    return e && `${e.code} ${e.message} ${e.location?.file}:${e.location?.row}:${e.location?.col}`;
  };

  it("a deep rule in a long statement is found", () => {
    const err = nestingError([parseModule(deep, { file: "a.rego" })]);
    expect(err).to.match(/^rego_compile_error policy nested too deeply.* a\.rego:2:/);
  });

  it("the densest shape just over the limit is found: the skip's threshold is not laxer than the bound", () => {
    // comprehension bodies, 4 characters for 3 levels: the shortest statement that nests too
    // deeply, well short of twice the limit in characters
    let n = 1;
    while (ruleNesting(parseModule(`package p\np := ${nest(n, "[x|", "1", "]")}\n`).rules[0]!) <= MAX_NESTING) n++;
    const text = `package p\np := ${nest(n, "[x|", "1", "]")}\nq := 1\n`;
    const module = parseModule(text, { file: "a.rego" });
    expect(takeLongestStatement(parseModule(text))).to.be.below(MAX_NESTING * 1.5);
    const err = nestingError([module]);
    expect(err).to.match(/^rego_compile_error policy nested too deeply.* a\.rego:2:/);
    expect(err).to.equal(nestingError([{ ...parseModule(text, { file: "a.rego" }) }]));
  });

  it("short statements: no error, and none for the same modules walked", () => {
    const shallow = `package p\np := ${nest(60, "[", "1", "]")}\nq := 1${rep(100, "+1")}\n`;
    expect(nestingError([parseModule(shallow)])).to.equal(undefined);
    const copy = { ...parseModule(shallow) }; // not the parser's module: walked
    expect(nestingError([copy])).to.equal(undefined);
  });

  it("a parsed module given other rules afterwards is walked", () => {
    const module = parseModule("package p\nq := 1\n", { file: "a.rego" });
    module.rules = parseModule(deep, { file: "b.rego" }).rules;
    const walked = nestingError([{ ...parseModule(deep, { file: "b.rego" }) }]);
    expect(nestingError([module])).to.equal(walked).and.to.match(/policy nested too deeply/);
  });

  it("the bound is used once: a module compiled again is walked", () => {
    const module = parseModule("package p\nq := 1\n");
    expect(nestingError([module])).to.equal(undefined);
    expect(takeLongestStatement(module)).to.equal(undefined);
    expect(nestingError([module])).to.equal(undefined);
  });
});
