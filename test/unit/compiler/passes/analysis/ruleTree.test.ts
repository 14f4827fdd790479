// The rule tree SetRuleTree builds (each rule added at the ground prefix of its full ref, walked
// without making that ref) is the tree of add(groundPrefix(ctx.ruleRef(rule))): same nodes, keys,
// child order and rules, on hand-written modules and every compliance module set.
import { expect } from "chai";
import type { Module, Rule } from "../../../../../compiler/ast/nodes.js";
import type { CompileContext } from "../../../../../compiler/passes/context.js";
import { buildModuleTree, TreeNode, type ModuleTreeNode } from "../../../../../compiler/passes/analysis/ruleTree.js";
import { compileUpTo } from "../../../../../compiler/passes/runner.js";
import { groundPrefix } from "../../../../../compiler/ast/terms.js";
import { parseModuleResult } from "../../../../../compiler/syntax/index.js";
import { loadComplianceSources } from "../../../../support/complianceModules.js";
import { describeWithShared } from "../../../../support/shared.js";

/** The rule tree as buildRuleTree made it with add(groundPrefix(ruleRef)). */
function referenceTree(ctx: CompileContext): TreeNode {
  const root = new TreeNode(undefined);
  const ordered: Module[] = [];
  const visit = (n: ModuleTreeNode): void => {
    ordered.push(...n.modules);
    for (const k of [...n.children.keys()].sort()) visit(n.children.get(k)!);
  };
  visit(ctx.moduleTree ?? buildModuleTree(ctx.modules));
  for (const m of ordered) {
    if (m.rules.length === 0) root.add(m.package.path, undefined);
    for (const r of m.rules) root.add(groundPrefix(ctx.ruleRef(r)), r);
  }
  const sys = root.children.get("var:data")?.children.get("string:system");
  if (sys) sys.hide = true;
  return root;
}

/** A tree as text: keys (type, value, location), hidden flags and rules (by position). */
function shape(n: TreeNode, pos: Map<Rule, number>, indent = ""): string {
  const k = n.key ? `${n.key.type}:${JSON.stringify((n.key as { value: unknown }).value)}@${n.key.location.offset}` : "root";
  let out = `${indent}${k}${n.hide ? " hidden" : ""} [${n.values.map((r) => pos.get(r)).join(",")}]\n`;
  for (const [key, c] of n.children) out += `${indent} ${key}\n` + shape(c, pos, indent + "  ");
  return out;
}

function check(texts: string[], where: string): boolean {
  const modules: Module[] = [];
  for (const [i, text] of texts.entries()) {
    const r = parseModuleResult(text, { file: `module-${i}.rego` });
    if (!r.module) return false;
    modules.push(r.module);
  }
  const ctx = compileUpTo("SetRuleTree", modules);
  if (ctx.errors.length > 0) return false;
  const pos = new Map<Rule, number>();
  for (const m of ctx.modules) for (const r of m.rules) pos.set(r, pos.size);
  expect(shape(ctx.ruleTree!, pos), where).to.equal(shape(referenceTree(ctx), pos));
  return true;
}

describe("passes: rule tree", () => {
  it("puts each rule at the ground prefix of its full ref", () => {
    const ok = check(
      [
        `package a.b
p := 1
q[x] := 1 if { x := "k" }
r.s.t := 2
r.s[u].v := 3 if { u := "w" }
f(x) := x
`,
        `package a
empty_pkg_sibling := true
`,
        `package system.z
y := 1
`,
        `package c
`,
      ],
      "hand-written",
    );
    expect(ok).to.equal(true);
  });

  it("keeps each node's rules and children its own (leaves share one empty map and rules array)", () => {
    const modules = [
      parseModuleResult(
        `package a
p contains 1
p contains 2
q := 1
r.s := 1
r := {"t": 2} if false
`,
        { file: "a.rego" },
      ).module!,
    ];
    const ctx = compileUpTo("SetRuleTree", modules);
    expect(ctx.errors).to.deep.equal([]);
    const tree = ctx.ruleTree!;
    const pkg = tree.children.get("var:data")!.children.get("string:a")!;
    const [p1, p2, q, rs, r] = ctx.modules[0]!.rules;
    const at = (k: string) => pkg.children.get(`string:${k}`)!;
    expect(at("p").values).to.deep.equal([p1, p2]);
    expect(at("q").values).to.deep.equal([q]);
    expect(at("r").values).to.deep.equal([r]);
    expect(at("r").children.get("string:s")!.values).to.deep.equal([rs]);
    expect(at("p").children.size).to.equal(0);
    expect(at("q").children.size).to.equal(0);
    expect(pkg.values).to.deep.equal([]);
    // the empties leaves share were never written to
    expect(new TreeNode(undefined).values).to.deep.equal([]);
    expect(new TreeNode(undefined).children.size).to.equal(0);
  });

  it("finds a module tree node at exactly a ref, vars read by name, nothing past a non-name", () => {
    const modules = ["package a.b\np := 1\n", "package a.b.c\nq := 1\n", "package x\n"].map(
      (text, i) => parseModuleResult(text, { file: `m${i}.rego` }).module!,
    );
    const ctx = compileUpTo("SetModuleTree", modules);
    const tree = ctx.moduleTree!;
    const ab = modules[0]!.package.path;
    expect(tree.at(ab)!.modules).to.deep.equal([modules[0]]);
    expect(tree.at(modules[1]!.package.path)!.modules).to.deep.equal([modules[1]]);
    expect(tree.at(ab)!.at(modules[1]!.package.path.slice(3))).to.equal(tree.at(modules[1]!.package.path));
    expect(tree.at(ab.slice(0, 2))!.modules).to.deep.equal([]);
    expect(tree.at([...ab, { type: "string", value: "nope", location: ab[0]!.location }])).to.equal(undefined);
    expect(tree.at([...ab.slice(0, 1), { type: "number", value: "1", location: ab[0]!.location }])).to.equal(undefined);
    expect(tree.at([])).to.equal(tree);
  });

  describeWithShared("on the compliance cases", () => {
    it("is the tree of add(groundPrefix(ruleRef))", function () {
      this.timeout(120_000);
      let checked = 0;
      for (const c of loadComplianceSources()) if (check(c.modules ?? [], c.note)) checked++;
      expect(checked).to.be.greaterThan(100);
    });
  });
});
