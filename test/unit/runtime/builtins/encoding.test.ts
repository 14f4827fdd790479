import { RegoObject, RegoSet } from "regoc";
import { builtinErr, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));

describe("builtins: encoding", () => {
  run("base64.encode", [
    { note: "ascii", args: ["hello"], want: "aGVsbG8=" },
    { note: "slash in output", args: ["subjects?_d"], want: "c3ViamVjdHM/X2Q=" },
    { note: "UTF-8 bytes", args: ["é"], want: "w6k=" },
  ]);
  run("base64.decode", [
    { note: "padded", args: ["aGVsbG8="], want: "hello" },
    { note: "newlines are skipped", args: ["aGVs\nbG8="], want: "hello" },
    { note: "UTF-8", args: ["w6k="], want: "é" },
    { note: "a leading byte order mark is kept, as in a Go string", args: ["77u/QQ=="], want: "\ufeffA" },
    { note: "missing padding", args: ["aGVsbG8"], error: builtinErr("illegal base64 data at input byte 4") },
    { note: "url alphabet is not standard", args: ["c3ViamVjdHM_X2Q="], error: builtinErr("illegal base64 data at input byte 11") },
    { note: "trailing garbage after padding", args: ["aGVsbG8=x"], error: builtinErr("illegal base64 data at input byte 8") },
    { note: "single padding after two symbols", args: ["aG=="], want: "h" },
    { note: "bad padding position", args: ["a==="], error: builtinErr("illegal base64 data at input byte 1") },
  ]);
  run("base64.is_valid", [
    { note: "valid", args: ["aGVsbG8="], want: true },
    { note: "invalid", args: ["{'not':'base64'}"], want: false },
    { note: "not a string", args: [1], want: false },
  ]);
  run("base64url.encode", [{ note: "padded", args: ["hello"], want: "aGVsbG8=" }, { note: "url alphabet", args: ["subjects?_d"], want: "c3ViamVjdHM_X2Q=" }]);
  run("base64url.encode_no_pad", [{ note: "no padding", args: ["hello"], want: "aGVsbG8" }]);
  run("base64url.decode", [
    { note: "padded", args: ["aGVsbG8="], want: "hello" },
    { note: "unpadded", args: ["aGVsbG8"], want: "hello" },
    { note: "impossible length", args: ["aGVsb"], error: builtinErr("illegal base64url string: aGVsb") },
  ]);
  run("hex.encode", [{ note: "string", args: ["lorem ipsum"], want: "6c6f72656d20697073756d" }, { note: "UTF-8", args: ["é"], want: "c3a9" }]);
  run("hex.decode", [
    { note: "string", args: ["6c6f72656d20697073756d"], want: "lorem ipsum" },
    { note: "upper case digits", args: ["C3A9"], want: "é" },
    { note: "invalid byte", args: ["fghijkl"], error: builtinErr("encoding/hex: invalid byte: U+0067 'g'") },
    { note: "odd length", args: ["abc"], error: builtinErr("encoding/hex: odd length hex string") },
    { note: "invalid byte wins over odd length", args: ["abz"], error: builtinErr("encoding/hex: invalid byte: U+007A 'z'") },
  ]);
  run("urlquery.encode", [
    { note: "reserved characters", args: ["a=b+1"], want: "a%3Db%2B1" },
    { note: "space is plus; !'()* are escaped", args: ["a b!'()*~"], want: "a+b%21%27%28%29%2A~" },
    { note: "UTF-8", args: ["é"], want: "%C3%A9" },
    { note: "empty", args: [""], want: "" },
  ]);
  run("urlquery.decode", [
    { note: "escapes", args: ["a%3Db%2B1"], want: "a=b+1" },
    { note: "plus is space", args: ["a+b"], want: "a b" },
    { note: "bad escape", args: ["a%zz"], error: builtinErr('invalid URL escape "%zz"') },
    { note: "truncated escape", args: ["a%4"], error: builtinErr('invalid URL escape "%4"') },
  ]);
  run("urlquery.encode_object", [
    { note: "empty", args: [{}], want: "" },
    { note: "sorted keys", args: [{ c: "d", a: "b" }], want: "a=b&c=d" },
    { note: "array values", args: [{ a: ["b+1", "c+2"] }], want: "a=b%2B1&a=c%2B2" },
    { note: "set values", args: [{ a: new RegoSet(["b+1"]) }], want: "a=b%2B1" },
    { note: "non-string key uses its JSON text", args: [new RegoObject([[1, "x"]])], want: "1=x" },
    { note: "number value", args: [{ a: 1 }], error: typeErr("operand 1 values must be string, array[string], or set[string]") },
    { note: "not an object", args: [["a"]], error: typeErr("operand 1 must be object but got array") },
  ]);
  run("urlquery.decode_object", [
    { note: "multiple values", args: ["a=value_a1&b=value_b&a=value_a2"], want: { a: ["value_a1", "value_a2"], b: ["value_b"] } },
    { note: "empty parameter", args: ["a=value_a1&b"], want: { a: ["value_a1"], b: [""] } },
    { note: "empty string", args: [""], want: {} },
    { note: "__proto__ is an ordinary key", args: ["__proto__=x"], wantText: '{"__proto__":["x"]}' },
    { note: "semicolons are refused", args: ["a=1;b=2"], error: builtinErr("invalid semicolon separator in query") },
    { note: "a semicolon error outranks an earlier bad escape", args: ["a=%zz&b;c"], error: builtinErr("invalid semicolon separator in query") },
    { note: "the first bad escape is reported", args: ["a=%zz&b=%yy"], error: builtinErr('invalid URL escape "%zz"') },
  ]);
  run("uri.parse", [
    {
      note: "full URL",
      args: ["https://user:pw@example.com:8443/a%20b/c?x=1&y=2#frag%21"],
      want: { scheme: "https", hostname: "example.com", port: "8443", path: "/a b/c", raw_path: "/a b/c", raw_query: "x=1&y=2", fragment: "frag!" },
    },
    { note: "raw path kept when it is not the default encoding", args: ["http://h/a%2Fb"], want: { scheme: "http", hostname: "h", path: "/a/b", raw_path: "/a%2Fb" } },
    { note: "IPv6 host", args: ["http://[::1]:80/"], want: { scheme: "http", hostname: "::1", port: "80", path: "/", raw_path: "/" } },
    { note: "opaque", args: ["mailto:someone@example.com"], want: { scheme: "mailto" } },
    { note: "relative path", args: ["a/b"], want: { path: "a/b", raw_path: "a/b" } },
    { note: "scheme is lower-cased", args: ["HTTP://x"], want: { scheme: "http", hostname: "x" } },
    { note: "colon in first segment", args: ["a:b/c"], want: { scheme: "a" } },
    { note: "relative colon path", args: ["1a:b"], error: builtinErr('parse "1a:b": first path segment in URL cannot contain colon') },
    { note: "bad port", args: ["http://h:x/"], error: builtinErr('parse "http://h:x/": invalid port ":x" after host') },
    { note: "control character", args: ["http://h/\n"], error: builtinErr('parse "http://h/\\n": net/url: invalid control character in URL') },
    { note: "missing scheme", args: [":foo"], error: builtinErr('parse ":foo": missing protocol scheme') },
  ]);
  run("uri.is_valid", [
    { note: "valid", args: ["https://example.com"], want: true },
    { note: "empty is refused", args: [""], want: false },
    { note: "invalid", args: ["http://h:x/"], want: false },
    { note: "not a string", args: [1], want: false },
  ]);
});
