// print(parse(x)) parses to the same AST (OPA's JSON, locations aside): over every compliance
// module and query, and over random programs from a small Rego grammar (fast-check).
import { expect } from "chai";
import fc from "fast-check";

import { bodyToOpaJson, formatOpaJson, moduleToOpaJson } from "../../../../compiler/ast/opaJson.js";
import { printBody, printModule } from "../../../../compiler/ast/print.js";
import { parseModule, parseModuleResult, parseQueryResult, type ParseOptions } from "../../../../compiler/syntax/index.js";
import { complianceModules, loadComplianceSources } from "../../../support/complianceModules.js";
import { describeWithShared } from "../../../support/shared.js";

function moduleRoundTrip(text: string, opts: ParseOptions = {}): void {
  const m = parseModule(text, opts);
  const printed = printModule(m);
  // the printer writes v1 syntax, whatever the input was
  const again = parseModuleResult(printed, { ...opts, regoVersion: "v1" });
  expect(again.errors.map(String), printed).to.deep.equal([]);
  expect(formatOpaJson(moduleToOpaJson(again.module!, { comments: false }), 1), printed).to.equal(formatOpaJson(moduleToOpaJson(m, { comments: false }), 1));
}

function queryRoundTrip(text: string, opts: ParseOptions = {}): boolean {
  const first = parseQueryResult(text, opts);
  if (!first.body) return false;
  const printed = printBody(first.body);
  const again = parseQueryResult(printed, opts);
  expect(again.errors.map(String), `${text}\n=> ${printed}`).to.deep.equal([]);
  expect(formatOpaJson(bodyToOpaJson(again.body!)), `${text}\n=> ${printed}`).to.equal(formatOpaJson(bodyToOpaJson(first.body)));
  return true;
}

// ---------------------------------------------------------------------------------------------
// a small grammar of Rego terms and expressions

const name = fc.constantFrom("x", "y", "z", "foo", "bar_1", "_");
const field = fc.constantFrom("a", "b", "not", "in", "every", "with x");
const number = fc.oneof(
  fc.integer({ min: -1000, max: 1_000_000 }).map(String),
  fc.constantFrom("0.5", "1e6", "2.5E-3", "123456789012345678901234567890", "-0.0"),
);
const string = fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s));
const binop = fc.constantFrom("+", "-", "*", "/", "%", "&", "|", "==", "!=", "<", "<=", ">", ">=");

const { term } = fc.letrec<{ term: string; scalar: string; ref: string; collection: string; call: string; infix: string; comprehension: string }>((tie) => ({
  term: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("scalar"), name, tie("ref"), tie("collection"), tie("call"), tie("infix"), tie("comprehension")),
  scalar: fc.oneof(fc.constantFrom("null", "true", "false"), number, string),
  ref: fc.tuple(fc.constantFrom("input", "data", "x", "foo"), fc.array(fc.oneof(field.map((f) => (/^\w+$/.test(f) ? `.${f}` : `[${JSON.stringify(f)}]`)), tie("term").map((t) => `[${t}]`)), { minLength: 1, maxLength: 3 })).map(([h, ops]) => h + ops.join("")),
  collection: fc.oneof(
    fc.array(tie("term"), { maxLength: 3 }).map((ts) => `[${ts.join(", ")}]`),
    fc.array(tie("term"), { minLength: 1, maxLength: 3 }).map((ts) => `{${ts.join(", ")}}`),
    fc.array(fc.tuple(tie("term"), tie("term")), { maxLength: 3 }).map((ps) => `{${ps.map(([k, v]) => `${k}: ${v}`).join(", ")}}`),
    fc.constant("set()"),
  ),
  call: fc.tuple(fc.constantFrom("f", "count", "json.marshal", "a.b.c"), fc.array(tie("term"), { maxLength: 3 })).map(([f, args]) => `${f}(${args.join(", ")})`),
  infix: fc.tuple(tie("term"), binop, tie("term")).map(([a, op, b]) => `(${a} ${op} ${b})`),
  comprehension: fc.oneof(
    fc.tuple(tie("term"), name).map(([t, v]) => `[${t} | some ${v} in input]`),
    fc.tuple(tie("term"), tie("term")).map(([t, u]) => `{${t} | x := ${u}}`),
    fc.tuple(tie("term"), tie("term")).map(([k, v]) => `{${k}: ${v} | true}`),
  ),
}));

const expr = fc.oneof(
  term,
  term.map((t) => `x := ${t}`),
  fc.tuple(term, term).map(([a, b]) => `${a} = ${b}`),
  term.map((t) => `not ${t}`),
  term.map((t) => `some k, v in ${t}`),
  fc.tuple(name, term).map(([v, t]) => `${v} in ${t}`),
  term.map((t) => `every v in ${t} { v }`),
  fc.tuple(term, term).map(([a, b]) => `${a} with input.a as ${b}`),
  term.map((t) => `$"a {${t}} \\{b}"`),
);
/** Fixed seed by default (reproducible runs); FC_SEED / FC_RUNS explore further. */
function fcOptions(runs: number): { numRuns: number; seed: number } {
  return { numRuns: Number(process.env.FC_RUNS ?? runs), seed: Number(process.env.FC_SEED ?? 20240521) };
}

const query = fc.array(expr, { minLength: 1, maxLength: 4 }).map((es) => es.join("; "));

describe("round trip: print(parse(x)) parses to the same AST", () => {
  it("random queries from a Rego grammar", () => {
    let parsed = 0;
    let runs = 0;
    fc.assert(
      fc.property(query, (q) => {
        runs++;
        if (queryRoundTrip(q)) parsed++;
      }),
      fcOptions(1500),
    );
    // the grammar makes valid Rego; nearly every program must parse
    expect(parsed / runs).to.be.greaterThan(0.9);
  });

  it("random queries with and/or/not groups", () => {
    // A value operand that starts with `{` must be parenthesized (else the braces are read as a
    // body and the query does not parse).
    const value = term.map((t) => (t.startsWith("{") ? `(${t})` : t));
    const operand = fc.oneof(
      value,
      expr.map((e) => `{${e}}`),
      value.map((t) => `not ${t}`),
      fc.tuple(value, term).map(([a, b]) => `(${a} with input.a as ${b})`),
      fc.tuple(value, fc.constantFrom("and", "or"), value).map(([a, op, b]) => `(${a} ${op} not ${b})`),
      fc.tuple(value, value).map(([a, b]) => `not (${a} or ${b} with input.a as 1)`),
    );
    const logical = fc.tuple(operand, fc.array(fc.tuple(fc.constantFrom("and", "or"), operand), { minLength: 1, maxLength: 3 })).map(([first, rest]) => first + rest.map(([op, o]) => ` ${op} ${o}`).join(""));
    let parsed = 0;
    let runs = 0;
    fc.assert(
      fc.property(logical, (q) => {
        runs++;
        if (queryRoundTrip(q, { allFutureKeywords: true })) parsed++;
      }),
      fcOptions(1500),
    );
    // a query that does not parse checks nothing: nearly every one must
    expect(parsed / runs).to.be.greaterThan(0.9);
  });

  it("v0 modules print as v1 and keep their AST", () => {
    moduleRoundTrip("package a\n\np[x] { x := 1 }\nq { true }\nr[k] = v { k := 1; v := 2 }\ndefault s = 1\nf(x) = y { y := x }\n", { regoVersion: "v0" });
  });

  it("metadata blocks survive", () => {
    moduleRoundTrip("# METADATA\n# title: T\npackage a\n\n# METADATA\n# custom:\n#   k: [1, 2]\np := 1\n");
  });
});

describeWithShared("round trip over the compliance corpus", function () {
  it("every module", () => {
    for (const { name: n, text } of complianceModules()) {
      try {
        moduleRoundTrip(text, { file: n });
      } catch (e) {
        throw new Error(`${n}: ${(e as Error).message}`);
      }
    }
  });
  it("every query", () => {
    for (const c of loadComplianceSources()) if (c.query !== undefined) expect(queryRoundTrip(c.query), c.query).to.equal(true);
  });
});
