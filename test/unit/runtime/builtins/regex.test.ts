import { expect } from "chai";
import { builtinErr, builtinError, callBuiltin, registersLikeOpa, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

describe("builtins: regex", () => {
  registersLikeOpa(/^(regex\.|re_match$)/);

  describe("regex.match / re_match", () => {
    const cases: BuiltinCase[] = [
      { note: "positive", args: ["^[a-z]+\\[[0-9]+\\]$", "foo[1]"], want: true },
      { note: "empty anchored", args: ["^$", ""], want: true },
      { note: "empty pattern matches anything", args: ["", "x"], want: true },
      { note: "negative", args: ["^$", "something"], want: false },
      { note: "unanchored search", args: ["b+", "abbbc"], want: true },
      { note: "RE2 classes are ASCII: \\w does not match é", args: ["^\\w+$", "héllo"], want: false },
      { note: "unicode classes", args: ["^\\pL+$", "héllo"], want: true },
      { note: "dot matches one code point, not one UTF-16 unit", args: ["^.$", "😀"], want: true },
      { note: "case-insensitive flag", args: ["(?i)^abc$", "ABC"], want: true },
      { note: "named group (?P<name>)", args: ["(?P<x>a)b", "ab"], want: true },
      { note: "named group (?<name>)", args: ["(?<x>a)b", "ab"], want: true },
      { note: "POSIX class", args: ["^[[:alpha:]]+$", "abc"], want: true },
      { note: "\\Q...\\E quoting", args: ["^\\Q.*\\E$", ".*"], want: true },
      { note: "dot does not match newline by default", args: ["^a.b$", "a\nb"], want: false },
      { note: "(?s) lets dot match newline", args: ["(?s)^a.b$", "a\nb"], want: true },
      { note: "bad pattern", args: ["$^[[[", "something"], error: builtinErr("error parsing regexp: missing closing ]: `[[[`") },
      { note: "lookahead is not RE2", args: ["a(?=b)", "ab"], error: builtinErr("error parsing regexp: invalid or unsupported Perl syntax: `(?=`") },
      { note: "backreference is not RE2", args: ["(a)\\1", "aa"], error: builtinErr("error parsing regexp: invalid escape sequence: `\\1`") },
      { note: "trailing backslash", args: ["a\\", "a"], error: builtinErr("error parsing regexp: trailing backslash at end of expression: ``") },
      { note: "repeat count too large", args: ["a{1001}", "a"], error: builtinErr("error parsing regexp: invalid repeat count: `{1001}`") },
      { note: "missing argument to repetition", args: ["++", "a"], error: builtinErr("error parsing regexp: missing argument to repetition operator: `+`") },
      { note: "pattern not a string", args: [1, "a"], error: typeErr("operand 1 must be string but got number") },
      { note: "value not a string", args: ["a", null], error: typeErr("operand 2 must be string but got null") },
    ];
    runCases("regex.match", cases);
    runCases(
      "re_match",
      cases.slice(0, 2).map((c) => ({ ...c, note: `re_match: ${c.note}` })),
    );
  });

  describe("regex.is_valid", () => {
    runCases("regex.is_valid", [
      { note: "good pattern", args: [".+"], want: true },
      { note: "bad pattern", args: ["++"], want: false },
      { note: "unclosed group", args: ["(a"], want: false },
      { note: "non-string is false, not an error", args: [10], want: false },
    ]);
  });

  describe("regex.find_n", () => {
    runCases("regex.find_n", [
      { note: "all matches", args: ["a.", "paranormal", -1], want: ["ar", "an", "al"] },
      { note: "two matches", args: ["a.", "paranormal", 2], want: ["ar", "an"] },
      { note: "zero matches asked", args: ["a.", "paranormal", 0], want: [] },
      { note: "anchored start", args: ["^a.", "abacadaeaf", -1], want: ["ab"] },
      { note: "anchored end", args: [".$", "abacadaeaf", -1], want: ["f"] },
      { note: "non-overlapping", args: ["[abcdef]{2}", "abacadaeaf", -1], want: ["ab", "ac", "ad", "ae", "af"] },
      { note: "no match", args: ["bork", "paranormal", -1], want: [] },
      { note: "empty matches advance one code point", args: ["", "h😀", -1], want: ["", "", ""] },
      { note: "empty match not allowed right after a match", args: ["a*", "baaac", -1], want: ["", "aaa", ""] },
      { note: "n must be an integer", args: ["a", "a", 1.5], error: typeErr("operand 3 must be integer number but got floating-point number") },
      { note: "n must be a number", args: ["a", "a", "1"], error: typeErr("operand 3 must be number but got string") },
      { note: "invalid pattern", args: ["(", "a", 1], error: builtinErr("error parsing regexp: missing closing ): `(`") },
    ]);
  });

  describe("regex.find_all_string_submatch_n", () => {
    runCases("regex.find_all_string_submatch_n", [
      { note: "no matches", args: ["a(x*)b", "-", -1], want: [] },
      { note: "match without captures", args: ["a(x*)b", "-ab-", -1], want: [["ab", ""]] },
      { note: "match with a capture", args: ["a(x*)b", "-axxb-", -1], want: [["axxb", "xx"]] },
      { note: "multiple matches 1", args: ["a(x*)b", "-ab-axb-", -1], want: [["ab", ""], ["axb", "x"]] },
      { note: "multiple matches 2", args: ["a(x*)b", "-axxb-ab-", -1], want: [["axxb", "xx"], ["ab", ""]] },
      { note: "non-participating group is empty", args: ["[^aouiye]([aouiye])([^aouiye])?", "somestri", -1], want: [["som", "o", "m"], ["ri", "i", ""]] },
      { note: "limited", args: ["[^aouiye]([aouiye])([^aouiye])?", "somestri", 1], want: [["som", "o", "m"]] },
      { note: "large input", args: ["^.*$", "a".repeat(5000), -1], want: [["a".repeat(5000)]] },
      { note: "unicode captures", args: ["(\\p{Greek}+)", "abc αβγ def", -1], want: [["αβγ", "αβγ"]] },
    ]);
  });

  describe("regex.split", () => {
    runCases("regex.split", [
      { note: "empty string", args: ["^[a-z]+\\[[0-9]+\\]$", ""], want: [""] },
      { note: "anchored start", args: ["^[a-z]+", "foobar baz"], want: ["", " baz"] },
      { note: "anchored end", args: ["[a-z]+$", "foobar baz"], want: ["foobar ", ""] },
      { note: "anchored, no match", args: ["^[a-z]+$", "foobar baz"], want: ["foobar baz"] },
      { note: "anchored, whole match", args: ["^[a-z ]+$", "foobar baz"], want: ["", ""] },
      { note: "non-repeat pattern", args: ["a", "banana"], want: ["b", "n", "n", ""] },
      { note: "repeat pattern", args: ["z+", "pizza"], want: ["pi", "a"] },
      { note: "empty matches split characters (Go, not JS)", args: ["x*", "abc"], want: ["a", "b", "c"] },
      { note: "empty pattern on empty string gives no pieces", args: ["", ""], want: [] },
      { note: "unicode separator", args: ["→", "a→b→c"], want: ["a", "b", "c"] },
    ]);
  });

  describe("regex.replace", () => {
    runCases("regex.replace", [
      { note: "pattern match and replace", args: ["-wy-wxxy-", "w(x*)y", "0"], want: "-0-0-" },
      { note: "groups", args: ["foo", "(foo)", "$1$1"], want: "foofoo" },
      { note: "bad pattern", args: ["foo", "[", "$1"], error: builtinErr("error parsing regexp: missing closing ]: `[`") },
      { note: "anchored start", args: ["foo", "^[a-z]", "F"], want: "Foo" },
      { note: "anchored start+end, no match", args: ["foo", "^[a-z]$", "F"], want: "foo" },
      { note: "anchored start+end, match", args: ["foo", "^[a-z]+$", "M"], want: "M" },
      { note: "anchored end", args: ["foo", "[a-z]$", "F"], want: "foF" },
      { note: "per character", args: ["foo bar", "[a-z]", "_"], want: "___ ___" },
      { note: "count 3", args: ["foo barx", "[a-z]{3}", "_"], want: "_ _x" },
      { note: "count 2", args: ["foo barx", "[a-z]{2}", "_"], want: "_o __" },
      { note: "empty matches between characters (Go's ReplaceAll)", args: ["abc", "x*", "-"], want: "-a-b-c-" },
      { note: "named groups, ${n} and $$", args: ["abc", "(?P<mid>b)", "[${mid}|$1|$$]"], want: "a[b|b|$]c" },
      { note: "$1x is the group named 1x (empty)", args: ["abc", "(b)", "$1x"], want: "ac" },
      { note: "unknown group is empty", args: ["abc", "(b)", "<$9>"], want: "a<>c" },
      { note: "malformed $ stays", args: ["abc", "b", "$!"], want: "a$!c" },
      { note: "unicode", args: ["naïve café", "é|ï", "?"], want: "na?ve caf?" },
    ]);
  });

  describe("regex.template_match", () => {
    runCases("regex.template_match", [
      { note: "wildcard with {}", args: ["urn:foo:{.*}", "urn:foo:bar:baz", "{", "}"], want: true },
      { note: "wildcard with <>", args: ["urn:foo:<.*>", "urn:foo:bar:baz", "<", ">"], want: true },
      { note: "literal text is quoted", args: ["a.b:{[0-9]+}", "axb:12", "{", "}"], want: false },
      { note: "whole string must match", args: ["id:{[0-9]+}", "id:12x", "{", "}"], want: false },
      { note: "nested delimiters stay in the regex", args: ["id:{[0-9]{2}}", "id:12", "{", "}"], want: true },
      { note: "unbalanced", args: ["urn:{x", "urn:x", "{", "}"], error: builtinErr('unbalanced braces in "urn:{x"') },
      { note: "bad inner regex", args: ["urn:{[}", "urn:x", "{", "}"], error: builtinErr("error parsing regexp: missing closing ]: `[$`") },
      { note: "long start delimiter", args: ["x", "x", "{{", "}"], error: builtinErr("start delimiter has to be exactly one character long but is 2 long") },
      // OPA reports the start delimiter's length in the end delimiter's message too.
      { note: "long end delimiter", args: ["x", "x", "{", "}}"], error: builtinErr("end delimiter has to be exactly one character long but is 1 long") },
      { note: "delimiter length counts UTF-8 bytes", args: ["x", "x", "é", "}"], error: builtinErr("start delimiter has to be exactly one character long but is 2 long") },
    ]);
  });

  describe("regex.globs_match", () => {
    runCases("regex.globs_match", [
      { note: "intersecting", args: ["a.a.[0-9]+z", ".b.b2359825792*594823z"], want: true },
      { note: "disjoint classes", args: ["[a-z]+", "[0-9]*"], want: false },
      { note: "bad pattern", args: ["pqrs]", "[a-b]+"], error: builtinErr("input:pqrs], pos:5, set-close ']' with no preceding '[': the input provided is invalid") },
      { note: "dot star", args: ["b.*", "bar"], want: true },
      { note: "dot star 2", args: ["b.*", "baz"], want: true },
      { note: "escapes", args: ["[a-z]+\\[[0-9]+\\]", "foo\\[1\\]"], want: true },
      { note: "escapes, no match", args: ["[a-z]+\\[[0-9]+\\]", 'foo["bar"]'], want: false },
      { note: "leading flag", args: ["*a", "a"], error: builtinErr("input:*a, pos:1, flag '*' must be preceded by a non-flag: the input provided is invalid") },
      { note: "unclosed set", args: ["[ab", "a"], error: builtinErr("input:[ab, pos:3, found [ without matching ]: the input provided is invalid") },
      { note: "trailing escape", args: ["a\\", "a"], error: builtinErr("input:a\\, pos:1, input ends with a \\ (escape) character: the input provided is invalid") },
      { note: "range out of order", args: ["[z-a]", "a"], error: builtinErr("input:[z-a], pos:4, range is out of order: 'a' comes before 'z' in Unicode: the input provided is invalid") },
      { note: "literal characters", args: ["abc", "abc"], want: true },
      { note: "different literal", args: ["abc", "abd"], want: false },
      { note: "plus needs one", args: ["a+", "b*"], want: false },
      { note: "plus against star", args: ["a+", "a*"], want: true },
    ]);
  });

  it("caches compiled patterns and still reports errors every time", () => {
    expect(callBuiltin("regex.match", ["^a+$", "aaa"])).to.equal(true);
    expect(callBuiltin("regex.match", ["^a+$", "aab"])).to.equal(false);
    for (let i = 0; i < 2; i++) {
      const err = builtinError("regex.match", ["(", "a"]);
      expect([err.code, err.message]).to.deep.equal(["eval_builtin_error", "regex.match: error parsing regexp: missing closing ): `(`"]);
    }
    // More distinct patterns than the cache holds: results stay right.
    for (let i = 0; i < 600; i++) expect(callBuiltin("regex.match", [`^x{${i % 300}}$`, "x".repeat(i % 300)])).to.equal(true);
  });
});
