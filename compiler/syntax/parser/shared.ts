// Lists that most nodes hold alike, one frozen copy shared by all of them: an expression's `with`
// modifiers (almost always none), a rule's annotations (attached by replacing the list, see
// module.ts) and a head's keywords (one of four lists). Frozen, since a shared list must never
// change: what the parser hands out is read, or copied, downstream.
import type { Annotations, HeadKeyword, With } from "../../ast/nodes.js";

function frozen<T>(items: T[]): T[] {
  return Object.freeze(items) as T[];
}

export const NO_WITH: With[] = frozen([]);
export const NO_ANNOTATIONS: Annotations[] = frozen([]);

const NO_KEYWORDS: HeadKeyword[] = frozen([]);
const IF: HeadKeyword[] = frozen(["if"]);
const CONTAINS: HeadKeyword[] = frozen(["contains"]);
const CONTAINS_IF: HeadKeyword[] = frozen(["contains", "if"]);

/** A head's keywords: `contains` (if written) before `if` (if written). */
export function headKeywords(contains: boolean, withIf: boolean): HeadKeyword[] {
  return contains ? (withIf ? CONTAINS_IF : CONTAINS) : withIf ? IF : NO_KEYWORDS;
}
