// The scan-fusion pass: an existence check over a partial set runs inside the set's generation
// (before/after IR), the shapes it leaves alone, and the same answers with and without it —
// values, undefinedness, errors — on chosen cases and on random role tables (fast-check).
import assert from "node:assert/strict";
import fc from "fast-check";
import { RegoError } from "regoc";
import { loadModule, planRego } from "regoc/compiler";
import { generateModule, preparePolicy } from "../../../../compiler/codegen/generate.js";
import type { Policy } from "../../../../compiler/ir/types.js";
import { optimize } from "../../../../compiler/optimize/index.js";
import { scanFusion } from "../../../../compiler/optimize/scanFusion.js";
import { F, L, PolicyBuilder, T, block, st, type StmtJSON } from "../../../support/plans.js";
import { bodyText, decoded } from "./support.js";

const RBAC = `package rbac
default allow := false
allow if user_is_admin
allow if {
  some grant in user_is_granted
  input.action == grant.action
  input.type == grant.type
}
user_is_admin if "admin" in data.user_roles[input.user]
user_is_granted contains grant if {
  some role in data.user_roles[input.user]
  some grant in data.role_grants[role]
}
`;

/** The plan optimised by every pass but scan fusion. */
function before(source: string, entrypoint: string): Policy {
  const p = preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }));
  return optimize(p, { skip: ["scan-fusion"] }).policy;
}

type Fn = (input: unknown, data: unknown, options?: { strictBuiltinErrors?: boolean }) => unknown;

/** The entrypoint's function, optimised with or without scan fusion. */
async function load(source: string, entrypoint: string, fused: boolean): Promise<Fn> {
  const p = preparePolicy(planRego({ modules: { "t.rego": source }, entrypoints: [entrypoint] }));
  const g = generateModule(optimize(p, fused ? {} : { skip: ["scan-fusion"] }).policy, { language: "function", optimize: false });
  const mod = await loadModule(g.code, g);
  return mod.entrypoints[entrypoint]!.fn as unknown as Fn;
}

function answer(f: Fn, input: unknown, data: unknown, strict = false): unknown {
  try {
    return { value: f(input, data, strict ? { strictBuiltinErrors: true } : undefined) };
  } catch (e) {
    if (e instanceof RegoError) return { error: e.code };
    throw e;
  }
}

/** Asserts the same answers with and without the pass on every input and data. */
async function sameAnswers(source: string, entrypoint: string, cases: Array<[input: unknown, data: unknown]>): Promise<void> {
  const [plain, fused] = [await load(source, entrypoint, false), await load(source, entrypoint, true)];
  for (const [input, data] of cases) {
    for (const strict of [false, true]) {
      assert.deepEqual(answer(fused, input, data, strict), answer(plain, input, data, strict), JSON.stringify({ input, data, strict }));
    }
  }
}

/** Whether the pass changes the func. */
function fuses(source: string, entrypoint: string, func: string): boolean {
  const p = before(source, entrypoint);
  return bodyText(scanFusion.run(p), func) !== bodyText(p, func);
}

const RBAC_DATA = {
  user_roles: { alice: ["admin"], bob: ["reader", "writer"], eve: ["reader"], odd: "reader" },
  role_grants: { reader: [{ action: "read", type: "dog" }], writer: [{ action: "update", type: "finance" }, { action: "read", type: "dog" }] },
};

const b2 = (source: StmtJSON["stmt"][string], target: number): StmtJSON => st("AssignVarStmt", { source, target });

describe("optimize: scan-fusion", () => {
  it("runs the test where the set's elements are made: no set, the producer's locals renamed", () => {
    const p = before(RBAC, "rbac/allow");
    assert.ok(bodyText(p, "g0.data.rbac.allow").includes("l4 = g0.data.rbac.user_is_granted(l0, l1)"));
    assert.equal(
      bodyText(scanFusion.run(p), "g0.data.rbac.allow"),
      [
        "{",
        '  l13 = l0["user"]',
        '  l15 = l1["user_roles"]',
        "  l16 = l15[l13]",
        '  l18 = internal.member_2("admin", l16)',
        "  l18 != false",
        "  l4 = true",
        "  l4 != false",
        "  l2 = true",
        "}",
        "{",
        "  undefined l2",
        '  l9 = l0["action"]',
        '  l11 = l0["type"]',
        "  block",
        "  {",
        "    reset l22",
        '    l23 = l0["user"]',
        '    l25 = l1["user_roles"]',
        "    l26 = l25[l23]",
        '    l33 = l1["role_grants"]',
        "    scan l26 (l27, l28)",
        "    {",
        "      l34 = l33[l28]",
        "      scan l34 (l35, l6)",
        "      {",
        '        l10 = l6["action"]',
        "        l9 == l10",
        '        l12 = l6["type"]',
        "        l11 == l12",
        "        l2 = true",
        "        break 5",
        "      }",
        "    }",
        "  }",
        "}",
        "{",
        "  undefined l2",
        "  l2 = false",
        "}",
        "{",
        "  return l2",
        "}",
      ].join("\n"),
    );
  });

  it("leaves alone producers and tests that may raise an error, and sets read elsewhere", () => {
    const rbac = (producer: string, test: string, extra = "") =>
      `package t\nallow if {\n  some g in granted\n  ${test}\n${extra}}\ngranted contains g if {\n  ${producer}\n}\n`;
    const plainProducer = "some g in input.gs";
    assert.ok(fuses(rbac(plainProducer, "g.a == input.a"), "t/allow", "g0.data.t.allow"));
    // A builtin that fails on a non-string: strict mode raises it at the call, before the scan.
    assert.ok(!fuses(rbac("some x in input.gs\n  g := lower(x)", "g == input.a"), "t/allow", "g0.data.t.allow"));
    assert.ok(!fuses(rbac(plainProducer, "to_number(g.a) == 1"), "t/allow", "g0.data.t.allow"));
    // The set is counted after the scan: it is needed.
    assert.ok(!fuses(rbac(plainProducer, "g.a == input.a", "  count(granted) > 1\n"), "t/allow", "g0.data.t.allow"));
    // A value computed from the element: order would show.
    assert.ok(!fuses("package t\nfirst := x if {\n  some g in granted\n  x := g.a\n}\ngranted contains g if {\n  some g in input.gs\n}\n", "t/first", "g0.data.t.first"));
  });

  it("end to end: the same answers on the RBAC policy, with bad data and undefined input", async () => {
    const inputs = [
      { user: "alice", action: "delete", type: "dog" },
      { user: "bob", action: "update", type: "finance" },
      { user: "bob", action: "read", type: "dog" },
      { user: "eve", action: "update", type: "dog" },
      { user: "odd", action: "read", type: "dog" },
      { user: "nobody" },
      {},
      undefined,
    ];
    const datas = [RBAC_DATA, {}, { user_roles: RBAC_DATA.user_roles, role_grants: "x" }, { user_roles: { bob: ["reader", "reader"] }, role_grants: { reader: [1, { action: "read", type: "dog" }] } }];
    await sameAnswers(
      RBAC,
      "rbac/allow",
      inputs.flatMap((i) => datas.map((d): [unknown, unknown] => [i, d])),
    );
  });

  it("end to end: several producer bodies, the producer used elsewhere too, with and a key read", async () => {
    const source = `package t
allow if {
  some g in granted
  g.a == input.a
  not g.deny
}
allow_via_key if {
  some k, g in granted
  k.a == input.a
}
n := count(granted)
check if {
  allow with input.extra as [{"a": 9}]
}
granted contains g if {
  some g in input.gs
}
granted contains g if {
  some g in input.extra
  g.a != 0
}
granted contains {"a": 7} if input.seven
`;
    assert.ok(fuses(source, "t/allow", "g0.data.t.allow"));
    const cases: Array<[unknown, unknown]> = [
      [{ a: 1, gs: [{ a: 1 }, { a: 2 }] }, {}],
      [{ a: 1, gs: [{ a: 1, deny: true }, { a: 1 }] }, {}],
      [{ a: 1, gs: [{ a: 1, deny: true }] }, {}],
      [{ a: 9, gs: [] }, {}],
      [{ a: 3, extra: [{ a: 0 }, { a: 3 }] }, {}],
      [{ a: 7, seven: true }, {}],
      [{ a: 7, seven: false, gs: "x" }, {}],
      [{}, {}],
    ];
    for (const entrypoint of ["t/allow", "t/allow_via_key", "t/n", "t/check"]) await sameAnswers(source, entrypoint, cases);
  });

  it("end to end: a SetAdd that does not end its list gets a block of its own; a scan whose locals are read after it stays", async () => {
    // p if { some x in s; x == input.want }, s made by `some x in input.xs` with statements after
    // its SetAdd; `after` follows the scan in p's body.
    const policy = (test: (b: PolicyBuilder) => StmtJSON[] = () => [st("EqualStmt", { a: L(6), b: L(4) })], ...after: StmtJSON[]) => policyWith(test, [], after);
    /** `more`: more producer bodies. */
    const policyWith = (test: (b: PolicyBuilder) => StmtJSON[], more: Array<(b: PolicyBuilder) => StmtJSON[]>, after: StmtJSON[]) => {
      const b = new PolicyBuilder();
      b.func("g0.data.test.s", [0, 1], 2, [
        block(st("MakeSetStmt", { target: 2 })),
        block(b.dot(L(0), b.s("xs"), 3), b.scan(3, 4, 5, st("SetAddStmt", { set: 2, value: L(5) }), b.assign(T, 6), st("EqualStmt", { a: L(5), b: L(5) }))),
        ...more.map((m) => block(...m(b))),
        block(st("ReturnLocalStmt", { source: 2 })),
      ]);
      b.func("g0.data.test.p", [0, 1], 2, [
        block(b.call("g0.data.test.s", [L(0), L(1)], 3), b.dot(L(0), b.s("want"), 4), b.scan(3, 5, 6, ...test(b), b.assign(T, 2), b.brk(1)), ...after),
        block(st("IsUndefinedStmt", { source: 2 }), b.assign(F, 2)),
        block(st("ReturnLocalStmt", { source: 2 })),
      ]);
      b.entry("test/p", "g0.data.test.p");
      return decoded(b);
    };
    const p = policy();
    const out = bodyText(scanFusion.run(p), "g0.data.test.p");
    assert.ok(out.includes("      block\n      {\n        l6 == l4\n        l2 = true\n        break 3\n      }\n      l13 = true"), out);
    const run = async (policy: Policy) => {
      const g = generateModule(policy, { language: "function", optimize: false });
      return (await loadModule(g.code, g)).entrypoints["test/p"]!.fn as unknown as Fn;
    };
    const [plain, fused] = [await run(p), await run(scanFusion.run(p))];
    for (const input of [{ xs: [1, 2], want: 2 }, { xs: [1, 2], want: 3 }, { xs: "no", want: 1 }, {}]) {
      assert.deepEqual(answer(fused, input, {}), answer(plain, input, {}), JSON.stringify(input));
    }
    // The scan's value read after it (the last element scanned): order would show.
    const unchanged = (q: Policy) => assert.equal(bodyText(scanFusion.run(q), "g0.data.test.p"), bodyText(q, "g0.data.test.p"));
    unchanged(policy(undefined, st("AssignVarStmt", { source: L(6), target: 7 })));
    // The test reads what it wrote for the element before (l8): order would show.
    unchanged(policy(() => [st("EqualStmt", { a: L(8), b: L(4) }), b2(L(6), 8)]));
    // The test assigns the element, which the producer reads after its SetAdd.
    unchanged(policy(() => [b2(L(4), 6), st("EqualStmt", { a: L(6), b: L(4) })]));
    // A break in the test that ends the element's test (the element fails) stays as it is.
    const fails = policy(() => [b2(L(6), 8), st("BlockStmt", { blocks: [block(st("NotEqualStmt", { a: L(8), b: L(4) }), st("BreakStmt", { index: 1 }))] })]);
    assert.ok(bodyText(scanFusion.run(fails), "g0.data.test.p").includes("          l8 != l4\n          break 1\n"));
    const [plain2, fused2] = [await run(fails), await run(scanFusion.run(fails))];
    // Two producer bodies, the test's exit going on after the scan: a block around both bodies.
    const two = policyWith(() => [st("EqualStmt", { a: L(6), b: L(4) })], [(b) => [b.dot(L(0), b.s("ys"), 7), b.scan(7, 8, 9, st("SetAddStmt", { set: 2, value: L(9) }))]], []);
    const twoOut = bodyText(scanFusion.run(two), "g0.data.test.p");
    assert.ok(twoOut.startsWith("{\n  l4 = l0[\"want\"]\n  block\n  {\n    block\n    {\n"), twoOut);
    assert.ok(twoOut.includes("          l2 = true\n          break 4\n") && twoOut.includes("        l2 = true\n        break 3\n"), twoOut);
    const [plain3, fused3] = [await run(two), await run(scanFusion.run(two))];
    for (const input of [{ xs: [1], ys: [2], want: 2 }, { xs: [2], ys: [1], want: 2 }, { xs: [1], want: 3 }, {}]) assert.deepEqual(answer(fused3, input, {}), answer(plain3, input, {}));
    for (const [input, want] of [[{ xs: [1, 2], want: 2 }, true], [{ xs: [1, 2], want: 3 }, false]] as const) {
      assert.deepEqual(answer(fused2, input, {}), { value: want });
      assert.deepEqual(answer(plain2, input, {}), { value: want });
    }
  });

  it("end to end: random role tables and requests (fast-check)", async function () {
    this.timeout(60_000);
    const [plain, fused] = [await load(RBAC, "rbac/allow", false), await load(RBAC, "rbac/allow", true)];
    const name = fc.constantFrom("a", "b", "c");
    const grant = fc.oneof(fc.record({ action: name, type: name }), fc.constantFrom(1, null, "x", { action: "a" }));
    const data = fc.record({
      user_roles: fc.dictionary(name, fc.oneof(fc.array(fc.oneof(name, fc.constant("admin")), { maxLength: 4 }), fc.constant("a"))),
      role_grants: fc.dictionary(name, fc.oneof(fc.array(grant, { maxLength: 4 }), fc.dictionary(name, grant))),
    });
    const input = fc.oneof(fc.record({ user: name, action: name, type: name }), fc.record({ user: name }), fc.constant(undefined));
    fc.assert(
      fc.property(data, input, (d, i) => {
        assert.deepEqual(answer(fused, i, d), answer(plain, i, d));
      }),
      { numRuns: 500 },
    );
  });
});
