// The site tables of generated modules (runtime/eval/sites.ts): builtin call sites resolved at load,
// conflict sites read only when a conflict is raised.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { aggregatesBuiltins } from "../../../../runtime/builtins/aggregates.js";
import { arithmeticBuiltins } from "../../../../runtime/builtins/arithmetic.js";
import { builtinSites, conflictSites } from "../../../../runtime/eval/sites.js";

const table = (names: string[], files: string[], sites: number[]) => JSON.stringify({ names, files, sites });

describe("runtime: site tables", () => {
  it("builtinSites resolves every site in order, with its builtin and location", () => {
    const files = ['a"b\\c.rego', "line\nbreak,0,1.rego"];
    // the category tables a generated module imports and passes (regoc/builtins/<category>)
    const sites = builtinSites(table(["plus", "count"], files, [1, 1, 7, 3, 0, 0, 2, 9]), arithmeticBuiltins, aggregatesBuiltins);
    assert.equal(sites.length, 2);
    assert.equal(sites[0]!.name, "count");
    assert.deepEqual(sites[0]!.location, { file: files[1], row: 7, col: 3 });
    assert.equal(sites[1]!.name, "plus");
    assert.deepEqual(sites[1]!.location, { file: files[0], row: 2, col: 9 });
    assert.equal(typeof sites[1]!.fn, "function");
  });

  it("a builtin that is not implemented fails the load at its first site", () => {
    assert.throws(
      () => builtinSites(table(["plus", "no.such"], ["p.rego", "q.rego"], [0, 0, 1, 1, 1, 1, 4, 2, 1, 0, 9, 9]), arithmeticBuiltins),
      (e: unknown) =>
        e instanceof RegoError &&
        e.code === "rego_compile_error" &&
        e.message === "builtin no.such is not implemented" &&
        JSON.stringify(e.location) === '{"file":"q.rego","row":4,"col":2}' &&
        JSON.stringify(e.details) === '{"missingBuiltins":["no.such"]}',
    );
  });

  it("a conflict table is not read until a site is asked for", () => {
    const internal = (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error" && e.message.startsWith("malformed site table");
    const sites = conflictSites("not JSON");
    assert.throws(() => sites.site(0), internal);
    const ok = conflictSites(table(["object"], ["f.rego"], [0, 0, 5, 6]));
    assert.deepEqual(ok.site(0), { message: "object keys must be unique", location: { file: "f.rego", row: 5, col: 6 } });
    assert.throws(() => ok.site(1), (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error");
    assert.throws(() => conflictSites(table(["__proto__"], ["f.rego"], [0, 0, 1, 1])).site(0), (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error");
  });

  it("a malformed table is a coded error, never a crash", () => {
    const internal = (e: unknown) => e instanceof RegoError && e.code === "eval_internal_error" && e.message.startsWith("malformed site table");
    const bad = [
      "not JSON",
      "null",
      "[]",
      JSON.stringify({ names: ["object"], files: ["f.rego"] }),
      table(["object"], ["f.rego"], [0, 0, 1]),
      // name or file index out of range, negative, not an integer, not a number; row or col not a number
      table(["object"], ["f.rego"], [1, 0, 1, 1]),
      table(["object"], ["f.rego"], [0, 1, 1, 1]),
      table(["object"], ["f.rego"], [-1, 0, 1, 1]),
      table(["object"], ["f.rego"], [0.5, 0, 1, 1]),
      JSON.stringify({ names: ["object"], files: ["f.rego"], sites: ["length", 0, 1, 1] }),
      JSON.stringify({ names: ["object"], files: ["f.rego"], sites: ["__proto__", 0, 1, 1] }),
      JSON.stringify({ names: ["object"], files: ["f.rego"], sites: [0, 0, "1", 1] }),
      JSON.stringify({ names: ["object"], files: ["f.rego"], sites: [0, 0, 1, null] }),
      JSON.stringify({ names: [7], files: ["f.rego"], sites: [0, 0, 1, 1] }),
    ];
    for (const text of bad) {
      assert.throws(() => conflictSites(text).site(0), internal, text);
      assert.throws(() => builtinSites(text.replace('"object"', '"plus"')), internal, text);
    }
    assert.throws(() => conflictSites(table(["object"], ["f.rego"], [0, 0, 1, 1])).site(-1), internal);
    assert.throws(() => conflictSites(table(["object"], ["f.rego"], [0, 0, 1, 1])).site(0.5), internal);
  });
});
