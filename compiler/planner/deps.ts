// Which rules a `with` can change: a rule is affected by a generation's overrides (the rule refs
// it shadows and the functions it mocks) when a ref it mentions, or a ref mentioned by a rule it
// reaches through data, overlaps one of them. Rules not affected need no copy in the generation:
// their func of generation 0 answers the same (data and input replacements arrive at run time).
import { keyOf } from "../ast/compare.js";
import type { Ref, Rule, Term } from "../ast/nodes.js";
import { walkTerms } from "../ast/visit.js";
import { assertNever } from "../../runtime/errors.js";

/** The compiler's rule tree (passes/analysis/ruleTree.ts) as far as the planner reads it: the rules at a
 * node (the ground prefix of their refs) and the nodes below it by keyOf their key. */
export interface RuleTreeNode {
  readonly values: readonly Rule[];
  readonly children: ReadonlyMap<string, RuleTreeNode>;
}

/** A ref as the keys of its ground prefix (its head var, then its scalar terms), as the rule tree
 * keys them. */
export type RefKeys = readonly string[];

/** One replacement of a `with`: rules shadowed by data, or a function mocked. `id` tells equal
 * overrides apart (the target, and a mock's replacement). */
export interface Override {
  id: string;
  keys: RefKeys;
  shadow?: Ref;
  mock?: { name: string; term: Term };
}

/** The key of a scalar term in a ref, or undefined where the ground prefix ends. */
function termKey(t: Term, head: boolean): string | undefined {
  switch (t.type) {
    case "var":
      return head ? keyOf(t) : undefined;
    case "string":
    case "number":
    case "boolean":
    case "null":
      return keyOf(t);
    case "object":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return undefined;
    default:
      assertNever(t);
  }
}

const DATA_KEY = keyOf({ type: "var", value: "data" } as Term);

export function refKeys(ref: Ref): RefKeys {
  const out: string[] = [];
  for (let i = 0; i < ref.length; i++) {
    const k = termKey(ref[i]!, i === 0);
    if (k === undefined) break;
    out.push(k);
  }
  return out;
}

/** One is a prefix of the other. */
function overlaps(a: RefKeys, b: RefKeys): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

const ANONYMOUS: Ref = [{ type: "var", value: "f" } as Term];

export class RuleDeps {
  private readonly mentions = new Map<Rule, RefKeys[]>();

  constructor(private readonly root: RuleTreeNode) {}

  /** Per overridden target (its keys; replacements of one target affect the same rules): which
   * rules it affects, as far as asked. */
  private readonly memos = new Map<string, Map<Rule, boolean>>();

  /** The overrides that affect any of `rules`, in their order. */
  affecting(rules: readonly Rule[], overrides: readonly Override[]): Override[] {
    const out: Override[] = [];
    for (const o of overrides) {
      const target = JSON.stringify(o.keys);
      let memo = this.memos.get(target);
      if (!memo) this.memos.set(target, (memo = new Map()));
      if (rules.some((r) => this.ruleAffected(r, o.keys, memo))) out.push(o);
    }
    return out;
  }

  private readonly texts = new Map<string, string | undefined>();

  /** The function at `ref` as text (its rules as JSON, without their name and locations), when
   * every rule there is a function: mocks by functions of the same text are the same override. */
  functionText(ref: Ref): string | undefined {
    const keys = refKeys(ref);
    if (keys.length !== ref.length) return undefined;
    const path = keys.join("\0");
    if (this.texts.has(path)) return this.texts.get(path);
    let node: RuleTreeNode | undefined = this.root;
    for (const k of keys) node = node?.children.get(k);
    const rules = node?.values ?? [];
    const fn = rules.length > 0 && rules.every((r) => r.head.args !== undefined);
    const text = fn ? renumberLocals(JSON.stringify(rules.map((r) => ({ ...r, head: { ...r.head, reference: ANONYMOUS } })), withoutLocations)) : undefined;
    this.texts.set(path, text);
    return text;
  }

  /** Some rule is on the ref's path or below it. */
  hasRules(keys: RefKeys): boolean {
    return this.reached(keys).length > 0;
  }

  private ruleAffected(r: Rule, override: RefKeys, memo: Map<Rule, boolean>): boolean {
    const known = memo.get(r);
    if (known !== undefined) return known;
    memo.set(r, false); // (rules do not recur; this ends a walk that would)
    let out = false;
    for (const keys of this.mentionsOf(r)) {
      if (overlaps(keys, override) || (keys[0] === DATA_KEY && this.reached(keys).some((x) => this.ruleAffected(x, override, memo)))) {
        out = true;
        break;
      }
    }
    memo.set(r, out);
    return out;
  }

  /** The ground prefixes of every ref in a rule (its head, bodies, else chain, `with`s). */
  private mentionsOf(r: Rule): RefKeys[] {
    let out = this.mentions.get(r);
    if (out) return out;
    const found: RefKeys[] = [];
    const visit = (t: Term): boolean => {
      if (t.type === "var") found.push([keyOf(t)]);
      if (t.type !== "ref") return false;
      // (a ref's head is in its keys, not a mention of its own: `data` alone reaches every rule)
      found.push(refKeys(t.value));
      for (let i = 1; i < t.value.length; i++) walkTerms([t.value[i]!], visit);
      return true;
    };
    // (the head's ref is the rule's own path: its terms after the first can be refs)
    for (let x: Rule | undefined = r; x; x = x.else) {
      const h = x.head;
      walkTerms(h.reference.slice(1), visit);
      if (h.args) walkTerms(h.args, visit);
      if (h.key) walkTerms([h.key], visit);
      if (h.value) walkTerms([h.value], visit);
      walkTerms(x.body, visit);
    }
    this.mentions.set(r, (out = found));
    return out;
  }

  /** The rules whose values a ref may read: those on its path and all below it. */
  private reached(keys: RefKeys): Rule[] {
    const out: Rule[] = [];
    let node: RuleTreeNode | undefined = this.root;
    for (let i = 0; i < keys.length && node; i++) {
      node = node.children.get(keys[i]!);
      if (node) out.push(...node.values);
    }
    if (node) collect(node, out, false);
    return out;
  }
}

/** The replacer that leaves out where a rule was written (locations, annotations, the `:=` mark). */
function withoutLocations(key: string, value: unknown): unknown {
  if (key === "location" || key === "annotations" || key === "assigned") return undefined;
  if (typeof value === "bigint") return `${value}n`;
  return value;
}

/** The compiler's generated locals numbered in order of appearance (they are numbered per module). */
function renumberLocals(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(/__local\d+__/g, (v) => {
    let w = seen.get(v);
    if (w === undefined) seen.set(v, (w = `__local${seen.size}__`));
    return w;
  });
}

function collect(node: RuleTreeNode, out: Rule[], self: boolean): void {
  if (self) out.push(...node.values);
  for (const c of node.children.values()) collect(c, out, true);
}
