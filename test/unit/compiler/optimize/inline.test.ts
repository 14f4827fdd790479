// The inlining pass (compiler/optimize/inline.ts): which calls it replaces by the callee's body
// (before/after IR), which it leaves alone (several bodies, rule funcs, calls in scans, bodies
// with scans), and that the module answers exactly as without the optimiser: values,
// undefinedness, conflicts, errors.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { generateTypeScript, loadModule, planRego, planRegoDetailed } from "regoc/compiler";
import { preparePolicy } from "../../../../compiler/codegen/generate.js";
import type { Policy } from "../../../../compiler/ir/types.js";
import { inline } from "../../../../compiler/optimize/inline.js";
import { optimize } from "../../../../compiler/optimize/index.js";
import { bodyText } from "./support.js";

function plan(source: string, entrypoint = "t/allow"): Policy {
  return preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }));
}

const CHECK_ROLE = `package t
allow if check_role("admin")
check_role(role) if input.user.role == role
`;

type Fn = (input: unknown, data: unknown) => unknown;

/** The entrypoint's function, compiled with or without the optimiser. */
async function compiled(source: string, optimizeIt: boolean, entrypoint = "t/allow"): Promise<Fn> {
  const generated = generateTypeScript(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }), { optimize: optimizeIt });
  const mod = await loadModule(generated.code, generated);
  return (mod.entrypoints[entrypoint] as unknown as { fn: Fn }).fn;
}

/** What a call answers: its value, or the error's code. */
function outcome(fn: Fn, input: unknown, data: unknown = {}): unknown {
  try {
    return fn(input, data);
  } catch (e) {
    return { error: e instanceof RegoError ? e.code : String(e) };
  }
}

/** Asserts that the optimised and plain modules answer the same on every input (and returns the
 * optimised answers). */
async function sameAnswers(source: string, inputs: unknown[], entrypoint = "t/allow"): Promise<unknown[]> {
  const [plain, optimised] = await Promise.all([compiled(source, false, entrypoint), compiled(source, true, entrypoint)]);
  const out: unknown[] = [];
  for (const input of inputs) {
    const want = outcome(plain, input);
    const got = outcome(optimised, input);
    assert.deepEqual(got, want, `input ${JSON.stringify(input)}`);
    out.push(got);
  }
  return out;
}

const callsIn = (text: string, func: string) => text.split("\n").filter((l) => l.includes(`${func}(`)).length;

describe("optimize: inline", () => {
  it("a call of a one-body function becomes its body, params bound to the args", () => {
    const p = plan(CHECK_ROLE);
    assert.equal(
      bodyText(p, "g0.data.t.allow").split("\n").slice(0, 6).join("\n"),
      ["{", "  reset l3", '  l4 = g0.data.t.check_role(l0, l1, "admin")', "  l4 != false", "  l3 := true", "}"].join("\n"),
    );
    assert.equal(
      bodyText(inline.run(p), "g0.data.t.allow").split("\n").slice(0, 10).join("\n"),
      [
        "{",
        "  reset l3",
        '  l5 = "admin"',
        "  l6 = l5",
        '  l7 = l0["user"]',
        '  l8 = l7["role"]',
        "  l8 == l6",
        "  l4 = true",
        "  l4 != false",
        "  l3 := true",
      ].join("\n"),
    );
  });

  it("with the other passes, the constant arg reaches the comparison", () => {
    const text = bodyText(optimize(plan(CHECK_ROLE)).policy, "g0.data.t.allow");
    assert.ok(text.startsWith(["{", '  l7 = l0["user"]', '  l8 = l7["role"]', '  l8 == "admin"'].join("\n")), text);
    assert.equal(callsIn(text, "check_role"), 0);
  });

  it("hands the function's variable names on to the caller's new locals", () => {
    const source = `package t\nallow if f("a")\nf(x) if { some_name := lower(input.a); startswith(some_name, x) }\n`;
    const { plan: p, localNames } = planRegoDetailed({ modules: { "t.rego": source }, entrypoints: ["t/allow"] });
    const code = generateTypeScript(p, { localNames }).code;
    assert.match(code, /some_name = call1\(\$, lower, l\d+\);/);
    assert.match(code, /call2\(\$, startswith, some_name, "a"\)/);
    assert.doesNotMatch(code, /function g0DataTF\(/);
  });

  it("a rule called from one site of a rule becomes its body there, answering as without the optimiser", async () => {
    const source = `package t\nallow if r\nallow if { input.b == 2; r2 }\nr if input.a == 1\nr2 if input.c == 3\n`;
    const p = plan(source);
    assert.equal(callsIn(bodyText(p, "g0.data.t.allow"), "g0.data.t.r"), 1);
    const text = bodyText(inline.run(p), "g0.data.t.allow");
    assert.equal(callsIn(text, "g0.data.t.r"), 0, text);
    assert.equal(callsIn(text, "g0.data.t.r2"), 0, text);
    assert.match(text, /l\d+ = l0\["a"\]/);
    const inputs = [{ a: 1 }, { a: 2, b: 2, c: 3 }, { b: 2, c: 4 }, { a: "1" }, {}, undefined];
    assert.deepEqual(await sameAnswers(source, inputs), [true, true, undefined, undefined, undefined, undefined]);
    // called under a with: the inlined body reads the replaced input
    const withSource = `package t\ndefault allow := false\nallow if { r with input.a as input.b }\nr if input.a == 1\n`;
    assert.equal(callsIn(bodyText(inline.run(plan(withSource)), "g0.data.t.allow"), "g0.data.t.r"), 0);
    assert.deepEqual(await sameAnswers(withSource, [{ a: 1 }, { a: 2, b: 1 }, { b: 2 }, {}]), [false, true, false, false]);
  });

  it("leaves alone a function of several bodies, a rule that may run more than once, a call in a scan, a body with a scan", () => {
    const cases: Array<[string, string, string?]> = [
      [`package t\nallow if f(1)\nf(x) := 1 if x == 1\nf(x) := 2 if x > 0\n`, "g0.data.t.f"],
      [`package t\nallow if r\nallow if { input.b == 2; r }\nr if input.a == 1\n`, "g0.data.t.r"],
      [`package t\nallow if f(1)\nf(x) if { x == 1; r }\nr if input.a == 1\n`, "g0.data.t.r", "g0.data.t.f"],
      [`package t\nallow if { some x in input.xs; x == 1; r }\nr if input.a == 1\n`, "g0.data.t.r"],
      [`package t\nallow if { some x in input.xs; f(x) }\nf(x) if x == input.y\n`, "g0.data.t.f"],
      [`package t\nallow if f(1)\nf(x) if { some y in input.ys; y == x }\n`, "g0.data.t.f"],
    ];
    for (const [source, callee, caller = "g0.data.t.allow"] of cases) {
      const p = plan(source);
      assert.ok(callsIn(bodyText(p, caller), callee) > 0, source);
      assert.equal(callsIn(bodyText(inline.run(p), caller), callee), callsIn(bodyText(p, caller), callee), source);
    }
  });

  it("answers as without the optimiser: values, undefined args and paths, negation, with", async () => {
    const source = `package t
default admin := false
admin if check_role("admin")
default own := false
own if { not blocked(input.user.id); check_role(input.want) }
default doubled := false
doubled if double(input.n) == 4
default auditor := false
auditor if check_role("auditor") with input.user.role as "auditor"
allow := [admin, own, doubled, auditor]
check_role(role) if input.user.role == role
blocked(id) if id == "mallory"
double(x) := y if y := x * 2
`;
    const inputs = [
      { user: { role: "admin" } },
      { user: { role: "user", id: "bob" }, want: "user" },
      { user: { role: "user", id: "mallory" }, want: "user" },
      { user: { role: "user", id: "bob" }, want: "admin" },
      { user: { id: "bob" }, want: "user" },
      { n: 2 },
      { n: "2" },
      undefined,
    ];
    const got = await sameAnswers(source, inputs);
    assert.deepEqual(got, [
      [true, false, false, true],
      [false, true, false, true],
      [false, false, false, true],
      [false, false, false, true],
      [false, false, false, true],
      [false, false, true, true],
      [false, false, false, true], // (a builtin's error makes its expression undefined)
      [false, false, false, true],
    ]);
    const optimised = optimize(plan(source, "t/allow")).policy;
    for (const rule of ["admin", "own", "doubled", "auditor"]) assert.equal(callsIn(bodyText(optimised, `g0.data.t.${rule}`), "check_role"), 0, rule);
  });

  it("keeps the conflict of a function of several bodies, and the errors of builtins", async () => {
    const source = `package t
allow if f(input.x) == 1
f(x) := 1 if x == 1
f(x) := 2 if x > 0
`;
    const got = await sameAnswers(source, [{ x: 1 }, { x: 2 }, { x: 0 }]);
    assert.deepEqual(got, [{ error: "eval_conflict_error" }, undefined, undefined]);
  });
});
