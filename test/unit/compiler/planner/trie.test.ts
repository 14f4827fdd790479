// The planner's rule trie (trie.ts): rules by the ground prefix of their refs, each kept with its
// full ref; a node given a rule takes over the rules (and refs) of the nodes below it; children
// are listed in value order whatever the kinds of their keys; shadowing hides a child until popped.
import assert from "node:assert/strict";
import type { Ref, Rule, Term } from "../../../../compiler/ast/nodes.js";
import { RuleTrie } from "../../../../compiler/planner/trie.js";

const str = (value: string): Term => ({ type: "string", value }) as Term;
const variable = (value: string): Term => ({ type: "var", value }) as Term;
const num = (value: string): Term => ({ type: "number", value }) as Term;
const ref = (...path: string[]): Ref => [variable("data"), ...path.map(str)];
const rule = (name: string): Rule => ({ type: "rule", name }) as unknown as Rule;

describe("planner: rule trie", () => {
  it("keeps each rule with its ref, and a node given a rule takes over those below it", () => {
    const trie = new RuleTrie();
    const [r1, r2, r3] = [rule("r1"), rule("r2"), rule("r3")];
    const ref1 = ref("pkg", "p", "a");
    const ref2 = ref("pkg", "p", "b");
    trie.insert(ref1).addRule(r1, ref1);
    trie.insert(ref2).addRule(r2, ref2);
    const p = trie.lookup(ref("pkg", "p"))!;
    assert.deepEqual(p.rulesOf(), []);
    assert.equal(p.childCount(), 2);
    const ref3 = ref("pkg", "p");
    p.addRule(r3, ref3);
    assert.deepEqual(p.rulesOf(), [r1, r2, r3]);
    assert.deepEqual(p.refsOf(), [ref1, ref2, ref3]);
    assert.equal(p.childCount(), 0);
    assert.equal(trie.lookup(ref1), undefined);
  });

  it("finds children by key of every kind and lists them in value order", () => {
    const trie = new RuleTrie();
    const keys = [str("b"), num("1"), variable("x"), str("a")];
    for (const k of keys) trie.insert([variable("data"), k]);
    const data = trie.lookup([variable("data")])!;
    for (const k of keys) assert.ok(data.get(k), `child ${k.type} ${String(k.value)}`);
    assert.equal(data.get(str("x")), undefined, "a string key is not the var of the same name");
    assert.equal(data.get(variable("a")), undefined, "a var key is not the string of the same name");
    assert.equal(data.get(num("2")), undefined);
    assert.deepEqual(
      data.childKeys().map((k) => `${k.type}:${String(k.value)}`),
      ["number:1", "string:a", "string:b", "var:x"],
    );
  });

  it("hides a shadowed child until it is popped", () => {
    const trie = new RuleTrie();
    const r = rule("r");
    const at = ref("pkg", "p");
    trie.insert(at).addRule(r, at);
    trie.push(at);
    assert.equal(trie.lookup(at), undefined);
    assert.deepEqual(trie.lookup(ref("pkg"))!.childKeys(), []);
    trie.pop(at);
    assert.deepEqual(trie.lookup(at)!.rulesOf(), [r]);
  });
});
