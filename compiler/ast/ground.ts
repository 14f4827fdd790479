// OPA's IsGround: a term is ground when it holds no vars (a ref's head is not an operand, so
// `data.a.b` is ground; comprehensions and template strings never are). The parser needs it for
// rule heads, the stages for unification and conflicts.
import type { Term } from "./nodes.js";
import { assertNever } from "../../runtime/errors.js";

export function isGround(t: Term): boolean {
  switch (t.type) {
    case "var":
      return false;
    case "ref":
      return refIsGround(t.value);
    case "array":
    case "set":
    case "call":
      return t.value.every(isGround);
    case "object":
      return t.value.every(([k, v]) => isGround(k) && isGround(v));
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "templatestring":
      return false;
    case "string":
    case "number":
    case "boolean":
    case "null":
      return true;
    default:
      assertNever(t);
  }
}

/** A ref's operands (every term but its head) are ground. */
export function refIsGround(ref: readonly Term[]): boolean {
  for (let i = 1; i < ref.length; i++) if (!isGround(ref[i]!)) return false;
  return true;
}
