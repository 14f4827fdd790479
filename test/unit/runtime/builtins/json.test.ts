import { RegoObject, RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinErr, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string) => numberFromText(text)!;
const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));
const nums = [1234567890, 2000000, 1000000000];

/** [[...[1]...]] or {"a": {"a": ...}} nested `depth` levels: deeper than the JS call stack allows recursion. */
function nested(depth: number, kind: "array" | "object"): Value {
  let v: Value = 1;
  for (let i = 0; i < depth; i++) v = kind === "array" ? [v] : { a: v };
  return v;
}

describe("builtins: json", () => {
  run("json.marshal", [
    { note: "sets become sorted arrays", args: [[{ foo: new RegoSet([3, 1, 2]) }]], want: '[{"foo":[1,2,3]}]' },
    { note: "keys sorted by code point", args: [{ b: 1, a: 2, "é": 3, Z: 4 }], want: '{"Z":4,"a":2,"b":1,"é":3}' },
    { note: "HTML characters escaped as Go does", args: ["<a href='x'>&</a>"], want: '"\\u003ca href=\'x\'\\u003e\\u0026\\u003c/a\\u003e"' },
    { note: "control characters and line separators", args: ["\b\f\n\r\t\u0001\u2028"], want: '"\\b\\f\\n\\r\\t\\u0001\\u2028"' },
    { note: "big numbers keep their digits", args: [[n("123456789012345678901234567890"), n("0.1234567890123456789")]], want: "[123456789012345678901234567890,0.1234567890123456789]" },
    { note: "non-string keys become their JSON text", args: [new RegoObject([[1, "a"], [[true, "<"], "b"]])], want: '{"1":"a","[true,\\"\\\\u003c\\"]":"b"}' },
    { note: "__proto__ is an ordinary key", args: [JSON.parse('{"__proto__": 1}')], want: '{"__proto__":1}' },
    { note: "a key and a number with the same text: the last in OPA's order wins, as in a Go map", args: [new RegoObject([["1", "s"], [1, "n"]])], want: '{"1":"s"}' },
    { note: "nested 20000 levels (arrays)", args: [nested(20000, "array")], want: `${"[".repeat(20000)}1${"]".repeat(20000)}` },
    { note: "nested 20000 levels (objects)", args: [nested(20000, "object")], want: `${'{"a":'.repeat(20000)}1${"}".repeat(20000)}` },
  ]);
  run("json.marshal_with_options", [
    { note: "explicit indent", args: [nums, { indent: "  " }], want: "[\n  1234567890,\n  2000000,\n  1000000000\n]" },
    { note: "empty options", args: [nums, {}], want: "[1234567890,2000000,1000000000]" },
    { note: "pretty defaults to tabs", args: [nums, { pretty: true }], want: "[\n\t1234567890,\n\t2000000,\n\t1000000000\n]" },
    { note: "pretty false wins", args: [nums, { pretty: false, prefix: "NO!", indent: "BAD!" }], want: "[1234567890,2000000,1000000000]" },
    { note: "prefix on every line", args: [{ foo: "bar", bar: "baz" }, { prefix: "JSON => " }], want: 'JSON => {\nJSON => \t"bar": "baz",\nJSON => \t"foo": "bar"\nJSON => }' },
    { note: "empty array", args: [[], { indent: "    ", prefix: "---" }], want: "---[]" },
    { note: "deep", args: [[[[]]], { indent: " " }], want: "[\n [\n  []\n ]\n]" },
    { note: "empty indent still breaks lines, as MarshalIndent does", args: [[1, [2]], { indent: "" }], want: "[\n1,\n[\n2\n]\n]" },
    { note: "nested 5000 levels", args: [nested(5000, "array"), { indent: "" }], want: `${"[\n".repeat(5000)}1${"\n]".repeat(5000)}` },
    { note: "unknown key", args: [[], { indent: "    ", include_winning_lottery_numbers: true }], error: typeErr('operand 2 object contained unknown key "include_winning_lottery_numbers"') },
    { note: "indent must be a string", args: [[], { indent: 2 }], error: typeErr('operand 2 key "indent" failed cast to string: operand 0 must be string but got number') },
    { note: "pretty must be a boolean", args: [[], { pretty: "yes" }], error: typeErr('operand 2 key "pretty" failed cast to bool') },
    { note: "options must be an object", args: [[], "x"], error: typeErr("operand 2 must be object but got string") },
  ]);
  run("json.unmarshal", [
    { note: "array", args: ['[{"foo":[1,2,3]}]'], want: [{ foo: [1, 2, 3] }] },
    { note: "exact big numbers", args: ["[123456789012345678901234567890, 1.0000000000000000001]"], wantText: "[123456789012345678901234567890,1.0000000000000000001]" },
    { note: "duplicate keys: the last wins", args: ['{"a":1,"a":2}'], want: { a: 2 } },
    { note: "lone surrogate escape becomes U+FFFD", args: ['"\\ud800x"'], want: "\ufffdx" },
    { note: "surrogate pair escape", args: ['"\\ud83d\\ude00"'], want: "😀" },
    { note: "__proto__ key", args: ['{"__proto__": {"polluted": true}}'], wantText: '{"__proto__":{"polluted":true}}' },
    { note: "a trailing null passes", args: ["1 null"], want: 1 },
    { note: "not a string", args: [1], error: typeErr("operand 1 must be string but got number") },
    { note: "syntax error", args: ["[1,}"], error: builtinErr("invalid character '}' looking for beginning of value") },
    { note: "truncated", args: ["[1,2"], error: builtinErr("unexpected EOF") },
    { note: "empty", args: [""], error: builtinErr("EOF") },
    { note: "second value", args: ["1 2"], error: builtinErr("error: invalid character '2' after top-level value") },
    { note: "second object", args: ["{} {}"], error: builtinErr("error: invalid character '{' after top-level value") },
    { note: "garbage after a value", args: ["123abc"], error: builtinErr("invalid character 'a' looking for beginning of value") },
    { note: "literal typo", args: ["trux"], error: builtinErr("invalid character 'x' in literal true (expecting 'e')") },
    { note: "control character in string", args: ['"a\nb"'], error: builtinErr("invalid character '\\n' in string literal") },
    { note: "missing colon", args: ['{"a" 1}'], error: builtinErr("invalid character '1' after object key") },
    { note: "leading zero", args: ["01"], error: builtinErr("error: invalid character '1' after top-level value") },
    { note: "10000 levels, Go's limit", args: [`${"[".repeat(10000)}${"]".repeat(10000)}`], wantText: `${"[".repeat(9999)}[]${"]".repeat(9999)}` },
    { note: "beyond Go's 10000 levels", args: ["[".repeat(10001)], error: builtinErr("invalid character '[' exceeded max depth") },
  ]);
  run("json.is_valid", [
    { note: "plain string", args: ["plainstring"], want: false },
    { note: "truncated", args: ["{"], want: false },
    { note: "object", args: ['{"json": "ok"}'], want: true },
    { note: "surrounding whitespace", args: [' \n[1] \t'], want: true },
    { note: "two values", args: ["1 2"], want: false },
    { note: "not a string", args: [1], want: false },
  ]);
});
