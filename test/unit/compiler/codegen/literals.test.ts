// Statement runs written as one expression (emit/literals.ts): array and object literals, and
// concat of an array literal as a template literal with the builtin's call as its fallback. The
// generated code shows each; the answers and errors are the builtin's, strict mode too.
import assert from "node:assert/strict";
import { compileRego } from "regoc/compiler";
import { toJSON, type Value } from "regoc";

async function compile(rego: string, entrypoint = "t/p") {
  return compileRego({ modules: { "t.rego": `package t\n\n${rego}` }, entrypoints: [entrypoint] });
}

type Query = Awaited<ReturnType<typeof compile>>;

/** The entrypoint's value for an input (undefined: no row), as JSON. */
function result(q: Query, input: unknown, strictBuiltinErrors = false): unknown {
  const rows = q.evaluateSync({ input: input as Value, strictBuiltinErrors });
  return rows.length === 0 ? undefined : JSON.parse(JSON.stringify(toJSON(rows[0]!.result as Value)));
}

/** The message of the error an evaluation throws. */
function errorOf(q: Query, input: unknown): string {
  try {
    q.evaluateSync({ input: input as Value, strictBuiltinErrors: true });
  } catch (e) {
    return (e as Error).message;
  }
  return assert.fail("no error");
}

describe("codegen: literals", () => {
  it("concat of an array literal is a template literal on strings, and the builtin's call (its errors) otherwise", async () => {
    const q = await compile(`p := concat("", ["user ", input.name, " in ", input.team, " \`\${x}\`"])`);
    assert.match(q.source, /= typeof \w+ === "string" && typeof \w+ === "string" \? `user \$\{\w+\} in \$\{\w+\} \\`\\\$\{x\}\\``/);
    assert.equal(result(q, { name: "ann", team: "ops" }), "user ann in ops `${x}`");
    assert.equal(result(q, { name: 1, team: "ops" }), undefined);
    assert.equal(result(q, { team: "ops" }), undefined);
    // The same error as concat of an array that is no literal.
    const generic = await compile(`p := concat("", input.parts)`);
    assert.doesNotMatch(generic.source, /`/);
    const parts = ["user ", 1, " in ", "ops", " `${x}`"];
    assert.equal(errorOf(q, { name: 1, team: "ops" }), errorOf(generic, { parts }));
    assert.match(errorOf(q, { name: 1, team: "ops" }), /^concat: operand 2 must be array of strings/);
  });

  it("a delimiter goes between the elements; constant elements alone are a string constant", async () => {
    const q = await compile(`p := concat(", ", [input.a, "b", input.a])`);
    assert.equal(result(q, { a: "x" }), "x, b, x");
    assert.equal(result(q, { a: ["x"] }), undefined);
    const c = await compile(`p := concat("/", ["a", "b"])`);
    assert.equal(result(c, {}), "a/b");
    assert.doesNotMatch(c.source, /call2|builtinSites/);
  });

  it("sprintf of an array literal with a format of %s and %v is a template literal on strings, the builtin otherwise", async () => {
    const q = await compile(`p := sprintf("container <%v> uses %s (100%%) \`\${x}\`", [input.name, input.image])`);
    assert.match(q.source, /\? `container <\$\{\w+\}> uses \$\{\w+\} \(100%\) \\`\\\$\{x\}\\`` : call2\(\$, sprintf, /);
    const generic = await compile(`p := sprintf(input.format, [input.name, input.image])`);
    assert.doesNotMatch(generic.source, /`/);
    const format = "container <%v> uses %s (100%%) `${x}`";
    for (const [name, image] of [["web", "nginx"], [1, "nginx"], [["a"], { b: 1.5 }], [true, null], ["", ""]]) {
      assert.deepEqual(result(q, { name, image }), result(generic, { format, name, image }), JSON.stringify([name, image]));
    }
    assert.equal(result(q, { name: "web", image: "nginx" }), "container <web> uses nginx (100%) `${x}`");
    // Other verbs, flags or a count of verbs that is not the array's: the builtin's call.
    const generic1 = await compile(`p := sprintf(input.format, [input.name])`);
    for (const f of ["%d", "%5s", "%s %s", "%", "%q"]) {
      const other = await compile(`p := sprintf(${JSON.stringify(f)}, [input.name])`);
      assert.doesNotMatch(other.source, /`/, f);
      assert.deepEqual(result(other, { name: "web" }), result(generic1, { format: f, name: "web" }), f);
    }
  });

  it("no array is built for a concat alone; one that is read besides is", async () => {
    const q = await compile(`p := concat("-", ["a", input.x])`);
    assert.doesNotMatch(q.source, /= \["a", \w+\](?: as Value\[\])?;/);
    const both = await compile(`p := [concat("-", x), count(x)] if x := ["a", input.x]`);
    assert.deepEqual(result(both, { x: "b" }), ["a-b", 2]);
  });

  it("an array and its appends are an array literal", async () => {
    const q = await compile(`p := [input.a, "b", [input.a]]`);
    assert.match(q.source, /= \[\w+, "b", \w+\]/);
    assert.doesNotMatch(q.source, /\bpush\(/);
    assert.deepEqual(result(q, { a: 1 }), [1, "b", [1]]);
  });

  it("an array of constants only scanned or tested is a module constant; one the value holds is made per decision", async () => {
    const q = await compile(`p if input.m in ["GET", "HEAD"]\nq contains k if { some k in ["cpu", "memory"]; not input.limits[k] }`);
    assert.match(q.source, /= constantArray\(\["GET", "HEAD"\]\);/);
    assert.equal(result(q, { m: "HEAD" }), true);
    assert.equal(result(q, { m: "PUT" }), undefined);
    const s = await compile(`q contains k if { some k in ["cpu", "memory"]; not input.limits[k] }`, "t/q");
    assert.match(s.source, /= constantArray\(\["cpu", "memory"\]\);/);
    assert.deepEqual(result(s, { limits: { cpu: 1 } }), ["memory"]);
    assert.deepEqual(result(s, { limits: {} }), ["cpu", "memory"]);
    const v = await compile(`p := ["a", "b"]`);
    assert.doesNotMatch(v.source, /constantArray/);
    const first = v.evaluateSync({ input: {} as Value })[0]!.result as Value[];
    first.push("c");
    assert.deepEqual(result(v, {}), ["a", "b"]);
  });

  it("an object of constant string keys is an object literal, equal to and deduplicated with any other", async () => {
    const q = await compile(`p contains {"msg": m, "n": 1} if some m in input.msgs`);
    assert.match(q.source, /= \{ "msg": \w+, "n": 1 \}/);
    assert.doesNotMatch(q.source, /\bnewObject\(/);
    assert.deepEqual(result(q, { msgs: ["a", "b", "a"] }), [{ msg: "a", n: 1 }, { msg: "b", n: 1 }]);
    const eq = await compile(`p := [{"k": input.v} == json.unmarshal(input.text), {"k": input.v} in {json.unmarshal(input.text)}, count({{"k": input.v}, object.union({"k": input.v}, {})})]`);
    assert.deepEqual(result(eq, { v: 1, text: `{"k":1}` }), [true, true, 1]);
  });

  it("a __proto__ key and keys of Object.prototype stay the object's own keys", async () => {
    const q = await compile(`p := {"__proto__": input.x, "constructor": input.x, "toString": 2}`);
    assert.deepEqual(result(q, { x: 1 }), JSON.parse(`{"__proto__": 1, "constructor": 1, "toString": 2}`));
    const k = await compile(`p := [o.__proto__, o.constructor, object.keys(o)] if o := {"__proto__": input.x, "constructor": 3}`);
    assert.deepEqual(result(k, { x: 1 }), [1, 3, ["__proto__", "constructor"]]);
  });
});
