// The rule index pass (compiler/optimize/ruleIndex.ts): which bodies it dispatches by an
// IndexStmt and on which ref (before/after IR), what it leaves alone, and that the indexed module
// answers as the plain one — values, undefinedness, conflicts — on chosen cases and on random
// route tables with random inputs (fast-check).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { RegoError } from "regoc";
import { generateTypeScript, loadModule, planRego } from "regoc/compiler";
import { generateModule, preparePolicy } from "../../../../compiler/codegen/generate.js";
import type { Block, Func, IndexStmt, Policy, Stmt } from "../../../../compiler/ir/types.js";
import { ruleIndex, ruleIndexPass } from "../../../../compiler/optimize/ruleIndex.js";
import { optimize } from "../../../../compiler/optimize/index.js";
import { unitFlow } from "../../../../compiler/optimize/ruleIndexUnits.js";
import { repoRoot } from "../../../support/shared.js";
import { L, PolicyBuilder, T, block, st } from "../../../support/plans.js";

function plan(source: string, entrypoint: string): Policy {
  return preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }));
}

function func(p: Policy, name: string): Func {
  return p.funcs.funcs.find((f) => f.name === name)!;
}

/** The IndexStmts at the top level of a func's blocks, with the block each sits in. */
function indexStmts(f: Func): Array<{ block: Block; stmt: IndexStmt }> {
  const out: Array<{ block: Block; stmt: IndexStmt }> = [];
  for (const b of f.blocks) for (const s of b.stmts) if (s.type === "IndexStmt") out.push({ block: b, stmt: s.stmt });
  return out;
}

const ROUTES = (n: number, extra = "") =>
  `package r\n${extra}\n` +
  Array.from({ length: n }, (_, i) => `allow if {\n  input.method == "${["GET", "POST"][i % 2]}"\n  input.path == ["api", "r${i}"]\n}\n`).join("\n");

type Fn = (input: unknown, data: unknown) => unknown;

/** The module of a plan: optimised, as written, or indexed with every index's cases moved out. */
async function load(p: Policy, entrypoint: string, how: boolean | "outlined"): Promise<Fn> {
  const g =
    how === "outlined"
      ? generateModule(ruleIndexPass(0).run(p), { language: "function", optimize: false })
      : generateTypeScript(p, { language: "function", optimize: how });
  const mod = await loadModule(g.code, g);
  return mod.entrypoints[entrypoint]!.fn as unknown as Fn;
}

/** The answer of a call: its value, or the code of the error it raised. */
function answer(f: Fn, input: unknown, data: unknown = {}): unknown {
  try {
    return { value: f(input, data) };
  } catch (e) {
    if (e instanceof RegoError) return { error: e.code };
    throw e;
  }
}

describe("optimize/ruleIndex: the pass", () => {
  it("dispatches a route table on the ref that separates its bodies most (input.path[1]), each body in its case", () => {
    const before = plan(ROUTES(6), "r/allow");
    const f0 = func(before, "g0.data.r.allow");
    const after = ruleIndex.run(before);
    const f1 = func(after, "g0.data.r.allow");
    // before: 6 × (body, value) + return; after: the index block + return
    assert.equal(f0.blocks.length, 13);
    assert.equal(f1.blocks.length, 2);
    const [ix] = indexStmts(f1);
    assert.ok(ix);
    assert.equal(ix.stmt.ref, "input.path[1]");
    assert.deepEqual(
      ix.stmt.cases.map((c) => c.values),
      [["r0"], ["r1"], ["r2"], ["r3"], ["r4"], ["r5"]],
    );
    // each case runs the body and value blocks of its rule, unchanged
    ix.stmt.cases.forEach((c, i) => assert.deepEqual(c.blocks, [f0.blocks[2 * i], f0.blocks[2 * i + 1]]));
    // the key: input.path, then [1]; an undefined step ends the block before the IndexStmt
    assert.deepEqual(
      ix.block.stmts.map((s) => s.type),
      ["DotStmt", "MakeNumberIntStmt", "DotStmt", "IndexStmt"],
    );
    assert.deepEqual(f1.blocks[1], f0.blocks[12]);
    // the input was left untouched
    assert.equal(func(before, "g0.data.r.allow").blocks.length, 13);
  });

  it("puts a body testing `in` a constant set in the case of each element", () => {
    const p = ruleIndex.run(
      plan(
        `package r
x := 1 if input.m == "a"
x := 1 if input.m == "b"
x := 1 if input.m == "c"
x := 1 if input.m in {"a", "d"}
`,
        "r/x",
      ),
    );
    const [ix] = indexStmts(func(p, "g0.data.r.x"));
    assert.ok(ix);
    assert.equal(ix.stmt.ref, "input.m");
    // "a" selects the first and the fourth body; "d" only the fourth
    assert.deepEqual(
      ix.stmt.cases.map((c) => [c.values, c.blocks.length]),
      [
        [["a"], 4],
        [["b"], 2],
        [["c"], 2],
        [["d"], 2],
      ],
    );
  });

  it("leaves bodies it cannot index in place, and the default after the index", () => {
    const p = plan(ROUTES(4, `default allow := false\nallow if startswith(input.p, "x")\n`), "r/allow");
    const f0 = func(p, "g0.data.r.allow");
    const f1 = func(ruleIndex.run(p), "g0.data.r.allow");
    const kinds = (f: Func) => f.blocks.map((b: Block) => b.stmts.map((s: Stmt) => s.type).find((t) => t === "IndexStmt" || t === "CallStmt" || t === "IsUndefinedStmt" || t === "ReturnLocalStmt") ?? "value");
    // the startswith body (planned first) and its value block stay first; the 4 routes are one index
    assert.deepEqual(kinds(f0).slice(0, 2), ["CallStmt", "value"]);
    assert.deepEqual(kinds(f1), ["CallStmt", "value", "IndexStmt", "IsUndefinedStmt", "ReturnLocalStmt"]);
  });

  it("indexes a large case again on another ref", () => {
    const rules = Array.from({ length: 8 }, (_, i) => `allow if { input.path == "p${i % 2}"; input.user == "u${i}" }`).join("\n");
    const f = func(ruleIndex.run(plan(`package r\n${rules}\n`, "r/allow")), "g0.data.r.allow");
    const [ix] = indexStmts(f);
    assert.ok(ix);
    assert.equal(ix.stmt.ref, "input.user");
    assert.equal(ix.stmt.cases.length, 8);

    const nested = Array.from({ length: 8 }, (_, i) => `allow if { input.a == "a${i % 2}"; input.b == "b${Math.floor(i / 2)}" }`).join("\n");
    const g = func(ruleIndex.run(plan(`package r\n${nested}\n`, "r/allow")), "g0.data.r.allow");
    const [top] = indexStmts(g);
    assert.ok(top);
    assert.equal(top.stmt.ref, "input.b");
    const inner = top.stmt.cases[0]!.blocks.flatMap((b) => b.stmts).filter((s) => s.type === "IndexStmt");
    // a case of 2 bodies is not indexed again (fewer than MIN_INDEXED)
    assert.equal(inner.length, 0);
  });

  it("leaves small rule sets, else chains and bodies reading another body's locals as they are", () => {
    for (const src of [
      ROUTES(3),
      `package r\nallow if input.m == "a"\nelse := 2 if input.m == "b"\nallow if input.m == "c"\nallow if input.m == "d"\nallow if input.m == "e"\n`,
    ]) {
      const p = plan(src, "r/allow");
      assert.equal(ruleIndex.run(p), p, src);
    }
  });

  it("leaves a func whose later block reads a local an indexed body would leave (hand-written IR)", () => {
    const b = new PolicyBuilder();
    const body = (m: string) => [
      block(st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("m"), 4), st("EqualStmt", { a: L(4), b: b.s(m) }), b.once(T, 3)),
      block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    ];
    const bodies = ["a", "b", "c", "d", "e"].flatMap(body);
    // reads l4: what the last body that ran left there
    const late = block(st("EqualStmt", { a: L(4), b: b.s("z") }), b.once(T, 2));
    b.func("g0.data.t.p", [0, 1], 2, [...bodies, late, block(st("ReturnLocalStmt", { source: 2 }))], ["g0", "t", "p"]);
    b.func("g0.data.t.q", [0, 1], 2, [...bodies, block(st("ReturnLocalStmt", { source: 2 }))], ["g0", "t", "q"]);
    b.entry("t/p", "g0.data.t.p");
    b.entry("t/q", "g0.data.t.q");
    const p = preparePolicy(b.json());
    const after = ruleIndex.run(p);
    assert.equal(func(after, "g0.data.t.p"), func(p, "g0.data.t.p"));
    assert.equal(indexStmts(func(after, "g0.data.t.q")).length, 1);
  });

  it("counts a scan's key and value as written only inside the scan", () => {
    const b = new PolicyBuilder();
    const inside = block(st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("xs"), 4), b.scan(4, 5, 6, st("EqualStmt", { a: L(6), b: b.s("z") })), b.once(T, 3));
    const after = block(st("ResetLocalStmt", { target: 3 }), b.dot(L(0), b.s("xs"), 4), b.scan(4, 5, 6), st("EqualStmt", { a: L(6), b: b.s("z") }), b.once(T, 3));
    b.func("g0.data.t.p", [0, 1], 2, [inside, after, block(st("ReturnLocalStmt", { source: 2 }))], ["g0", "t", "p"]);
    b.entry("t/p", "g0.data.t.p");
    const f = func(preparePolicy(b.json()), "g0.data.t.p");
    assert.deepEqual(unitFlow(f, [f.blocks[0]!]), { selfContained: true, movable: true });
    assert.deepEqual(unitFlow(f, [f.blocks[1]!]), { selfContained: false, movable: false });
  });

  it("indexes refs into data, read through the lookup blocks a data ref is planned as", async () => {
    const src = `package r
v := 1 if data.cfg.mode == "a"
v := 2 if data.cfg.mode == "b"
v := 3 if { data.cfg.mode == "c"; data.cfg.level == 1 }
v := 4 if { data.cfg.mode == "d"; input.x == data.cfg.level }
v := 5 if data.cfg.mode in ["e", "a"]
`;
    const p = plan(src, "r/v");
    const [ix] = indexStmts(func(ruleIndex.run(p), "g0.data.r.v"));
    assert.ok(ix);
    assert.equal(ix.stmt.ref, "data.cfg.mode");
    const [indexed, plain] = await Promise.all([load(p, "r/v", true), load(p, "r/v", false)]);
    const datas = [{}, { cfg: {} }, { cfg: { mode: "b" } }, { cfg: { mode: "c", level: 1 } }, { cfg: { mode: "d", level: 2 } }, { cfg: { mode: "e" } }, { cfg: { mode: "a" } }, { cfg: "a" }];
    const answers = datas.map((d) => {
      const want = answer(plain, { x: 2 }, d);
      assert.deepEqual(answer(indexed, { x: 2 }, d), want, JSON.stringify(d));
      return want;
    });
    assert.deepEqual(answers, [{ value: undefined }, { value: undefined }, { value: 2 }, { value: 3 }, { value: 4 }, { value: 5 }, { error: "eval_conflict_error" }, { value: undefined }]);
    // a body reading data after a route table leaves the table indexed
    const q = ruleIndex.run(plan(`${ROUTES(6)}\nallow if data.open == true\n`, "r/allow"));
    assert.equal(indexStmts(func(q, "g0.data.r.allow")).length, 1);
  });

  it("indexes a function's argument, numbers, booleans and null", () => {
    const src = `package r
f(1) := "one"
f(2) := "two"
f(true) := "t"
f(null) := "n"
f("1") := "s"
`;
    const p = ruleIndex.run(plan(`${src}\nv := [f(1), f(2), f(true), f(null), f("1")]\n`, "r/v"));
    const [ix] = indexStmts(func(p, "g0.data.r.f"));
    assert.ok(ix);
    assert.equal(ix.stmt.ref, "arg1");
    assert.deepEqual(
      ix.stmt.cases.map((c) => c.values),
      [[1], [2], [true], [null], ["1"]],
    );
  });

  it("moves the cases of a large func to funcs of their own, called from their case", () => {
    const p = ruleIndex.run(plan(ROUTES(150), "r/allow"));
    const names = p.funcs.funcs.map((f) => f.name);
    // callees first: the 150 case funcs, then the rule's
    assert.equal(names.length, 151);
    assert.deepEqual(names.slice(0, 2), ["g0.data.r.allow#0", "g0.data.r.allow#1"]);
    assert.equal(names[150], "g0.data.r.allow");
    const f = func(p, "g0.data.r.allow");
    const [ix] = indexStmts(f);
    assert.ok(ix);
    assert.deepEqual(
      ix.stmt.cases[1]!.blocks.map((b) => b.stmts.map((s) => (s.type === "CallStmt" ? s.stmt.func : s.type))),
      [["g0.data.r.allow#1", "AssignVarOnceStmt"]],
    );
    const case1 = func(p, "g0.data.r.allow#1");
    assert.deepEqual(case1.params, f.params);
    assert.equal(case1.return, f.return);
    assert.equal(case1.blocks.length, 3); // the body, its value, the return
    // small funcs keep their cases in place; partial sets are indexed but keep theirs
    assert.equal(ruleIndex.run(plan(ROUTES(20), "r/allow")).funcs.funcs.length, 1);
    const sets = Array.from({ length: 150 }, (_, i) => `s contains ${i} if input.path == ["api", "r${i}"]`).join("\n");
    const q = ruleIndex.run(plan(`package r\n${sets}\n`, "r/s"));
    assert.equal(q.funcs.funcs.length, 1);
    assert.equal(indexStmts(func(q, "g0.data.r.s")).length, 1);
  });

  it("indexes a plan read from JSON text, as from `opa build -t plan`", () => {
    const text = JSON.stringify(planRego({ modules: { "t.rego": ROUTES(5) }, entrypoints: ["r/allow"] }));
    const g = generateTypeScript(text);
    assert.match(g.code, /const ix0 = new Map<V, number>\(\[\["r0", 0\], \["r1", 1\], \["r2", 2\], \["r3", 3\], \["r4", 4\]\]\);/);
    assert.match(g.code, /switch \(ix0\.get\(l\d+\)\) \{\n\s+case 0: \{/);
    assert.doesNotMatch(generateTypeScript(text, { optimize: false }).code, /ix0|switch/);
  });

  it("generates TypeScript that type-checks (strict)", function () {
    this.timeout(60_000);
    const src = `package r
f(1) := "one"
f(2) := "two"
f(true) := "t"
f(null) := "n"
v := [f(1), f(2), f(true), f(null)]
${ROUTES(6).replace("package r", "")}
allow if { input.method in {"PUT", "GET"}; input.path == ["x"] }
`;
    const dir = join(repoRoot, "node_modules", ".cache", `regoc-ruleindex-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      const code = generateTypeScript(planRego({ modules: { "t.rego": src }, entrypoints: ["r/v", "r/allow"] })).code;
      assert.equal(code.match(/new Map</g)?.length, 2);
      writeFileSync(join(dir, "m.ts"), code);
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: { noEmit: true }, include: ["*.ts"], exclude: [] }));
      const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
      const mine = tsc.stdout.split("\n").filter((l) => l.includes("m.ts"));
      assert.deepEqual(mine, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is refused in a plan: the decoder knows only OPA's statement types", () => {
    const p = JSON.parse(JSON.stringify(plan(ROUTES(1), "r/allow"))) as { funcs: { funcs: Array<{ blocks: Array<{ stmts: unknown[] }> }> } };
    p.funcs.funcs[0]!.blocks[0]!.stmts.unshift({ type: "IndexStmt", stmt: { key: 0, cases: [], ref: "input", file: 0, row: 1, col: 1 } });
    assert.throws(() => preparePolicy(p), (e: unknown) => e instanceof RegoError && e.code === "plan_invalid_error" && /IndexStmt/.test(e.message));
  });
});

describe("optimize/ruleIndex: the indexed module answers as the plain one", () => {
  it("routes, missing and mistyped fields, a conflict between two matching bodies, the default", async () => {
    const src = `package r
default v := 0
v := 1 if { input.method == "GET"; input.path == ["api", "a"] }
v := 1 if { input.method == "GET"; input.path == ["api", "b"] }
v := 2 if { input.method == "POST"; input.path == ["api", "b"] }
v := 1 if { input.method in ["PUT", "GET"]; input.path = ["api", x]; x == input.id }
v := 3 if { input.method == "DELETE"; input.path[0] == "admin" }
v := 4 if { input.method == "HEAD"; input.path == ["api", "a"] }
v := 5 if { input.method == "PATCH"; input.path == ["api"] }
`;
    const p = plan(src, "r/v");
    assert.equal(indexStmts(func(optimize(p).policy, "g0.data.r.v")).length, 1);
    const [indexed, plain, outlined] = await Promise.all([load(p, "r/v", true), load(p, "r/v", false), load(p, "r/v", "outlined")]);
    const cases: Array<[unknown, unknown]> = [
      [{ method: "GET", path: ["api", "a"] }, { value: 1 }],
      [{ method: "GET", path: ["api", "b"] }, { value: 1 }],
      [{ method: "POST", path: ["api", "b"] }, { value: 2 }],
      [{ method: "PUT", path: ["api", "z"], id: "z" }, { value: 1 }],
      [{ method: "DELETE", path: ["admin", "x", "y"] }, { value: 3 }],
      [{ method: "HEAD", path: ["api", "a"] }, { value: 4 }],
      [{ method: "PATCH", path: ["api"] }, { value: 5 }],
      [{ method: "PATCH", path: ["api", "a"] }, { value: 0 }],
      [{ method: "GET", path: ["api", "c"] }, { value: 0 }],
      [{ method: "GET", path: "api/a" }, { value: 0 }],
      [{ method: "GET", path: { 1: "a" } }, { value: 0 }],
      [{ path: ["api", "a"] }, { value: 0 }],
      [undefined, { value: 0 }],
      // the fourth body matches too, with another value than the third
      [{ method: "GET", path: ["api", "q"], id: "q" }, { value: 1 }],
    ];
    for (const [input, want] of cases) {
      assert.deepEqual(answer(indexed, input), want, JSON.stringify(input));
      assert.deepEqual(answer(plain, input), want, JSON.stringify(input));
      assert.deepEqual(answer(outlined, input), want, JSON.stringify(input));
    }
    const conflict = `package r
v := 5 if startswith(input.d, "s")
v := 1 if { input.a == "x"; input.b == 1 }
v := 2 if { input.a == "x"; input.c == 1 }
v := 3 if { input.a == "y" }
v := 4 if { input.a == "z" }
v := 6 if { input.a == "w" }
v := 7 if { input.a == "u" }
`;
    const q = plan(conflict, "r/v");
    assert.equal(indexStmts(func(optimize(q).policy, "g0.data.r.v")).length, 1);
    const [qi, qp, qo] = await Promise.all([load(q, "r/v", true), load(q, "r/v", false), load(q, "r/v", "outlined")]);
    for (const f of [qi, qp, qo]) {
      assert.deepEqual(answer(f, { a: "x", b: 1, c: 1 }), { error: "eval_conflict_error" });
      assert.deepEqual(answer(f, { a: "x", b: 1 }), { value: 1 });
      assert.deepEqual(answer(f, { a: "z" }), { value: 4 });
      assert.deepEqual(answer(f, { a: 1 }), { value: undefined });
      // a body left in place, before the index, and an indexed one
      assert.deepEqual(answer(f, { a: "z", d: "s" }), { error: "eval_conflict_error" });
      assert.deepEqual(answer(f, { a: "q", d: "s" }), { value: 5 });
    }
  });

  // ---- random route tables ----

  const METHODS = ["GET", "POST", "PUT", "DELETE"];
  const SEGS = ["api", "v1", "users", "orders", "r1", "r2", "r3", "r4", "r5", 1, true];
  const lit = (v: unknown) => JSON.stringify(v);

  const method = fc.oneof(
    fc.constantFrom(...METHODS).map((m) => `input.method == ${lit(m)}`),
    fc.subarray(METHODS, { minLength: 1, maxLength: 3 }).map((ms) => `input.method in {${ms.map(lit).join(", ")}}`),
  );
  const path = fc.oneof(
    fc.array(fc.oneof({ arbitrary: fc.constantFrom(...SEGS).map(lit), weight: 4 }, { arbitrary: fc.constantFrom("_", "x"), weight: 1 }), { minLength: 1, maxLength: 3 }).map((segs) => {
      // at most one `x`: it binds the segment compared with input.user below
      let seen = false;
      const ps = segs.map((s) => (s === "x" ? (seen ? "_" : ((seen = true), "x")) : s));
      const vars = seen || ps.includes("_");
      return `input.path ${vars ? "=" : "=="} [${ps.join(", ")}]${seen ? "\n  x == input.user" : ""}`;
    }),
    fc.constantFrom(...SEGS).map((s) => `input.path[0] == ${lit(s)}`),
  );
  const other = fc.oneof(
    method,
    fc.constantFrom(...METHODS).map((m) => `data.cfg.mode == ${lit(m)}`),
    fc.constantFrom("admin", "guest", 7).map((r) => `input.user == ${lit(r)}`),
    fc.constant(`startswith(input.user, "a")`),
  );
  // Most rules test a path and a method, as a route table's do; some test other things only.
  const rule = fc.record({
    value: fc.constantFrom(1, 2),
    conds: fc.oneof(
      { arbitrary: fc.tuple(path, method, fc.array(other, { maxLength: 1 })).map(([p, m, o]) => [p, m, ...o]), weight: 5 },
      { arbitrary: fc.array(other, { minLength: 1, maxLength: 2 }), weight: 1 },
    ),
  });
  const table = fc.record({ rules: fc.array(rule, { minLength: 6, maxLength: 14 }), withDefault: fc.boolean(), partial: fc.boolean() });

  const value = fc.oneof(fc.constantFrom(...SEGS, "admin", "guest", "ab", 7, null, 1.0, 2), fc.constant({ a: 1 }));
  const input = fc.oneof(
    fc.record(
      {
        method: fc.oneof({ arbitrary: fc.constantFrom(...METHODS, "PATCH"), weight: 4 }, { arbitrary: value, weight: 1 }),
        path: fc.oneof({ arbitrary: fc.array(fc.constantFrom(...SEGS, "x", 2), { minLength: 1, maxLength: 3 }), weight: 4 }, { arbitrary: value, weight: 1 }),
        user: fc.oneof(fc.constantFrom("admin", "api", "r1", 7), value),
      },
      { requiredKeys: [] },
    ),
    value,
    fc.constant(undefined),
  );

  const data = fc.oneof(fc.constant({}), fc.record({ cfg: fc.record({ mode: fc.constantFrom(...METHODS, 1) }) }));

  function source(t: { rules: Array<{ value: number; conds: string[] }>; withDefault: boolean; partial: boolean }): string {
    const head = (v: number, i: number) => (t.partial ? `s contains ${lit(`m${v}-${i % 3}`)} if` : `v := ${v} if`);
    // The first rule again with the other value: a conflict wherever it matches.
    const all = [...t.rules, { ...t.rules[0]!, value: 3 - t.rules[0]!.value }];
    const rules = all.map((r, i) => `${head(r.value, i)} {\n  ${r.conds.join("\n  ")}\n}`);
    return `package r\n${t.withDefault && !t.partial ? "default v := 0\n" : ""}${rules.join("\n")}\n`;
  }

  it("on random route tables and inputs (fast-check)", async function () {
    this.timeout(120_000);
    let indexedTables = 0;
    const seen = { values: 0, conflicts: 0 };
    await fc.assert(
      fc.asyncProperty(table, fc.array(input, { minLength: 30, maxLength: 30 }), data, async (t, inputs, d) => {
        const ep = t.partial ? "r/s" : "r/v";
        const p = plan(source(t), ep);
        if (indexStmts(func(optimize(p).policy, `g0.data.${ep.replace("/", ".")}`)).length > 0) indexedTables++;
        const [indexed, plain, outlined] = await Promise.all([load(p, ep, true), load(p, ep, false), load(p, ep, "outlined")]);
        for (const i of inputs) {
          const want = answer(plain, i, d) as { value?: unknown; error?: string };
          const what = `${source(t)}\ninput: ${JSON.stringify(i)}, data: ${JSON.stringify(d)}`;
          assert.deepEqual(answer(indexed, i, d), want, what);
          assert.deepEqual(answer(outlined, i, d), want, `outlined: ${what}`);
          if (want.error) seen.conflicts++;
          else if (want.value !== undefined && want.value !== 0 && !(want.value instanceof Object && (want.value as { size?: number }).size === 0)) seen.values++;
        }
      }),
      // a fixed seed: the coverage checks below hold for this sample, where a random one
      // occasionally draws too few conflicts
      { numRuns: 100, seed: 20261128 },
    );
    // the property says something only if most tables were indexed
    assert.ok(indexedTables > 50, `only ${indexedTables} of 100 tables were indexed`);
    assert.ok(seen.values > 50 && seen.conflicts > 2, JSON.stringify(seen));
  });
});
