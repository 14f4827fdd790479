// The scan-merge pass: rule bodies of a partial set scanning the same collection share one loop
// (before/after IR), the shapes it leaves alone, and the same answers with and without it —
// values, undefinedness, errors — on chosen cases and on random records (fast-check).
import assert from "node:assert/strict";
import fc from "fast-check";
import { RegoError, toJSON, type Value } from "regoc";
import { loadModule, planRego } from "regoc/compiler";
import { generateModule, preparePolicy } from "../../../../compiler/codegen/generate.js";
import type { Policy } from "../../../../compiler/ir/types.js";
import { optimize } from "../../../../compiler/optimize/index.js";
import { scanMerge } from "../../../../compiler/optimize/scanMerge.js";
import { bodyText } from "./support.js";

const DOCS = `package docs
allowed contains d.id if {
  some d in data.records
  d.owner == input.user
}
allowed contains d.id if {
  some d in data.records
  d.public == true
}
allowed contains d.id if {
  some d in data.records
  "editors" in d.groups
}
`;

/** The plan optimised by the passes that run before scan merging. */
function before(source: string, entrypoint: string): Policy {
  const p = preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }));
  return optimize(p, { skip: ["scan-merge", "hoist", "rule-index", "early-exit", "scan-fusion"] }).policy;
}

type Fn = (input: unknown, data: unknown, options?: { strictBuiltinErrors?: boolean }) => unknown;

async function load(source: string, entrypoint: string, merged: boolean): Promise<Fn> {
  const p = preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }));
  const g = generateModule(optimize(p, merged ? {} : { skip: ["scan-merge"] }).policy, { language: "function", optimize: false });
  const mod = await loadModule(g.code, g);
  return mod.entrypoints[entrypoint]!.fn as unknown as Fn;
}

/** The answer as sorted JSON text (a set in one order), or the error's code. */
function answer(f: Fn, input: unknown, data: unknown, strict: boolean): unknown {
  try {
    const v = toJSON(f(input, data, strict ? { strictBuiltinErrors: true } : undefined) as Value);
    return { value: Array.isArray(v) ? v.map((x) => JSON.stringify(x)).sort() : v };
  } catch (e) {
    if (e instanceof RegoError) return { error: e.code };
    throw e;
  }
}

function merges(source: string, entrypoint: string, func: string): boolean {
  const p = before(source, entrypoint);
  return bodyText(scanMerge.run(p), func) !== bodyText(p, func);
}

describe("optimize: scan-merge", () => {
  it("runs the bodies scanning the same collection in one loop, each in a block, the later bodies' locals renamed", () => {
    const p = before(DOCS, "docs/allowed");
    const text = bodyText(scanMerge.run(p), "g0.data.docs.allowed");
    assert.equal((bodyText(p, "g0.data.docs.allowed").match(/scan /g) ?? []).length, 3);
    assert.equal((text.match(/scan /g) ?? []).length, 1, text);
    assert.equal((text.match(/^ {4}block$/gm) ?? []).length, 3, text);
    // Each body reads the element through the one scan value.
    const [, value] = /scan l\d+ \(l\d+, (l\d+)\)/.exec(text)!;
    assert.equal((text.match(new RegExp(`= ${value}\\["id"\\]`, "g")) ?? []).length, 3, text);
  });

  it("leaves alone bodies that may raise an error, scan other collections, or build an object", () => {
    const two = (a: string, b: string, head = "s contains x") => `package t\n${head} if {\n  ${a}\n}\n${head} if {\n  ${b}\n}\n`;
    assert.ok(merges(two("some x in input.xs; x > 1", "some x in input.xs; x == \"a\""), "t/s", "g0.data.t.s"));
    assert.ok(!merges(two("some x in input.xs; x > 1", "some x in input.ys; x == \"a\""), "t/s", "g0.data.t.s"));
    // A builtin that fails on a non-string: strict mode raises the first body's error first.
    assert.ok(!merges(two("some x in input.xs; startswith(x, \"a\")", "some x in input.xs; x == 1"), "t/s", "g0.data.t.s"));
    // A partial object: a key's conflict is raised by the body that meets it second.
    assert.ok(!merges(two("some k, x in input.xs; x > 1", "some k, x in input.xs; x < 0", "o[k] := x"), "t/o", "g0.data.t.o"));
  });

  it("answers as without it, on random records with missing fields and values of other types", async () => {
    const [plain, merged] = [await load(DOCS, "docs/allowed", false), await load(DOCS, "docs/allowed", true)];
    const anyValue = fc.oneof(fc.constantFrom("u1", "u2", true, false, null, 1, "editors"), fc.array(fc.constantFrom("editors", "x", 1), { maxLength: 3 }));
    const record = fc.record({ id: fc.oneof(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 3 })), owner: anyValue, public: anyValue, groups: anyValue }, { requiredKeys: [] });
    const records = fc.oneof(fc.array(record, { maxLength: 6 }), fc.dictionary(fc.constantFrom("r1", "r2", "r3"), record), fc.constant("nope"));
    fc.assert(
      fc.property(records, anyValue, (recs, user) => {
        for (const strict of [false, true]) {
          const data = { records: recs };
          assert.deepEqual(answer(merged, { user }, data, strict), answer(plain, { user }, data, strict));
        }
      }),
      { numRuns: 300 },
    );
  });
});
