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
  /** The OPA source that decides the answer. */
  by: string;
  /** The body of package t (v1); its decision is `p`. */
  rego: string;
  input: Record<string, unknown>;
  data?: Record<string, unknown>;
  /** More modules, by file name. */
  more?: Record<string, string>;
  /** What `opa eval 'data.t.p'` answers. */
  want: Answer;
}

/** What decides each answer (open-policy-agent/opa: v1/ast/compile.go, v1/topdown/eval.go). */
const CALL_OPERAND = "compile.go rewriteDynamicsCallExpr → rewriteDynamicsOne (case Ref): the call's ref operand is bound first, `__localN__ = ref`, outside the negation";
const EQ_KEEPS = "compile.go rewriteEquals (`==` → `=`), then rewriteDynamicsEqExpr → rewriteDynamicsInTerm (case Ref): an equality keeps its refs; eval.go evalNot negates the undefined equality";
const DYN_KEY = "compile.go rewriteDynamicsTermExpr / rewriteDynamicsEqExpr → rewriteDynamicsInTerm (case Ref): the ref's keys v[1:] go through rewriteDynamicsOne, a ref key is bound first";
const NESTED_CALL = "compile.go expandExpr → expandExprTerm (case Call): the nested call gets an expression of its own before the negated one";
const REF_HEAD_CALL = "compile.go expandExprTerm (case Ref → expandExprRef): a call heading a ref is bound first";
const INPUT_DEFINED = "compile.go expandExprTerm / rewriteDynamicsOne: object.get(input, ...) and `input` itself are bound first, and defined; eval.go evalNot";
const PLAIN = "eval.go evalNot: expr.Complement() evaluated in a closure, nothing hoisted (a ref without ref keys, a rule)";
const PLAIN_WITH = "eval.go evalNot: the complement without its with (NoWith), run under the expression's with (evalWith); nothing hoisted";
const WITH = "compile.go rewriteDynamicsOne: `generated.With = original.With`, the bound ref is read under the same with";
const DEFAULT = "compile.go rewriteDynamicsOne (the ref is bound first), then the default value when no body succeeds";
const LOCAL = "compile.go: nothing hoisted from `not valid(t)`; the assignment before it fails first";
const CLOSURE = "compile.go rewriteDynamics on the comprehension / every body (rewriteDynamicsComprehensionBody, rewriteDynamicsEveryExpr): bound first inside that body";
const FUTURE_NOT = "compilecases v1/negation/test-compiler-not-import.yaml: under import future.keywords.not what is bound stays in the not body (`not {__local1__ = input.x; ...}`); evalNot";

const VALID = 'valid(t) if t == "good"';
const IS_ADMIN = 'is_admin(user) if user in ["admin", "alice"]';
const R_RULES = "package r\n\na := false\nb := true\n";
const NOT_IMPORT = "import future.keywords.not";

const cases: Case[] = [
  // -- legacy `not` over a call with a ref argument: the ref is hoisted out of the negation
  //    (rewriteDynamicsCallExpr → rewriteDynamicsOne, case Ref)
  { name: "not valid(input.token), token missing (OPA issue 8387)", by: CALL_OPERAND, rego: `p if not valid(input.token)\n${VALID}`, input: {}, want: undefined },
  { name: "not valid(input.token), token bad", by: CALL_OPERAND, rego: `p if not valid(input.token)\n${VALID}`, input: { token: "bad" }, want: true },
  { name: "not valid(input.token), token good", by: CALL_OPERAND, rego: `p if not valid(input.token)\n${VALID}`, input: { token: "good" }, want: undefined },
  { name: "deny if not is_admin(input.user), user missing (issue 8387)", by: CALL_OPERAND, rego: `p if not is_admin(input.user)\n${IS_ADMIN}`, input: {}, want: undefined },
  { name: "deny if not is_admin(input.user), user bob", by: CALL_OPERAND, rego: `p if not is_admin(input.user)\n${IS_ADMIN}`, input: { user: "bob" }, want: true },
  { name: "not startswith(input.x, \"a\"), x missing", by: CALL_OPERAND, rego: 'p if not startswith(input.x, "a")', input: {}, want: undefined },
  { name: "not startswith(input.x, \"a\"), x = b", by: CALL_OPERAND, rego: 'p if not startswith(input.x, "a")', input: { x: "b" }, want: true },
  { name: "not startswith(input.x, \"a\"), x = abc", by: CALL_OPERAND, rego: 'p if not startswith(input.x, "a")', input: { x: "abc" }, want: undefined },
  // a default function does not help: the hoisted argument fails first (rewriteDynamicsOne)
  { name: "not f(input.x) with a default f, x missing", by: CALL_OPERAND, rego: "default f(_) := false\nf(x) if x == 1\np if not f(input.x)", input: {}, want: undefined },
  // `in` is the call internal.member (parser), its operands hoisted as any call's
  { name: "not input.a in {\"x\"}, a missing", by: CALL_OPERAND, rego: 'p if not input.a in {"x"}', input: {}, want: undefined },
  { name: "not input.a in {\"x\"}, a = y", by: CALL_OPERAND, rego: 'p if not input.a in {"x"}', input: { a: "y" }, want: true },

  // -- comparisons are calls (gt, lt, ...): rewriteDynamicsCallExpr hoists their refs
  { name: "not input.a > 1, a missing", by: CALL_OPERAND, rego: "p if not input.a > 1", input: {}, want: undefined },
  { name: "not input.a > 1, a = 0", by: CALL_OPERAND, rego: "p if not input.a > 1", input: { a: 0 }, want: true },
  { name: "not input.a > 1, a = 5", by: CALL_OPERAND, rego: "p if not input.a > 1", input: { a: 5 }, want: undefined },
  // `==` is the equality `=` after RewriteEquals: rewriteDynamicsEqExpr keeps its refs in place,
  // so a missing side makes the negated equality undefined, the `not` true
  { name: "not input.a == input.b, both missing", by: EQ_KEEPS, rego: "p if not input.a == input.b", input: {}, want: true },
  { name: "not input.a == input.b, equal", by: EQ_KEEPS, rego: "p if not input.a == input.b", input: { a: 1, b: 1 }, want: undefined },
  { name: "not input.a == 1, a missing", by: EQ_KEEPS, rego: "p if not input.a == 1", input: {}, want: true },
  { name: "not input.list[0] == \"a\" (constant key), list missing", by: EQ_KEEPS, rego: 'p if not input.list[0] == "a"', input: {}, want: true },
  // ... but an equality's dynamic key is hoisted (rewriteDynamicsInTerm, case Ref: v[1:])
  { name: "not input.m[input.k] == 1, k missing", by: DYN_KEY, rego: "p if not input.m[input.k] == 1", input: { m: { a: 1 } }, want: undefined },
  { name: "not input.m[input.k] == 1, k = b", by: DYN_KEY, rego: "p if not input.m[input.k] == 1", input: { m: { a: 1 }, k: "b" }, want: true },

  // -- refs with dynamic parts (rewriteDynamicsTermExpr → rewriteDynamicsInTerm; OPA issue 4743)
  { name: "not data.x[input.k], k missing", by: DYN_KEY, rego: "p if not data.x[input.k]", input: {}, data: { x: { a: true } }, want: undefined },
  { name: "not data.x[input.k], k = b", by: DYN_KEY, rego: "p if not data.x[input.k]", input: { k: "b" }, data: { x: { a: true } }, want: true },
  { name: "not data.x[input.k], k = a", by: DYN_KEY, rego: "p if not data.x[input.k]", input: { k: "a" }, data: { x: { a: true } }, want: undefined },
  // a dynamic key over rules: the lookup tries each rule of data.r (a BlockStmt in the plan)
  { name: "not data.r[input.k] over rules, k names a false rule", by: DYN_KEY, rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: { k: "a" }, want: true },
  { name: "not data.r[input.k] over rules, k names a true rule", by: DYN_KEY, rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: { k: "b" }, want: undefined },
  { name: "not data.r[input.k] over rules, no such rule", by: DYN_KEY, rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: { k: "c" }, want: true },
  { name: "not data.r[input.k] over rules, k missing", by: DYN_KEY, rego: "p if not data.r[input.k]", more: { "r.rego": R_RULES }, input: {}, want: undefined },
  { name: "not obj[input.k] over a rule (issue 4743)", by: DYN_KEY, rego: "obj := {}\np if not obj[input.k]", input: {}, want: undefined },

  // -- nested calls: expandExprTerm (case Call) moves the inner call out of the negation
  { name: "not startswith(lower(input.x), \"a\"), x missing", by: NESTED_CALL, rego: 'p if not startswith(lower(input.x), "a")', input: {}, want: undefined },
  { name: "not startswith(lower(input.x), \"a\"), x = B", by: NESTED_CALL, rego: 'p if not startswith(lower(input.x), "a")', input: { x: "B" }, want: true },
  // lower(1) is a type error: undefined outside strict mode, and outside the negation
  { name: "not startswith(lower(input.x), \"a\"), x = 1", by: NESTED_CALL, rego: 'p if not startswith(lower(input.x), "a")', input: { x: 1 }, want: undefined },
  { name: "not count(input.xs) > 2, xs missing", by: NESTED_CALL, rego: "p if not count(input.xs) > 2", input: {}, want: undefined },
  { name: "not count(input.xs) > 2, one x", by: NESTED_CALL, rego: "p if not count(input.xs) > 2", input: { xs: [1] }, want: true },
  { name: "not input.a + 1 == 3, a missing", by: NESTED_CALL, rego: "p if not input.a + 1 == 3", input: {}, want: undefined },
  // a call in a ref's head: `fn("bar").foo` is `__localN__ = fn("bar")` first (OPA issue 7558)
  { name: "not fn(\"bar\").foo, fn undefined", by: REF_HEAD_CALL, rego: 'v := {"foo": true}\nfn(_) := v if false\np if not fn("bar").foo', input: {}, want: undefined },
  { name: "not variable.foo, variable undefined", by: PLAIN, rego: 'v := {"foo": true}\nvariable := v if false\np if not variable.foo', input: {}, want: true },
  // object.get's default keeps the operand defined: `input` itself is hoisted, and defined
  { name: "not object.get(input, \"a\", 0) == 1, a missing", by: INPUT_DEFINED, rego: 'p if not object.get(input, "a", 0) == 1', input: {}, want: true },

  // -- `not` over a plain ref or a rule: nothing to hoist
  { name: "not input.admin, missing", by: PLAIN, rego: "p if not input.admin", input: {}, want: true },
  { name: "not input.admin, false", by: PLAIN, rego: "p if not input.admin", input: { admin: false }, want: true },
  { name: "not input.admin, true", by: PLAIN, rego: "p if not input.admin", input: { admin: true }, want: undefined },
  { name: "not input.admin, a string (defined, not false)", by: PLAIN, rego: "p if not input.admin", input: { admin: "yes" }, want: undefined },
  { name: "not q (a rule), q undefined", by: PLAIN, rego: "q if input.x == 1\np if not q", input: {}, want: true },
  { name: "not q (a rule), q true", by: PLAIN, rego: "q if input.x == 1\np if not q", input: { x: 1 }, want: undefined },
  { name: "helper rule: not token_valid, token missing", by: PLAIN, rego: `token_valid if valid(input.token)\np if not token_valid\n${VALID}`, input: {}, want: true },
  { name: "OPA issue 1877: not f(input.x), x missing", by: CALL_OPERAND, rego: "f(x) if x == 1\np if not f(input.x)", input: {}, want: undefined },
  // policies/api.rego's rate limit, both ways: no count recorded must pass
  { name: "rate limit as a comparison under not, no count", by: CALL_OPERAND, rego: "p if not data.rate_limits[input.user.id].count > 100", input: { user: { id: "u1" } }, data: { rate_limits: {} }, want: undefined },
  { name: "rate limit through a helper rule, no count", by: PLAIN, rego: "over if data.rate_limits[input.user.id].count > 100\np if not over", input: { user: { id: "u1" } }, data: { rate_limits: {} }, want: true },
  { name: "rate limit through a helper rule, count 101", by: PLAIN, rego: "over if data.rate_limits[input.user.id].count > 100\np if not over", input: { user: { id: "u1" } }, data: { rate_limits: { u1: { count: 101 } } }, want: undefined },
  { name: "default p := false over the trap, token missing", by: DEFAULT, rego: `default p := false\np if not valid(input.token)\n${VALID}`, input: {}, want: false },
  { name: "explicit local: t := input.token; not valid(t)", by: LOCAL, rego: `p if {\n\tt := input.token\n\tnot valid(t)\n}\n${VALID}`, input: {}, want: undefined },

  // -- `with`: the hoisted expression keeps the modifiers (rewriteDynamicsOne: generated.With)
  { name: "not valid(input.token) with input.token as \"bad\"", by: WITH, rego: `p if not valid(input.token) with input.token as "bad"\n${VALID}`, input: {}, want: true },
  { name: "not valid(input.token) with input as {}", by: WITH, rego: `p if not valid(input.token) with input as {}\n${VALID}`, input: { token: "bad" }, want: undefined },
  { name: "not q with input as {\"x\": 1}", by: PLAIN_WITH, rego: 'q if input.x == 1\np if not q with input as {"x": 1}', input: {}, want: undefined },

  // -- inside functions, comprehensions and `every`: the same rewrites in their own bodies
  { name: "function body: not startswith(x.name, \"a\"), name missing", by: CALL_OPERAND, rego: 'f(x) if not startswith(x.name, "a")\np if f(input)', input: {}, want: undefined },
  { name: "function body: not startswith(x.name, \"a\"), name b", by: CALL_OPERAND, rego: 'f(x) if not startswith(x.name, "a")\np if f(input)', input: { name: "b" }, want: true },
  { name: "comprehension: [x | some x in [1, 2]; not x > input.lim] == [] without lim", by: CLOSURE, rego: "p if [x | some x in [1, 2]; not x > input.lim] == []", input: {}, want: true },
  { name: "comprehension: ... == [1] with lim 1", by: CLOSURE, rego: "p if [x | some x in [1, 2]; not x > input.lim] == [1]", input: { lim: 1 }, want: true },
  { name: "every x in input.xs { not x > input.lim }, lim missing", by: CLOSURE, rego: "p if every x in input.xs { not x > input.lim }", input: { xs: [1, 2] }, want: undefined },
  { name: "every x in input.xs { not x > input.lim }, no xs: vacuous", by: CLOSURE, rego: "p if every x in input.xs { not x > input.lim }", input: { xs: [] }, want: true },
  { name: "every x in input.xs { not x > input.lim }, within", by: CLOSURE, rego: "p if every x in input.xs { not x > input.lim }", input: { xs: [1, 2], lim: 5 }, want: true },

  // -- `import future.keywords.not`: `not x` / `not { ... }` keep what they hoist inside
  //    (compilecases v1/negation: `not {__local1__ = input.x; ...}`)
  { name: "future not: not valid(input.token), token missing", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not valid(input.token)\n${VALID}`, input: {}, want: true },
  { name: "future not: not valid(input.token), token good", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not valid(input.token)\n${VALID}`, input: { token: "good" }, want: undefined },
  { name: "future not: not { valid(input.token) }, token missing", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not { valid(input.token) }\n${VALID}`, input: {}, want: true },
  { name: "future not: not input.a > 1, a missing", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not input.a > 1`, input: {}, want: true },
  { name: "future not: not data.x[input.k], k missing", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not data.x[input.k]`, input: {}, data: { x: { a: true } }, want: true },
  { name: "future not: not { startswith(lower(input.x), \"a\") }, x missing", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not { startswith(lower(input.x), "a") }`, input: {}, want: true },
  // an enumeration needs the explicit body: `not input.roles[_] == "admin"` is refused (var _ is unsafe)
  { name: "future not: not { input.roles[_] == \"admin\" }, no admin", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not { input.roles[_] == "admin" }`, input: { roles: ["a", "b"] }, want: true },
  { name: "future not: not { input.roles[_] == \"admin\" }, an admin", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not { input.roles[_] == "admin" }`, input: { roles: ["a", "admin"] }, want: undefined },
  { name: "future not: not { input.a > 1; input.b > 1 }, a = 5, b missing", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not { input.a > 1; input.b > 1 }`, input: { a: 5 }, want: true },
  { name: "future not: not { input.a > 1; input.b > 1 }, both 5", by: FUTURE_NOT, rego: `${NOT_IMPORT}\np if not { input.a > 1; input.b > 1 }`, input: { a: 5, b: 5 }, want: undefined },
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
    it(`${c.name} [${c.by.slice(0, c.by.indexOf(":"))}]`, async () => {
      const modules = moduleOf(c);
      const data = c.data ?? {};
      const got: Record<string, Answer | string> = {};

      // ahead of time: the plan, TypeScript, the module's entrypoint function
      const plan = planRego({ modules, entrypoints: ["t/p"] });
      const mod = await loadModule(generateTypeScript(plan).code);
      got.aot = answer(mod.entrypoints["t/p"]!.fn(c.input as never, data as never));

      const pq = await compileRego({ modules, entrypoints: ["t/p"] });
      const rows = pq.evaluateSync({ input: c.input, data });
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
