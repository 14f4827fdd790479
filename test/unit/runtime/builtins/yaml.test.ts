import { RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { MAX_YAML_DEPTH } from "../../../../runtime/builtins/yaml.js";
import { builtinErr, runCases, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string) => numberFromText(text)!;
const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));

/** [[...[1]...]] or {"a": {"a": ...}} nested `depth` levels. */
function nested(depth: number, kind: "array" | "object" = "array"): Value {
  let v: Value = 1;
  for (let i = 0; i < depth; i++) v = kind === "array" ? [v] : { a: v };
  return v;
}

describe("builtins: yaml (go-yaml v2 semantics)", () => {
  run("yaml.marshal", [
    { note: "mapping", args: [{ a: 1 }], want: "a: 1\n" },
    { note: "sequence under a key is not indented", args: [[{ foo: new RegoSet([1, 2, 3]) }]], want: "- foo:\n  - 1\n  - 2\n  - 3\n" },
    { note: "nested mapping", args: [{ a: { b: "c" } }], want: "a:\n  b: c\n" },
    { note: "empty collections are flow", args: [{ a: [], b: {} }], want: "a: []\nb: {}\n" },
    { note: "strings that would read as other types are double-quoted", args: [["true", "yes", "1.5", "null", "", "1:20"]], want: '- "true"\n- "yes"\n- "1.5"\n- "null"\n- ""\n- "1:20"\n' },
    { note: "indicators force single quotes", args: [["a: b", "- a", " lead", "#x", "it's"]], want: "- 'a: b'\n- '- a'\n- ' lead'\n- '#x'\n- it's\n" },
    { note: "multi-line strings are literal blocks", args: [{ s: "line1\nline2", t: "end\n" }], want: "s: |-\n  line1\n  line2\nt: |\n  end\n" },
    { note: "tabs and astral characters need double quotes", args: [["a\tb", "😀"]], want: '- "a\\tb"\n- "\\U0001F600"\n' },
    { note: "keys in natural order", args: [{ b10: 1, b9: 2, a: 3 }], want: "a: 3\nb9: 2\nb10: 1\n" },
    { note: "scalars", args: [[null, true, 1.5, n("12345678901234567890")]], want: "- null\n- true\n- 1.5\n- 12345678901234567890\n" },
    { note: "long plain strings fold past column 80", args: [{ k: "word ".repeat(20).trim() }], want: `k: ${"word ".repeat(16).trim()}\n  ${"word ".repeat(4).trim()}\n` },
    { note: "root scalar", args: ["foo"], want: "foo\n" },
    { note: "nested sequences share a line", args: [{ k: nested(3) }], want: "k:\n- - - 1\n" },
    { note: "sequences nested 20000 levels", args: [{ k: nested(20000) }], want: `k:\n${"- ".repeat(20000)}1\n` },
    { note: "mappings nested 3000 levels", args: [nested(3000, "object")], want: `${Array.from({ length: 3000 }, (_, i) => `${"  ".repeat(i)}a:`).join("\n")} 1\n` },
  ]);
  run("yaml.unmarshal", [
    { note: "mapping with a sequence", args: ["foo:\n  - qux: bar\n  - baz: 2"], want: { foo: [{ qux: "bar" }, { baz: 2 }] } },
    { note: "YAML 1.1 booleans, octal, hex, underscores; timestamps stay strings", args: ["yes: no\nx: 0777\ny1: 0x1F\nz: 1_000\nt: 2001-12-14\n"], want: { true: false, x: 511, y1: 31, z: 1000, t: "2001-12-14" } },
    { note: "integers beyond uint64 become floats", args: ["12345678901234567890123"], want: n("1.2345678901234568e22") },
    { note: "uint64 stays exact", args: ["18446744073709551615"], wantText: "18446744073709551615" },
    { note: "floats go through JSON text", args: ["[1.0, 1e3, -.5, 08]"], want: [1, 1000, -0.5, 8] },
    { note: "quoted scalars are strings", args: ["['1', \"true\", !!str 3]"], want: ["1", "true", "3"] },
    { note: "anchors and aliases", args: ["- &a {x: 1}\n- *a\n"], want: [{ x: 1 }, { x: 1 }] },
    { note: "merge keys; later keys override", args: ["base: &b {a: 1, c: 5}\nm:\n  <<: *b\n  c: 3\n"], want: { base: { a: 1, c: 5 }, m: { a: 1, c: 3 } } },
    { note: "duplicate keys: the last wins", args: ["a: 1\na: 2"], want: { a: 2 } },
    { note: "non-string keys become text", args: ["1: a\n2.5: b\ntrue: c"], want: { "1": "a", "2.5": "b", true: "c" } },
    { note: "JSON is YAML", args: ['{"json": "ok"}'], want: { json: "ok" } },
    { note: "empty document is null", args: [""], want: null },
    { note: "only the first document", args: ["a: 1\n---\nb: 2\n"], want: { a: 1 } },
    { note: "__proto__ is an ordinary key", args: ["__proto__: {x: 1}"], wantText: '{"__proto__":{"x":1}}' },
    { note: "unclosed flow sequence", args: ["[1,2,3"], error: builtinErr("yaml: line 1: did not find expected ',' or ']'") },
    { note: "mapping values in a compact key", args: ["a: b: c"], error: builtinErr("yaml: line 1: mapping values are not allowed in this context") },
    { note: "infinity cannot become JSON", args: ["x: .inf"], error: builtinErr("json: unsupported value: +Inf") },
    { note: "unknown alias", args: ["a: *nope"], error: builtinErr("yaml: unknown anchor 'nope' referenced") },
    { note: "an anchor inside its own value", args: ["a: &x [1, *x]"], error: builtinErr("yaml: anchor 'x' value contains itself") },
    { note: "an alias to an enclosing anchor", args: ["&top\nb:\n  c: *top\n"], error: builtinErr("yaml: anchor 'top' value contains itself") },
    { note: "an anchor used beside itself is fine", args: ["a: &x [1]\nb: [*x, *x]"], want: { a: [1], b: [[1], [1]] } },
    { note: "aliases nesting expansions beyond the limit", args: [`a0: &a0 [1]\n${Array.from({ length: MAX_YAML_DEPTH + 1 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`).join("\n")}\n`], error: builtinErr(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`) },
    { note: "flow nesting at the limit", args: [`${"[".repeat(MAX_YAML_DEPTH)}${"]".repeat(MAX_YAML_DEPTH)}`], wantText: `${"[".repeat(MAX_YAML_DEPTH - 1)}[]${"]".repeat(MAX_YAML_DEPTH - 1)}` },
    { note: "flow nesting beyond the limit", args: [`${"[".repeat(MAX_YAML_DEPTH + 1)}${"]".repeat(MAX_YAML_DEPTH + 1)}`], error: builtinErr(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`) },
    { note: "block nesting beyond the limit", args: [`${"- ".repeat(MAX_YAML_DEPTH + 1)}x`], error: builtinErr(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`) },
    { note: "deep nesting, many times (the yaml package must not overflow the stack)", args: [`${"[".repeat(3000)}${"]".repeat(3000)}`], error: builtinErr(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`) },
    { note: "round trip of marshal", args: ["- foo:\n  - 1\n  - 2\n  - 3\n"], want: [{ foo: [1, 2, 3] }] },
  ]);
  run("yaml.is_valid", [
    { note: "valid", args: ["foo:\n   - qux: bar\n   - baz: 2"], want: true },
    { note: "invalid", args: ["foo:\n   - qux: bar\n   - baz: {"], want: false },
    { note: "JSON", args: ['{"json": "ok"}'], want: true },
    { note: "not a string", args: [1], want: false },
    { note: "too deep", args: ["[".repeat(MAX_YAML_DEPTH + 1)], want: false },
  ]);
});
