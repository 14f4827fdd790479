// Go's strconv.Quote and the UTF-8 byte length of a JS string: error messages of several Go-derived
// builtins (regex templates, time layouts, text/template) quote their inputs the way Go does.

const ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  '"': '\\"',
  "\\": "\\\\",
};

/** Go's strconv.Quote: printable runes stay, others become \x, \u or \U escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const esc = ESCAPES[ch];
    if (esc !== undefined) {
      out += esc;
      continue;
    }
    const cp = ch.codePointAt(0)!;
    if (isPrintable(cp)) out += ch;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += "\\ufffd"; // lone surrogate: Go sees invalid UTF-8
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return out + '"';
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function isPrintable(cp: number): boolean {
  if (cp >= 0x20 && cp < 0x7f) return true;
  if (cp < 0xa0) return false;
  return PRINTABLE.test(String.fromCodePoint(cp));
}

/** The length in bytes of a string's UTF-8 encoding (Go's len(s)). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
