// The shapes the compiler can take, checked before any stage runs. The stages, the planner and
// the code generator recurse over the AST (terms within terms, closure bodies, `else` chains)
// and over trees keyed by rule paths (the rule tree, the type environment, the planner's rule
// trie), so a nesting deeper than the JS stack allows must be turned away first, with a location
// and a message, rather than end in a stack overflow half way through a stage. The parser
// bounds most nesting already (its recursion limit); what it accepts flat but the AST nests —
// chains of infix operators such as `1 + 1 + ... + 1`, long package paths and rule refs — is
// caught here. Everything else (long bodies, many rules, big literals, long refs in bodies) has
// no limit: the stages handle those in loops.
//
// The check recurses only as deep as the limit, so it cannot overflow on what it is there to
// find.
import type { Body, Expr, Module, NodeLocation, Rule, Term } from "../ast/nodes.js";
import { RegoError, assertNever } from "../../runtime/errors.js";
import { tooComplexError } from "../errors.js";
import { plainLocation } from "../syntax/location.js";
import { takeLongestStatement } from "../syntax/nesting.js";

/** Nesting of terms, expressions and bodies within one rule or query (a term or expression one
 * level, a body two): deeper than any policy needs, and well within what every
 * stage's recursion can take on a default Node stack (the tightest, the safety check of nested
 * `not (...)` groups, overflows at about three times this). */
export const MAX_NESTING = 500;

/** Terms of a package path plus a rule's ref (the depth of the rule tree under `data`). */
export const MAX_RULE_PATH = 512;

type Node = Term | Expr | Rule;

/** Levels a rule may nest beyond one per character of its statement (see syntax/nesting.ts):
 * its own (rule → body → expression), an operator's ref and name, generated values. The densest
 * shapes in test/unit/compiler/passes/limitsBound.test.ts stay within one per character (`f(1)`: 4
 * levels, 4 characters); the rest is margin. */
export const OWN_LEVELS = 16;

/** The first limit exceeded in a module set, or nothing. */
export function checkModuleLimits(modules: readonly Module[]): RegoError | undefined {
  for (let i = 0; i < modules.length; i++) {
    const m = modules[i]!;
    const pkg = m.package.path.length;
    if (pkg > MAX_RULE_PATH) return pathError("package path", pkg, m.package.location);
    // a module fresh from the parser whose statements are all short cannot nest too deeply: the
    // walk below would find nothing
    const longest = takeLongestStatement(m);
    const walk = longest === undefined || longest + OWN_LEVELS > MAX_NESTING;
    const rules = m.rules;
    for (let j = 0; j < rules.length; j++) {
      const r = rules[j]!;
      for (let rule: Rule | undefined = r; rule; rule = rule.else) {
        const len = pkg + rule.head.reference.length - 1;
        if (len > MAX_RULE_PATH) return pathError("rule path (package and rule ref)", len, rule.head.location);
      }
      const deep = walk ? tooDeep(r, 1) : undefined;
      if (deep) return nestingError(deep);
    }
  }
  return undefined;
}

/** The nesting limit for a query. */
export function checkQueryLimits(body: Body): RegoError | undefined {
  for (const e of body) {
    const deep = tooDeep(e, 1);
    if (deep) return nestingError(deep);
  }
  return undefined;
}

function pathError(what: string, len: number, at: NodeLocation): RegoError {
  return new RegoError("rego_compile_error", `${what} too long: ${len} terms (the limit is ${MAX_RULE_PATH})`, plainLocation(at));
}

function nestingError(at: Node): RegoError {
  return new RegoError(
    "rego_compile_error",
    `policy nested too deeply: more than ${MAX_NESTING} levels of terms, expressions and bodies (regoc's limit; split the expression or rule)`,
    at.location ? plainLocation(at.location) : undefined,
  );
}

/** The first node found deeper than MAX_NESTING (depths as pushChildren counts them). A
 * recursion, but one that stops at the limit, so it never goes deeper than the limit itself;
 * `else` chains, which the limit does not count, are followed in a loop. */
function tooDeep(node: Node, depth: number): Node | undefined {
  if (depth > MAX_NESTING) return node;
  const d = depth + 1;
  switch (node.type) {
    case "rule":
      for (let r: Rule | undefined = node; r; r = r.else) {
        const h = r.head;
        const found = tooDeepIn(h.reference, d) ?? tooDeepIn(h.args, d) ?? tooDeepOpt(h.key, d) ?? tooDeepOpt(h.value, d) ?? tooDeepIn(r.body, depth + 2);
        if (found) return found;
      }
      return undefined;
    case "expr": {
      const ts = node.terms;
      let found: Node | undefined;
      if (Array.isArray(ts)) found = tooDeepIn(ts, d);
      else if (ts.type === "some") found = tooDeepIn(ts.symbols, d);
      else if (ts.type === "every") found = tooDeepOpt(ts.key, d) ?? tooDeep(ts.value, d) ?? tooDeep(ts.domain, d) ?? tooDeepIn(ts.body, depth + 2);
      else if (ts.type === "and" || ts.type === "or") found = tooDeepIn(ts.lhs, depth + 2) ?? tooDeepIn(ts.rhs, depth + 2);
      else if (ts.type === "not") found = tooDeepIn(ts.body, depth + 2);
      else found = tooDeep(ts as Term, d);
      for (const w of node.with) found ??= tooDeep(w.target, d) ?? tooDeep(w.value, d);
      return found;
    }
    case "ref":
    case "array":
    case "set":
    case "call":
      return tooDeepIn(node.value, d);
    case "object":
      for (const [k, v] of node.value) {
        const found = tooDeep(k, d) ?? tooDeep(v, d);
        if (found) return found;
      }
      return undefined;
    case "arraycomprehension":
    case "setcomprehension":
      return tooDeep(node.value.term, d) ?? tooDeepIn(node.value.body, depth + 2);
    case "objectcomprehension":
      return tooDeep(node.value.key, d) ?? tooDeep(node.value.value, d) ?? tooDeepIn(node.value.body, depth + 2);
    case "templatestring":
      return tooDeepIn(node.value.parts as Node[], d);
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
      return undefined;
    default:
      assertNever(node);
  }
}

function tooDeepIn(nodes: readonly Node[] | undefined, depth: number): Node | undefined {
  if (!nodes) return undefined;
  for (const n of nodes) {
    const found = tooDeep(n, depth);
    if (found) return found;
  }
  return undefined;
}

function tooDeepOpt(node: Node | undefined, depth: number): Node | undefined {
  return node ? tooDeep(node, depth) : undefined;
}

/** The error for a stage that overflowed the stack anyway (a safety net under the limits above):
 * located at the most deeply nested node of the modules (or query), the likely cause. */
export function stackOverflowError(what: string, modules: readonly Module[], query?: Body): RegoError {
  const roots: Node[] = query ? [...query] : modules.flatMap((m) => m.rules);
  const deepest = deepestNode(roots, Infinity);
  return tooComplexError(what, deepest && { depth: deepest.depth, location: deepest.location ? plainLocation(deepest.location) : undefined });
}

/** How deeply a rule nests, in the limit's measure (for tests of the bound in nesting.ts). */
export function ruleNesting(rule: Rule): number {
  return deepestNode([rule], Infinity)?.depth ?? 0;
}

/** The deepest node (or nothing, without nodes): a walk with a stack of its own, for the safety
 * net (where the nesting can be anything). */
function deepestNode(roots: Node[], limit: number): { depth: number; location: NodeLocation | undefined } | undefined {
  let best: { depth: number; location: NodeLocation | undefined } | undefined;
  const stack: [Node, number][] = roots.map((n) => [n, 1]);
  for (;;) {
    const top = stack.pop();
    if (!top) return best;
    const [node, depth] = top;
    if (!best || depth > best.depth) best = { depth, location: node.location };
    if (depth > limit) return best;
    pushChildren(stack, node, depth);
  }
}

function push(stack: [Node, number][], n: Node | undefined, depth: number): void {
  if (n) stack.push([n, depth]);
}

/** The children of a node with their depths: a term or expression one level down, the
 * expressions of a body two (a body within a body costs the stages more stack than a term
 * within a term), an `else` none (the parser bounds the chain, every stage walks it cheaply). */
function pushChildren(stack: [Node, number][], node: Node, depth: number): void {
  const d = depth + 1;
  const body = (b: Body): void => {
    for (const e of b) stack.push([e, depth + 2]);
  };
  switch (node.type) {
    case "rule": {
      const h = node.head;
      for (const t of h.reference) push(stack, t, d);
      for (const a of h.args ?? []) push(stack, a, d);
      push(stack, h.key, d);
      push(stack, h.value, d);
      body(node.body);
      push(stack, node.else, depth);
      return;
    }
    case "expr": {
      const ts = node.terms;
      if (Array.isArray(ts)) for (const t of ts) push(stack, t, d);
      else if (ts.type === "some") for (const t of ts.symbols) push(stack, t, d);
      else if (ts.type === "every") {
        push(stack, ts.key, d);
        push(stack, ts.value, d);
        push(stack, ts.domain, d);
        body(ts.body);
      } else if (ts.type === "and" || ts.type === "or") {
        body(ts.lhs);
        body(ts.rhs);
      } else if (ts.type === "not") body(ts.body);
      else push(stack, ts as Term, d);
      for (const w of node.with) {
        push(stack, w.target, d);
        push(stack, w.value, d);
      }
      return;
    }
    case "ref":
    case "array":
    case "set":
    case "call":
      for (const t of node.value) push(stack, t, d);
      return;
    case "object":
      for (const [k, v] of node.value) {
        push(stack, k, d);
        push(stack, v, d);
      }
      return;
    case "arraycomprehension":
    case "setcomprehension":
      push(stack, node.value.term, d);
      body(node.value.body);
      return;
    case "objectcomprehension":
      push(stack, node.value.key, d);
      push(stack, node.value.value, d);
      body(node.value.body);
      return;
    case "templatestring":
      for (const p of node.value.parts) push(stack, p as Node, d);
      return;
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "var":
      return;
    default:
      assertNever(node);
  }
}
