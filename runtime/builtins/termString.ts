// Rego's text form of a value, as OPA prints terms (print, template strings, error messages):
//   strings quoted Go-style, numbers as their decimal text, arrays `[1, 2]`, objects `{"a": 1}`
//   with keys in OPA order, sets `{1, 2}` in OPA order and the empty set as `set()`.
// Shared helper: other categories (sprintf %v, error texts) may import it.
import { BigNum, numberText } from "../value/number.js";
import { RegoObject, sortedPlainKeys } from "../value/object.js";
import { RegoSet } from "../value/set.js";
import type { PlainObject, Value } from "../value/value.js";

export function termString(v: Value): string {
  switch (typeof v) {
    case "string":
      return goQuote(v);
    case "number":
      return numberText(v);
    case "boolean":
      return v ? "true" : "false";
    default:
      break;
  }
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map(termString).join(", ")}]`;
  if (v instanceof BigNum) return v.toString();
  if (v instanceof RegoSet) return v.size === 0 ? "set()" : `{${v.sorted().map(termString).join(", ")}}`;
  if (v instanceof RegoObject) return `{${v.sorted().map(([k, x]) => `${termString(k)}: ${termString(x)}`).join(", ")}}`;
  const o = v as PlainObject;
  return `{${sortedPlainKeys(o).map((k) => `${goQuote(k)}: ${termString(o[k]!)}`).join(", ")}}`;
}

/** A string operand as print and template strings show it: raw for strings, term text otherwise. */
export function printString(v: Value): string {
  return typeof v === "string" ? v : termString(v);
}

// Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's strconv.Quote: printable characters kept, the rest escaped as \n, \x7f, \u00a0, \U0001f000... */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case "\\":
        out += "\\\\";
        continue;
      case "\x07":
        out += "\\a";
        continue;
      case "\b":
        out += "\\b";
        continue;
      case "\f":
        out += "\\f";
        continue;
      case "\n":
        out += "\\n";
        continue;
      case "\r":
        out += "\\r";
        continue;
      case "\t":
        out += "\\t";
        continue;
      case "\v":
        out += "\\v";
        continue;
      default:
        break;
    }
    if (c >= 0xd800 && c <= 0xdfff) out += "\ufffd"; // a lone surrogate is not UTF-8; Go would hold U+FFFD
    else if (PRINTABLE.test(ch)) out += ch;
    else if (c < 0x80) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += `\\U${c.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}
