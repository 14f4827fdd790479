import { expect } from "chai";
import { toJSON, toJSONText } from "regoc";
import { builtinErr, builtinError, callBuiltin, runCases, type BuiltinCase } from "../../../support/builtins.js";


describe("builtins: rego", () => {
  const cases: BuiltinCase[] = [
    { note: "file name must be a string", name: "rego.parse_module", args: [1, "package a"], error: { code: "eval_type_error", message: "operand 1 must be string but got number" } },
    { note: "source must be a string (OPA says operand 1)", name: "rego.parse_module", args: ["a.rego", 1], error: { code: "eval_type_error", message: "operand 1 must be string but got number" } },
    { note: "metadata.chain outside a rule", name: "rego.metadata.chain", args: [], error: builtinErr("the rego.metadata.chain function must only be called within the scope of a rule") },
    { note: "metadata.rule outside a rule", name: "rego.metadata.rule", args: [], error: builtinErr("the rego.metadata.rule function must only be called within the scope of a rule") },
  ];
  runCases("rego.parse_module", cases);

  // The parser's own wording is the parser's business; these check OPA's framing of it.
  const parseError = (file: string, text: string) => {
    const err = builtinError("rego.parse_module", [file, text]);
    expect(err.code).to.equal("eval_builtin_error");
    return err.message;
  };

  it("reports a parse error as OPA's ast error text (file:row: code: message)", () => {
    expect(parseError("x.rego", "package foo.")).to.match(/^rego\.parse_module: x\.rego:1: rego_parse_error: unexpected eof token/);
  });

  it("reports row:col when there is no file name", () => {
    expect(parseError("", "package foo.")).to.match(/^rego\.parse_module: 1:\d+: rego_parse_error: /);
  });

  it("counts several errors as OPA does", () => {
    expect(parseError("m.rego", "package a\n\np := }\nq := ]")).to.match(/^rego\.parse_module: (\d+ errors occurred:\n)?m\.rego:3: rego_parse_error: /);
  });

  it("returns OPA's AST JSON for the module", () => {
    const ast = toJSON(callBuiltin("rego.parse_module", ["x.rego", "package foo.bar\n\nimport data.a\n\np if { a = 1 }"])!) as {
      package: { path: { type: string; value: unknown }[] };
      imports: unknown[];
      rules: { head: { name: string } }[];
    };
    expect(ast.package.path.map((t) => t.value)).to.deep.equal(["data", "foo", "bar"]);
    expect(ast.package.path[1]!.type).to.equal("string");
    expect(ast.imports).to.have.length(1);
    expect(ast.rules[0]!.head.name).to.equal("p");
  });

  it("keeps numbers exact", () => {
    const ast = toJSONText(callBuiltin("rego.parse_module", ["x.rego", "package a\n\nn := 12345678901234567890"])!);
    expect(ast).to.contain('"value":12345678901234567890');
  });
});
