// sprintf follows Go's fmt over the Go values OPA passes: int64 for integers that fit, *big.Int
// beyond, float64 for numbers with a fraction or exponent, strings, and the term text of the rest.
import { expect } from "chai";
import { RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { goArg, goSprintf } from "../../../../runtime/builtins/go/sprintf.js";

const n = (text: string) => numberFromText(text)!;

const cases: Array<{ note: string; format: string; args: Value[]; want: string }> = [
  { note: "no verbs", format: "hi", args: [], want: "hi" },
  { note: "zero-padded int", format: "hi %02d", args: [5], want: "hi 05" },
  { note: "upper hex", format: "hi %02X.%02X", args: [127, 1], want: "hi 7F.01" },
  { note: "float precision", format: "%.2f", args: [3.1415], want: "3.14" },
  { note: "round half to even on exact ties", format: "%.0f %.1f", args: [2.5, 0.25], want: "2 0.2" },
  { note: "%v of a float is shortest %g", format: "%v %v %v", args: [0.1, 1e-7, 123456.5], want: "0.1 1e-07 123456.5" },
  { note: "%e", format: "%e", args: [123456.789], want: "1.234568e+05" },
  { note: "%g with precision", format: "%.3g", args: [123.456], want: "123" },
  { note: "%G switches to E", format: "%G", args: [0.000012345], want: "1.2345E-05" },
  { note: "%x of a float is hex float", format: "%x", args: [3.5], want: "0x1.cp+01" },
  { note: "%b of a float", format: "%b", args: [1.5], want: "6755399441055744p-52" },
  { note: "zero padding keeps the sign first", format: "%08.3f", args: [-3.14159], want: "-003.142" },
  { note: "plus flag", format: "%+d %+.1f", args: [5, 2.5], want: "+5 +2.5" },
  { note: "%+v does not add a sign to integers", format: "%+v", args: [5], want: "5" },
  { note: "left justify", format: "%-5d|", args: [42], want: "42   |" },
  { note: "width counts runes", format: "%5s|", args: ["é😀"], want: "   é😀|" },
  { note: "precision truncates runes", format: "%.2s", args: ["héllo"], want: "hé" },
  { note: "strings pad with zeros", format: "%05s", args: ["ab"], want: "000ab" },
  { note: "quoted string", format: "%q", args: ['a"b\n\u00a0'], want: '"a\\"b\\n\\u00a0"' },
  { note: "%+q escapes non-ASCII", format: "%+q", args: ["é"], want: '"\\u00e9"' },
  { note: "%#q backquotes", format: "%#q", args: ["a\\b"], want: "`a\\b`" },
  { note: "hex of UTF-8 bytes", format: "%x % X %#x", args: ["hé", "hi", "hi"], want: "68c3a9 68 69 0x6869" },
  { note: "sharp hex", format: "%#x %#o %#b %O", args: [255, 8, 5, 8], want: "0xff 010 0b101 0o10" },
  { note: "character and quoted rune", format: "%c %q %U %#U", args: [0x1f600, 65, 0x41, 0x41], want: "😀 'A' U+0041 U+0041 'A'" },
  { note: "surrogate code point is U+FFFD", format: "%c", args: [0xd800], want: "\ufffd" },
  { note: "%T names Go types", format: "%T %T %T %T %T", args: [1, 1.5, "s", n("99999999999999999999"), [1]], want: "int64 float64 string *big.Int string" },
  { note: "int64 max stays int64", format: "%T", args: [n("9223372036854775807")], want: "int64" },
  { note: "beyond int64 is *big.Int", format: "%T", args: [n("9223372036854775808")], want: "*big.Int" },
  { note: "big.Int hex", format: "%x", args: [n("-12345678901234567890123")], want: "-29d42b64e76714244cb" },
  { note: "big.Int zero padding", format: "%030d", args: [n("-12345678901234567890123")], want: "-00000012345678901234567890123" },
  { note: "big.Int with a float verb", format: "%f", args: [n("12345678901234567890123")], want: "%!f(big.Int=12345678901234567890123)" },
  { note: "%s of an int64", format: "%s", args: [5], want: "%!s(int64=5)" },
  { note: "%d of a float", format: "%d", args: [3.5], want: "%!d(float64=3.5)" },
  { note: "%t of a boolean (passed as its text)", format: "%t", args: [true], want: "%!t(string=true)" },
  { note: "missing argument", format: "%d %d", args: [1], want: "1 %!d(MISSING)" },
  { note: "extra arguments", format: "%d", args: [1, "a", 2.5], want: "1%!(EXTRA string=a, float64=2.5)" },
  { note: "argument indexes", format: "%[2]d %[1]d", args: [1, 2], want: "2 1" },
  { note: "bad index", format: "%[3]d", args: [1], want: "%!d(BADINDEX)" },
  { note: "no EXTRA report once arguments were indexed", format: "%[1]d", args: [1, 2], want: "1" },
  { note: "no verb", format: "%", args: [], want: "%!(NOVERB)" },
  { note: "star width", format: "%*d|%-*d|", args: [4, 42, 4, 7], want: "  42|7   |" },
  { note: "bad width argument", format: "%*d", args: ["x", 1], want: "%!(BADWIDTH)1" },
  { note: "percent", format: "%d%%", args: [50], want: "50%" },
  { note: "sets and objects print as Rego terms", format: "%v %v %v", args: [new RegoSet(), new RegoSet([2, 1]), { b: 1, a: [null, "x"] }], want: 'set() {1, 2} {"a": [null, "x"], "b": 1}' },
  { note: "null", format: "%s", args: [null], want: "null" },
  { note: "%w is not allowed", format: "%w", args: [1], want: "%!w(int64=1)" },
  { note: "precision rounds with carry", format: "%5.1f%%", args: [99.95], want: "100.0%" },
  { note: "%f ties at several precisions, and near-ties", format: "%.2f %.3f %.2f %.1f %.2f", args: [0.125, 0.0625, 1.005, -0.25, 2.675], want: "0.12 0.062 1.00 -0.2 2.67" },
  { note: "%f of negatives that round to zero keep the sign", format: "%.2f %.0f", args: [-0.001, -0.4], want: "-0.00 -0" },
  { note: "%f ties of large and small floats", format: "%.0f %.0f %.1f %.3f", args: [123456789012.5, 0.5, 1.25e-10, 1e15 + 0.125], want: "123456789012 0 0.0 1000000000000000.125" },
];

/** [[...[1]...]] nested `depth` levels. */
function nested(depth: number): Value {
  let v: Value = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe("builtins: sprintf (Go fmt)", () => {
  for (const tc of cases) {
    it(tc.note, () => {
      expect(goSprintf(tc.format, tc.args.map(goArg))).to.equal(tc.want);
    });
  }

  it("%v of a value nested 20000 levels (the term text is written without recursion)", () => {
    expect(goSprintf("%v", [goArg(nested(20000))])).to.equal(`${"[".repeat(20000)}1${"]".repeat(20000)}`);
  });
});
