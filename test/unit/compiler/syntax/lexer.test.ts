// The lexer, token by token: types (by OPA's labels), literals, spans, and lexical errors.
import { expect } from "chai";

import { Lexer } from "../../../../compiler/syntax/lexer.js";
import { runFixture } from "../../../support/child.js";
import { baseKeywords, futureKeywordsV0, tt } from "../../../../compiler/syntax/token.js";

const v1Keywords = new Map([...baseKeywords, ...futureKeywordsV0]);

/** `label:lit` of each token up to eof (whitespace shown as `ws` / `ws+nl`). */
function lex(text: string, keywords = v1Keywords): string[] {
  const lx = new Lexer(text, keywords);
  const out: string[] = [];
  for (;;) {
    lx.next();
    if (lx.type === tt.eof) return out;
    if (lx.type === tt.whitespace) out.push(lx.nl ? "ws+nl" : "ws");
    else out.push(lx.error ? `${lx.type.label}!${lx.error}` : `${lx.type.label}:${lx.lit}`);
  }
}

const cases: { note: string; text: string; tokens: string[]; v0?: boolean }[] = [
  { note: "identifiers and digits", text: "a_1 _b", tokens: ["identifier:a_1", "ws", "identifier:_b"] },
  { note: "unicode digits continue an identifier", text: "x٣", tokens: ["identifier:x٣"] },
  { note: "base keywords", text: "package import as default else not some with null true false", tokens: "package import as default else not some with null true false".split(" ").flatMap((k, i) => (i === 0 ? [`${k}:${k}`] : ["ws", `${k}:${k}`])) },
  { note: "v1 keywords", text: "if contains in every", tokens: ["if:if", "ws", "contains:contains", "ws", "in:in", "ws", "every:every"] },
  { note: "v0: future keywords are identifiers", text: "if in", v0: true, tokens: ["identifier:if", "ws", "identifier:in"] },
  { note: "and/or are identifiers until imported", text: "and or", tokens: ["identifier:and", "ws", "identifier:or"] },
  { note: "integers, decimals, exponents", text: "0 42 3.14 1e6 2.5E-3 12345678901234567890", tokens: ["number:0", "ws", "number:42", "ws", "number:3.14", "ws", "number:1e6", "ws", "number:2.5E-3", "ws", "number:12345678901234567890"] },
  { note: "a leading dot is its own token", text: ".5", tokens: [".:.", "number:5"] },
  { note: "minus is an operator token", text: "-1", tokens: ["minus:-", "number:1"] },
  { note: "strings keep their quotes and escapes", text: '"a\\"b\\u00e9"', tokens: ['string:"a\\"b\\u00e9"'] },
  { note: "raw strings span lines", text: "`a\nb`", tokens: ["string:`a\nb`"] },
  {
    note: "operators (labelled with OPA's operator names)",
    text: ":= = == != < <= > >= + - * / % & |",
    tokens: ["assign::=", "eq:=", "equal:==", "neq:!=", "lt:<", "lte:<=", "gt:>", "gte:>=", "plus:+", "minus:-", "mul:*", "div:/", "rem:%", "and:&", "or:|"].flatMap((t, i) =>
      i === 0 ? [t] : ["ws", t],
    ),
  },
  { note: "punctuation", text: "[]{}(),:;.", tokens: ["[:[", "]:]", "{:{", "}:}", "(:(", "):)", ",:,", ":::", ";:;", ".:."] },
  { note: "comments end at the line break (without \\r)", text: "x # hi\r\ny", tokens: ["identifier:x", "ws", "comment:# hi", "ws+nl", "identifier:y"] },
  { note: "whitespace runs are one token", text: "a \t\r\n b", tokens: ["identifier:a", "ws+nl", "identifier:b"] },
  // (after the `}`, the parser asks for the next part: see "continues a template string" below)
  { note: "template string parts", text: '$"a {x}', tokens: ['template-string-part:"a {', "identifier:x", "}:}"] },
  { note: "template escapes drop the backslash before {", text: '$"\\{x}"', tokens: ['template-string-end:"{x}"'] },
  { note: "raw template", text: "$`a\n{", tokens: ["raw-template-string-part:`a\n{"] },
  { note: "error: unterminated string", text: '"abc', tokens: ["illegal!non-terminated string"] },
  { note: "error: string cut by a newline", text: '"a\nb"', tokens: ["illegal!non-terminated string", "ws+nl", "identifier:b", "illegal!non-terminated string"] },
  { note: "error: bad escape", text: '"\\q"', tokens: ["illegal!illegal escape sequence"] },
  { note: "error: fraction", text: "1.", tokens: ["illegal!expected fraction"] },
  { note: "error: exponent", text: "1e+", tokens: ["illegal!expected exponent"] },
  { note: "error: letters after digits", text: "0a2b c", tokens: ["illegal!illegal number format", "ws", "identifier:c"] },
  { note: "error: lone !", text: "!", tokens: ["illegal!illegal ! character"] },
  { note: "error: lone $", text: "$x", tokens: ["illegal!illegal $ character", "identifier:x"] },
  { note: "error: NUL", text: "\u0000", tokens: ["illegal!illegal null character"] },
  { note: "error: BOM inside", text: "a\uFEFF", tokens: ["identifier:a", "illegal!illegal byte-order mark"] },
  { note: "error: lone surrogate", text: "\uD800", tokens: ["illegal!illegal utf-8 character"] },
  { note: "unknown characters are illegal tokens", text: "@é", tokens: ["illegal:@", "illegal:é"] },
];

describe("lexer", () => {
  for (const tc of cases) {
    it(tc.note, () => {
      const kws = tc.v0 ? new Map(baseKeywords) : v1Keywords;
      const got = lex(tc.text, kws);
      expect(got).to.deep.equal(tc.tokens);
    });
  }

  it("skips a byte-order mark at the start", () => {
    expect(lex("\uFEFFx")).to.deep.equal(["identifier:x"]);
  });

  it("reports token spans as UTF-16 offsets", () => {
    const lx = new Lexer('ab "é😀" c', v1Keywords);
    const spans: [number, number][] = [];
    for (lx.next(); lx.type !== tt.eof; lx.next()) if (lx.type !== tt.whitespace) spans.push([lx.start, lx.end]);
    expect(spans).to.deep.equal([
      [0, 2],
      [3, 8],
      [9, 10],
    ]);
  });

  it("continues a template string after an expression", () => {
    const lx = new Lexer('$"a{x}b{y}c"', v1Keywords);
    lx.next();
    expect([lx.type, lx.lit]).to.deep.equal([tt.templatePart, '"a{']);
    lx.next(); // x
    lx.next(); // }
    expect(lx.type).to.equal(tt.braceR);
    lx.nextTemplatePart(false);
    expect([lx.type, lx.lit]).to.deep.equal([tt.templatePart, "}b{"]);
    lx.next();
    lx.next();
    lx.nextTemplatePart(false);
    expect([lx.type, lx.lit]).to.deep.equal([tt.templateEnd, '}c"']);
  });

  it("dropped sources are not kept alive by the name table the lexers share", async function () {
    this.timeout(120_000);
    const { status, stdout, stderr } = await runFixture(new URL("fixtures/names.ts", import.meta.url), ["--expose-gc"]);
    expect(status, stderr).to.equal(0);
    const r = JSON.parse(stdout) as { growthBytes: number; sourceBytes: number; rounds: number };
    // Kept sources would grow the heap by rounds x the source's size (20 MB); new names in the
    // table cost bytes each.
    expect(r.growthBytes, `heap grew ${r.growthBytes} bytes over ${r.rounds} parsed and dropped ${r.sourceBytes}-byte sources`).to.be.below(4 * r.sourceBytes);
  });
});
