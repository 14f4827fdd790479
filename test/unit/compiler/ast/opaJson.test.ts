// The export to OPA's AST JSON: layouts of each node, sorting of sets and objects, exact
// numbers, locations and comments.
import { expect } from "chai";

import { bodyToOpaJson, formatOpaJson, moduleToOpaJson, RawNumber, termToOpaJson, toJsonValue } from "../../../../compiler/ast/opaJson.js";
import { parseModule, parseQuery, parseTerm } from "../../../../compiler/syntax/index.js";

const json = (q: string, opts = {}) => formatOpaJson(bodyToOpaJson(parseQuery(q, opts)));
const term = (t: string) => formatOpaJson(termToOpaJson(parseTerm(t)));

describe("OPA AST JSON", () => {
  const cases: { note: string; got: () => string; want: string }[] = [
    { note: "null", got: () => term("null"), want: '{"type":"null","value":null}' },
    { note: "number text is kept", got: () => term("1.50e10"), want: '{"type":"number","value":1.50e10}' },
    { note: "a leading dot becomes valid JSON", got: () => term("[.5]"), want: '{"type":"array","value":[{"type":"number","value":0.5}]}' },
    { note: "sets are sorted and deduplicated", got: () => term('{"b", 2, "a", 2}'), want: '{"type":"set","value":[{"type":"number","value":2},{"type":"string","value":"a"},{"type":"string","value":"b"}]}' },
    {
      note: "objects are sorted by key",
      got: () => term('{"b": 1, "a": 2}'),
      want: '{"type":"object","value":[[{"type":"string","value":"a"},{"type":"number","value":2}],[{"type":"string","value":"b"},{"type":"number","value":1}]]}',
    },
    { note: "numbers sort by value", got: () => term("{10, 9.5, 1e1, -1}"), want: '{"type":"set","value":[{"type":"number","value":-1},{"type":"number","value":9.5},{"type":"number","value":10}]}' },
    { note: "some decl", got: () => json("some x"), want: '[{"index":0,"terms":{"symbols":[{"type":"var","value":"x"}]}}]' },
    {
      note: "every",
      got: () => json("every x in y { x }"),
      want: '[{"index":0,"terms":{"body":[{"index":0,"terms":{"type":"var","value":"x"}}],"domain":{"type":"var","value":"y"},"key":null,"value":{"type":"var","value":"x"}}}]',
    },
    {
      note: "with and negation",
      got: () => json("not x with input as 1"),
      want: '[{"index":0,"negated":true,"terms":{"type":"var","value":"x"},"with":[{"target":{"type":"ref","value":[{"type":"var","value":"input"}]},"value":{"type":"number","value":1}}]}]',
    },
    {
      note: "logical and with an explicit body",
      got: () => json("a and {b}", { allFutureKeywords: true }),
      want: '[{"index":0,"terms":{"explicit_rhs":true,"lhs":[{"index":0,"terms":{"type":"var","value":"a"}}],"rhs":[{"index":0,"terms":{"type":"var","value":"b"}}],"type":"and"}}]',
    },
    {
      note: "comprehension",
      got: () => term("[x | x := 1]"),
      want: '{"type":"arraycomprehension","value":{"body":[{"index":0,"terms":[{"type":"ref","value":[{"type":"var","value":"assign"}]},{"type":"var","value":"x"},{"type":"number","value":1}]}],"term":{"type":"var","value":"x"}}}',
    },
  ];
  for (const tc of cases) it(tc.note, () => expect(tc.got()).to.equal(tc.want));

  it("modules: package, imports, rules (head fields omitted when empty)", () => {
    const m = parseModule("package a\n\nimport data.b as c\n\ndefault p := 1\n");
    expect(formatOpaJson(moduleToOpaJson(m))).to.equal(
      '{"imports":[{"alias":"c","path":{"type":"ref","value":[{"type":"var","value":"data"},{"type":"string","value":"b"}]}}],' +
        '"package":{"path":[{"type":"var","value":"data"},{"type":"string","value":"a"}]},' +
        '"rules":[{"body":[{"index":0,"terms":{"type":"boolean","value":true}}],"default":true,"head":{"assign":true,"name":"p","ref":[{"type":"var","value":"p"}],"value":{"type":"number","value":1}}}]}',
    );
  });

  it("locations and comments as OPA writes them", () => {
    const m = parseModule("package a\n# hi\np := 1\n", { file: "a.rego" });
    const out = JSON.parse(formatOpaJson(moduleToOpaJson(m, { locations: true, locationText: true })));
    expect(out.package.location).to.deep.equal({ file: "a.rego", row: 1, col: 1, text: Buffer.from("package a").toString("base64") });
    expect(out.rules[0].head.value.location).to.deep.equal({ file: "a.rego", row: 3, col: 6, text: Buffer.from("1").toString("base64") });
    expect(out.comments).to.deep.equal([{ Text: Buffer.from(" hi").toString("base64"), Location: { file: "a.rego", row: 2, col: 1, text: Buffer.from("# hi").toString("base64") } }]);
    expect(moduleToOpaJson(m, { comments: false })).to.not.have.property("comments");
  });

  it("indents like JSON.stringify", () => {
    expect(formatOpaJson(termToOpaJson(parseTerm("[1]")), 2)).to.equal(JSON.stringify(JSON.parse(formatOpaJson(termToOpaJson(parseTerm("[1]")))), null, 2));
  });

  it("YAML values keep __proto__ as an ordinary key", () => {
    const v = toJsonValue(JSON.parse('{"__proto__": {"polluted": true}, "n": 1}'));
    expect(formatOpaJson(v)).to.equal('{"__proto__":{"polluted":true},"n":1}');
    expect(({} as { polluted?: boolean }).polluted).to.equal(undefined);
    expect(toJsonValue(12)).to.be.instanceOf(RawNumber);
  });
});
