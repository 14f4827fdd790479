// Malformed programs and exactly what the parser reports for each: code, row, col and a message
// a person can act on. Every list is complete (no other error is reported). Where OPA reports
// several errors for one file, so do we (the last cases).
import { expect } from "chai";

import { parseModuleResult, parseQueryResult } from "../../../../compiler/syntax/index.js";

const P = "package test\n\n";

interface Case {
  note: string;
  module?: string;
  query?: string;
  v0?: boolean;
  /** [row, col, message] of every error, in order. */
  errors: [number, number, string][];
}

const cases: Case[] = [
  // tokens
  { note: "unterminated string", module: P + 'p := "abc\n', errors: [[3, 6, "non-terminated string"]] },
  { note: "unterminated raw string", module: P + "p := `abc\n", errors: [[3, 6, "non-terminated string"]] },
  { note: "bad escape", module: P + 'p := "a\\qb"\n', errors: [[3, 6, "illegal escape sequence"]] },
  {
    note: "bad unicode escape",
    module: P + 'p := "\\u12G4"\n',
    errors: [
      [3, 6, 'illegal string literal: "\\u12G4"'],
      [3, 6, "unexpected string token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  { note: "string cut by a line break", module: P + 'p := "a\nb"\n', errors: [[3, 6, "non-terminated string"]] },
  { note: "number missing its fraction", module: P + "p := 1.\n", errors: [[3, 6, "expected fraction"]] },
  { note: "number missing its exponent", module: P + "p := 1e\n", errors: [[3, 6, "expected exponent"]] },
  { note: "letters stuck to a number", module: P + "p := 0a2b\n", errors: [[3, 6, "illegal number format"]] },
  {
    note: "number with a leading zero",
    module: P + "p := 01\n",
    errors: [
      [3, 6, "unexpected number token: expected number without leading zero"],
      [3, 6, "unexpected number token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  {
    note: "number too big",
    module: P + "p := 1e100000\n",
    errors: [
      [3, 6, "number too big"],
      [3, 6, "unexpected number token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  { note: "lone !", module: P + "p if {\n\t!x\n}\n", errors: [[4, 2, "illegal ! character"]] },
  { note: "lone $", module: P + "p := $x\n", errors: [[3, 6, "illegal $ character"]] },
  { note: "NUL character", module: P + 'p := "a\u0000"\n', errors: [[3, 6, "illegal null character"]] },
  { note: "unknown character", module: P + "p := @\n", errors: [[3, 6, "illegal token"]] },
  { note: "columns count characters, not bytes or UTF-16 units", module: P + 'p := "é€😀" + }\n', errors: [[3, 14, "unexpected } token"]] },

  // bodies and expressions
  { note: "missing right-hand side", module: P + "p if {\n\tx :=\n}\n", errors: [[5, 1, "unexpected } token"]] },
  { note: "missing operand", module: P + "p if {\n\tx := 1 +\n}\n", errors: [[5, 1, "unexpected } token"]] },
  { note: "unclosed body", module: P + "p if {\n\tx := 1\n", errors: [[5, 0, "unexpected eof token"]] },
  { note: "two expressions on one line", module: P + "p if {\n\tx := 1 y := 2\n}\n", errors: [[4, 9, "unexpected identifier token: expected \\n or ; or }"]] },
  {
    note: "empty comprehension body",
    module: P + "p := [x | ]\n",
    errors: [
      [3, 11, "found empty body"],
      [3, 11, "unexpected ] token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  { note: "negated some", module: P + "p if {\n\tnot some x\n}\n", errors: [[4, 6, "unexpected some keyword: illegal negation of 'some'"]] },
  { note: "negated every", module: P + "p if {\n\tnot every x in y { x }\n}\n", errors: [[4, 6, "unexpected every keyword: illegal negation of 'every'"]] },
  { note: "every without a body", module: P + "p if {\n\tevery x in [1]\n}\n", errors: [[5, 1, "unexpected } token: missing body"]] },
  { note: "every key must be a var", module: P + "p if {\n\tevery [k], v in x { true }\n}\n", errors: [[4, 20, "unexpected { token: expected key to be a variable"]] },
  { note: "some with a number", module: P + "p if {\n\tsome 1\n}\n", errors: [[4, 7, "unexpected number token: expected var"]] },
  { note: "with without as", module: P + "p if {\n\tx with input\n}\n", errors: [[5, 1, "unexpected } token: expected as keyword"]] },
  { note: "unclosed parenthesis", module: P + "p if {\n\tx := (1 + 2\n}\n", errors: [[5, 1, "non-terminated expression"]] },
  { note: "extra closing parenthesis", module: P + "p := (1))\n", errors: [[3, 9, "unexpected ) token"]] },

  // terms
  {
    note: "unclosed array",
    module: P + "p := [1, 2\n",
    errors: [
      [4, 0, 'unexpected eof token: expected "," or "]"'],
      [4, 0, "unexpected eof token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  {
    note: "set missing a comma",
    module: P + "p := {1 2}\n",
    errors: [
      [3, 9, "unexpected number token: non-terminated set"],
      [3, 9, "unexpected number token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  {
    note: "ref missing its name after the dot",
    module: P + "p := foo.\n",
    errors: [
      [4, 0, "unexpected whitespace token: expected identifier"],
      [4, 0, "unexpected whitespace token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  {
    note: "unclosed call",
    module: P + "p := f(1, 2\n",
    errors: [
      [4, 0, 'unexpected eof token: expected "," or ")"'],
      [4, 0, "unexpected eof token: expected rule value term (e.g., p := <VALUE> { ... })"],
    ],
  },
  { note: "ref into a string", module: P + 'p := "a".b\n', errors: [[3, 6, "illegal ref (head cannot be string)"]] },
  {
    note: "assignment inside a template string",
    module: P + 'p if {\n\t$"{x := 1}"\n}\n',
    errors: [[4, 5, "unexpected assignment (':=') in template-string expression"]],
  },
  { note: "unterminated template string", module: P + 'p := $"abc {x}\n', errors: [[4, 0, "non-terminated string"]] },

  // rules
  { note: "v1: `if` is required before a body", module: P + "p {\n\ttrue\n}\n", errors: [[3, 1, "`if` keyword is required before rule body"]] },
  { note: "v1: functions too", module: P + "f(x) = y {\n\ty := x\n}\n", errors: [[3, 1, "`if` keyword is required before function body"]] },
  { note: "v1: a keyword cannot name a rule", module: P + "in := 1\n", errors: [[3, 1, "unexpected in keyword"]] },
  { note: "default rule without a value", module: P + "default a[0]\n", errors: [[3, 1, "illegal default rule (must have a value)"]] },
  { note: "default rule with a var value", module: P + "default p := x\n", errors: [[3, 1, "illegal default rule (value cannot contain var)"]] },
  { note: "else on a multi-value rule", module: P + "p contains 1 if {\n\ttrue\n} else := 2\n", errors: [[5, 3, "else keyword cannot be used on multi-value rules"]] },
  { note: "else with a var in the head", module: P + "p[x] := 1 if {\n\tx := 1\n} else := 2\n", errors: [[5, 3, "else keyword cannot be used on rules with variables in head"]] },
  { note: "a second body after else", module: P + "p := 1 if {\n\tfalse\n} else := 2 if {\n\ttrue\n} {\n\ttrue\n}\n", errors: [[7, 3, "expected else keyword"]] },
  {
    note: "contains on a function",
    module: P + "f(x) contains 1 if {\n\ttrue\n}\n",
    errors: [[3, 6, "unexpected contains keyword: the contains keyword can only be used with multi-value rule definitions (e.g., f contains <VALUE> { ... })"]],
  },
  { note: "two expressions as a rule", module: P + "a; b\n", errors: [[3, 1, "multiple expressions cannot be used for rule head"]] },
  { note: "with on a rule", module: P + "x with input as 1\n", errors: [[3, 1, "expressions using with keyword cannot be used for rule head"]] },
  { note: "negation as a rule", module: P + "not x\n", errors: [[3, 1, "negated expressions cannot be used for rule head"]] },
  { note: "some as a rule", module: P + "some x\n", errors: [[3, 1, "'some' declarations cannot be used for rule head"]] },
  { note: "a string as a rule", module: P + '"foo"\n', errors: [[3, 1, "string cannot be used for rule name"]] },
  { note: "a built-in's name as a rule", module: P + "count(x)\n", errors: [[3, 1, "rule name conflicts with built-in function"]] },
  { note: "a function without arguments", module: P + "f()\n", errors: [[3, 1, "rule argument list must take at least one argument"]] },
  { note: "v0: `if` not imported", v0: true, module: P + "p if {\n\ttrue\n}\n", errors: [[3, 1, "var cannot be used for rule name (hint: `import future.keywords.if` for `p if { ... }` rules)"]] },
  {
    note: "v0: `in` not imported",
    v0: true,
    module: P + "p {\n\tx in xs\n}\n",
    errors: [[4, 4, "unexpected identifier token: expected \\n or ; or } (hint: `import future.keywords.in` for `x in xs` expressions)"]],
  },

  // module structure and imports
  { note: "no package", module: "p := 1\n", errors: [[1, 1, "package expected"]] },
  { note: "empty file", module: "", errors: [[1, 0, "empty module"]] },
  { note: "a second package", module: P + "package other\n", errors: [[3, 1, "unexpected package"]] },
  { note: "package path with a number", module: "package a[1]\n", errors: [[1, 11, "unexpected number token: expecting string"]] },
  {
    note: "import from an unknown root",
    module: P + "import foo.bar\n",
    errors: [[3, 8, "unexpected import path, must begin with one of: {data, future, input, rego}, got: foo (hint: if this is unexpected, try updating OPA)"]],
  },
  {
    note: "import ending in a keyword",
    module: P + "import data.foo.not\n",
    errors: [[3, 17, "unexpected import path, must not end with a keyword, got: not (hint: import a different path or use an alias)"]],
  },
  { note: "unknown future keyword", module: P + "import future.keywords.foo\n", errors: [[3, 8, "unexpected keyword, must be one of [and contains every if in not or]"]] },
  { note: "rego.v3", module: P + "import rego.v3\n", errors: [[3, 8, "invalid import `rego.v3`, must be `rego.v1`"]] },
  { note: "rego.v2.x", module: P + "import rego.v2.x\n", errors: [[3, 8, "invalid import `rego.v2.x`, must be `rego.v1`"]] },
  { note: "rego.v2 aliased", module: P + "import rego.v2 as v\n", errors: [[3, 8, "`rego` imports cannot be aliased"]] },
  { note: "rego.v1 aliased (v0)", v0: true, module: P + "import rego.v1 as v\n", errors: [[3, 8, "`rego` imports cannot be aliased"]] },

  // and / or / not groups
  {
    note: "`and` after a value in braces",
    module: P + "import future.keywords.and\n\np if {\n\t{1, 2} and x\n}\n",
    errors: [[6, 2, "operand of `and` cannot begin with `{` unless the braces hold a body (hint: wrap the operand to keep the value: `({1, 2}) and ...`)"]],
  },
  {
    note: "`with` on an operand of `and`",
    module: P + "import future.keywords.and\n\np if {\n\ta with input as 1 and b\n}\n",
    errors: [
      [
        6,
        4,
        "`with` modifier is not allowed on operand of `and` (hint: Wrap the operand in `(...)` or `{...}` to scope, or move `with` after the `and` expression to apply it to the whole expression)",
      ],
    ],
  },
  { note: "empty group after `or`", module: P + "import future.keywords.or\n\np if {\n\ta or ()\n}\n", errors: [[6, 7, "empty parenthesized group"]] },
  {
    note: "a value in braces after `not`, in a one-line rule",
    module: P + 'import future.keywords.not\n\np if not {"a": 1}\n',
    errors: [[5, 10, '`{...}` in an operand position must contain expression(s), got: object (hint: write `not ({"a": 1})` to negate the value, or `not {{"a": 1}}` for a body holding it)']],
  },
  {
    note: "a bare union in a `not` body reads as a comprehension too",
    module: P + "import future.keywords.not\n\np if {\n\tnot {a | b}\n}\n",
    errors: [[6, 6, "ambiguous `{ ... | ... }` operand: read as a body holding a set-union expression, not as a comprehension (hint: write `not ({a | b})` for the comprehension, or `not {(a | b)}` for the set union)"]],
  },
  {
    note: "a bare union leading an operand body",
    module: P + "import future.keywords.or\n\np if {\n\tx or {a | b; c}\n}\n",
    errors: [[6, 7, "ambiguous `{ ... | ... }` operand: read as a body holding a set-union expression, not as a comprehension (hint: write `({a | b; c})` for the comprehension, or `{(a | b); c}` for the set union)"]],
  },
  {
    note: "parentheses around a `not` body (only `not` imported)",
    module: P + "import future.keywords.not\n\np if {\n\tnot ({x; y})\n}\n",
    errors: [[6, 6, "`(...)` in an operand position cannot contain a body (hint: drop the parens to keep the body: `not {x; y}`)"]],
  },
  {
    note: "`(a with ...)` alone is no operand",
    module: P + "import future.keywords.or\n\np if {\n\t(a with input as x)\n}\n",
    errors: [[6, 5, "non-terminated expression"]],
  },

  // several errors in one file
  {
    note: "every v1 violation is reported",
    module: P + "p {\n\ttrue\n}\n\nq[x] {\n\tx := 1\n}\n",
    errors: [
      [3, 1, "`if` keyword is required before rule body"],
      [7, 1, "`if` keyword is required before rule body"],
      [7, 1, "`contains` keyword is required for partial set rules"],
    ],
  },
  {
    note: "each bad part of a default value",
    module: P + "default p := [x, input.y]\n",
    errors: [
      [3, 1, "illegal default rule (value cannot contain var)"],
      [3, 1, "illegal default rule (value cannot contain ref)"],
    ],
  },
  {
    note: "each bad statement of a module",
    module: P + "a; b\n\nnot c\n",
    errors: [
      [3, 1, "multiple expressions cannot be used for rule head"],
      [5, 1, "negated expressions cannot be used for rule head"],
    ],
  },

  // queries
  { note: "query: unclosed array", query: "x := [1", errors: [[1, 7, 'unexpected eof token: expected "," or "]"']] },
  { note: "query: package inside", query: "package p", errors: [[1, 1, "expected body but got package"]] },
  { note: "query: nesting past the depth limit", query: "[".repeat(100_000), errors: [[1, 1497, "max parsing recursion depth exceeded"]] },
];

describe("syntax errors", () => {
  it("has at least 40 malformed programs", () => {
    expect(cases.length).to.be.at.least(40);
  });

  for (const tc of cases) {
    it(tc.note, () => {
      const opts = { file: "x.rego", regoVersion: tc.v0 ? ("v0" as const) : ("v1" as const) };
      const { errors } = tc.query !== undefined ? parseQueryResult(tc.query, opts) : parseModuleResult(tc.module ?? "", opts);
      for (const e of errors) expect(e.code).to.equal("rego_parse_error");
      expect(errors.map((e) => [e.location?.row, e.location?.col, e.message])).to.deep.equal(tc.errors);
      for (const e of errors) expect(e.location?.file).to.equal("x.rego");
    });
  }
});
