// What the parser knows about a module's nesting, for the nesting limit (compiler/passes/
// limits.ts): the length of its longest statement. A rule cannot nest deeper (in the limit's
// measure: a term or expression one level, a body two) than its statement has characters, plus
// a few levels of its own (rule → body → expression, an operator's ref → name, generated `true`
// values and bodies): every other level is paid for by at least one character of its own. A term
// or expression is opened by a bracket, brace or parenthesis, an operator, `.`, `$"`, or a keyword
// (`not`, `and`, `or`, `some`, `every`, `with`); a body's two levels take at least two: a
// comprehension's `|` and its closing bracket (with its `[`/`{` and head term, 4 characters for 3
// levels, the densest shape there is), or a keyword of two letters or more (`not`, `and`, `or`,
// `every`). test/unit/compiler/passes/limitsBound.test.ts holds the densest shapes against it. So a
// module whose statements are all short enough is within the limit without a walk over its rules.
//
// Kept on the module under a symbol, not enumerable (JSON, Object.keys, spreads and deep
// equality do not see it; a copy of the module has none), and given out once: the stages
// rewrite modules in place, so what was measured at parse time holds for the first compile only.
// (Not a WeakMap: every scavenge walks a WeakMap's table; hot, see bench/parser.bench.ts.)
import type { Module } from "../ast/nodes.js";

interface Parsed {
  /** The module's rule list when it was parsed: a module given other rules is walked. */
  readonly rules: Module["rules"];
  readonly ruleCount: number;
  readonly longestStatement: number;
  taken: boolean;
}

const PARSED = Symbol("parsed nesting");

/** Records a module as the parser made it. */
export function recordLongestStatement(module: Module, longestStatement: number): void {
  const parsed: Parsed = { rules: module.rules, ruleCount: module.rules.length, longestStatement, taken: false };
  Object.defineProperty(module, PARSED, { value: parsed });
}

/** The length of a parsed module's longest statement, once, if its rules are still the ones
 * parsed; otherwise undefined. */
export function takeLongestStatement(module: Module): number | undefined {
  const p = (module as { [PARSED]?: Parsed })[PARSED];
  if (!p || p.taken) return undefined;
  p.taken = true;
  return p.rules === module.rules && p.ruleCount === module.rules.length ? p.longestStatement : undefined;
}
