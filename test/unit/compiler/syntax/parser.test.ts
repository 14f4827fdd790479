// The parser's behaviour, table-driven: what each construct parses to (shown as the canonical
// Rego the printer writes back, or as OPA's AST JSON), which version accepts what, and where
// nodes are located.
import { expect } from "chai";

import type { Expr, Head, Module, Rule, Term } from "../../../../compiler/ast/nodes.js";
import { bodyToOpaJson, formatOpaJson, termToOpaJson } from "../../../../compiler/ast/opaJson.js";
import { printBody, printRule, printTerm } from "../../../../compiler/ast/print.js";
import { parseModule, parseModuleResult, parseQuery, parseTerm } from "../../../../compiler/syntax/index.js";

const P = "package test\n\n";

function rules(src: string, v0 = false): string[] {
  return parseModule(P + src, { regoVersion: v0 ? "v0" : "v1" }).rules.map(printRule);
}

function headOf(src: string, v0 = false): Pick<Head, "name" | "assign" | "generatedValue" | "keywords"> & { ref: string; key?: string; value?: string; args?: string[] } {
  const h = parseModule(P + src, { regoVersion: v0 ? "v0" : "v1" }).rules[0]!.head;
  return {
    ...(h.name !== undefined ? { name: h.name } : {}),
    ref: h.reference.map((t) => printTerm(t)).join(" "),
    ...(h.args ? { args: h.args.map((t) => printTerm(t)) } : {}),
    ...(h.key ? { key: printTerm(h.key) } : {}),
    ...(h.value ? { value: printTerm(h.value) } : {}),
    assign: h.assign,
    generatedValue: h.generatedValue,
    keywords: h.keywords,
  };
}

/** [code, row, col, message] of each error a parse reports. */
function errorsOf(r: { errors: { code: string; location?: { row: number; col: number }; message: string }[] }): [string, number?, number?, string?][] {
  return r.errors.map((e) => [e.code, e.location?.row, e.location?.col, e.message]);
}

describe("parser", () => {
  describe("rules (printed back as canonical v1 Rego)", () => {
    const cases: { note: string; src: string; v0?: boolean; want: string[] }[] = [
      { note: "complete rule", src: "p := 1", want: ["p := 1"] },
      { note: "`=` value", src: "p = 1", want: ["p = 1"] },
      { note: "rule with body", src: "p if { x := 1; x > 0 }", want: ["p if {\n\tx := 1\n\tx > 0\n}"] },
      { note: "`if` with one expression", src: "p if input.x", want: ["p if {\n\tinput.x\n}"] },
      { note: "partial set", src: "p contains x if { some x in [1] }", want: ["p contains x if {\n\tsome x in [1]\n}"] },
      { note: "partial set without body", src: 'p contains "a"', want: ['p contains "a"'] },
      { note: "partial object", src: "p[k] := v if { some k, v in {} }", want: ["p[k] := v if {\n\tsome k, v in {}\n}"] },
      { note: "ref head", src: "a.b.c := 1", want: ["a.b.c := 1"] },
      { note: "function", src: "f(x, y) := x + y", want: ["f(x, y) := x + y"] },
      { note: "function with body", src: "f(x) := y if { y := x * 2 }", want: ["f(x) := y if {\n\ty := x * 2\n}"] },
      { note: "default", src: "default allow := false", want: ["default allow := false"] },
      { note: "default function", src: "default f(_) := 0", want: ["default f(_) := 0"] },
      { note: "else chain", src: "p := 1 if { false } else := 2 if { false } else := 3", want: ["p := 1 if {\n\tfalse\n} else := 2 if {\n\tfalse\n} else := 3"] },
      { note: "several bodies", src: "p if { a } { b }", want: ["p if {\n\ta\n}", "p if {\n\tb\n}"] },
      { note: "v0: rule from body: ref", src: "a.b.c", v0: true, want: ["a.b.c"] },
      { note: "rule from body: function call", src: "f(1)", want: ["f(1) = true"] },
      { note: "v0: partial set", src: "p[x] { x := 1 }", v0: true, want: ["p contains x if {\n\tx := 1\n}"] },
      { note: "v0: rule without if", src: "p { true }", v0: true, want: ["p if {\n\ttrue\n}"] },
      { note: "v0: bodiless partial set", src: "p[1]", v0: true, want: ["p contains 1"] },
      { note: "v0 with import rego.v1", src: "import rego.v1\n\np contains 1 if { true }", v0: true, want: ["p contains 1 if {\n\ttrue\n}"] },
      // `if {` then `some`/`every` opens a body at once; leading a ref, they are terms again
      { note: "body opening with `every`", src: "p if { every x in [1] { x } }", want: ["p if {\n\tevery x in [1] {\n\t\tx\n\t}\n}"] },
      // (an object: `some`/`every` leading a ref do not open a body at once)
      { note: "body opening with the ref `some.x`", src: "p if { some.x: 1 }", want: ["p if {\n\t{some.x: 1}\n}"] },
      // (an object: only a name followed by `:=` opens a body at once)
      { note: "body opening with a name, not `:=`", src: "p if { x: 1 }", want: ["p if {\n\t{x: 1}\n}"] },
      { note: "body opening with `some` and the logical keywords", src: "import future.keywords.and\n\np if { some x in [1] } and { true }", want: ["p if {\n\t{some x in [1]} and {true}\n}"] },
      // so does a var then `:=` (no set or object element goes on with `:=`)
      { note: "body opening with `x :=`", src: "p if { x := 1\n\tx > 0 }", want: ["p if {\n\tx := 1\n\tx > 0\n}"] },
      { note: "body opening with `x :=` and the logical keywords", src: "import future.keywords.or\n\np if { x := 1 } or { x := 2 }", want: ["p if {\n\t{x := 1} or {x := 2}\n}"] },
      { note: "body of a var alone (not the set `{x}`)", src: "p if { x }", want: ["p if {\n\tx\n}"] },
    ];
    for (const tc of cases) it(tc.note, () => expect(rules(tc.src, tc.v0)).to.deep.equal(tc.want));
  });

  describe("heads", () => {
    const cases: { note: string; src: string; v0?: boolean; want: ReturnType<typeof headOf> }[] = [
      { note: "p := 1", src: "p := 1", want: { name: "p", ref: "p", value: "1", assign: true, generatedValue: false, keywords: [] } },
      { note: "p if", src: "p if { true }", want: { name: "p", ref: "p", value: "true", assign: false, generatedValue: true, keywords: ["if"] } },
      { note: "p contains x", src: "p contains x if { x := 1 }", want: { name: "p", ref: "p", key: "x", assign: false, generatedValue: false, keywords: ["contains", "if"] } },
      { note: "p[x] if: the var is the key too", src: "p[x] if { x := 1 }", want: { ref: "p x", key: "x", value: "true", assign: false, generatedValue: true, keywords: ["if"] } },
      { note: 'p["a"] if: a ground key is not', src: 'p["a"] if { true }', want: { ref: 'p "a"', value: "true", assign: false, generatedValue: true, keywords: ["if"] } },
      { note: "p[x] := y if", src: "p[x] := y if { x := 1; y := 2 }", want: { name: "p", ref: "p x", key: "x", value: "y", assign: true, generatedValue: false, keywords: ["if"] } },
      { note: "a.b[x] contains y", src: "a.b[x] contains y if { x := 1; y := 2 }", want: { ref: 'a "b" x', key: "y", assign: false, generatedValue: false, keywords: ["contains", "if"] } },
      { note: "v0 p[x] {}", src: "p[x] { x := 1 }", v0: true, want: { name: "p", ref: "p", key: "x", assign: false, generatedValue: false, keywords: [] } },
      { note: "v0 p[k] = v {}", src: "p[k] = v { k := 1; v := 2 }", v0: true, want: { name: "p", ref: "p k", key: "k", value: "v", assign: false, generatedValue: false, keywords: [] } },
      { note: "f(x) := y", src: "f(x) := y if { y := x }", want: { name: "f", ref: "f", args: ["x"], value: "y", assign: true, generatedValue: false, keywords: ["if"] } },
      { note: "a.b.f(x)", src: "a.b.f(x) := 1", want: { ref: 'a "b" "f"', args: ["x"], value: "1", assign: true, generatedValue: false, keywords: [] } },
    ];
    for (const tc of cases) it(tc.note, () => expect(headOf(tc.src, tc.v0)).to.deep.equal(tc.want));
  });

  describe("expressions (queries, printed back)", () => {
    const cases: { note: string; query: string; want: string; opts?: { allFutureKeywords?: boolean; futureKeywords?: string[]; regoVersion?: "v0" } }[] = [
      { note: "unification", query: "data.test.p = x", want: "data.test.p = x" },
      { note: "assignment and comparison", query: "x := input.a; x > 1", want: "x := input.a; x > 1" },
      { note: "precedence", query: "x := 1 + 2 * 3 - 4 / 5 % 6", want: "x := 1 + 2 * 3 - 4 / 5 % 6" },
      { note: "parentheses kept where needed", query: "x := (1 + 2) * 3", want: "x := (1 + 2) * 3" },
      { note: "left associativity", query: "x := 1 - (2 - 3)", want: "x := 1 - (2 - 3)" },
      { note: "set operators", query: "x := a | b & c", want: "x := a | b & c" },
      { note: "membership", query: "x in xs", want: "x in xs" },
      { note: "key/value membership", query: "k, v in xs", want: "k, v in xs" },
      { note: "some in", query: "some k, v in input.x", want: "some k, v in input.x" },
      { note: "some vars", query: "some x, y", want: "some x, y" },
      { note: "every", query: "every x in [1, 2] { x > 0 }", want: "every x in [1, 2] {\n\tx > 0\n}" },
      { note: "not", query: "not input.deny", want: "not input.deny" },
      { note: "with chain", query: "data.p with input as {} with data.q as 1", want: "data.p with input as {} with data.q as 1" },
      { note: "dotted builtin call", query: 'json.marshal({"a": 1})', want: 'json.marshal({"a": 1})' },
      { note: "comprehensions", query: "a := [x | x := 1]; s := {x | x := 1}; o := {k: v | k := 1; v := 2}", want: "a := [x | x := 1]; s := {x | x := 1}; o := {k: v | k := 1; v := 2}" },
      { note: "set() and empty object", query: "x := set(); y := {}", want: "x := set(); y := {}" },
      { note: "wildcards print as _", query: "x := input[_][_]", want: "x := input[_][_]" },
      { note: "unary minus", query: "x := -1; y := 1 - -2", want: "x := -1; y := 1 - -2" },
      { note: "template string", query: 'x := $"a {input.y} \\{b}"', want: 'x := $"a {input.y} \\{b}"' },
      { note: "and / or (imported)", query: "a and b or c and not d", want: "a and b or c and not d", opts: { allFutureKeywords: true } },
      { note: "explicit operand bodies", query: "a or {b; c}", want: "a or {b; c}", opts: { allFutureKeywords: true } },
      { note: "not group", query: "not (a or b)", want: "not (a or b)", opts: { allFutureKeywords: true } },
      { note: "groups in groups", query: "((a or b)) and not (not (c or d))", want: "(a or b) and not (not (c or d))", opts: { allFutureKeywords: true } },
      { note: "a parenthesized term is not a group", query: "not (x) == y", want: "not x == y", opts: { allFutureKeywords: true } },
      { note: "`with` on a parenthesized operand", query: "(a with input as x) and b", want: "(a with input as x) and b", opts: { allFutureKeywords: true } },
      { note: "`with` on a parenthesized operand, mid-chain", query: "a and (b with input as v) and c", want: "a and (b with input as v) and c", opts: { allFutureKeywords: true } },
      { note: "`with` on a negated parenthesized operand", query: "not (a with input as x)", want: "not (a with input as x)", opts: { allFutureKeywords: true } },
      { note: "a negation in parentheses is an operand", query: "(not a) and b", want: "not a and b", opts: { futureKeywords: ["and"] } },
      { note: "a union leading an operand body keeps its parentheses", query: "{(a | b); c} or x", want: "{(a | b); c} or x", opts: { allFutureKeywords: true } },
      { note: "`with` inside a group binds to the group", query: "(a and b with input as x)", want: "a and b with input as x", opts: { allFutureKeywords: true } },
    ];
    for (const tc of cases) it(tc.note, () => expect(printBody(parseQuery(tc.query, tc.opts ?? {}))).to.equal(tc.want));
  });

  describe("what is rewritten at parse time (OPA's AST JSON)", () => {
    const json = (query: string) => formatOpaJson(bodyToOpaJson(parseQuery(query)));
    it("binary operators become calls", () => {
      expect(json("1 + x")).to.equal('[{"index":0,"terms":[{"type":"ref","value":[{"type":"var","value":"plus"}]},{"type":"number","value":1},{"type":"var","value":"x"}]}]');
    });
    it("`x in xs` becomes internal.member_2", () => {
      expect(json("x in xs")).to.contain('{"type":"var","value":"internal"},{"type":"string","value":"member_2"}');
    });
    it("wildcards become $0, $1, ...", () => {
      expect(json("a[_] = b[_]")).to.contain('"$0"').and.to.contain('"$1"');
    });
    it("numbers keep their text", () => {
      expect(formatOpaJson(termToOpaJson(parseTerm("12345678901234567890123")))).to.equal('{"type":"number","value":12345678901234567890123}');
      expect(formatOpaJson(termToOpaJson(parseTerm("1e6")))).to.equal('{"type":"number","value":1e6}');
      expect(parseTerm("-0.50").value).to.equal("-0.50");
    });
    it("strings are unescaped", () => {
      expect(parseTerm('"a\\n\\u00e9\\"b"').value).to.equal('a\né"b');
      expect(parseTerm("`a\\nb`").value).to.equal("a\\nb");
    });
    it("bare data and input become refs", () => {
      expect(parseTerm("input").type).to.equal("ref");
      expect(parseTerm("data").type).to.equal("ref");
      expect(parseTerm("x").type).to.equal("var");
    });
    it("the package path is prefixed with data", () => {
      const m = parseModule("package a.b\n");
      expect(m.package.path.map((t) => `${t.type}:${t.value}`)).to.deep.equal(["var:data", "string:a", "string:b"]);
    });
    it("set() is the empty set, set(x) a call", () => {
      expect(parseTerm("set()").type).to.equal("set");
      expect(parseTerm("[set(x)]").value).to.have.nested.property("[0].type", "call");
    });
    it("keywords may be ref operands and ref heads", () => {
      expect(printTerm(parseTerm("input.in.not"))).to.equal("input.in.not");
      expect(printBody(parseQuery("not.foo"))).to.equal("not.foo");
    });
    it("an input term parses as one term", () => {
      const t = parseTerm('{"a": {1, 2}, "b": set()}');
      expect(t.type).to.equal("object");
    });
  });

  describe("versions", () => {
    it("a body opening with `x :=` reports its own errors", () => {
      expect(errorsOf(parseModuleResult(P + "p if { x := }"))).to.deep.equal([["rego_parse_error", 3, 13, "unexpected } token"]]);
    });
    it("v1 is the default: `if` and `contains` are keywords", () => {
      expect(parseModuleResult(P + "p contains 1 if { true }").errors).to.deep.equal([]);
    });
    it("v0 takes `p[x] { }` and `p { }`", () => {
      const m = parseModule(P + "p[x] { x := 1 }\nq { true }", { regoVersion: "v0" });
      expect(m.regoVersion).to.equal("v0");
      expect(m.rules.length).to.equal(2);
    });
    it("v0 imports future keywords", () => {
      const m = parseModule(P + "import future.keywords.in\n\np { 1 in [1] }", { regoVersion: "v0" });
      expect(printRule(m.rules[0]!)).to.equal("p if {\n\t1 in [1]\n}");
    });
    it("v0 with rego.v1 is checked as v1", () => {
      const r = parseModuleResult(P + "import rego.v1\n\np { true }", { regoVersion: "v0" });
      expect(errorsOf(r)).to.deep.equal([["rego_parse_error", 5, 1, "`if` keyword is required before rule body"]]);
      expect(parseModule(P + "import rego.v1\n\np if { true }", { regoVersion: "v0" }).regoVersion).to.equal("v0v1");
    });
    it("rego.v2 is rego.v1 plus the logical keywords", () => {
      const v0 = parseModule(P + "import rego.v2\n\np if { a or b }", { regoVersion: "v0" });
      expect(v0.regoVersion).to.equal("v0v1");
      expect(printRule(v0.rules[0]!)).to.equal("p if {\n\ta or b\n}");
      expect(errorsOf(parseModuleResult(P + "import rego.v2\n\np { true }", { regoVersion: "v0" }))).to.deep.equal([
        ["rego_parse_error", 5, 1, "`if` keyword is required before rule body"],
      ]);
      const v1 = parseModule(P + "import rego.v2\n\np if { a and not (b or c) }");
      expect(v1.regoVersion).to.equal("v1");
      expect(printRule(v1.rules[0]!)).to.equal("p if {\n\ta and not (b or c)\n}");
      // and so does the query option
      expect(printBody(parseQuery("a or b", { futureKeywords: ["rego.v2"] }))).to.equal("a or b");
    });
    it("and/or need importing", () => {
      // without the import, `and(a, b)` is the builtin `and` (what `a & b` calls)
      expect(printBody(parseQuery("and(a, b)"))).to.equal("a & b");
      const m = parseModule(P + "import future.keywords.or\n\np if { a or b }");
      const t = m.rules[0]!.body[0]!.terms;
      expect(!Array.isArray(t) && t.type).to.equal("or");
    });
  });

  describe("`not` with future.keywords.not", () => {
    const body = (src: string) => parseModule(P + "import future.keywords.and\nimport future.keywords.not\n\np if {\n\t" + src + "\n}\n").rules[0]!.body;
    const json = (src: string) => formatOpaJson(bodyToOpaJson(body(src)));
    it("a negated expression is the implicit body of a `not`", () => {
      expect(json("not x == 1")).to.equal(
        '[{"index":0,"terms":{"body":[{"index":0,"terms":[{"type":"ref","value":[{"type":"var","value":"equal"}]},{"type":"var","value":"x"},{"type":"number","value":1}]}],"explicit_body":false,"type":"not"}}]',
      );
      // without the import it stays a negated expression
      expect(formatOpaJson(bodyToOpaJson(parseQuery("not x")))).to.equal('[{"index":0,"negated":true,"terms":{"type":"var","value":"x"}}]');
    });
    it("`with` after it modifies the `not`", () => {
      const [e] = body("not x with input as 1");
      expect(e!.with.length).to.equal(1);
      expect((e!.terms as { type: string }).type).to.equal("not");
      expect(printBody([e!])).to.equal("not x with input as 1");
    });
    it("`some` and `every` still cannot be negated", () => {
      const r = parseModuleResult(P + "import future.keywords.not\n\np if {\n\tnot some x\n}\n");
      expect(errorsOf(r)).to.deep.equal([["rego_parse_error", 6, 6, "unexpected some keyword: illegal negation of 'some'"]]);
    });
    it("a statement's body expression is placed at `not`, an operand's at its own start (as OPA)", () => {
      const [stmt] = body("not f(1)");
      const t = stmt!.terms as { type: "not"; body: Expr[]; location: { col: number } };
      expect([stmt!.location.col, t.location.col, t.body[0]!.location.col]).to.deep.equal([2, 2, 2]);
      const [chain] = body("x == 1 and not x == 2");
      const rhs = (chain!.terms as { rhs: Expr[] }).rhs[0]!;
      const inner = (rhs.terms as { body: Expr[] }).body[0]!;
      expect([rhs.location.col, inner.location.col]).to.deep.equal([13, 17]);
    });
  });

  describe("group locations", () => {
    const body = (src: string) => parseModule(P + "import future.keywords.and\nimport future.keywords.or\n\np if {\n\t" + src + "\n}\n").rules[0]!.body;
    it("a statement that is a group is at its parenthesis", () => {
      expect(body("(x or y)")[0]!.location.col).to.equal(2);
    });
    it("a group operand is at its first operand (as OPA)", () => {
      const t = body("(x or y) and (u or v)")[0]!.terms as { lhs: Expr[]; rhs: Expr[] };
      expect([t.lhs[0]!.location.col, t.rhs[0]!.location.col]).to.deep.equal([3, 16]);
    });
  });

  describe("locations", () => {
    const m: Module = parseModule(P + "p := 1\n\nq if {\n\tx := input.a + 2\n\tnot y\n}\n", { file: "f.rego" });
    const at = (n: { location: { row: number; col: number; text: string; file: string } }) => [n.location.file, n.location.row, n.location.col, n.location.text];
    it("rules", () => {
      expect(at(m.rules[0]!)).to.deep.equal(["f.rego", 3, 1, "p := 1"]);
      expect(at(m.rules[1]!)).to.deep.equal(["f.rego", 5, 1, "q if {\n\tx := input.a + 2\n\tnot y\n}"]);
    });
    it("heads and values", () => {
      const r: Rule = m.rules[0]!;
      expect(at(r.head)).to.deep.equal(["f.rego", 3, 1, "p := 1"]);
      expect(at(r.head.value!)).to.deep.equal(["f.rego", 3, 6, "1"]);
    });
    it("expressions and terms", () => {
      const [e1, e2] = m.rules[1]!.body as [Expr, Expr];
      expect(at(e1)).to.deep.equal(["f.rego", 6, 2, "x := input.a + 2"]);
      const [, lhs, rhs] = e1.terms as Term[];
      expect(at(lhs!)).to.deep.equal(["f.rego", 6, 2, "x"]);
      expect(at(rhs!)).to.deep.equal(["f.rego", 6, 7, "input.a + 2"]);
      expect(at(e2)).to.deep.equal(["f.rego", 7, 2, "not y"]);
    });
    it("columns count code points", () => {
      const t = parseModule(P + 'p := ["é😀", x]').rules[0]!.head.value as Term & { type: "array" };
      expect([t.value[1]!.location.row, t.value[1]!.location.col]).to.deep.equal([3, 13]);
    });
    it("comments are kept with their locations", () => {
      const c = parseModule(P + "# hello\np := 1 # there\n").comments;
      expect(c.map((x) => [x.text, x.location.row, x.location.col])).to.deep.equal([
        [" hello", 3, 1],
        [" there", 4, 8],
      ]);
    });
  });

  describe("METADATA annotations", () => {
    const src = `# METADATA
# title: The package
# description: Rules about things.
package test

# METADATA
# title: Allow
# entrypoint: true
# authors:
# - Jane Doe <jane@example.com>
# custom:
#   severity: high
allow if { true }
`;
    it("are parsed as YAML and attached to what follows", () => {
      const m = parseModule(src);
      expect(m.annotations.map((a) => [a.scope, a.title, a.target?.type])).to.deep.equal([
        ["package", "The package", "package"],
        ["document", "Allow", "rule"],
      ]);
      const a = m.annotations[1]!;
      expect(a.entrypoint).to.equal(true);
      expect(a.authors).to.deep.equal([{ name: "Jane Doe", email: "jane@example.com" }]);
      expect({ ...a.custom }).to.deep.equal({ severity: "high" });
      expect(m.rules[0]!.annotations.length).to.equal(1);
    });
    it("report a scope that does not fit", () => {
      const r = parseModuleResult("# METADATA\n# scope: rule\npackage test\n");
      expect(errorsOf(r)).to.deep.equal([["rego_parse_error", 1, 1, "annotation scope 'rule' must be applied to rule (have package)"]]);
    });
    it("leave a key with no value empty, as OPA does", () => {
      // OPA decodes the block with yaml.v3 into a struct of typed fields; a null leaves its field
      // at the zero value (no title, scope chosen by the target, entrypoint false, no lists).
      const keys = ["related_resources", "authors", "organizations", "schemas", "title", "description", "scope", "entrypoint", "custom"];
      for (const key of keys) {
        const title = key === "title" ? "description: a text" : "title: a title";
        const r = parseModuleResult(`# METADATA\n# ${title}\n# ${key}:\npackage repro\n\ntest_p if true\n`);
        expect(errorsOf(r), key).to.deep.equal([]);
        const a = r.module!.annotations[0]!;
        expect([a.scope, a.title, a.entrypoint, a.relatedResources, a.authors, a.organizations, a.schemas], key).to.deep.equal([
          "package",
          key === "title" ? undefined : "a title",
          false,
          undefined,
          undefined,
          undefined,
          undefined,
        ]);
      }
    });
    it("decode null items as OPA does: an empty organization, a schema item without a path", () => {
      const orgs = parseModuleResult("# METADATA\n# organizations:\n# - null\n# - acme\npackage p\n");
      expect(orgs.module!.annotations[0]!.organizations).to.deep.equal(["", "acme"]);
      for (const item of ["null", "{}"]) {
        const r = parseModuleResult(`# METADATA\n# schemas:\n# - ${item}\npackage p\n`);
        expect(errorsOf(r).map((e) => e[3])).to.deep.equal(["invalid document reference"]);
      }
    });
    it("report YAML errors", () => {
      const r = parseModuleResult("package test\n\n# METADATA\n# title: [unclosed\np := 1\n");
      // at the comment the YAML error's line points into (as OPA), with the YAML library's message
      expect(errorsOf(r).map(([code, row, col]) => [code, row, col])).to.deep.equal([["rego_parse_error", 4, 1]]);
      expect(r.errors[0]!.message).to.match(/^yaml: line/);
    });
  });
});
