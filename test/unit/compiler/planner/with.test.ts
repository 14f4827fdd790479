// `with` generations (with.ts, deps.ts, rules.ts): a rule is planned anew only for the overrides
// that can change it, once per distinct set of them, however many `with`s (tests) use them; the
// answers stay OPA's.
import { expect } from "chai";
import { planRego } from "../../../../compiler/index.js";
import { runTests } from "../../../../compiler/testing/runner.js";

const LIB = `package lib
f(x) := x + 1
q := f(1)
unrelated := count([1, 2])
r if { q == 10; unrelated == 2 }
deny contains "d" if input.bad
chain if { count(deny) == 0; r }
`;

/** A test package: its own mock of lib.f (the same text in every package) and tests using it. */
function testPackage(name: string, mock = "x * 10"): string {
  return `package ${name}
import data.lib
g(x) := ${mock}
test_q if lib.q == 10 with lib.f as g
test_r if lib.r with lib.f as g
test_chain if lib.chain with lib.f as g with input.bad as false
test_deny if not lib.chain with lib.f as g with data.lib.deny as {"x"}
`;
}

function funcNames(modules: Record<string, string>, entrypoints: string[]): string[] {
  const plan = planRego({ modules, entrypoints }) as { funcs: { funcs: { name: string }[] } };
  return plan.funcs.funcs.map((f) => f.name);
}

/** The funcs planned for a rule path, in every generation. */
function copies(names: string[], path: string): string[] {
  return names.filter((n) => n.replace(/^g\d+\./, "") === path);
}

describe("planner: with generations", () => {
  const modules = { "lib.rego": LIB, "t1.rego": testPackage("t1"), "t2.rego": testPackage("t2") };
  const entrypoints = ["t1/test_q", "t1/test_r", "t1/test_chain", "t1/test_deny", "t2/test_q", "t2/test_r", "t2/test_chain", "t2/test_deny"];

  it("plans a rule no override reaches once, in generation 0", () => {
    const names = funcNames(modules, entrypoints);
    expect(copies(names, "data.lib.unrelated")).to.deep.equal(["g0.data.lib.unrelated"]);
  });

  it("plans an affected rule once per distinct set of overrides, mocks by functions of the same text being one", () => {
    const names = funcNames(modules, entrypoints);
    // lib.q under `lib.f as g` (t1's and t2's g are the same function); lib.r likewise
    expect(copies(names, "data.lib.q")).to.have.length(1);
    expect(copies(names, "data.lib.r")).to.have.length(1);
    // lib.chain: under the mock alone, and under the mock with lib.deny shadowed
    expect(copies(names, "data.lib.chain")).to.have.length(2);
    // lib.deny does not call lib.f: generation 0's serves under the mock
    expect(copies(names, "data.lib.deny")).to.deep.equal(["g0.data.lib.deny"]);
  });

  it("keeps mocks by functions of different text apart", async () => {
    const results = await runTests([], { files: { modules: { "lib.rego": LIB, "t1.rego": testPackage("t1"), "t2.rego": testPackage("t2", "x * 20") } } });
    const failed = results.filter((r) => r.fail || r.error).map((r) => `${r.package}.${r.name}`);
    // t2's g makes q 20: its tests of q, r and chain fail; test_deny passes (deny is shadowed)
    expect(failed).to.deep.equal(["data.t2.test_q", "data.t2.test_r", "data.t2.test_chain"]);
  });

  it("answers as OPA when generations are shared", async () => {
    const results = await runTests([], { files: { modules } });
    expect(results.map((r) => [`${r.package}.${r.name}`, r.fail, r.error?.message])).to.deep.equal(entrypoints.map((e) => [`data.${e.replace("/", ".")}`, false, undefined]));
  });
});
