// Property tests of the code generator as a security boundary: random hostile strings (quotes,
// backslashes, backticks, `${`, `*/`, U+2028/2029, lone surrogates, __proto__, constructor, ...)
// used as plan string constants, object keys, func names, plan names and file names come back
// byte-for-byte from the generated function, and every generated module is nothing but
// computation: its only import is "regoc", and every identifier it uses is one it declares, one it
// imports, a property of the runtime's own objects, or one of a few globals (Array, Promise).
import assert from "node:assert/strict";
import fc from "fast-check";
import { ts } from "ts-morph";
import { RegoError, registerBuiltins, toJSON, type Value } from "regoc";
import { compilePlan, generateTypeScript, loadModule } from "regoc/compiler";
import { L, PolicyBuilder, block, st } from "../support/plans.js";
import "../unit/compiler/codegen/support.js";

const FRAGMENTS = ['"', "'", "\\", "`", "${", "}", "*/", "/*", "//", "\u2028", "\u2029", "\ud800", "\udfff", "\ud83d", "\n", "\r", "\0", "__proto__", "constructor", "prototype", "</script>", "eval", "import(", "$", "\u00e9", "😀"];

/** Hostile strings: fragments, any UTF-16 code unit (lone surrogates included), any code point. */
const hostile = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: "binary", maxLength: 4 })), { maxLength: 6 }).map((xs) => xs.join("")),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
);

/**
 * A plan: rule func `g0.data.<rule>` returns `{<key>: <value>, "input": input[<key>]}` and the
 * entrypoint named <plan> returns it; statements are located in file <file>.
 */
function plan(value: string, key: string, rule: string, planName: string, file: string): Record<string, unknown> {
  const b = new PolicyBuilder();
  b.files[0] = file;
  const fn = `g0.data.${rule}`;
  b.func(
    fn,
    [0, 1],
    2,
    [
      block(
        st("MakeObjectStmt", { target: 3 }),
        st("ObjectInsertStmt", { object: 3, key: b.s(key), value: b.s(value) }),
        b.blocks(block(b.dot(L(0), b.s(key), 4), st("ObjectInsertStmt", { object: 3, key: b.s("input"), value: L(4) }))),
        b.once(L(3), 2),
      ),
      block(st("ReturnLocalStmt", { source: 2 })),
    ],
    ["g0", rule],
  );
  b.entry(planName, fn);
  return b.json();
}

// ---- "nothing but computation" ----

const GLOBALS = new Set(["Array", "Promise", "undefined"]);
/** Properties of runtime objects generated code may touch. */
const PROPERTIES = new Set(["isArray", "take", "done", "recall", "memoize", "pushMemo", "popMemo", "length", "rows", "add"]);

function checkOnlyComputation(code: string): void {
  const sf = ts.createSourceFile("m.ts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const declared = new Set<string>();
  const imported = new Set<string>();
  let imports = 0;
  const visitDecls = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) {
      // The runtime's door for generated code, once, and builtin categories (regoc/builtins/<category>).
      const from = (n.moduleSpecifier as ts.StringLiteral).text;
      if (from === "regoc/eval") imports++;
      else assert.match(from, /^regoc\/builtins\/[a-z]+$/, "the only imports are regoc/eval and builtin categories");
      const named = n.importClause?.namedBindings;
      assert.ok(named && ts.isNamedImports(named), "named imports only");
      for (const e of named.elements) imported.add(e.name.text);
    } else if (
      (ts.isFunctionDeclaration(n) || ts.isVariableDeclaration(n) || ts.isParameter(n) || ts.isTypeAliasDeclaration(n)) &&
      n.name &&
      ts.isIdentifier(n.name)
    ) {
      declared.add(n.name.text);
    } else if (ts.isLabeledStatement(n)) declared.add(n.label.text);
    n.forEachChild(visitDecls);
  };
  visitDecls(sf);
  assert.equal(imports, 1);
  const visit = (n: ts.Node): void => {
    if (n.kind === ts.SyntaxKind.ImportKeyword && !ts.isImportDeclaration(n.parent)) assert.fail("dynamic import");
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) assert.fail("dynamic import()");
    if (ts.isIdentifier(n)) {
      const name = n.text;
      const p = n.parent;
      if (ts.isPropertyAccessExpression(p) && p.name === n) {
        assert.ok(PROPERTIES.has(name), `property .${name}`);
      } else if (ts.isPropertyAssignment(p) && p.name === n) {
        assert.ok(["kind", "binding", "async", "fn"].includes(name), `object key ${name}`);
      } else if (ts.isIndexSignatureDeclaration(p) || ts.isParameter(p) && ts.isIndexSignatureDeclaration(p.parent)) {
        // [key: string]: unknown
      } else {
        assert.ok(declared.has(name) || imported.has(name) || GLOBALS.has(name), `identifier ${name}`);
      }
    }
    n.forEachChild(visit);
  };
  sf.statements.forEach((s) => {
    if (!ts.isImportDeclaration(s)) visit(s);
  });
  // Parse errors would make the checks above meaningless.
  const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  assert.equal(diags.length, 0, `syntax errors: ${diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
}

describe("property: codegen safety", function () {
  this.timeout(120_000);

  it("hostile strings come back byte-for-byte as values, keys, rule, plan and file names", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, hostile, hostile, async (value, key, rule, planName, file) => {
        fc.pre(key !== "input");
        const p = plan(value, key, rule, planName, file);
        const g = generateTypeScript(p);
        checkOnlyComputation(g.code);
        assert.equal(g.entrypoints[0]!.name, planName);
        const pq = await compilePlan(p);
        assert.deepEqual(pq.entrypoints, [planName]);
        const input = JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value + key)}}`);
        const out = toJSON(pq.evaluateSync({ input })[0]!.result as Value) as Record<string, unknown>;
        assert.ok(Object.hasOwn(out, key));
        assert.equal(out[key], value);
        assert.equal(out.input, value + key);
        assert.deepEqual(Object.keys(out).sort(), [key, "input"].sort());
      }),
      { numRuns: 60 },
    );
  });

  it("hostile file names reach error locations intact", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (file) => {
        const b = new PolicyBuilder();
        b.files[0] = file;
        b.plan(
          "p",
          block(
            st("MakeObjectStmt", { target: 2 }),
            st("ObjectInsertOnceStmt", { object: 2, key: b.s("k"), value: b.s("a") }),
            st("ObjectInsertOnceStmt", { object: 2, key: b.s("k"), value: b.s("b") }, { row: 3, col: 4 }),
            ...b.result("result", L(2), 9),
          ),
        );
        const pq = await compilePlan(b.json());
        assert.throws(
          () => pq.evaluateSync(),
          (e: unknown) =>
            e instanceof RegoError && e.code === "eval_conflict_error" && e.location?.file === file && e.location.row === 3 && e.location.col === 4,
        );
      }),
      { numRuns: 30 },
    );
  });

  it("hostile file and builtin names go through the module's site tables intact", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, async (fileA, fileB, suffix) => {
        // (A prefix of our own: a hostile name must not collide with a library builtin.)
        const name = `regoc_test.${suffix}`;
        const b = new PolicyBuilder();
        b.files[0] = fileA;
        b.files[1] = fileB;
        b.builtin(name, 1);
        b.plan(
          "p",
          block(
            st("CallStmt", { func: name, args: [L(0)], result: 10 }, { file: 1, row: 4, col: 7 }),
            st("MakeObjectStmt", { target: 2 }),
            st("ObjectInsertOnceStmt", { object: 2, key: b.s("k"), value: L(10) }, { file: 0, row: 5, col: 6 }),
            st("ObjectInsertOnceStmt", { object: 2, key: b.s("k"), value: b.s("b") }, { file: 1, row: 3, col: 4 }),
            ...b.result("result", L(2), 9),
          ),
        );
        const g = generateTypeScript(b.json());
        checkOnlyComputation(g.code);
        const at = (e: unknown, file: string, row: number, col: number) =>
          e instanceof RegoError && e.location?.file === file && e.location.row === row && e.location.col === col;
        // Not registered: loading the module fails at the call's location, naming the builtin.
        await assert.rejects(
          () => loadModule(g.code),
          (e: unknown) => at(e, fileB, 4, 7) && (e as RegoError).code === "rego_compile_error" && (e as RegoError).message === `builtin ${name} is not implemented`,
        );
        const unregister = registerBuiltins({
          [name]: {
            fn: (_ctx, a) => {
              if (a === "fail") throw new RegoError("eval_type_error", "bad");
              return a;
            },
          },
        });
        try {
          const pq = await compilePlan(b.json());
          assert.equal(JSON.stringify(toJSON(pq.evaluateSync({ input: "b" })[0]!.result as Value)), '{"k":"b"}');
          assert.throws(() => pq.evaluateSync({ input: "a" }), (e: unknown) => at(e, fileB, 3, 4) && (e as RegoError).code === "eval_conflict_error");
          assert.throws(
            () => pq.evaluateSync({ input: "fail", strictBuiltinErrors: true }),
            (e: unknown) => at(e, fileB, 4, 7) && (e as RegoError).message === `${name}: bad`,
          );
        } finally {
          unregister();
        }
      }),
      { numRuns: 30 },
    );
  });

  it("the golden and hostile modules pass the computation-only check", () => {
    checkOnlyComputation(generateTypeScript(plan("v", "__proto__", "constructor", "eval", "f")).code);
  });
});
