// Go's strconv quoting and unicode helpers, for builtins whose output or error texts are Go's:
// sprintf (%q, %c, %U, %x on strings), url and hex errors, uuid and JSON texts.
//
// Go strings are UTF-8 bytes and JS strings UTF-16: a lone surrogate (the only "invalid" text a JS
// string can hold) is treated as U+FFFD, which is what OPA's JSON decoding turns it into.
// Hand-written: no JS library reproduces Go's strconv escaping rules (\x for control bytes,
// \u/\U for unprintable runes, Go's IsPrint) and its rune-level semantics.

const RUNE_ERROR = 0xfffd;
const MAX_RUNE = 0x10ffff;

/** The code points of a string, lone surrogates as U+FFFD (Go's `[]rune(s)`). */
export function runes(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    out.push(c >= 0xd800 && c <= 0xdfff ? RUNE_ERROR : c);
  }
  return out;
}

/** The length in bytes of a string's UTF-8 encoding (Go's len(s)); lone surrogates count 3 (U+FFFD). */
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

/** Number of runes in a string (Go's utf8.RuneCountInString). */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** A string from runes; invalid runes (surrogates, beyond U+10FFFF) become U+FFFD as in Go. */
export function fromRunes(rs: readonly number[]): string {
  let out = "";
  for (const r of rs) out += String.fromCodePoint(validRune(r) ? r : RUNE_ERROR);
  return out;
}

export function validRune(r: number): boolean {
  return r >= 0 && r <= MAX_RUNE && !(r >= 0xd800 && r <= 0xdfff);
}

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF is kept, as in a Go string (TextDecoder drops it by default).
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The UTF-8 bytes of a string (lone surrogates encode as U+FFFD, EF BF BD). */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Bytes read as UTF-8, invalid sequences as U+FFFD (how a Go byte string reaches a JS string). */
export function fromUtf8(b: Uint8Array): string {
  return decoder.decode(b);
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols, and the ASCII space only.
const GRAPHIC = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

export function isPrint(r: number): boolean {
  if (r < 0x100) return (r >= 0x20 && r <= 0x7e) || (r >= 0xa1 && r <= 0xff && r !== 0xad);
  if (!validRune(r)) return false;
  return GRAPHIC.test(String.fromCodePoint(r));
}

const HEX = "0123456789abcdef";

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

function escapeRune(r: number, quote: number, asciiOnly: boolean): string {
  if (r === quote || r === 0x5c) return `\\${String.fromCodePoint(r)}`;
  if (asciiOnly ? r < 0x80 && isPrint(r) : isPrint(r)) return String.fromCodePoint(r);
  switch (r) {
    case 0x07:
      return "\\a";
    case 0x08:
      return "\\b";
    case 0x0c:
      return "\\f";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x0b:
      return "\\v";
    default:
      break;
  }
  if (r < 0x20 || r === 0x7f) return `\\x${HEX[r >> 4]}${HEX[r & 15]}`;
  if (!validRune(r)) r = RUNE_ERROR;
  return r < 0x10000 ? `\\u${hex(r, 4)}` : `\\U${hex(r, 8)}`;
}

const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** strconv.Quote (asciiOnly: strconv.QuoteToASCII). */
export function quote(s: string, asciiOnly = false): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (const r of runes(s)) out += escapeRune(r, 0x22, asciiOnly);
  return `${out}"`;
}

/** strconv.QuoteRune (asciiOnly: QuoteRuneToASCII); invalid runes are U+FFFD. */
export function quoteRune(r: number, asciiOnly = false): string {
  if (!validRune(r)) r = RUNE_ERROR;
  return `'${escapeRune(r, 0x27, asciiOnly)}'`;
}

/** strconv.CanBackquote: no control characters but tab, no backquote, no BOM. */
export function canBackquote(s: string): boolean {
  for (const r of runes(s)) {
    if (r === 0xfeff) return false;
    if ((r < 0x20 && r !== 0x09) || r === 0x60 || r === 0x7f) return false;
  }
  return true;
}
