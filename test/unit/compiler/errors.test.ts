// Compile errors beyond OPA's compiler cases, table-driven: each program must report exactly these
// diagnostics (code, row, col, message) with OPA's wording. The messages and positions follow OPA
// v1's compiler (v1/ast/compile.go, check.go); parse errors come from the parser.
import { expect } from "chai";
import { compileModules, compileQuery } from "../../../compiler/passes/runner.js";
import { parseModuleResult, parseQueryResult } from "../../../compiler/syntax/index.js";
import type { RegoError } from "../../../runtime/errors.js";

interface Want {
  code: string;
  row: number;
  col: number;
  message: string;
}

interface Case {
  note: string;
  module: string;
  query?: string;
  print?: boolean;
  /** Default true: nothing but `want` may be reported. */
  exhaustive?: boolean;
  want: Want[];
}

const cases: Case[] = [
  {
    note: "safety/unsafe var in a comparison",
    module: `package t

p if {
	x > 1
}
`,
    want: [{ code: "rego_unsafe_var_error", row: 4, col: 2, message: "var x is unsafe" }],
  },
  {
    note: "safety/unsafe var in a negated expression",
    module: `package t

p if {
	not q[x]
}

q contains 1
`,
    want: [{ code: "rego_unsafe_var_error", row: 4, col: 2, message: "var x is unsafe" }],
  },
  {
    note: "safety/head var not bound by the body",
    module: `package t

p := y if {
	x := 1
}
`,
    want: [{ code: "rego_unsafe_var_error", row: 3, col: 6, message: "var y is unsafe" }],
  },
  {
    note: "safety/unsafe built-in input",
    module: `package t

p if {
	count(xs) > 0
}
`,
    want: [{ code: "rego_unsafe_var_error", row: 4, col: 2, message: "var xs is unsafe" }],
  },
  {
    note: "safety/unsafe var inside a comprehension",
    module: `package t

p if {
	ys := [y | y := z]
	count(ys) > 0
}
`,
    want: [{ code: "rego_unsafe_var_error", row: 4, col: 13, message: "var y is unsafe" }, { code: "rego_unsafe_var_error", row: 4, col: 13, message: "var z is unsafe" }],
  },
  {
    note: "calls/undefined function",
    module: `package t

p if {
	foo(1)
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 2, message: "undefined function foo" }],
  },
  {
    note: "calls/undefined dotted built-in",
    module: `package t

p if {
	strings.nope("a")
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 2, message: "undefined function strings.nope" }],
  },
  {
    note: "calls/built-in called with too many arguments",
    module: `package t

p if {
	count([1], [2], 3)
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 2, message: "count: arity mismatch" }],
  },
  {
    note: "calls/user function called with too many arguments",
    module: `package t

f(x) := x

p if {
	f(1, 2, 3)
}
`,
    want: [{ code: "rego_type_error", row: 6, col: 2, message: "function data.t.f has arity 1, got 3 arguments" }],
  },
  {
    note: "calls/user function called with too few arguments",
    module: `package t

f(x, y) := x

p if {
	f(1) == 1
}
`,
    want: [{ code: "rego_type_error", row: 6, col: 2, message: "function data.t.f has arity 2, got 1 argument" }],
  },
  {
    note: "refs/dereferencing a string rule of the package",
    module: `package t

name := "alice"

p if {
	name.first == "a"
}
`,
    want: [{ code: "rego_type_error", row: 6, col: 2, message: "undefined ref: data.t.name.first" }],
  },
  {
    note: "refs/missing key of a known object",
    module: `package t

p if {
	x := {"a": 1}
	x.b == 1
}
`,
    want: [{ code: "rego_type_error", row: 5, col: 2, message: "undefined ref: x.b" }],
  },
  {
    note: "recursion/rule referring to itself",
    module: `package t

p if {
	p
}
`,
    want: [{ code: "rego_recursion_error", row: 3, col: 1, message: "rule data.t.p is recursive: data.t.p -> data.t.p" }],
  },
  {
    note: "recursion/two rules referring to each other",
    module: `package t

p if {
	q
}

q if {
	p
}
`,
    want: [{ code: "rego_recursion_error", row: 3, col: 1, message: "rule data.t.p is recursive: data.t.p -> data.t.q -> data.t.p" }, { code: "rego_recursion_error", row: 7, col: 1, message: "rule data.t.q is recursive: data.t.q -> data.t.p -> data.t.q" }],
  },
  {
    note: "recursion/function calling itself",
    module: `package t

f(x) := y if {
	y := f(x)
}
`,
    want: [{ code: "rego_recursion_error", row: 3, col: 1, message: "rule data.t.f is recursive: data.t.f -> data.t.f" }],
  },
  {
    note: "vars/:= redeclared",
    module: `package t

p if {
	x := 1
	x := 2
}
`,
    want: [{ code: "rego_compile_error", row: 5, col: 2, message: "var x assigned above" }],
  },
  {
    note: "vars/:= after the var was used",
    module: `package t

p if {
	y := x
	x := 2
}
`,
    want: [{ code: "rego_compile_error", row: 5, col: 2, message: "var x referenced above" }],
  },
  {
    note: "vars/:= of a var declared by some",
    module: `package t

p if {
	some x
	x := 1
}
`,
    want: [{ code: "rego_compile_error", row: 5, col: 2, message: "var x declared above" }],
  },
  {
    note: "vars/:= of a function argument",
    module: `package t

f(x) := y if {
	x := 1
	y := x
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 2, message: "arg x redeclared" }],
  },
  {
    note: "vars/:= to a ref",
    module: `package t

p if {
	input.x := 1
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 2, message: "cannot assign to ref" }],
  },
  {
    note: "vars/:= to a number in an array pattern",
    module: `package t

p if {
	[1, x] := [1, 2]
	x > 0
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 3, message: "cannot assign to number" }],
  },
  {
    note: "vars/:= inside not",
    module: `package t

p if {
	not x := 1
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 2, message: "cannot assign vars inside negated expression" }],
  },
  {
    note: "conflicts/two default rules",
    module: `package t

default p := 1

default p := 2
`,
    want: [{ code: "rego_type_error", row: 1, col: 1, message: "multiple default rules data.t.p found at t.rego:3, t.rego:5" }],
  },
  {
    note: "conflicts/single-value and multi-value rules",
    module: `package t

p := 1

p contains 2
`,
    want: [{ code: "rego_type_error", row: 3, col: 1, message: "conflicting rules data.t.p found" }],
  },
  {
    note: "conflicts/functions of different arity",
    module: `package t

f(x) := 1

f(x, y) := 2
`,
    want: [{ code: "rego_type_error", row: 3, col: 1, message: "conflicting rules data.t.f found" }],
  },
  {
    note: "with/target that is not input, data or a function",
    module: `package t

p if {
	true with foo as 1
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 12, message: "with keyword target must reference existing input, data, or a function" }],
  },
  {
    note: "with/partial replacement of a rule's document",
    module: `package t

q := {"a": 1}

p if {
	q.a with data.t.q.a as 2
}
`,
    want: [{ code: "rego_compile_error", row: 6, col: 11, message: "with keyword cannot partially replace virtual document(s)" }],
  },
  {
    note: "with/replacing a relation built-in",
    module: `package t

p if {
	true with walk as 1
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 12, message: "with keyword replacing built-in function: target must not be a relation" }],
  },
  {
    note: "types/unifying a string with a number",
    module: `package t

p if {
	"a" = 1
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 2, message: "match error" }],
  },
  {
    note: "types/built-in argument of the wrong type",
    module: `package t

p if {
	upper(1)
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 2, message: "upper: invalid argument(s)" }],
  },
  {
    note: "types/function used as a value",
    module: `package t

f(x) := x

p if {
	f
}
`,
    want: [{ code: "rego_type_error", row: 6, col: 2, message: "function data.t.f used as reference, not called" }],
  },
  {
    note: "types/void built-in used as a value",
    module: `package t

p if {
	x := print(1)
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 7, message: "print(1) used as value" }],
  },
  {
    note: "keywords/rule named input (v1)",
    module: `package t

input := 1
`,
    want: [{ code: "rego_compile_error", row: 3, col: 1, message: "rules must not shadow input (use a different rule name)" }],
  },
  {
    note: "keywords/variable named data (v1)",
    module: `package t

p if {
	data := 1
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 2, message: "variables must not shadow data (use a different variable name)" }],
  },
  {
    note: "imports/two imports binding one name (v1)",
    module: `package t

import data.a.b
import data.c.b

p := b
`,
    want: [{ code: "rego_compile_error", row: 4, col: 1, message: "import must not shadow import data.a.b" }],
  },
  {
    note: "imports/import of an unknown root",
    module: `package t

import foo.bar
`,
    want: [{ code: "rego_parse_error", row: 3, col: 8, message: "unexpected import path, must begin with one of: {data, future, input, rego}, got: foo (hint: if this is unexpected, try updating OPA)" }],
  },
  {
    note: "v1 keywords/rule body without if",
    module: `package t

p { true }
`,
    want: [{ code: "rego_parse_error", row: 3, col: 1, message: "`if` keyword is required before rule body" }],
  },
  {
    note: "v1 keywords/partial set without contains", exhaustive: false,
    module: `package t

p[x] { x := 1 }
`,
    want: [{ code: "rego_parse_error", row: 3, col: 1, message: "`contains` keyword is required for partial set rules" }],
  },
  {
    note: "refs/function argument named input",
    module: `package t

f(input) := 1
`,
    want: [{ code: "rego_compile_error", row: 3, col: 1, message: "args must not shadow input (use a different variable name)" }],
  },
  {
    note: "vars/calling a built-in shadowed by a local",
    module: `package t

p if {
	count := 1
	count([1]) == count
}
`,
    want: [{ code: "rego_compile_error", row: 5, col: 2, message: "called function count shadowed" }],
  },
  {
    note: "builtins/deprecated built-in in a v1 module",
    module: `package t

p if {
	any([true])
}
`,
    want: [{ code: "rego_type_error", row: 4, col: 2, message: "deprecated built-in function calls in expression: any" }],
  },
  {
    note: "print/undeclared var in print (print enabled)", print: true,
    module: `package t

p if {
	print(x)
}
`,
    want: [{ code: "rego_compile_error", row: 4, col: 8, message: "var x is undeclared" }],
  },
  {
    note: "query/undefined function in a query",
    module: `package t\n\np := 1\n`,
    query: "data.t.nope(1)",
    want: [{ code: "rego_type_error", row: 1, col: 1, message: "undefined function data.t.nope" }],
  },
  {
    note: "query/unsafe var in a query",
    module: `package t\n\np := 1\n`,
    query: "x > data.t.p",
    want: [{ code: "rego_unsafe_var_error", row: 1, col: 1, message: "var x is unsafe" }],
  },
  {
    note: "query/:= redeclared in a query",
    module: `package t\n\np := 1\n`,
    query: "x := 1; x := 2",
    want: [{ code: "rego_compile_error", row: 1, col: 9, message: "var x assigned above" }],
  },
];

function diagnostics(c: Case): RegoError[] {
  const m = parseModuleResult(c.module, { file: "t.rego" });
  if (!m.module) return m.errors;
  const ctx = compileModules([m.module], { enablePrint: c.print === true });
  if (ctx.errors.length > 0 || c.query === undefined) return ctx.errors;
  const q = parseQueryResult(c.query);
  if (!q.body) return q.errors;
  return compileQuery(ctx, q.body).errors;
}

describe("compile errors (table)", () => {
  it("has at least 30 programs", () => expect(cases.length).to.be.at.least(30));
  for (const c of cases) {
    it(c.note, () => {
      const got = diagnostics(c).map((e) => ({ code: e.code, row: e.location?.row ?? 0, col: e.location?.col ?? 0, message: e.message }));
      if (c.exhaustive === false) expect(got).to.deep.include.members(c.want);
      else expect(got).to.have.deep.members(c.want);
    });
  }
});
