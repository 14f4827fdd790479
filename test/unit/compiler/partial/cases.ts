// The conformance table of partial evaluation: a policy, a query, what is known and what is
// unknown → the residual queries as Rego text (one line per query, in any order; "true" is the
// query that always holds, no line at all: never true) and the support modules. Modelled on OPA's
// own partial-evaluation tests (v1/topdown/topdown_partial_test.go, v1/rego/rego_test.go) and on
// the data-filtering examples of OPA's docs, in our words. Where OPA writes an equality's operands
// the other way round or keeps an expression that can never hold, the case says so.

export interface PartialCase {
  note: string;
  modules?: Record<string, string>;
  query: string;
  input?: unknown;
  data?: unknown;
  unknowns: string[];
  disableInlining?: string[];
  /** The residual queries, printed. */
  want: string[];
  /** The support modules, printed (none when absent). */
  support?: string[];
}

const filters = (body: string): Record<string, string> => ({ "filters.rego": `package filters\n\n${body}\n` });

export const cases: PartialCase[] = [
  // ---- unification, from OPA's topdown tests
  { note: "a query that always holds", query: "true = true", unknowns: ["input"], want: ["true"] },
  { note: "a query var keeps its value", query: "x = 1", unknowns: ["input"], want: ["x = 1"] },
  { note: "an unknown on the left", query: "input.x = 1", unknowns: ["input"], want: ["input.x = 1"] },
  { note: "an unknown on the right", query: "1 = input.x", unknowns: ["input"], want: ["1 = input.x"] },
  { note: "two unknowns", query: "input.x = input.y", unknowns: ["input"], want: ["input.x = input.y"] },
  {
    note: "vars are replaced by their values",
    query: "x = 1; y = 2; input.x = x; y = input.y",
    unknowns: ["input"],
    want: ["input.x = 1; 2 = input.y; x = 1; y = 2"],
  },
  { note: "iteration over a known array", query: "a = [1,2]; a[i] = x", unknowns: ["input"], want: ["a = [1, 2]; i = 0; x = 1", "a = [1, 2]; i = 1; x = 2"] },
  {
    note: "complete rules are substituted (OPA writes the first equality the other way round)",
    modules: { "t.rego": `package test\np = x if { x = "foo" }\nq = x if { x = "bar" }` },
    query: "input.x = data.test.p; data.test.q = input.y",
    unknowns: ["input"],
    want: [`input.x = "foo"; "bar" = input.y`],
  },
  {
    note: "an unknown key of known data: one query per key that matches",
    modules: { "t.rego": `package test\np if {\n  input.x = k\n  data.x[k] = 7\n}` },
    query: "data.test.p = true",
    data: { x: { foo: 7, bar: 7 } },
    unknowns: ["input"],
    want: [`input.x = "bar"`, `input.x = "foo"`],
  },
  {
    note: "an unknown key of known data that never matches",
    modules: { "t.rego": `package test\np if {\n  input.x = k\n  data.x[k] = 7\n}` },
    query: "data.test.p = true",
    data: { x: { foo: 8, bar: 8 } },
    unknowns: ["input"],
    want: [],
  },
  {
    note: "iteration over the rules of an object",
    modules: { "t.rego": `package test\np["a"] = "b"\np["b"] = "c"\np["c"] = "d"` },
    query: "data.test.p[x] = input.x",
    unknowns: ["input"],
    want: [`"b" = input.x; x = "a"`, `"c" = input.x; x = "b"`, `"d" = input.x; x = "c"`],
  },
  {
    note: "iteration over a partial set",
    modules: { "t.rego": `package test\np contains 1\np contains 2\np contains 3` },
    query: "input.x = x; data.test.p[x]",
    unknowns: ["input"],
    want: ["input.x = 1; x = 1", "input.x = 2; x = 2", "input.x = 3; x = 3"],
  },
  {
    note: "a partial object read at an unknown key",
    modules: { "t.rego": `package test\np[x] = {y: z} if { x = input.x; y = "foo"; z = 1 }\np[x] = {y: z} if { x = input.y; y = "bar"; z = 2 }` },
    query: "data.test.p[x].foo = 1",
    unknowns: ["input"],
    want: ["x = input.x"],
  },
  {
    note: "a partial set element with an unknown part, read at a known key",
    modules: { "t.rego": `package test\np contains x if { x = {y: z}; y = "foo"; z = input.x }\np contains x if { x = {y: z}; y = "bar"; z = input.x }` },
    query: "data.test.p[x].foo = 1",
    unknowns: ["input"],
    want: [`input.x = 1; x = {"foo": input.x}`],
  },
  // ---- functions
  {
    note: "a function is inlined, its output folded into the call",
    modules: { "t.rego": `package test\nf(x) = y if { y = x + 1 }` },
    query: "data.test.f(input.x, 3)",
    unknowns: ["input"],
    want: ["plus(input.x, 1, 3)"],
  },
  {
    note: "a function with two bodies gives two queries",
    modules: { "t.rego": `package test\nf(x) if { x > 1 }\nf(x) if { x < -1 }` },
    query: "data.test.f(input.x)",
    unknowns: ["input"],
    want: ["input.x > 1", "input.x < -1"],
  },
  {
    note: "a function over known arguments is evaluated",
    modules: filters(`import rego.v1\nadult(age) if age >= 18\ninclude if { adult(input.user.age); input.fruits.price < 10 }`),
    query: "data.filters.include",
    input: { user: { age: 30 } },
    unknowns: ["input.fruits"],
    want: ["input.fruits.price < 10"],
  },
  {
    note: "a value computed from an unknown: the query var takes the call's output",
    modules: { "t.rego": "package test\np := input.x.a + 1" },
    query: "data.test.p = y",
    unknowns: ["input.x"],
    want: ["plus(input.x.a, 1, y)"],
  },
  // ---- rules
  {
    note: "a rule with two bodies gives two queries",
    modules: { "t.rego": `package test\np if { input.a = 1 }\np if { input.b = 2 }` },
    query: "data.test.p",
    unknowns: ["input"],
    want: ["input.a = 1", "input.b = 2"],
  },
  {
    note: "a rule over known input only is evaluated: true",
    modules: { "t.rego": `package test\np if { input.x.a = 1 }` },
    query: "data.test.p",
    input: { x: { a: 1 } },
    unknowns: ["input.y"],
    want: ["true"],
  },
  {
    note: "a rule over known input only is evaluated: undefined",
    modules: { "t.rego": `package test\np if { input.x.a = 1 }` },
    query: "data.test.p",
    input: { x: { a: 2 } },
    unknowns: ["input.y"],
    want: [],
  },
  {
    note: "a rule calling another rule inlines both",
    modules: { "t.rego": `package test\nimport rego.v1\np if { q; input.user == "admin" }\nq if { input.y > 1 }` },
    query: "data.test.p",
    input: { user: "admin" },
    unknowns: ["input.y"],
    want: ["input.y > 1"],
  },
  {
    note: "a default rule over an unknown becomes a support rule",
    modules: { "t.rego": `package test\nimport rego.v1\ndefault p := false\np if { input.y > 1 }` },
    query: "data.test.p",
    unknowns: ["input.y"],
    want: ["data.partial.test.p"],
    support: ["package partial.test\n\ndefault p = false\n\np if {\n\tinput.y > 1\n}\n"],
  },
  {
    note: "a default rule compared with a constant other than its default is inlined",
    modules: { "t.rego": `package test\nimport rego.v1\ndefault p := false\np if { input.y > 1 }` },
    query: "data.test.p = true",
    unknowns: ["input.y"],
    want: ["input.y > 1"],
  },
  {
    note: "a default rule compared with its default value needs the support rule",
    modules: { "t.rego": `package test\nimport rego.v1\ndefault p := false\np if { input.y > 1 }` },
    query: "data.test.p = false",
    unknowns: ["input.y"],
    want: ["data.partial.test.p = false"],
    support: ["package partial.test\n\ndefault p = false\n\np if {\n\tinput.y > 1\n}\n"],
  },
  {
    note: "a default rule over known input is evaluated",
    modules: { "t.rego": `package test\nimport rego.v1\ndefault p := false\np if { input.z > 1 }` },
    query: "data.test.p",
    input: { z: 3 },
    unknowns: ["input.y"],
    want: ["true"],
  },
  {
    note: "disableInlining keeps the rule as support",
    modules: { "t.rego": `package test\nimport rego.v1\np if { q }\nq if { input.y > 1 }\nq if { input.y < -1 }` },
    query: "data.test.p",
    unknowns: ["input.y"],
    disableInlining: ["data.test.q"],
    want: ["data.partial.test.q"],
    support: ["package partial.test\n\nq if {\n\tinput.y > 1\n}\n\nq if {\n\tinput.y < -1\n}\n"],
  },
  // ---- negation
  {
    note: "not over one residual expression is kept",
    modules: { "t.rego": `package test\np if { input.a = 1 }` },
    query: "not data.test.p",
    unknowns: ["input"],
    want: ["not input.a = 1"],
  },
  {
    note: "not over a conjunction: one query per negated expression",
    modules: { "t.rego": `package test\np if { input.a = 1; input.b = 2 }` },
    query: "not data.test.p",
    unknowns: ["input"],
    want: ["not input.a = 1", "not input.b = 2"],
  },
  {
    note: "not over a disjunction: the negations together",
    modules: { "t.rego": `package test\np if { not q }\nq if { input.x = 1 }\nq if { input.x = 2 }` },
    query: "data.test.p = true",
    unknowns: ["input"],
    want: ["not input.x = 1; not input.x = 2"],
  },
  {
    note: "not over a function with two bodies",
    modules: { "t.rego": `package test\np if { input.x = x; not q(x) }\nq(x) if { x = 1 }\nq(x) if { x = 2 }` },
    query: "data.test.p = true",
    unknowns: ["input"],
    want: ["not input.x = 1; not input.x = 2"],
  },
  {
    note: "not over nested calls becomes a support rule",
    modules: { "t.rego": `package test\np if { not q }\nq if { ((input.x + 7) / input.y) > 100 }` },
    query: "data.test.p = true",
    unknowns: ["input"],
    want: ["not data.partial.__not1_0_2__"],
    support: ["package partial\n\n__not1_0_2__ if {\n\t(input.x + 7) / input.y > 100\n}\n"],
  },
  {
    note: "not over a rule comparing an unknown becomes a support rule (OPA's compile handler case)",
    modules: filters(`import rego.v1\ninclude if not other\nother if input.fruits.price > 100`),
    query: "data.filters.include",
    unknowns: ["input.fruits"],
    want: ["not data.partial.__not1_0_2__"],
    support: ["package partial\n\n__not1_0_2__ if {\n\tinput.fruits.price > 100\n}\n"],
  },
  {
    note: "not over an iteration made inside the negation becomes a support rule",
    modules: { "t.rego": `package test\np if { q; not r }\nq if { input.x[i] = a; startswith(a, "foo") }\nr if { input.y[i] = 1 }` },
    query: "data.test.p = true",
    unknowns: ["input"],
    want: [`startswith(input.x[i2], "foo"); not data.partial.__not1_1_3__`],
    support: ["package partial\n\n__not1_1_3__ if {\n\tinput.y[i4] = 1\n}\n"],
  },
  {
    note: "not over more than 16 combinations becomes a support rule",
    modules: { "t.rego": `package test\np if { not q }\nq if { a = {1,2,3}; a[x]; input.x = x; input.y = x; input.z = 0 }` },
    query: "data.test.p = true",
    unknowns: ["input"],
    want: ["not data.partial.__not1_0_2__"],
    support: [
      "package partial\n\n__not1_0_2__ if {\n\tinput.x = 1\n\tinput.y = 1\n\tinput.z = 0\n}\n\n__not1_0_2__ if {\n\tinput.x = 2\n\tinput.y = 2\n\tinput.z = 0\n}\n\n__not1_0_2__ if {\n\tinput.x = 3\n\tinput.y = 3\n\tinput.z = 0\n}\n",
    ],
  },
  {
    note: "a call whose output is used once is nested (OPA's copy propagation)",
    modules: { "t.rego": `package test\nimport rego.v1\np if { input.y.v == lower(input.y.w) }` },
    query: "data.test.p",
    unknowns: ["input.y"],
    want: ["input.y.v = lower(input.y.w)"],
  },
  {
    note: "not over a known value that holds fails",
    modules: { "t.rego": `package test\nimport rego.v1\np if { not input.user.admin; input.fruits.x = 1 }` },
    query: "data.test.p",
    input: { user: { admin: true } },
    unknowns: ["input.fruits"],
    want: [],
  },
  // ---- data filtering (OPA's data-filter docs' fruits and tickets examples)
  {
    note: "filter: comparisons and string builtins",
    modules: filters(`import rego.v1\ninclude if {\n  input.fruits.price > 10\n  startswith(input.fruits.name, "a")\n}`),
    query: "data.filters.include",
    unknowns: ["input.fruits"],
    want: [`input.fruits.price > 10; startswith(input.fruits.name, "a")`],
  },
  {
    note: "filter: known input folded into the comparison",
    modules: filters(`import rego.v1\ninclude if input.fruits.colour == input.fav_colour`),
    query: "data.filters.include",
    input: { fav_colour: "red" },
    unknowns: ["input.fruits"],
    want: [`input.fruits.colour = "red"`],
  },
  {
    note: "filter: ownership or admin",
    modules: filters(`import rego.v1\ninclude if input.user.role == "admin"\ninclude if input.tickets.assignee == input.user.name`),
    query: "data.filters.include",
    input: { user: { name: "bob", role: "agent" } },
    unknowns: ["input.tickets"],
    want: [`input.tickets.assignee = "bob"`],
  },
  {
    note: "filter: an admin sees everything",
    modules: filters(`import rego.v1\ninclude if input.user.role == "admin"\ninclude if input.tickets.assignee == input.user.name`),
    query: "data.filters.include",
    input: { user: { name: "ann", role: "admin" } },
    unknowns: ["input.tickets"],
    want: ["true", `input.tickets.assignee = "ann"`],
  },
  {
    note: "filter: tenant from data",
    modules: filters(`import rego.v1\ninclude if input.tickets.tenant == data.tenants[input.user]`),
    query: "data.filters.include",
    input: { user: "u" },
    data: { tenants: { u: "t1" } },
    unknowns: ["input.tickets"],
    want: [`input.tickets.tenant = "t1"`],
  },
  {
    note: "filter: membership in a known collection is kept as `in`",
    modules: filters(`import rego.v1\ninclude if input.fruits.name in {"apple", "banana"}`),
    query: "data.filters.include",
    unknowns: ["input.fruits"],
    want: [`input.fruits.name in {"apple", "banana"}`],
  },
  {
    note: "filter: some x in a known collection gives one query per element",
    modules: filters(`import rego.v1\ninclude if {\n  some n in ["apple", "kiwi"]\n  input.fruits.name == n\n}`),
    query: "data.filters.include",
    unknowns: ["input.fruits"],
    want: [`input.fruits.name = "apple"`, `input.fruits.name = "kiwi"`],
  },
  {
    note: "filter: some x in an unknown collection iterates with a generated var",
    modules: filters(`import rego.v1\ninclude if {\n  some c in input.fruits.colours\n  c == input.colour\n}`),
    query: "data.filters.include",
    input: { colour: "red" },
    unknowns: ["input.fruits"],
    want: [`input.fruits.colours[__local1__1] = "red"`],
  },
  {
    note: "filter: builtins over known values are evaluated",
    modules: filters(`import rego.v1\ninclude if startswith(input.fruits.name, concat("", [lower(input.prefix), "-"]))`),
    query: "data.filters.include",
    input: { prefix: "AB" },
    unknowns: ["input.fruits"],
    want: [`startswith(input.fruits.name, "ab-")`],
  },
  {
    note: "filter: not over an unknown field",
    modules: filters(`import rego.v1\ninclude if {\n  not input.fruits.hidden\n  input.fruits.owner == input.user\n}`),
    query: "data.filters.include",
    input: { user: "u" },
    unknowns: ["input.fruits"],
    want: [`not input.fruits.hidden; input.fruits.owner = "u"`],
  },
  {
    note: "filter: a comprehension over known values is evaluated",
    modules: filters(`import rego.v1\ninclude if {\n  ids := [r.id | some r in input.roles; r.active]\n  input.fruits.role in ids\n}`),
    query: "data.filters.include",
    input: { roles: [{ id: 1, active: true }, { id: 2, active: false }] },
    unknowns: ["input.fruits"],
    want: ["input.fruits.role in [1]"],
  },
  {
    note: "filter: every over a known collection is evaluated",
    modules: filters(`import rego.v1\ninclude if {\n  every r in input.roles { r != "banned" }\n  input.fruits.price < 5\n}`),
    query: "data.filters.include",
    input: { roles: ["a", "b"] },
    unknowns: ["input.fruits"],
    want: ["input.fruits.price < 5"],
  },
  {
    note: "filter: `with` over known input is evaluated",
    modules: filters(`import rego.v1\nok if input.user == "q"\ninclude if {\n  ok with input.user as "q"\n  input.fruits.price < 5\n}`),
    query: "data.filters.include",
    unknowns: ["input.fruits"],
    want: ["input.fruits.price < 5"],
  },
];
