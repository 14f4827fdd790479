import { RegoObject, RegoSet, type Value } from "regoc";
import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinErr, registersLikeOpa, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const render = (template: string, vars: Value, want: string, note = template): BuiltinCase => ({ note, args: [template, vars], want });
const fails = (template: string, vars: Value, message: string, note = template): BuiltinCase => ({ note, args: [template, vars], error: builtinErr(message) });

describe("builtins: strings.render_template", () => {
  registersLikeOpa(/^strings\.render_template$/);

  describe("compliance shapes", () => {
    runCases("strings.render_template", [
      render("{{.test}}", { test: "hello world" }, "hello world", "simple"),
      render("{{.test}}", { test: 2023 }, "2023", "simpleint"),
      render("{{range $i, $name := .hellonames}}{{if $i}},{{end}}hello {{$name}}{{end}}", { hellonames: ["rohan", "john doe"] }, "hello rohan,hello john doe", "complex"),
      render("{{.testvarnotprovided}}", { test: "hello world" }, "<undefined>", "missingkey"),
      render("test {{.foo}} {{.bar}} {{.baz}}", { baz: 1 }, "test <undefined> <undefined> 1", "missingmultiplekeys"),
    ]);
  });

  describe("values", () => {
    runCases("strings.render_template", [
      render("{{.n}}", { n: numberFromText("123456789012345678901234567890")! }, "123456789012345678901234567890", "big numbers keep their digits"),
      render("{{.n}}", { n: 1.5 }, "1.5", "decimals"),
      render("{{.b}} {{.z}}", { b: true, z: null }, "true <undefined>", "booleans; null is no value"),
      render("{{.xs}}", { xs: [1, "x", null, { k: true }, []] }, "[1 x <nil> map[k:true] []]", "composites print as Go's %v"),
      render("{{.m}}", { m: { b: 2, a: [1] } }, "map[a:[1] b:2]", "maps print with sorted keys"),
      render("{{.a.b.c}}", { a: { b: { c: "deep" } } }, "deep", "nested fields"),
      render("{{.a.b}}", {}, "<undefined>", "field of a missing key"),
      render("{{.ü}}", { ü: "unicode key" }, "unicode key", "unicode field names"),
      render("héllo {{.x}} 😀", { x: "wörld" }, "héllo wörld 😀", "unicode text"),
      render("{{.n.String}} {{.n.Int64}}", { n: 12 }, "12 12", "json.Number methods"),
      render("{{1.5}} {{1e6}} {{0x1F}} {{'a'}} {{-3}} {{true}} {{\"s\"}} {{`raw`}}", {}, "1.5 1e+06 31 97 -3 true s raw", "constants"),
    ]);
  });

  describe("control structures", () => {
    runCases("strings.render_template", [
      render("{{if .x}}yes{{else}}no{{end}}", { x: "" }, "no", "empty string is false"),
      render("{{if .x}}yes{{else}}no{{end}}", { x: 0 }, "yes", "a JSON number is a non-empty string to Go: true"),
      render("{{if .x}}yes{{else if .y}}y{{else}}no{{end}}", { y: [1] }, "y", "else if"),
      render("{{with .u}}{{.name}}{{else}}anon{{end}}", { u: { name: "bob" } }, "bob", "with"),
      render("{{with .u}}{{.name}}{{else}}anon{{end}}", {}, "anon", "with else"),
      render("{{range .m}}{{.}},{{end}}", { m: { b: 2, a: 1 } }, "1,2,", "range over a map in key order"),
      render("{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}", { m: { b: 2, a: 1 } }, "a=1;b=2;", "range with key and value"),
      render("{{range .xs}}{{if eq . \"b\"}}{{break}}{{end}}{{.}}{{end}}", { xs: ["a", "b", "c"] }, "a", "break"),
      render("{{range .xs}}{{if eq . \"b\"}}{{continue}}{{end}}{{.}}{{end}}", { xs: ["a", "b", "c"] }, "ac", "continue"),
      render("{{range .xs}}x{{else}}empty{{end}}", { xs: [] }, "empty", "range else"),
      render("{{range .missing}}x{{else}}none{{end}}", {}, "none", "range over no value"),
      render("{{range 3}}{{.}}{{end}}", {}, "012", "range over an int"),
      render("{{$x := 1}}{{if true}}{{$x = 2}}{{end}}{{$x}}", {}, "2", "variable assignment"),
      render("{{range .xs}}{{$.title}}:{{.}} {{end}}", { title: "t", xs: [1, 2] }, "t:1 t:2 ", "$ is the root"),
      render("{{define \"T\"}}[{{.}}]{{end}}{{template \"T\" .x}}{{template \"T\" \"y\"}}", { x: "in" }, "[in][y]", "define and template"),
      render("{{block \"B\" .x}}<{{.}}>{{end}}", { x: 1 }, "<1>", "block"),
      render("a  {{- .x -}}  b", { x: 1 }, "a1b", "trim markers"),
      render("a{{/* a comment */}}b", {}, "ab", "comments"),
      render("{{.x | printf \"%v!\"}}", { x: "hi" }, "hi!", "pipelines"),
      render("{{(index .xs 0).k}}", { xs: [{ k: "v" }] }, "v", "field of a parenthesized pipeline"),
    ]);
  });

  describe("functions", () => {
    runCases("strings.render_template", [
      render("{{len .xs}} {{len .s}} {{len .m}}", { xs: [1, 2, 3], s: "héllo", m: { a: 1 } }, "3 6 1", "len (strings in UTF-8 bytes)"),
      render("{{index .xs 1}} {{index .m \"k\"}} {{index .m \"zz\"}} {{index .g 1 0}}", { xs: [1, 2], m: { k: "v" }, g: [[1], [2]] }, "2 v <undefined> 2", "index"),
      render("{{slice \"hello\" 1 3}} {{slice .xs 1}}", { xs: [1, 2, 3] }, "el [2 3]", "slice"),
      render("{{eq .s \"a\"}} {{eq .s \"b\" \"a\"}} {{ne 1 2}} {{lt 1 2}} {{le 2 2}} {{gt \"b\" \"a\"}} {{ge 1 2}}", { s: "a" }, "true true true true true true false", "comparisons"),
      render("{{eq .n \"5\"}}", { n: 5 }, "true", "a JSON number compares as its text"),
      render("{{and 1 0}} {{and 1 2}} {{or 0 \"\"}} {{or 0 \"x\"}} {{not 0}}", {}, "0 2  x true", "and / or return an operand"),
      render("{{print 1 2 \"a\" 3}}|{{println 1 \"x\"}}", {}, "1 2a3|1 x\n", "print and println spacing"),
      render("{{printf \"%s-%d-%05.2f-%q-%v-%x-%t-%c-%%\" .s 42 3.14159 \"q\" .l 255 true 65}}", { s: "str", l: [1, 2] }, 'str-42-03.14-"q"-[1 2]-ff-true-A-%', "printf"),
      render("{{printf \"%d\" .n}}", { n: 5 }, "%!d(json.Number=5)", "printf %d of a JSON number is Go's bad verb"),
      render("{{printf \"%s %s\" 1}}", {}, "%!s(int=1) %!s(MISSING)", "printf errors inline"),
      render("{{printf \"%d|%v|%T|%T|%T\" true .z .z 1 .n}}", { z: null, n: 2 }, "%!d(bool=true)|<nil>|<nil>|int|json.Number", "printf of bools, nil and %T: Go's fmt"),
      render("{{printf \"%.1f|%.0f|%.2f\" 0.25 2.5 .x}}", { x: 0.125 }, "0.2|2|%!f(json.Number=0.)", "printf rounds exact halves to even; a JSON number is a string kind"),
      render("{{html \"<a href='x'>&\"}} {{js \"a'b<\"}} {{urlquery \"a b&c\"}}", {}, "&lt;a href=&#39;x&#39;&gt;&amp; a\\'b\\u003C a+b%26c", "escapers"),
    ]);
  });

  describe("errors", () => {
    runCases("strings.render_template", [
      fails("{{.x", {}, "template: template:1: unclosed action"),
      fails("{{foo}}", {}, 'template: template:1: function "foo" not defined'),
      fails("{{end}}", {}, "template: template:1: unexpected {{end}}"),
      fails("{{if .x}}", {}, "template: template:1: unexpected EOF"),
      fails("{{$y}}", {}, 'template: template:1: undefined variable "$y"'),
      fails("{{break}}", {}, "template: template:1: {{break}} outside {{range}}"),
      fails("a\n{{.a.b}}", { a: null }, 'template: template:2:2: executing "template" at <.a.b>: nil pointer evaluating interface {}.b'),
      fails("{{.a.b}}", { a: "x" }, 'template: template:1:2: executing "template" at <.a.b>: can\'t evaluate field b in type interface {}'),
      fails("{{.x 1}}", { x: 1 }, 'template: template:1:2: executing "template" at <.x>: x is not a method but has arguments'),
      fails("{{eq .n 1}}", { n: 1 }, 'template: template:1:2: executing "template" at <eq>: error calling eq: incompatible types for comparison'),
      fails("{{eq .missing 1}}", {}, 'template: template:1:5: executing "template" at <.missing>: invalid value; expected reflect.Value'),
      fails("{{index .xs 5}}", { xs: [1] }, 'template: template:1:2: executing "template" at <index>: error calling index: index out of range: 5'),
      fails("{{len}}", {}, 'template: template:1:2: executing "template" at <len>: wrong number of args for len: want 1 got 0'),
      fails("{{range .s}}{{end}}", { s: "abc" }, 'template: template:1:8: executing "template" at <.s>: range can\'t iterate over abc'),
      fails("{{template \"nope\"}}", {}, 'template: template:1:11: executing "template" at <{{template "nope"}}>: template "nope" not defined'),
      // OPA decodes the variables as JSON from their Rego text: sets and non-string keys fail there.
      fails("{{.s}}", { s: new RegoSet([1, 2]) }, "invalid character '1' looking for beginning of object key string", "a set of numbers"),
      fails("{{.s}}", { s: new RegoSet(["a"]) }, "invalid character '}' after object key", "a set of one string"),
      fails("{{.s}}", { s: new RegoSet(["a", "b"]) }, "invalid character ',' after object key", "a set of strings"),
      fails("{{.s}}", { s: new RegoSet() }, "invalid character 's' looking for beginning of value", "an empty set"),
      fails("x", new RegoObject([[1, "a"]]), "invalid character '1' looking for beginning of object key string", "a non-string key"),
      { note: "template not a string", args: [1, {}], error: typeErr("operand 1 must be string but got number") },
      { note: "vars not an object", args: ["x", []], error: typeErr("operand 2 must be object but got array") },
    ]);
  });
});
