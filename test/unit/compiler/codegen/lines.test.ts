// What the generator's cheaper paths must keep: `Lines` (a function body as text pieces) renders
// what `render` (below: the Node-tree renderer the generator used before, kept as the reference)
// makes of the same statements as a Node tree, and writes policy text only as
// literals; `analyseDefinedness` (JavaScript) gives the facts `analyseFuncs` gives; the call
// graph's walk tells which bodies read with a local key and the top-level callees of each func,
// as walks of the bodies here find them.
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyseCalls } from "../../../../compiler/codegen/analysis/calls.js";
import { analyseDefinedness, analyseFuncs } from "../../../../compiler/codegen/analysis/kinds.js";
import { baseDataDots } from "../../../../compiler/codegen/analysis/shapes.js";
import { forEachStmt } from "../../../../compiler/ir/walk.js";
import { Code, Label, Lines, Name, PieceBuffer, _ } from "../../../../compiler/codegen/code.js";
import { preparePolicy } from "../../../../compiler/codegen/generate.js";
import { F, L, PolicyBuilder, T, block, ruleFunc, st } from "../../../support/plans.js";
import { authz, hostile, partialSet, query, withAndDynamic } from "../../../support/samplePlans.js";

/** A statement, a group of statements, or a (possibly labelled) braced construct. */
type Node = Code | Node[] | Braced;

interface Braced {
  kind: "braced";
  head: Code | null;
  label: Label | null;
  body: Node[];
  tail?: Code;
}

function braced(head: Code | null, label: Label | null, body: Node[], tail?: Code): Braced {
  return tail === undefined ? { kind: "braced", head, label, body } : { kind: "braced", head, label, body, tail };
}

/** The statements with two-space indentation from `depth` (`indented: false`: none), without the
 * last line break. A plain block nothing jumps to is written as its statements. */
function render(nodes: Node[], depth = 0, indented = true): string {
  const out: string[] = [];
  renderInto(nodes, indented ? depth : -1, out);
  return out.join("").slice(0, -1);
}

function renderInto(nodes: Node[], depth: number, out: string[]): void {
  const indent = depth < 0 ? "" : "  ".repeat(depth);
  const inner = depth < 0 ? depth : depth + 1;
  for (const n of nodes) {
    if (n instanceof Code) {
      if (n.text !== "") out.push(indent, n.text, "\n");
    } else if (Array.isArray(n)) {
      renderInto(n, depth, out);
    } else if (n.head === null && (n.label === null || !n.label.used) && n.tail === undefined) {
      renderInto(n.body, depth, out);
    } else {
      out.push(indent);
      if (n.label?.used) out.push(n.label.name.text, ": ");
      if (n.head) out.push(n.head.text, " ");
      out.push("{\n");
      renderInto(n.body, inner, out);
      out.push(indent, "}");
      if (n.tail) out.push(n.tail.text);
      out.push("\n");
    }
  }
}

/** A random statement tree, built both ways: as Lines calls and as Nodes. */
type Shape = { kind: "line"; text: string } | { kind: "block"; head: boolean; label: boolean; used: boolean; tail: boolean; body: Shape[] };

const shape: fc.Arbitrary<Shape> = fc.letrec<{ s: Shape }>((tie) => ({
  s: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ kind: fc.constant("line" as const), text: fc.string() }),
    fc.record({
      kind: fc.constant("block" as const),
      head: fc.boolean(),
      label: fc.boolean(),
      used: fc.boolean(),
      tail: fc.boolean(),
      body: fc.array(tie("s"), { maxLength: 4 }),
    }),
  ),
})).s;

let labels = 0;

function both(shapes: Shape[], lines: Lines): Node[] {
  const nodes: Node[] = [];
  for (const s of shapes) {
    if (s.kind === "line") {
      lines.line`x = ${s.text};`;
      nodes.push(_`x = ${s.text};`);
      continue;
    }
    const label = s.label ? new Label(Name.numbered("b", labels++)) : null;
    const head = s.head ? _`while (${s.body.length})` : null;
    const tail = s.tail ? _` finally { y(); }` : undefined;
    lines.open(head, label, tail);
    const body = both(s.body, lines);
    // Something in the block jumps to it (a jump is always inside what it leaves).
    if (label && s.used) label.used = true;
    lines.close();
    nodes.push(braced(head, label, body, tail));
  }
  return nodes;
}

describe("codegen: Lines", () => {
  it("renders what render() makes of the same Node tree, indented or not", () => {
    fc.assert(
      fc.property(fc.array(shape, { maxLength: 5 }), fc.boolean(), fc.integer({ min: 0, max: 3 }), (shapes, indented, depth) => {
        const lines = new Lines(indented);
        const nodes = both(shapes, lines);
        assert.equal(lines.render(depth), render(nodes, depth, indented));
      }),
    );
  });

  it("writes a plain string argument as a literal, Code as it is", () => {
    const lines = new Lines(true);
    lines.line`${new Name("l3")} = ${'a"b*/\u2028'};`;
    lines.code(_``);
    const at = lines.reserve();
    lines.fill(at, _`let l1;`);
    lines.fill(lines.reserve(), _``);
    assert.equal(lines.render(1), '  l3 = "a\\"b*/\\u2028";\n  let l1;');
  });
});

describe("codegen: Lines.openInline", () => {
  const write = (indented: boolean, body: (lines: Lines, label: Label) => void, used = false): string => {
    const lines = new Lines(indented);
    const label = new Label(new Name("b1"));
    label.used = used;
    lines.openInline(_`if (x !== undefined)`, label);
    body(lines, label);
    lines.close();
    lines.line`return x;`;
    return lines.render(1);
  };

  it("writes a one-line body on the line of its head, labelled if something breaks to it", () => {
    for (const indented of [true, false]) {
      const pad = indented ? "  " : "";
      assert.equal(write(indented, (l) => l.line`y = x;`), `${pad}if (x !== undefined) { y = x; }\n${pad}return x;`);
      assert.equal(write(indented, (l) => l.line`y = f(x); if (y === undefined) break b1;`, true), `${pad}b1: if (x !== undefined) { y = f(x); if (y === undefined) break b1; }\n${pad}return x;`);
    }
  });

  it("writes a longer body, a comment or a nested block as a block", () => {
    const two = (l: Lines) => {
      l.line`y = x;`;
      l.line`z = x;`;
    };
    assert.equal(write(true, two), "  if (x !== undefined) {\n    y = x;\n    z = x;\n  }\n  return x;");
    assert.equal(write(false, two), "if (x !== undefined) {\ny = x;\nz = x;\n}\nreturn x;");
    assert.equal(write(true, (l) => l.code(_`// a comment`)), "  if (x !== undefined) {\n    // a comment\n  }\n  return x;");
    const nested = (l: Lines) => {
      l.open(_`while (true)`, null);
      l.line`break;`;
      l.close();
    };
    assert.equal(write(true, nested), "  if (x !== undefined) {\n    while (true) {\n      break;\n    }\n  }\n  return x;");
    assert.equal(write(false, nested), "if (x !== undefined) {\nwhile (true) {\nbreak;\n}\n}\nreturn x;");
  });
});

describe("codegen: Lines sharing a PieceBuffer", () => {
  it("gives each body its own text, whichever borrows the buffer and in whatever order they render", () => {
    const buffer = new PieceBuffer();
    const write = (lines: Lines, text: string, count: number) => {
      for (let i = 0; i < count; i++) lines.line`x = ${text};`;
    };
    const a = new Lines(false, buffer); // borrows the buffer
    const b = new Lines(false, buffer); // finds it lent: an array of its own
    write(a, "a", 5);
    write(b, "b", 2);
    assert.equal(b.render(), 'x = "b";\nx = "b";');
    assert.equal(a.render(), Array(5).fill('x = "a";').join("\n"));
    const c = new Lines(true, buffer); // the buffer is back: longer than this body
    write(c, "c", 1);
    assert.equal(c.render(1), '  x = "c";');
    const d = new Lines(false, buffer);
    assert.equal(d.render(), "");
  });
});

describe("codegen: analyseDefinedness", () => {
  /** Funcs calling each other at the top level and below it, with and without defaults. */
  function chain(): PolicyBuilder {
    const b = new PolicyBuilder();
    b.builtin("f", 1);
    ruleFunc(b, "g0.data.a.base", [b.call("f", [L(0)], 4), b.once(L(4), 3)], F); // defined (default)
    ruleFunc(b, "g0.data.a.maybe", [b.dot(L(0), b.s("k"), 4), b.once(L(4), 3)]); // may be undefined
    ruleFunc(b, "g0.data.a.top", [b.call("g0.data.a.base", [L(0), L(1)], 4), b.once(L(4), 3)], T);
    ruleFunc(b, "g0.data.a.nested", [b.not(b.call("g0.data.a.maybe", [L(0), L(1)], 4)), b.once(T, 3)]);
    b.func("g0.data.a.direct", [0, 1], 2, [
      block(b.call("g0.data.a.base", [L(0), L(1)], 2), b.call("g0.data.a.top", [L(0), L(1)], 5), b.call("g0.data.a.nested", [L(0), L(1)], 6)),
      block(st("ReturnLocalStmt", { source: 2 })),
    ]);
    for (const r of ["base", "maybe", "top", "nested", "direct"]) b.entry(`a/${r}`, `g0.data.a.${r}`);
    return b;
  }

  const samples = { authz, partialSet, withAndDynamic, query, hostile, chain };
  for (const [name, plan] of Object.entries(samples)) {
    it(`${name}: every func asked of, and what it depends on, as analyseFuncs says`, () => {
      const policy = preparePolicy(plan().json());
      const calls = analyseCalls(policy, policy.plans.plans);
      const all = analyseFuncs(policy, calls.funcs);
      for (const root of calls.funcs) {
        const facts = analyseDefinedness(policy, calls, [root.name]);
        assert.ok(facts.has(root.name), root.name);
        for (const [f, fact] of facts) assert.equal(fact.defined, all.get(f)!.defined, f);
      }
    });
    it(`${name}: the call graph's top-level callees are each func's top-level CallStmts, in order`, () => {
      const policy = preparePolicy(plan().json());
      const calls = analyseCalls(policy, policy.plans.plans);
      const byName = new Map(calls.funcs.map((f) => [f.name, f]));
      for (const f of calls.funcs) {
        const walked = f.blocks.flatMap((b) => b.stmts.flatMap((s) => (s.type === "CallStmt" && byName.has(s.stmt.func) ? [byName.get(s.stmt.func)!] : [])));
        assert.deepEqual(calls.topLevelCalleesAt(calls.funcIndex.get(f.name)!).map((i) => policy.funcs.funcs[i]), walked, f.name);
      }
    });
  }

  it("follows top-level calls only", () => {
    const policy = preparePolicy(chain().json());
    const calls = analyseCalls(policy, policy.plans.plans);
    const facts = analyseDefinedness(policy, calls, ["g0.data.a.direct"]);
    assert.deepEqual([...facts.keys()].sort(), ["g0.data.a.base", "g0.data.a.direct", "g0.data.a.nested", "g0.data.a.top"]);
    assert.deepEqual(
      Object.fromEntries([...facts].map(([f, x]) => [f, x.defined])),
      { "g0.data.a.base": true, "g0.data.a.top": true, "g0.data.a.nested": false, "g0.data.a.direct": true },
    );
  });
});

describe("codegen: CallGraph.readsWithLocalKey", () => {
  /** `data[k]` with a local key, in a func and in a plan, beside bodies without one. */
  function localKeys(): PolicyBuilder {
    const b = authz();
    b.func("g0.data.k.v", [0, 1], 2, [block(b.dot(L(1), b.s("x"), 4), b.dot(L(4), L(0), 5), b.once(L(5), 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
    b.entry("k/v", "g0.data.k.v");
    b.plan("k/w", block(b.dot(L(1), L(0), 2), ...b.result("result", L(2), 3)));
    return b;
  }

  const samples = { authz, partialSet, withAndDynamic, query, hostile, localKeys };
  for (const [name, plan] of Object.entries(samples)) {
    it(`${name}: what a walk of each body finds, and the same base-data reads`, () => {
      const policy = preparePolicy(plan().json());
      const calls = analyseCalls(policy, policy.plans.plans);
      const bodies = [...policy.plans.plans.map((p) => ({ body: p, data: 1 })), ...calls.funcs.map((f) => ({ body: f, data: f.params[1] }))];
      for (const { body, data } of bodies) {
        let found = false;
        forEachStmt(body.blocks, (s) => (found ||= s.type === "DotStmt" && s.stmt.key.type === "local"));
        assert.equal(calls.readsWithLocalKey(body), found, body.name);
        // (told there is no local key, baseDataDots skips its walk: it must find nothing there)
        assert.deepEqual(baseDataDots(policy, body.blocks, data, calls.readsWithLocalKey(body)), baseDataDots(policy, body.blocks, data, true), body.name);
      }
      if (name === "localKeys") assert.ok(bodies.some(({ body }) => calls.readsWithLocalKey(body)));
    });
    it(`${name}: funcs are indexed by their position in the policy`, () => {
      const policy = preparePolicy(plan().json());
      const calls = analyseCalls(policy, policy.plans.plans);
      policy.funcs.funcs.forEach((f, i) => assert.equal(calls.funcIndex.get(f.name), i, f.name));
    });
  }
});
