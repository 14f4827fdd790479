// Rego's text form of a value, as OPA prints terms (print, template strings, error messages):
//   strings quoted Go-style, numbers as their decimal text, arrays `[1, 2]`, objects `{"a": 1}`
//   with keys in OPA order, sets `{1, 2}` in OPA order and the empty set as `set()`.
// Shared helper: other categories (sprintf %v, error texts) may import it. It keeps its own stack,
// so a value nested deeper than the JS call stack allows prints too.
import { BigNum, numberText } from "../value/number.js";
import { RegoObject, sortedPlainKeys } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { PlainObject, Value } from "../value/value.js";
import { quote } from "./go/strconv.js";

/** Text to write as it is, on the work stack beside the values still to print. */
class Lit {
  constructor(readonly text: string) {}
}

/** An object member on the work stack: `key: value`. */
class Entry {
  constructor(
    readonly key: Value,
    readonly value: Value,
  ) {}
}

type Work = Value | Lit | Entry;

export function termString(root: Value): string {
  let out = "";
  // What is left to write, the next item last.
  const work: Work[] = [root];
  const push = (open: string, items: readonly Work[], close: string): void => {
    work.push(new Lit(close));
    for (let i = items.length - 1; i >= 0; i--) {
      work.push(items[i]!);
      if (i > 0) work.push(new Lit(", "));
    }
    out += open;
  };
  while (work.length > 0) {
    const v = work.pop()!;
    if (v instanceof Lit) out += v.text;
    else if (v instanceof Entry) work.push(v.value, new Lit(": "), typeof v.key === "string" ? new Lit(quote(v.key)) : v.key);
    else if (typeof v === "string") out += quote(v);
    else if (typeof v === "number") out += numberText(v);
    else if (typeof v === "boolean") out += v ? "true" : "false";
    else if (v === null) out += "null";
    else if (Array.isArray(v)) push("[", v, "]");
    else if (v instanceof BigNum) out += v.toString();
    else if (v instanceof RegoSet) {
      if (v.size === 0) out += "set()";
      else push("{", v.sorted(), "}");
    } else if (v instanceof RegoObject) push("{", v.sorted().map(([k, x]) => new Entry(k, x)), "}");
    else {
      const o = v as PlainObject;
      push("{", sortedPlainKeys(o).map((k) => new Entry(k, o[k]!)), "}");
    }
  }
  return out;
}

/** A string operand as print and template strings show it: raw for strings, term text otherwise. */
export function printString(v: Value): string {
  return typeof v === "string" ? v : termString(v);
}
