// The parser's list stack (compiler/syntax/parser/lists.ts): every list built on it is taken or
// dropped, so a parse that fails or backtracks partway through nested lists leaves nothing on
// it. What an inner list left would turn up in the enclosing list being built when the parser
// backtracks and goes on (`{x | y, z}` is tried as a comprehension first); at the end of a parse
// the outermost list's own drop would hide it, so the lists here are checked by their contents.
import { expect } from "chai";
import type { Term } from "../../../../compiler/ast/nodes.js";
import { printRule } from "../../../../compiler/ast/print.js";
import { parseModule } from "../../../../compiler/syntax/index.js";
import { DepthExceeded } from "../../../../compiler/syntax/parser/core.js";
import { ListStack } from "../../../../compiler/syntax/parser/lists.js";
import { ModuleParser } from "../../../../compiler/syntax/parser/module.js";
import { Source } from "../../../../compiler/syntax/source.js";
import { futureKeywordsLogical, futureKeywordsV0, baseKeywords } from "../../../../compiler/syntax/token.js";

class TestParser extends ModuleParser {
  parseRefText(): Term | undefined {
    return undefined;
  }
  /** Items on the list stack now. */
  listsLeft(): number {
    return this.lists.mark();
  }
}

const keywords = new Map([...baseKeywords, ...futureKeywordsV0, ...futureKeywordsLogical]);

/** Parses `text`'s statements; what the list stack holds afterwards, and whether the parse failed. */
function leftAfter(text: string, maxDepth = 3000): { left: number; failed: boolean } {
  const parser = new TestParser(new Source("t.rego", text), { regoVersion: "v1", maxDepth }, keywords);
  let failed = false;
  try {
    parser.parseStatements(false);
  } catch (e) {
    if (!(e instanceof DepthExceeded)) throw e;
    failed = true;
  }
  return { left: parser.listsLeft(), failed: failed || parser.errorCount > 0 };
}

describe("syntax: the parser's list stack", () => {
  it("takes a list at its exact length, above and after an inner list dropped", () => {
    const s = new ListStack();
    const outer = s.mark();
    s.push(1);
    const inner = s.mark();
    s.push(2);
    s.push(3);
    s.drop(inner);
    s.push(4);
    const innerTaken = s.mark();
    s.push(5);
    expect(s.take<number>(innerTaken)).to.deep.equal([5]);
    const list = s.take<number>(outer);
    expect(list).to.deep.equal([1, 4]);
    expect(list.length).to.equal(2);
    expect(s.mark()).to.equal(0);
  });

  const failing = [
    "p := [1, {2: [3, f(4, x[5",
    "p := {1: 2, 3: [x | y, ",
    "p := {1: 2, 3: [x | y, ]]}",
    "p if { x with input as [1, ",
    "p if { x with input as [1] with",
    'p := $"{[1, 2, }"',
    'p := $"a{[1, f(2, $"{x"}"',
    "p if { some x, 1 }",
    "p := a.b[c.d(1, 2",
    "p := [x | x := [1, 2]; y := {3: [4,",
    "p if { every x in [1, 2] { [x, y, } }",
    "p := {{1, 2}: {3: 4,}, 5",
    "f([1, [2, 3]], x",
    "import data.a\np := 1\nq := [[[1, 2], 3], 4",
  ];

  it("holds nothing after a parse that fails inside nested lists", () => {
    for (const text of failing) {
      const { left, failed } = leftAfter(text);
      expect(failed, text).to.equal(true);
      expect(left, text).to.equal(0);
    }
  });

  it("holds nothing after the depth limit stops a parse", () => {
    const deep = `p := ${"[1, f(2, ".repeat(400)}`;
    expect(leftAfter(deep, 100)).to.deep.equal({ left: 0, failed: true });
  });

  it("a list built around a failed one holds exactly its own items", () => {
    // each `{x | y, z}` is a comprehension whose body fails at the comma, then a set; around it
    // a list of each kind goes on
    const cases: [string, string][] = [
      ["p := [0, {x | y, z}, 9]", "p := [0, {(x | y), z}, 9]"],
      ["p := {0: 1, 2: {x | y, z}, 3: 4}", "p := {0: 1, 2: {(x | y), z}, 3: 4}"],
      ["p := {0, {x | y, z}, 9}", "p := {0, {(x | y), z}, 9}"],
      ["p := f(0, {x | y, z}, 9)", "p := f(0, {(x | y), z}, 9)"],
      ["p := a[{x | y, z}][9]", "p := a[{(x | y), z}][9]"],
      ['p := $"{0}{{x | y, z}}{9}"', 'p := $"{0}{{(x | y), z}}{9}"'],
      ["p if { q with input as {x | y, z} with data.a as 9 }", "p if {\n\tq with input as {(x | y), z} with data.a as 9\n}"],
      ["p if { 0; {x | y, z}; 9 }", "p if {\n\t0\n\t{(x | y), z}\n\t9\n}"],
      ["p := [0, {x | {x | y, z}, z}, 9]", "p := [0, {(x | {(x | y), z}), z}, 9]"],
    ];
    for (const [text, want] of cases) expect(printRule(parseModule(`package p\n${text}\n`).rules[0]!), text).to.equal(want);
  });

  it("holds nothing after a parse that backtracks (sets, objects, comprehensions) and succeeds", () => {
    // `{x | y, z}` outside any list: the comprehension's body list, given up at the comma, is on
    // the stack with nothing below it whose own take or drop would hide it
    const text =
      "p := {x | y, z}\nq := {1, {x | x := [1, 2][_]}, {3: [4, 5]}, {6 | 7}}\nr contains {[1], [2, 3]} if { f(1, [2, {3}]) with input as [4] }\n";
    expect(leftAfter(text)).to.deep.equal({ left: 0, failed: false });
  });
});
