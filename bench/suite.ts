// A synthesised test suite in the shape of a large user suite (regoc issue 16): v1 policies in
// layered packages whose rules call each other across packages, each with a test module whose
// tests use `with` on input, on data (plain data and rules), and on functions and built-ins.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface SuiteShape {
  /** Policies; each gets a test module too. */
  policies: number;
  /** Tests per test module (multiples of the TESTS templates' length repeat them with new values). */
  testsPerModule: number;
}

export const ISSUE_SHAPE: SuiteShape = { policies: 83, testsPerModule: 12 };

/** The packages a policy depends on: the policy below it and one half-way down (a layered tree). */
function deps(i: number): number[] {
  return i === 0 ? [] : [...new Set([i - 1, Math.floor(i / 2)])];
}

function policy(i: number): string {
  const ds = deps(i);
  const imports = ds.map((d) => `import data.suite.p${d}`).join("\n");
  // (chains of one dependency: rules are not memoised across calls, two would evaluate exponentially)
  const depPermitted = i === 0 ? "" : `\tp${i - 1}.permitted`;
  const depScore = i === 0 ? "0" : `p${Math.floor(i / 2)}.score`;
  return `package suite.p${i}

import data.suite.lib
${imports}

default allow := false

allow if {
\tinput.user.role == "admin"
}

allow if {
\tsome role in data.roles[input.user.name]
\trole in writers
\tinput.method in {"GET", "POST"}
\tpermitted
}

writers contains "writer"

writers contains r if {
\tsome r in data.extra_writers
}

permitted if {
\tcount(deny) == 0
\tlib.normalise(input.user.name) != "nobody"
${depPermitted}
}

deny contains msg if {
\tinput.user.blocked
\tmsg := sprintf("user %v is blocked in p${i}", [input.user.name])
}

deny contains msg if {
\tsome tag in input.tags
\tstartswith(tag, "bad")
\tmsg := lib.label(tag, ${i})
}

score := s if {
\ts := sum([w | some k, w in data.weights]) + ${depScore}
}

level(x) := "high" if x > 10

level(x) := "low" if x <= 10

grade := level(score)
`;
}

/** The policy over all others: the violations of every package. */
function main(): string {
  return `package suite.main

violations contains msg if {
\tsome name
\tsome msg in data.suite[name].deny
}
`;
}

function lib(): string {
  return `package suite.lib

normalise(name) := lower(trim_space(name))

label(tag, n) := sprintf("%s@%d", [tag, n])

is_admin(u) if u.role == "admin"
`;
}

/** Test templates: each a function of the policy number and a variant (for repeats). */
const TESTS: Array<(i: number, v: number) => string> = [
  (i, v) => `test_admin_${v} if p.allow with input as {"user": {"name": "a${v}", "role": "admin"}}`,
  (i, v) => `test_writer_${v} if {
\tp.allow with input as {"user": {"name": "w${v}"}, "method": "GET"}
\t\twith data.roles as {"w${v}": ["writer"]}
\t\twith data.weights as {"a": ${v}}
}`,
  (i, v) => `test_not_writer_${v} if {
\tnot p.allow with input as {"user": {"name": "r${v}"}, "method": "GET"} with data.roles as {"r${v}": ["reader"]}
}`,
  (i, v) => `test_extra_writer_${v} if {
\tp.allow with input as {"user": {"name": "e${v}"}, "method": "POST"}
\t\twith data.roles as {"e${v}": ["editor"]}
\t\twith data.extra_writers as ["editor"]
}`,
  (i, v) => `test_blocked_${v} if {
\tnot p.allow with input as {"user": {"name": "b${v}", "blocked": true}, "method": "GET"} with data.roles as {"b${v}": ["writer"]}
}`,
  (i, v) => `test_deny_tag_${v} if {
\tp.deny == {"bad${v}@${i}"} with input as {"user": {"name": "t"}, "tags": ["bad${v}", "good"]}
}`,
  (i, v) => `test_deny_mocked_${v} if {
\tnot p.allow with input as {"user": {"name": "m${v}"}, "method": "GET"}
\t\twith data.roles as {"m${v}": ["writer"]}
\t\twith data.suite.p${i}.deny as {"mocked"}
}`,
  (i, v) => `test_normalise_mocked_${v} if {
\tnot p.permitted with lib.normalise as mock_normalise with input as {"user": {"name": "x${v}"}}
}`,
  (i, v) => `test_builtin_mocked_${v} if {
\tnot p.permitted with count as mock_count with input as {"user": {"name": "c${v}"}}
}`,
  (i, v) => `test_score_${v} if {
\tp.score == ${v + 3} with data.weights as {"a": 1, "b": 2, "c": ${v}}${i === 0 ? "" : ` with data.suite.p${Math.floor(i / 2)}.score as 0`}
}`,
  (i, v) => `test_main_${v} if {
\tmain.violations == {"mocked ${v}", "none"} with input as {"user": {"name": "m${v}"}, "tags": ["bad"]}
\t\twith data.suite.p${i}.deny as {"mocked ${v}"}
\t\twith lib.label as mock_label
}`,
  (i, v) => `test_level_mocked_${v} if {
\tp.grade == "mid" with p.level as mock_level with data.weights as {"a": ${v}}
}`,
];

function tests(i: number, n: number): string {
  const out = [];
  for (let k = 0; k < n; k++) out.push(TESTS[k % TESTS.length]!(i, Math.floor(k / TESTS.length)));
  return `package suite.p${i}_test

import data.suite.lib
import data.suite.main
import data.suite.p${i} as p

mock_normalise(_) := "nobody"

mock_count(_) := 1

mock_level(_) := "mid"

mock_label(_, _) := "none"

${out.join("\n\n")}
`;
}

/** Writes the suite into `dir` (emptied first); returns the number of tests. */
export function writeSuite(dir: string, shape: SuiteShape = ISSUE_SHAPE): number {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < shape.policies; i++) {
    writeFileSync(join(dir, `p${i}.rego`), policy(i));
    writeFileSync(join(dir, `p${i}_test.rego`), tests(i, shape.testsPerModule));
  }
  writeFileSync(join(dir, "lib.rego"), lib());
  writeFileSync(join(dir, "main.rego"), main());
  writeFileSync(join(dir, "data.json"), JSON.stringify({ roles: {}, weights: { a: 1 }, extra_writers: [] }));
  return shape.policies * shape.testsPerModule;
}
