import { RegoObject, RegoSet } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinErr, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const n = (text: string) => numberFromText(text)!;
const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));

describe("builtins: strings", () => {
  run("concat", [
    { note: "array", args: ["/", ["", "foo", "bar", "0", "baz"]], want: "/foo/bar/0/baz" },
    { note: "set in OPA order", args: [",", new RegoSet(["b", "a", "c"])], want: "a,b,c" },
    { note: "empty array", args: [",", []], want: "" },
    { note: "unicode delimiter", args: ["→", ["å", "😀"]], want: "å→😀" },
    { note: "non-string element", args: [",", ["a", 1]], error: typeErr("operand 2 must be array of strings but got array containing number") },
    { note: "set with non-string", args: [",", new RegoSet([1])], error: typeErr("operand 2 must be set of strings but got set containing number") },
    { note: "not a collection", args: [",", "ab"], error: typeErr("operand 2 must be one of {set, array} but got string") },
    { note: "delimiter not a string", args: [1, ["a"]], error: typeErr("operand 1 must be string but got number") },
  ]);

  run("indexof", [
    { note: "ascii", args: ["abcdefgh", "cde"], want: 2 },
    { note: "not found", args: ["abcdefgh", "xyz"], want: -1 },
    { note: "unicode char", args: ["μx", "x"], want: 1 },
    { note: "unicode string", args: ["skön var våren", "vår"], want: 9 },
    { note: "emoji counts as one rune", args: ["🍧🍨🧁🍰🍮", "🍮"], want: 4 },
    { note: "unicode not found", args: ["μ", "μμ"], want: -1 },
    { note: "empty search", args: ["abc", ""], error: builtinErr("empty search character") },
    { note: "non-string", args: ["abc", 1], error: typeErr("operand 2 must be string but got number") },
  ]);

  run("indexof_n", [
    { note: "single match", args: ["dogcat", "cat"], want: [3] },
    { note: "overlapping matches", args: ["aaaa", "aa"], want: [0, 1, 2] },
    { note: "no match", args: ["dogcat", "rabbit"], want: [] },
    { note: "emoji", args: ["😇😀😇😀😇😀", "😀"], want: [1, 3, 5] },
    { note: "empty search", args: ["abc", ""], error: builtinErr("empty search character") },
  ]);

  run("substring", [
    { note: "ascii", args: ["abcdefgh", 2, 3], want: "cde" },
    { note: "unicode", args: ["åäö", 0, 2], want: "åä" },
    { note: "remainder", args: ["aåäö", 2, -1], want: "äö" },
    { note: "too long", args: ["abcdefghåäö", 2, 10000], want: "cdefghåäö" },
    { note: "offset past end", args: ["åäö", 4, -1], want: "" },
    { note: "emoji are runes", args: ["a😀b", 1, 1], want: "😀" },
    { note: "negative offset", args: ["aaa", -1, -1], error: builtinErr("negative offset") },
    { note: "fractional offset", args: ["aaa", 1.5, 1], error: typeErr("operand 2 must be integer number but got floating-point number") },
    { note: "length beyond int64", args: ["aaa", 0, n("9223372036854775808")], error: typeErr("operand 3 must be integer number but got floating-point number") },
    { note: "string offset", args: ["aaa", "1", 1], error: typeErr("operand 2 must be number but got string") },
  ]);

  run("format_int", [
    { note: "hex truncates fractions", args: [15.5, 16], want: "f" },
    { note: "negative fraction truncates toward zero", args: [-15.9, 16], want: "-f" },
    { note: "binary", args: [5, 2], want: "101" },
    { note: "octal", args: [8, 8], want: "10" },
    { note: "big integer stays exact", args: [n("18446744073709551617"), 16], want: "10000000000000001" },
    { note: "bad base", args: [4.1, 199], error: typeErr("operand 2 must be one of {2, 8, 10, 16}") },
    { note: "not a number", args: ["1", 10], error: typeErr("operand 1 must be number but got string") },
  ]);

  run("lower", [
    { note: "ascii", args: ["AbCdEf"], want: "abcdef" },
    { note: "Greek capital sigma has no final form (per rune, as Go)", args: ["ΑΣ"], want: "ασ" },
    { note: "dotted capital I maps to i (simple mapping)", args: ["İ"], want: "i" },
  ]);
  run("upper", [
    { note: "ascii", args: ["AbCdEf"], want: "ABCDEF" },
    { note: "sharp s has no simple uppercase", args: ["straße"], want: "STRAßE" },
    { note: "accents", args: ["åäö"], want: "ÅÄÖ" },
    { note: "ypogegrammeni uses the titlecase letter", args: ["ᾳ"], want: "ᾼ" },
  ]);

  run("split", [
    { note: "empty text", args: ["", "."], want: [""] },
    { note: "empty delimiter splits runes", args: ["té😀", ""], want: ["t", "é", "😀"] },
    { note: "empty text and delimiter", args: ["", ""], want: [] },
    { note: "many", args: ["foo.bar.baz", "."], want: ["foo", "bar", "baz"] },
    { note: "not found", args: ["foo", "."], want: ["foo"] },
  ]);

  run("strings.split_n", [
    { note: "first two", args: ["a.b.c.d", ".", 2], want: ["a", "b"] },
    { note: "all when larger", args: ["a.b.c.d", ".", 10], want: ["a", "b", "c", "d"] },
    { note: "zero", args: ["a.b.c.d", ".", 0], want: [] },
    { note: "last two", args: ["a.b.c.d", ".", -2], want: ["c", "d"] },
    { note: "negative larger", args: ["a.b.c.d", ".", -10], want: ["a", "b", "c", "d"] },
    { note: "empty delimiter", args: ["abc", "", 2], want: ["a", "b"] },
    { note: "empty delimiter from the end", args: ["abc", "", -2], want: ["b", "c"] },
    { note: "empty string", args: ["", ".", 2], want: [""] },
    { note: "non-integer n", args: ["a.b.c", ".", 1.5], error: typeErr("operand 3 must be integer number but got floating-point number") },
  ]);

  run("replace", [
    { note: "empty string", args: ["", "hi", "bye"], want: "" },
    { note: "many", args: ["foo.bar.baz", ".", ","], want: "foo,bar,baz" },
    { note: "overlap is leftmost, non-overlapping", args: ["foo...bar", "..", ",,"], want: "foo,,.bar" },
    { note: "empty old inserts between runes", args: ["a😀", "", "-"], want: "-a-😀-" },
    { note: "non-string", args: ["a", "a", 1], error: typeErr("operand 3 must be string but got number") },
  ]);

  run("strings.replace_n", [
    { note: "multiple patterns", args: [{ "<": "&lt;", ">": "&gt;" }, "This is <b>HTML</b>!"], want: "This is &lt;b&gt;HTML&lt;/b&gt;!" },
    { note: "overlapping: first key in order wins", args: [{ f: "x", foo: "xxx" }, "foobar"], want: "xoobar" },
    { note: "no match", args: [{ old1: "new1" }, "nothing"], want: "nothing" },
    { note: "empty pattern matches at every position", args: [{ "": "-", a: "A" }, "ab"], want: "-A-b-" },
    { note: "non-string key", args: [new RegoObject([[2, "x"]]), "foo"], error: typeErr("operand 1 non-string key found in pattern object") },
    { note: "non-string value", args: [{ f: 100 }, "foo"], error: typeErr("operand 1 non-string value found in pattern object") },
    { note: "non-string text", args: [{ f: "x" }, 100], error: typeErr("operand 2 must be string but got number") },
  ]);

  run("trim", [
    { note: "cutset of runes", args: ["¡¡¡foo, bar!!!", "!¡"], want: "foo, bar" },
    { note: "multi-cutset", args: ["...foo.bar...", ".fr"], want: "oo.ba" },
    { note: "nothing", args: ["¡¡¡foo, bar!!!", "i"], want: "¡¡¡foo, bar!!!" },
    { note: "emoji cutset", args: ["😀a😀", "😀"], want: "a" },
  ]);
  run("trim_left", [{ note: "leading", args: ["¡¡¡foo, bar!!!", "!¡"], want: "foo, bar!!!" }]);
  run("trim_right", [{ note: "trailing", args: ["¡¡¡foo, bar!!!", "!¡"], want: "¡¡¡foo, bar" }]);
  run("trim_prefix", [
    { note: "prefix", args: ["¡¡¡foo, bar!!!", "¡¡¡foo"], want: ", bar!!!" },
    { note: "no prefix", args: ["¡¡¡foo, bar!!!", "¡¡¡bar"], want: "¡¡¡foo, bar!!!" },
  ]);
  run("trim_suffix", [{ note: "suffix", args: ["¡¡¡foo, bar!!!", ", bar!!!"], want: "¡¡¡foo" }]);
  run("trim_space", [
    { note: "ascii whitespace", args: [" \t\n foo, bar \n\t\r\n"], want: "foo, bar" },
    { note: "unicode spaces and NEL are trimmed", args: ["\u0085\u00a0\u3000x\u2029"], want: "x" },
    { note: "a byte order mark is not space in Go", args: ["\ufeffx"], want: "\ufeffx" },
  ]);

  run("strings.count", [
    { note: "single", args: ["cheese", "e"], want: 3 },
    { note: "empty substring counts runes + 1", args: ["dummy", ""], want: 6 },
    { note: "empty both", args: ["", ""], want: 1 },
    { note: "non-overlapping", args: ["11111", "11"], want: 2 },
    { note: "unicode runes", args: ["😀😀", ""], want: 3 },
  ]);

  run("strings.reverse", [
    { note: "ascii", args: ["bar"], want: "rab" },
    { note: "combining marks reverse as runes", args: ["2️⃣"], want: "⃣️2" },
    { note: "astral", args: ["1😀𝛾"], want: "𝛾😀1" },
    { note: "number", args: [123], error: typeErr("operand 1 must be string but got number") },
  ]);

  run("contains", [
    { note: "yes", args: ["abcdefgh", "defg"], want: true },
    { note: "no", args: ["abcdefgh", "ac"], want: false },
  ]);
  run("startswith", [{ note: "yes", args: ["abcdefgh", "abcd"], want: true }]);
  run("endswith", [{ note: "no", args: ["abcdefgh", "fg"], want: false }]);

  run("strings.any_prefix_match", [
    { note: "array and array", args: [["a/b/c", "e/f/g"], ["x/", "e/"]], want: true },
    { note: "string and set", args: ["a/b/c", new RegoSet(["a/"])], want: true },
    { note: "no match", args: [["a/b/c"], "b"], want: false },
    { note: "empty", args: [[], []], want: false },
    { note: "element type", args: [[1], ["a"]], error: typeErr("operand 1 must be array of strings but got array containing number") },
    { note: "operand type", args: [["a"], 1], error: typeErr("operand 2 must be one of {string, set, array} but got number") },
  ]);
  run("strings.any_suffix_match", [
    { note: "match", args: [["a/b/c", "a/b/d"], ["/c", "/a"]], want: true },
    { note: "no match", args: ["a/b/g", ["/c"]], want: false },
    { note: "operand type", args: [1, ["/c"]], error: typeErr("operand 1 must be one of {string, set, array} but got number") },
  ]);

  run("sprintf", [
    { note: "string", args: ["hi %s", ["there"]], want: "hi there" },
    { note: "big integer through %s", args: ["%s", [n("123456789123456789123")]], want: "123456789123456789123" },
    { note: "float too big for float64 prints its text", args: ["hi %v", [n("2e308")]], want: "hi 2e308" },
    { note: "composite", args: ["hi %v", [["there", 5, 3.14]]], want: 'hi ["there", 5, 3.14]' },
    { note: "array operand", args: ["%s", "x"], error: typeErr("operand 2 must be array but got string") },
    { note: "format operand", args: [1, []], error: typeErr("operand 1 must be string but got number") },
  ]);
});
