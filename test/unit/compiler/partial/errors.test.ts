// Bad input to partial evaluation: each a RegoError with a code (and, where there is source, its
// location), never a crash and never a residual that says "true".
import { expect } from "chai";
import { RegoError } from "regoc";
import { partialEval, type PartialOptions } from "../../../../compiler/partial/index.js";

async function failure(options: Partial<PartialOptions>): Promise<RegoError> {
  const full: PartialOptions = { modules: {}, query: "data.filters.include", unknowns: ["input.fruits"], ...options };
  try {
    const r = await partialEval(full);
    throw new Error(`no error, residual: ${JSON.stringify(r.queries.length)} queries`);
  } catch (e) {
    expect(e).to.be.instanceOf(RegoError);
    return e as RegoError;
  }
}

const filters = (body: string): Record<string, string> => ({ "filters.rego": `package filters\n\nimport rego.v1\n\n${body}\n` });

describe("partial evaluation: bad input", () => {
  for (const unknown of ["input.x + 1", "1", "foo", "input.x[y]", "x.y", '"input"', "", "input.a; input.b"]) {
    it(`the unknown ${JSON.stringify(unknown)} is refused`, async () => {
      const e = await failure({ modules: filters("include if input.fruits.a == 1"), unknowns: [unknown] });
      expect(e.code).to.equal("pe_invalid_unknown");
      expect(e.message).to.contain(JSON.stringify(unknown));
    });
  }

  it("a disableInlining entry that is not a ref is refused", async () => {
    const e = await failure({ modules: filters("include if input.fruits.a == 1"), disableInlining: ["data.filters.include + 1"] });
    expect(e.code).to.equal("pe_invalid_unknown");
    expect(e.message).to.contain("disableInlining entry");
  });

  it("unknowns that are not strings are refused", async () => {
    expect((await failure({ unknowns: [42 as unknown as string] })).code).to.equal("pe_invalid_unknown");
    expect((await failure({ unknowns: "input.x" as unknown as string[] })).code).to.equal("pe_invalid_unknown");
  });

  it("a query that does not parse", async () => {
    const e = await failure({ query: "data.filters[" });
    expect(e.code).to.equal("rego_parse_error");
  });

  it("a query that does not compile", async () => {
    const e = await failure({ modules: filters("include if input.fruits.a == 1"), query: "x > 1" });
    expect(e.code).to.equal("rego_unsafe_var_error");
  });

  it("an empty query", async () => {
    expect((await failure({ query: "  " })).code).to.equal("rego_compile_error");
  });

  it("modules that do not compile", async () => {
    const e = await failure({ modules: { "bad.rego": "package bad\n\np if { q }\n" } });
    expect(e.code).to.equal("rego_unsafe_var_error");
    expect(e.location).to.include({ file: "bad.rego", row: 3 });
  });

  const unsupported: [string, string, number, number][] = [
    ["a comprehension over unknowns", "include if {\n\tnames := [n | some n in input.fruits.names]\n\tcount(names) > 1\n}", 6, 11],
    ["`every` over unknowns", "include if {\n\tevery n in input.fruits.names { n != \"x\" }\n}", 6, 2],
    ["`with` over unknowns", "ok if input.fruits.a == input.b\n\ninclude if {\n\tok with input.b as 1\n}", 8, 2],
    ["an else chain over unknowns", "include if input.fruits.a > 1 else := false", 5, 1],
    ["a partial set as a whole", "s contains x if { some x in input.fruits.tags }\n\ninclude if count(s) > 1", 7, 18],
    ["`with` on data", "include if {\n\tinput.fruits.a == data.x with data.x as 1\n}", 6, 27],
  ];
  for (const [what, body, row, col] of unsupported) {
    it(`${what} is pe_unsupported at its location`, async () => {
      const e = await failure({ modules: filters(body) });
      expect(e.code, e.message).to.equal("pe_unsupported");
      expect(e.location, e.message).to.include({ file: "filters.rego", row, col });
    });
  }

  it("an asynchronous builtin over known values is pe_unsupported", async () => {
    const e = await failure({ modules: filters('include if {\n\tr := http.send({"method": "GET", "url": "http://127.0.0.1:1"})\n\tinput.fruits.a == r.status_code\n}') });
    expect(e.code).to.equal("pe_unsupported");
  });

  it("conflicting values of a complete rule are eval_conflict_error", async () => {
    const e = await failure({ modules: filters("v := 1 if input.a == 1\n\nv := 2 if input.b == 1\n\ninclude if input.fruits.x == v"), input: { a: 1, b: 1 } });
    expect(e.code).to.equal("eval_conflict_error");
  });
});

describe("partial evaluation: resources", () => {
  it("a residual too deep for the stack is a RegoError, not a crash", async () => {
    // a chain of rules each inlined into the next: deep continuation stacks
    const n = 4000;
    const rules = Array.from({ length: n }, (_, i) => `r${i} if { r${i + 1} }`).join("\n");
    const modules = { "deep.rego": `package deep\n\nimport rego.v1\n\n${rules}\n\nr${n} if input.fruits.a == 1\n` };
    try {
      const r = await partialEval({ modules, query: "data.deep.r0", unknowns: ["input.fruits"] });
      expect(r.queries.length).to.equal(1);
    } catch (e) {
      expect(e).to.be.instanceOf(RegoError);
    }
  });
});
