// code.ts and names.ts: the one literal function, comments, the `_` template, identifiers.
import assert from "node:assert/strict";
import fc from "fast-check";
import { Code, Name, _, comment, lit, lineComment, template } from "../../../../compiler/codegen/code.js";
import { Scope } from "../../../../compiler/codegen/names.js";

describe("codegen: code.ts", () => {
  it("lit() round-trips any string (lone surrogates, U+2028/2029 included) as a JS literal", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }), (s) => {
        const text = lit(s).text;
        assert.ok(!/[\u2028\u2029\n\r]/.test(text));
        assert.equal(new Function(`return ${text};`)(), s); // test only: evaluates our own literal
      }),
    );
  });

  it("template() round-trips any strings around its substitutions (`, ${, \\, line breaks included)", () => {
    const unit = fc.constantFrom("`", "$", "{", "}", "\\", '"', "\n", "\u2028", "a", "\ud800");
    fc.assert(
      fc.property(fc.array(fc.string({ unit }), { minLength: 1, maxLength: 4 }), (strings) => {
        const parts = strings.flatMap((s, i) => (i === 0 ? [s] : [_`x`, s]));
        const text = template(parts).text;
        assert.ok(!/[\u2028\u2029\n\r]/.test(text));
        assert.equal(new Function("x", `return ${text};`)("X"), strings.join("X")); // test only: evaluates our own literal
      }),
    );
  });

  it("lit() of ASCII text (its fast path included) is what JSON.stringify writes", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }), (s) => {
        assert.equal(lit(s).text, JSON.stringify(s));
      }),
    );
    assert.equal(lit('say "hi" \\ bye').text, JSON.stringify('say "hi" \\ bye'));
  });

  it("lit() writes numbers, booleans and null, and refuses non-finite numbers", () => {
    assert.equal(lit(-1.5).text, "-1.5");
    assert.equal(lit(-0).text, "0");
    assert.equal(lit(true).text, "true");
    assert.equal(lit(null).text, "null");
    assert.throws(() => lit(NaN), /cannot write the number NaN/);
    assert.throws(() => lit(Infinity), /cannot write the number Infinity/);
  });

  it("the `_` template quotes plain strings and passes Code through", () => {
    const n = new Name("l3");
    assert.equal(_`${n} = ${'a"b'};`.text, 'l3 = "a\\"b";');
    assert.equal(_`f(${1}, ${false}, ${null}, ${_`raw`})`.text, "f(1, false, null, raw)");
    assert.ok(_`x` instanceof Code);
  });

  it("comment() neutralises */, line breaks and control characters", () => {
    const c = comment("a */ b\nc\u2028d\re\u0000f\ud800");
    assert.equal(c.text, "/* a *\\/ b\\u000ac\\u2028d\\u000de\\u0000f\\ud800 */");
    assert.equal(lineComment("x\ny").text, "// x\\u000ay");
    assert.equal(comment("emoji 😀 ok").text, "/* emoji 😀 ok */");
  });

  it("Name refuses anything that is not an identifier", () => {
    for (const bad of ["", "1a", "a-b", "a b", "a;b", "😀", "a\u2028"]) assert.throws(() => new Name(bad), /is not an identifier/);
    new Name("$");
    new Name("_x1");
  });
});

describe("codegen: names.ts", () => {
  it("Scope.name hands out prefix counters and refuses long prefixes", () => {
    const s = new Scope();
    assert.deepEqual([s.name("l").text, s.name("l").text, s.name("t").text], ["l0", "l1", "t0"]);
    assert.throws(() => s.name("long"), /must be 1-2 lowercase letters/);
  });

  it("Scope.ident sanitises, camel-cases, avoids reserved and generator names, and is unique", () => {
    const s = new Scope();
    const got = ["authz/allow", "authz.allow", "eval", "class", "1x", "l3", "c10", "", "  ", "__proto__", "a_b-c", "évé", "constructor", "process", "Object"].map((t) => s.ident(t).text);
    assert.deepEqual(got, ["authzAllow", "authzAllow2", "eval_", "class_", "_1x", "l3_", "c10_", "policy", "policy2", "proto", "aBC", "v", "constructor_", "process", "object_"]);
    assert.equal(new Scope().ident("authz input", "pascal").text, "AuthzInput");
    // The words, as a regular expression finds them, joined and capitalised (camel: the first
    // lower-cased) — for any text, long ones included.
    const spec = (t: string, style: "camel" | "pascal") =>
      t
        .split(/[^A-Za-z0-9]+/)
        .filter((w) => w !== "")
        .map((w, i) => (i === 0 && style === "camel" ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
        .join("");
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom("a", "B", "7", ".", "_", " ", "é"), maxLength: 10000 })),
        fc.constantFrom("camel" as const, "pascal" as const),
        (t, style) => {
          const want = spec(t, style);
          // (Only where nothing else changes the name: not empty, no leading digit, not reserved.)
          fc.pre(want !== "" && !/^[0-9]/.test(want) && !/^[A-Za-z]{1,2}\d+$/.test(want) && !["eval", "class"].includes(want));
          const got = new Scope().ident(t, style).text;
          assert.ok(got === want || got === `${want}_`, `${JSON.stringify(t)}: ${got} vs ${want}`);
        },
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 20 }), (texts) => {
        const sc = new Scope();
        const names = texts.map((t) => sc.ident(t).text);
        assert.equal(new Set(names).size, names.length);
        for (const n of names) assert.match(n, /^[A-Za-z_][A-Za-z0-9_]*$/);
      }),
    );
  });

  it("Scope.ident's var style keeps a Rego variable's spelling; a second one of a short or digit-ending name gets _N", () => {
    const s = new Scope();
    const got = ["grant", "user_id", "_x", "x", "x", "x1", "x1", "member_2", "member_2", "l3", "class", "a.b"].map((t) => s.ident(t, "var").text);
    assert.deepEqual(got, ["grant", "user_id", "x", "x_2", "x_3", "x1_", "x1_2", "member_2", "member_2_2", "l3_", "class_", "ab"]);
  });

  it("a function's scope takes no module name, and a module name made later none a function took", () => {
    const hostileText = fc.oneof(fc.string({ unit: "binary", maxLength: 6 }), fc.constantFrom("i", "i2", "gte", "gte2", "x_2", "_x", "input"));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.boolean(), hostileText), { maxLength: 30 }), (steps) => {
        const module = new Scope();
        const fns = [new Scope(new Map(), module), new Scope(new Map(), module)];
        const made = [new Set<string>(), new Set<string>()];
        const moduleNames = new Set<string>();
        for (const [inModule, second, text] of steps) {
          if (inModule) {
            const n = module.ident(text).text;
            assert.ok(!moduleNames.has(n) && !made[0]!.has(n) && !made[1]!.has(n), n);
            moduleNames.add(n);
          } else {
            const i = second ? 1 : 0;
            const n = fns[i]!.ident(text, "var").text;
            assert.ok(!moduleNames.has(n) && !made[i]!.has(n), n);
            made[i]!.add(n);
          }
        }
        // Names the generator numbers itself (i0, l3, ...) are never made here.
        for (const n of [...moduleNames, ...made[0]!, ...made[1]!]) assert.doesNotMatch(n, /^[A-Za-z]{1,2}\d+$/);
      }),
    );
  });
});
