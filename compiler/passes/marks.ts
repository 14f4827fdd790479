// Facts about expressions that later stages need but the AST has no field for.
import type { Expr } from "../ast/nodes.js";

/** Expressions that were written with `:=` (RewriteLocalVars turns them into `=`): unification
 * through them is one-way, right to left, for the safety check. */
export const assignments = new WeakSet<Expr>();
