// Negation as `opa eval` answers it, on every route: the ahead-of-time module (planRego →
// generateTypeScript → loadModule), compileRego, Authorizer, Engine and `regoc test`.
//
// What decides each answer is OPA's compiler, before any evaluation (sources: open-policy-agent/opa,
// v1/ast/compile.go and v1/topdown/eval.go):
// - RewriteExprTerms (expandExpr / expandExprTerm): a call nested in an operand is moved to an
//   expression of its own before the negated one, and that expression is not negated;
// - RewriteDynamicTerms (rewriteDynamicsCallExpr / rewriteDynamicsOne): each ref operand of a call
//   (`>`, `startswith`, a user function...) becomes `__localN__ = <ref>` before the negated call;
//   an equality (rewriteDynamicsEqExpr → rewriteDynamicsInTerm) and a term expression
//   (rewriteDynamicsTermExpr) keep their refs, but the refs' dynamic keys are hoisted the same way;
//   the hoisted expression keeps the negated one's `with` (`generated.With = original.With`);
// - RewriteEquals runs before RewriteDynamicTerms: `a == b` is the equality `a = b` there;
// - evalNot (topdown) evaluates what is left of the expression, `expr.Complement()`, in a closure:
//   `not` succeeds when that is undefined.
// A hoisted expression that is undefined fails the body before the `not` is reached: the rule does
// not fire. With `import future.keywords.not` (OPA 1.20, capabilities future_keywords) `not x` and
// `not { ... }` are groups whose body keeps every hoisted expression inside the negation
// (compilecases v1/negation/test-compiler-not-import.yaml).
import { expect } from "chai";
import { compileRego, generateTypeScript, loadModule, planRego } from "regoc/compiler";
import { Authorizer, Engine, toJSON, type Value } from "regoc";
import { runTests } from "../../../compiler/testing/runner.js";

/** The decision `data.t.p`: true, false, or undefined (no result). */
type Answer = true | false | undefined;

interface Case {
  name: string;
  /** The body of package t (v1); its decision is `p`. */
  rego: string;
  input: Record<string, unknown>;
  data?: Record<string, unknown>;
  /** More modules, by file name. */
  more?: Record<string, string>;
  /** What `opa eval 'data.t.p'` answers. */
  want: Answer;
}

const VALID = 'valid(t) if t == "good"';
const IS_ADMIN = 'is_admin(user) if user in ["admin", "alice"]';
const R_RULES = "package r\n\na := false\nb := true\n";
const NOT_IMPORT = "import future.keywords.not";

const cases: Case[] = [
  // -- legacy `not` over a call with a ref argument: the ref is hoisted out of the negation
  //    (rewriteDynamicsCallExpr → rewriteDynamicsOne, case Ref)
  { name: "not valid(input.token), token missing (OPA issue 8387)", rego: `p if not valid(input.token)\n${VALID}`, input: {}, want: undefined },
  { name: "not valid(input.token), token bad", rego: `p if not valid(input.token)\n${VALID}`, input: { token: "bad" }, want: true },
  { name: "not valid(input.token), token good", rego: `p if not valid(input.token)\n${VALID}`, input: { token: "good" }, want: undefined },
  { name: "deny if not is_admin(input.user), user missing (issue 8387)", rego: `p if not is_admin(input.user)\n${IS_ADMIN}`, input: {}, want: undefined },
  { name: "deny if not is_admin(input.user), user bob", rego: `p if not is_admin(input.user)\n${IS_ADMIN}`, input: { user: "bob" }, want: true },
  { name: "not startswith(input.x, \"a\"), x missing", rego: 'p if not startswith(input.x, "a")', input: {}, want: undefined },
  { name: "not startswith(input.x, \"a\"), x = b", rego: 'p if not startswith(input.x, "a")', input: { x: "b" }, want: true },
  { name: "not startswith(input.x, \"a\"), x = abc", rego: 'p if not startswith(input.x, "a")', input: { x: "abc" }, want: undefined },
  // a default function does not help: the hoisted argument fails first (rewriteDynamicsOne)
  { name: "not f(input.x) with a default f, x missing", rego: "default f(_) := false\nf(x) if x == 1\np if not f(input.x)", input: {}, want: undefined },
  // `in` is the call internal.member (parser), its operands hoisted as any call's
  { name: "not input.a in {\"x\"}, a missing", rego: 'p if not input.a in {"x"}', input: {}, want: undefined },
  { name: "not input.a in {\"x\"}, a = y", rego: 'p if not input.a in {"x"}', input: { a: "y" }, want: true },

  // -- comparisons are calls (gt, lt, ...): rewriteDynamicsCallExpr hoists their refs
  { name: "not input.a > 1, a missing", rego: "p if not input.a > 1", input: {}, want: undefined },
  { name: "not input.a > 1, a = 0", rego: "p if not input.a > 1", input: { a: 0 }, want: true },
  { name: "not input.a > 1, a = 5", rego: "p if not input.a > 1", input: { a: 5 }, want: undefined },
  // `==` is the equality `=` after RewriteEquals: rewriteDynamicsEqExpr keeps its refs in place,
  // so a missing side makes the negated equality undefined, the `not` true
  { name: "not input.a == input.b, both missing", rego: "p if not input.a == input.b", input: {}, want: true },
  { name: "not input.a == input.b, equal", rego: "p if not input.a == input.b", input: { a: 1, b: 1 }, want: undefined },
  { name: "not input.a == 1, a missing", rego: "p if not input.a == 1", input: {}, want: true },
  { name: "not input.list[0] == \"a\" (constant key), list missing", rego: 'p if not input.list[0] == "a"', input: {}, want: true },
  // ... but an equality's dynamic key is hoisted (rewriteDynamicsInTerm, case Ref: v[1:])
  { name: "not input.m[input.k] == 1, k missing", rego: "p if not input.m[input.k] == 1", input: { m: { a: 1 } }, want: undefined },
  { name: "not input.m[input.k] == 1, k = b", rego: "p if not input.m[input.k] == 1", input: { m: { a: 1 }, k: "b" }, want: true },

  // -- refs with dynamic parts (rewriteDynamicsTermExpr → rewriteDynamicsInTerm; OPA issue 4743)
  { name: "not data.x[input.k], k missing", rego: "p if not data.x[input.k]", input: {}, data: { x: { a: true } }, want: undefined },
  { name: "not data.x[input.k], k = b", rego: "p if not data.x[input.k]", input: { k: "b" }, data: { x: { a: true } }, want: true },
  { name: "not data.x[input.k], k = a", rego: "p if not data.x[input.k]", input: { k: "a" }, data: { x: { a: true } }, want: undefined },
  // a dynamic key over rules: the lookup tries each rule of data.r (a BlockStmt in the plan)
  { name: "not data.r[input.k] over rules, k names a false rule", rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: { k: "a" }, want: true },
  { name: "not data.r[input.k] over rules, k names a true rule", rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: { k: "b" }, want: undefined },
  { name: "not data.r[input.k] over rules, no such rule", rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: { k: "c" }, want: true },
  { name: "not data.r[input.k] over rules, k missing", rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: {}, want: undefined },
  { name: "not obj[input.k] over a rule (issue 4743)", rego: "obj := {}\np if not obj[input.k]", input: {}, want: undefined },

  // -- nested calls: expandExprTerm (case Call) moves the inner call out of the negation
  { name: "not startswith(lower(input.x), \"a\"), x missing", rego: 'p if not startswith(lower(input.x), "a")', input: {}, want: undefined },
  { name: "not startswith(lower(input.x), \"a\"), x = B", rego: 'p if not startswith(lower(input.x), "a")', input: { x: "B" }, want: true },
  // lower(1) is a type error: undefined outside strict mode, and outside the negation
  { name: "not startswith(lower(input.x), \"a\"), x = 1", rego: 'p if not startswith(lower(input.x), "a")', input: { x: 1 }, want: undefined },
  { name: "not count(input.xs) > 2, xs missing", rego: "p if not count(input.xs) > 2", input: {}, want: undefined },
  { name: "not count(input.xs) > 2, one x", rego: "p if not count(input.xs) > 2", input: { xs: [1] }, want: true },
  { name: "not input.a + 1 == 3, a missing", rego: "p if not input.a + 1 == 3", input: {}, want: undefined },
  // a call in a ref's head: `fn("bar").foo` is `__localN__ = fn("bar")` first (OPA issue 7558)
  { name: "not fn(\"bar\").foo, fn undefined", rego: 'v := {"foo": true}\nfn(_) := v if false\np if not fn("bar").foo', input: {}, want: undefined },
  { name: "not variable.foo, variable undefined", rego: 'v := {"foo": true}\nvariable := v if false\np if not variable.foo', input: {}, want: true },
  // object.get's default keeps the operand defined: `input` itself is hoisted, and defined
  { name: "not object.get(input, \"a\", 0) == 1, a missing", rego: 'p if not object.get(input, "a", 0) == 1', input: {}, want: true },

  // -- `not` over a plain ref or a rule: nothing to hoist
  { name: "not input.admin, missing", rego: "p if not input.admin", input: {}, want: true },
  { name: "not input.admin, false", rego: "p if not input.admin", input: { admin: false }, want: true },
  { name: "not input.admin, true", rego: "p if not input.admin", input: { admin: true }, want: undefined },
  { name: "not input.admin, a string (defined, not false)", rego: "p if not input.admin", input: { admin: "yes" }, want: undefined },
  { name: "not q (a rule), q undefined", rego: "q if input.x == 1\np if not q", input: {}, want: true },
  { name: "not q (a rule), q true", rego: "q if input.x == 1\np if not q", input: { x: 1 }, want: undefined },
  { name: "helper rule: not token_valid, token missing", rego: `token_valid if valid(input.token)\np if not token_valid\n${VALID}`, input: {}, want: true },
  { name: "OPA issue 1877: not f(input.x), x missing", rego: "f(x) if x == 1\np if not f(input.x)", input: {}, want: undefined },
  // policies/api.rego's rate limit, both ways: no count recorded must pass
  { name: "rate limit as a comparison under not, no count", rego: "p if not data.rate_limits[input.user.id].count > 100", input: { user: { id: "u1" } }, data: { rate_limits: {} }, want: undefined },
  { name: "rate limit through a helper rule, no count", rego: "over if data.rate_limits[input.user.id].count > 100\np if not over", input: { user: { id: "u1" } }, data: { rate_limits: {} }, want: true },
  { name: "rate limit through a helper rule, count 101", rego: "over if data.rate_limits[input.user.id].count > 100\np if not over", input: { user: { id: "u1" } }, data: { rate_limits: { u1: { count: 101 } } }, want: undefined },
  { name: "default p := false over the trap, token missing", rego: `default p := false\np if not valid(input.token)\n${VALID}`, input: {}, want: false },
  { name: "explicit local: t := input.token; not valid(t)", rego: `p if {\n\tt := input.token\n\tnot valid(t)\n}\n${VALID}`, input: {}, want: undefined },

  // -- `with`: the hoisted expression keeps the modifiers (rewriteDynamicsOne: generated.With)
  { name: "not valid(input.token) with input.token as \"bad\"", rego: `p if not valid(input.token) with input.token as "bad"\n${VALID}`, input: {}, want: true },
  { name: "not valid(input.token) with input as {}", rego: `p if not valid(input.token) with input as {}\n${VALID}`, input: { token: "bad" }, want: undefined },
  { name: "not q with input as {\"x\": 1}", rego: 'q if input.x == 1\np if not q with input as {"x": 1}', input: {}, want: undefined },

  // -- inside functions, comprehensions and `every`: the same rewrites in their own bodies
  { name: "function body: not startswith(x.name, \"a\"), name missing", rego: 'f(x) if not startswith(x.name, "a")\np if f(input)', input: {}, want: undefined },
  { name: "function body: not startswith(x.name, \"a\"), name b", rego: 'f(x) if not startswith(x.name, "a")\np if f(input)', input: { name: "b" }, want: true },
  { name: "comprehension: [x | some x in [1, 2]; not x > input.lim] == [] without lim", rego: "p if [x | some x in [1, 2]; not x > input.lim] == []", input: {}, want: true },
  { name: "comprehension: ... == [2] with lim 1", rego: "p if [x | some x in [1, 2]; not x > input.lim] == [1]", input: { lim: 1 }, want: true },
  { name: "every x in input.xs { not x > input.lim }, lim missing", rego: "p if every x in input.xs { not x > input.lim }", input: { xs: [1, 2] }, want: undefined },
  { name: "every x in input.xs { not x > input.lim }, no xs: vacuous", rego: "p if every x in input.xs { not x > input.lim }", input: { xs: [] }, want: true },
  { name: "every x in input.xs { not x > input.lim }, within", rego: "p if every x in input.xs { not x > input.lim }", input: { xs: [1, 2], lim: 5 }, want: true },

  // -- `import future.keywords.not`: `not x` / `not { ... }` keep what they hoist inside
  //    (compilecases v1/negation: `not {__local1__ = input.x; ...}`)
  { name: "future not: not valid(input.token), token missing", rego: `${NOT_IMPORT}\np if not valid(input.token)\n${VALID}`, input: {}, want: true },
  { name: "future not: not valid(input.token), token good", rego: `${NOT_IMPORT}\np if not valid(input.token)\n${VALID}`, input: { token: "good" }, want: undefined },
  { name: "future not: not { valid(input.token) }, token missing", rego: `${NOT_IMPORT}\np if not { valid(input.token) }\n${VALID}`, input: {}, want: true },
  { name: "future not: not input.a > 1, a missing", rego: `${NOT_IMPORT}\np if not input.a > 1`, input: {}, want: true },
  { name: "future not: not data.x[input.k], k missing", rego: `${NOT_IMPORT}\np if not data.x[input.k]`, input: {}, data: { x: { a: true } }, want: true },
  { name: "future not: not { startswith(lower(input.x), \"a\") }, x missing", rego: `${NOT_IMPORT}\np if not { startswith(lower(input.x), "a") }`, input: {}, want: true },
  // an enumeration needs the explicit body: `not input.roles[_] == "admin"` is refused (var _ is unsafe)
  { name: "future not: not { input.roles[_] == \"admin\" }, no admin", rego: `${NOT_IMPORT}\np if not { input.roles[_] == "admin" }`, input: { roles: ["a", "b"] }, want: true },
  { name: "future not: not { input.roles[_] == \"admin\" }, an admin", rego: `${NOT_IMPORT}\np if not { input.roles[_] == "admin" }`, input: { roles: ["a", "admin"] }, want: undefined },
  { name: "future not: not { input.a > 1; input.b > 1 }, a = 5, b missing", rego: `${NOT_IMPORT}\np if not { input.a > 1; input.b > 1 }`, input: { a: 5 }, want: true },
  { name: "future not: not { input.a > 1; input.b > 1 }, both 5", rego: `${NOT_IMPORT}\np if not { input.a > 1; input.b > 1 }`, input: { a: 5, b: 5 }, want: undefined },
];

function moduleOf(c: Case): Record<string, string> {
  return { "t.rego": `package t\n\n${c.rego}\n`, ...c.more };
}

/** A decision value as the answer: true, false or undefined (other values fail the test). */
function answer(v: unknown): Answer {
  if (v === undefined || v === true || v === false) return v;
  throw new Error(`not a boolean decision: ${JSON.stringify(v)}`);
}

function regoJSON(v: unknown): string {
  return JSON.stringify(v);
}

describe("negation: every route answers as opa eval", function () {
  this.timeout(120_000);

  it(`has at least 30 cases (${cases.length})`, () => {
    expect(cases.length).to.be.at.least(30);
  });

  for (const c of cases) {
    it(c.name, async () => {
      const modules = moduleOf(c);
      const data = c.data ?? {};
      const got: Record<string, Answer | string> = {};

      // ahead of time: the plan, TypeScript, the module's entrypoint function
      const plan = planRego({ modules, entrypoints: ["t/p"] });
      const mod = await loadModule(generateTypeScript(plan).code);
      got.aot = answer(mod.entrypoints["t/p"]!.fn(c.input as never, data as never));

      const pq = await compileRego({ modules, entrypoints: ["t/p"] });
      const rows = pq.evaluate({ input: c.input, data });
      got.compileRego = answer(rows.length === 0 ? undefined : toJSON((rows[0] as { result: Value }).result));

      const authz = await Authorizer.create({ modules, query: "data.t.p", data });
      got.authorizer = authz.authorizeSync(c.input);

      const engine = await Engine.create({ modules });
      engine.loadData("/", data);
      const results = await engine.evaluate("data.t.p", c.input);
      got.engine = answer(results.length === 0 ? undefined : results[0]!.expressions[0]!.value);

      // `regoc test`: a test rule asserting the answer
      const assertion =
        c.want === undefined ? "not data.t.p" : c.want === true ? "data.t.p == true" : "data.t.p == false";
      const test = `package t_test\n\ntest_case if {\n\t${assertion} with input as ${regoJSON(c.input)}\n}\n`;
      const [r] = await runTests([], { files: { modules: { ...modules, "t_test.rego": test }, data } });
      got.regocTest = r!.error ? `ERROR ${r!.error.message}` : r!.fail ? "FAIL" : "PASS";

      expect(got).to.deep.equal({
        aot: c.want,
        compileRego: c.want,
        // an Authorizer's decision: no result is false
        authorizer: c.want === true,
        engine: c.want,
        regocTest: "PASS",
      });
    });
  }
});
