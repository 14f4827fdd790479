// rego_negation_warning (compiler/passes/checkNegation.ts): every legacy `not` whose refs or
// calls OPA's compiler evaluates before the negation is warned of, at the `not`, naming them; the
// forms whose refs stay inside the negation are not. `regoc check` prints the warnings, and
// `--strict` makes them errors.
import { expect } from "chai";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkRego } from "regoc/compiler";
import checkCommand from "../../../compiler/cli/check.js";
import { captureOutput } from "../../support/cli.js";

/** The warnings of one module `package t` + `body`, as `row:col: names` (the message's subject). */
function warnings(body: string): string[] {
  const { errors, warnings } = checkRego({ modules: { "t.rego": `package t\n\n${body}\n` } });
  expect(errors.map(String)).to.deep.equal([]);
  return warnings.map((w) => {
    expect(w.code).to.equal("rego_negation_warning");
    const subject = /^`[^`]*`: (.*) (is|are) evaluated before the negation/.exec(w.message);
    expect(subject, w.message).to.not.equal(null);
    return `${w.location!.row}:${w.location!.col}: ${subject![1]}`;
  });
}

describe("negation warning (rego_negation_warning)", () => {
  describe("fires where a ref or call is evaluated outside the negation", () => {
    it("OPA issue 1877: not f(input.x)", () => {
      expect(warnings("p if not f(input.x)\nf(x) if x == 1")).to.deep.equal(["3:6: input.x"]);
    });

    it("OPA issue 8387: deny if not is_admin(input.user)", () => {
      const rego = 'deny if not is_admin(input.user)\n\nis_admin(user) if {\n\tuser in ["admin", "alice"]\n}';
      expect(warnings(rego)).to.deep.equal(["3:9: input.user"]);
    });

    it("OPA issue 4743: a dynamic key, not obj[input.key_not_present]", () => {
      expect(warnings("obj := {}\nc if {\n\tnot obj[input.key_not_present]\n}")).to.deep.equal(["5:2: input.key_not_present"]);
    });

    it("OPA issue 7558: a function call in a ref's head, not function(\"bar\").foo", () => {
      expect(warnings('v := {"foo": true}\nfunction(_) := v if false\np if not function("bar").foo')).to.deep.equal(['5:6: data.t.function("bar")']);
    });

    it("comparisons, builtins and `in` over refs", () => {
      expect(warnings("p if not input.a > 1")).to.deep.equal(["3:6: input.a"]);
      expect(warnings('p if not startswith(input.x, "a")')).to.deep.equal(["3:6: input.x"]);
      expect(warnings('p if not input.a in {"x"}')).to.deep.equal(["3:6: input.a"]);
      expect(warnings("p if not input.a != input.b")).to.deep.equal(["3:6: input.a and input.b"]);
    });

    it("nested calls, by the call that holds the ref", () => {
      expect(warnings('p if not startswith(lower(input.x), "a")')).to.deep.equal(["3:6: lower(input.x)"]);
      expect(warnings("p if not count(input.xs) > 2")).to.deep.equal(["3:6: count(input.xs)"]);
      expect(warnings("p if not input.a + 1 == 3")).to.deep.equal(["3:6: plus(input.a, 1)"]);
    });

    it("a rule named by a bare var, a user function's result, a function's argument path", () => {
      expect(warnings("token := input.token\np if not valid(token)\nvalid(t) if t == 1")).to.deep.equal(["4:6: data.t.token"]);
      expect(warnings("p if {\n\tx := 1\n\tnot startswith(f(x), \"a\")\n}\nf(x) := \"b\" if x == 2")).to.deep.equal(["5:2: data.t.f(x)"]);
      expect(warnings('f(x) if not startswith(x.name, "a")\np if f(input)')).to.deep.equal(["3:9: x.name"]);
    });

    it("in else bodies, comprehensions, every, and with modifiers", () => {
      expect(warnings('p := 1 if input.a\nelse := 2 if not startswith(input.b, "x")')).to.deep.equal(["4:14: input.b"]);
      expect(warnings("p := [x | some x in [1, 2]; not x > input.lim]")).to.deep.equal(["3:29: input.lim"]);
      expect(warnings("p if every x in input.xs { not x > input.lim }")).to.deep.equal(["3:28: input.lim"]);
      expect(warnings('p if not valid(input.token) with input as {"token": 1}\nvalid(t) if t == 1')).to.deep.equal(["3:6: input.token"]);
    });

    it("in Rego v0 modules too", () => {
      const { warnings } = checkRego({ modules: { "t.rego": "package t\n\np { not f(input.x) }\nf(x) { x == 1 }\n" }, v0Compatible: true });
      expect(warnings.map((w) => `${w.location!.row}:${w.location!.col} ${w.code}`)).to.deep.equal(["3:5 rego_negation_warning"]);
    });

    it("one warning per `not`, in source order, in every module", () => {
      const { warnings } = checkRego({
        modules: { "b.rego": "package b\n\np if not input.b > 1\n", "a.rego": "package a\n\np if not input.a > 1\nq if not input.c > 1\n" },
      });
      expect(warnings.map(String).map((s) => s.slice(0, s.indexOf(" rego_negation")))).to.deep.equal(["a.rego:3:6:", "a.rego:4:6:", "b.rego:3:6:"]);
    });

    it("says what to write instead", () => {
      const [w] = checkRego({ modules: { "t.rego": "package t\n\np if not valid(input.token)\nvalid(t) if t == 1\n" } }).warnings;
      expect(String(w)).to.equal(
        "t.rego:3:6: rego_negation_warning: `not valid(input.token)`: input.token is evaluated before the negation, so when it is " +
          "undefined the expression fails and the rule does not fire (as in OPA); negate a helper rule that holds the whole check, " +
          "or write `not { valid(input.token) }` (import future.keywords.not)",
      );
    });
  });

  describe("does not fire where the negation holds everything it needs", () => {
    const safe: [string, string][] = [
      ["a plain ref", "p if not input.admin"],
      ["a ref with constant keys", 'p if not input.user.roles[0] == "admin"'],
      ["an equality of refs (refs stay in place)", "p if not input.a == input.b"],
      ["a rule", "q if input.x == 1\np if not q"],
      ["a helper rule", "token_valid if valid(input.token)\np if not token_valid\nvalid(t) if t == 1"],
      ["a function over a local var bound before", "p if {\n\tt := input.token\n\tnot valid(t)\n}\nvalid(t) if t == 1"],
      ["a function over an iteration var", "p if {\n\tsome t in input.tokens\n\tnot valid(t)\n}\nvalid(t) if t == 1"],
      ["a dynamic key that is a local var", "p if {\n\tk := input.k\n\tnot data.x[k]\n}"],
      ["object.get over input with a default", 'p if not object.get(input, "a", 0) == 1'],
      ["a builtin over a comprehension", "p if not count([x | some x in input.xs]) > 1"],
      ["a with modifier of a constant", 'q if input.x == 1\np if not q with input as {"x": 2}'],
      ["future.keywords.not: not f(input.x)", "import future.keywords.not\np if not valid(input.token)\nvalid(t) if t == 1"],
      ["future.keywords.not: not { ... }", 'import future.keywords.not\np if not { startswith(lower(input.x), "a"); input.y > 1 }'],
      ["a negated test assertion", "p if input.x == 1\ntest_p if not p with input as {\"x\": 2}"],
    ];
    for (const [name, rego] of safe) {
      it(name, () => expect(warnings(rego)).to.deep.equal([]));
    }

    it("the repository's policies", async () => {
      const { readdirSync, readFileSync } = await import("node:fs");
      const files = readdirSync("policies").filter((f) => f.endsWith(".rego"));
      const modules = Object.fromEntries(files.map((f) => [f, readFileSync(join("policies", f), "utf8")]));
      expect(checkRego({ modules })).to.deep.equal({ errors: [], warnings: [] });
    });

    it("a module that does not compile: its errors, no warnings", () => {
      const r = checkRego({ modules: { "t.rego": "package t\n\np if not input.a > x\n" } });
      expect(r.errors.map((e) => e.code)).to.deep.equal(["rego_unsafe_var_error"]);
      expect(r.warnings).to.deep.equal([]);
    });
  });

  describe("regoc check", () => {
    const dir = mkdtempSync(join(tmpdir(), "regoc-negation-"));
    const file = join(dir, "deny.rego");
    writeFileSync(file, "package t\n\ndeny if not valid(input.token)\n\nvalid(t) if t == \"good\"\n");

    it("prints each warning as its errors, with a code frame, and exits 0", async () => {
      const r = await captureOutput(() => checkCommand.run([file]));
      expect(r.code).to.equal(0);
      const lines = r.out.split("\n");
      expect(lines[0]).to.match(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:9: rego_negation_warning: \`not valid\\(input.token\\)\`: input.token is evaluated`));
      expect(lines.slice(1, 3)).to.deep.equal(["  3 | deny if not valid(input.token)", "              ^"]);
      expect(lines[3]).to.equal("1 warning");
    });

    it("--strict makes them errors: exit 1", async () => {
      const r = await captureOutput(() => checkCommand.run([file, "--strict"]));
      expect(r.code).to.equal(1);
      expect(r.out).to.contain(":3:9: rego_negation_warning: ");
      expect(r.out.trimEnd().split("\n").pop()).to.equal("1 error");
    });
  });
});
