import { builtinErr, registersLikeOpa, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

describe("builtins: glob", () => {
  registersLikeOpa(/^glob\./);

  describe("glob.match", () => {
    const cases: BuiltinCase[] = [
      { note: "* with . delimiter", args: ["*.github.com", ["."], "api.github.com"], want: true },
      { note: "** with . delimiter", args: ["api.**.com", ["."], "api.github.com"], want: true },
      { note: "** crosses delimiters", args: ["api.**.com", ["."], "api.cdn.github.com"], want: true },
      { note: ": delimiter", args: ["*:github:com", [":"], "api:github:com"], want: true },
      { note: "* stops at the delimiter", args: ["*.github.com", ["."], "api.not-github.com"], want: false },
      { note: "* does not cross the delimiter", args: ["*.com", ["."], "api.github.com"], want: false },
      { note: "character list", args: ["[abc]at", [], "cat"], want: true },
      { note: "character list, no match", args: ["[abc]at", [], "fat"], want: false },
      { note: "negated list", args: ["[!abc]at", [], "fat"], want: true },
      { note: "negated list, no match", args: ["[!abc]at", [], "cat"], want: false },
      { note: "range", args: ["[a-c]at", [], "bat"], want: true },
      { note: "range, no match", args: ["[a-c]at", [], "fat"], want: false },
      { note: "negated range, no match", args: ["[!a-c]at", [], "bat"], want: false },
      { note: "negated range", args: ["[!a-c]at", [], "fat"], want: true },
      { note: "lists ignore delimiters", args: ["a[!x]b", ["."], "a.b"], want: true },
      { note: "?", args: ["?at", [], "fat"], want: true },
      { note: "? needs a character", args: ["?at", [], "at"], want: false },
      { note: "? with another delimiter", args: ["?at", ["f"], "bat"], want: true },
      { note: "? does not match a delimiter", args: ["?at", ["f"], "fat"], want: false },
      { note: "? is one code point", args: ["?", [], "😀"], want: true },
      { note: "alternatives (cat)", args: ["{cat,bat,[fr]at}", [], "cat"], want: true },
      { note: "alternatives (rat)", args: ["{cat,bat,[fr]at}", [], "rat"], want: true },
      { note: "alternatives, no match", args: ["{cat,bat,[fr]at}", [], "at"], want: false },
      { note: "nested alternatives", args: ["{a,b{c,d}}x", [], "bdx"], want: true },
      { note: "empty alternative", args: ["a{,b}c", [], "ac"], want: true },
      { note: "* alone with . delimiter", args: ["*", ["."], "foo"], want: true },
      { note: "* alone, default delimiter", args: ["*", [], "foo"], want: true },
      { note: "* alone, no match across .", args: ["*", ["."], "foo.bar"], want: false },
      { note: "empty delimiters mean [\".\"]", args: ["*", [], "foo.bar"], want: false },
      { note: "null means no delimiters", args: ["*", null, "foo.bar"], want: true },
      { note: "null delimiters, prefix", args: ["foo*", null, "foo.bar"], want: true },
      { note: "escaped *", args: ["a\\*b", [], "a*b"], want: true },
      { note: "escaped * is literal", args: ["a\\*b", [], "axb"], want: false },
      { note: "comma outside braces is literal", args: ["a,b", [], "a,b"], want: true },
      { note: "] outside a range is literal", args: ["a]", [], "a]"], want: true },
      { note: "regex metacharacters are literal", args: ["a.b+(c)", null, "a.b+(c)"], want: true },
      { note: "delimiter that is special in regex classes", args: ["*", ["]"], "a]b"], want: false },
      { note: "unicode delimiter", args: ["*→*", ["→"], "a→b"], want: true },
      { note: "newlines are ordinary characters", args: ["a*b", null, "a\nb"], want: true },
      // gobwas/glob takes one range per bracket: [a-z0-9] is an error there.
      { note: "two ranges in one bracket", args: ["[a-z0-9]", [], "a"], error: builtinErr("expected close range character") },
      { note: "reversed range", args: ["[z-a]", [], "a"], error: builtinErr("hi character 'a' should be greater than lo 'z'") },
      { note: "empty list", args: ["[]", [], "a"], error: builtinErr("could not parse range") },
      { note: "unclosed brace", args: ["{a", [], "a"], error: builtinErr("unexpected end of input") },
      { note: "stray closing brace", args: ["a}", [], "a"], error: builtinErr("unexpected end of input") },
      { note: "unclosed bracket", args: ["[ab", [], "a"], error: builtinErr("unexpected end of input") },
      { note: "delimiters must be runes", args: ["*", ["ab"], "a"], error: typeErr("operand 2 must be array of runes but got array containing string") },
      { note: "delimiters must be strings", args: ["*", [1], "a"], error: typeErr("operand 2 must be array of strings but got array containing number") },
      { note: "delimiters must be an array or null", args: ["*", "x", "a"], error: typeErr("operand 2 must be one of {array, null} but got string") },
      { note: "pattern must be a string", args: [1, [], "a"], error: typeErr("operand 1 must be string but got number") },
      { note: "match must be a string", args: ["*", [], 1], error: typeErr("operand 3 must be string but got number") },
    ];
    runCases("glob.match", cases);
  });

  describe("glob.quote_meta", () => {
    runCases("glob.quote_meta", [
      { note: "quotes *", args: ["*.github.com"], want: "\\*.github.com" },
      { note: "quotes every special", args: ["a*b?c\\d[e]f{g}h"], want: "a\\*b\\?c\\\\d\\[e\\]f\\{g\\}h" },
      { note: "leaves , ! - alone", args: ["a,b!c-d"], want: "a,b!c-d" },
      { note: "quoted text matches itself", args: ["{x}"], want: "\\{x\\}" },
    ]);
    runCases("glob.match", [{ note: "a quoted pattern matches literally", args: ["\\{x\\}\\*", [], "{x}*"], want: true }]);
  });
});
