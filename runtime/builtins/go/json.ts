// JSON the way OPA's Go code reads and writes it (encoding/json), for every builtin that does:
//   - writing: json.Marshal of ast.JSON(v) — the value model's one writer (value/json.ts
//     writeJSON: keys sorted by bytes, numbers as their exact text, sets as sorted arrays,
//     non-string keys as their JSON text) with Go's string escaping (<, >, & as \u003c \u003e
//     \u0026, U+2028/2029 escaped, \b \f \n \r \t, other controls as \u00XX) and MarshalIndent's layout;
//   - reading: a json.Decoder with UseNumber (exact numbers), duplicate keys resolved last-wins,
//     lone surrogate escapes as U+FFFD, Go's error texts ("invalid character 'x' looking for
//     beginning of value", "unexpected EOF"), and OPA's check for data after the first value
//     (util.UnmarshalJSON, which json.unmarshal and the JWT decoders use).
// Hand-written: JSON.parse and lossless-json reject duplicate keys or lose digits, and neither
// gives Go's escaping or error texts.
import { numberFromText } from "../../value/number.js";
import { writeJSON } from "../../value/json.js";
import { newPlainObject, type PlainObject, type Value } from "../../value/value.js";
import { quote, utf8 } from "./strconv.js";

const HEX = "0123456789abcdef";
const NEEDS_ESCAPE = /["\\\x00-\x1f\u2028\u2029\ud800-\udfff]/;
const NEEDS_ESCAPE_HTML = /["\\\x00-\x1f<>&\u2028\u2029\ud800-\udfff]/;

/** A Go JSON string literal (escapeHTML as json.Marshal and json.Encoder default to). */
export function jsonString(s: string, escapeHTML = true): string {
  if (!(escapeHTML ? NEEDS_ESCAPE_HTML : NEEDS_ESCAPE).test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26))) {
      switch (c) {
        case 0x22:
          esc = '\\"';
          break;
        case 0x5c:
          esc = "\\\\";
          break;
        case 0x08:
          esc = "\\b";
          break;
        case 0x0c:
          esc = "\\f";
          break;
        case 0x0a:
          esc = "\\n";
          break;
        case 0x0d:
          esc = "\\r";
          break;
        case 0x09:
          esc = "\\t";
          break;
        default:
          esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c === 0x2028 || c === 0x2029) esc = `\\u202${HEX[c & 15]}`;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (pair) {
        i++;
        continue;
      }
      esc = "\ufffd"; // a lone surrogate stands for the U+FFFD Go holds
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return `${out}${s.slice(start)}"`;
}

/** The JSON object key for a Rego key: strings as they are, other values as their JSON text. */
export function jsonKey(k: Value): string {
  return typeof k === "string" ? k : marshal(k);
}

/** json.Marshal (layout undefined) or json.MarshalIndent(v, prefix, indent). */
export function marshal(v: Value, layout?: { prefix: string; indent: string }): string {
  return writeJSON(v, layout ? { quote: jsonString, prefix: layout.prefix, indent: layout.indent } : { quote: jsonString });
}

// --- decoding --------------------------------------------------------------------------------

export class JsonSyntaxError extends Error {}

const MAX_DEPTH = 10000;

const SIMPLE_ESCAPES = new Map([
  ['"', '"'],
  ["\\", "\\"],
  ["/", "/"],
  ["b", "\b"],
  ["f", "\f"],
  ["n", "\n"],
  ["r", "\r"],
  ["t", "\t"],
]);

/** Go's quoteChar: how the scanner names an unexpected byte. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const q = quote(c);
  return `'${q.slice(1, -1)}'`;
}

const PLAIN_RUN = /[^"\\\x00-\x1f]*/y;
const SURROGATE = /[\ud800-\udfff]/;

/** Lone surrogates (from \u escapes or the text itself) become U+FFFD; pairs stay. */
function fixSurrogates(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

interface Frame {
  arr?: Value[];
  obj?: PlainObject;
  key?: string;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  private fail(msg: string): never {
    throw new JsonSyntaxError(msg);
  }

  private eof(): never {
    this.fail("unexpected EOF");
  }

  /** The character at i as Go's scanner sees it (the first byte of a non-ASCII character). */
  private charAt(i: number): string {
    const c = this.s.codePointAt(i)!;
    if (c < 0x80) return this.s[i]!;
    const lead = utf8(String.fromCodePoint(c))[0]!;
    return String.fromCharCode(lead);
  }

  private invalid(context: string): never {
    this.fail(`invalid character ${quoteChar(this.charAt(this.i))} ${context}`);
  }

  skipSpace(): void {
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      this.i++;
    }
  }

  /** One JSON value; nesting is handled with an explicit stack (Go allows 10000 levels). */
  value(): Value {
    const stack: Frame[] = [];
    for (;;) {
      this.skipSpace();
      if (this.i >= this.s.length) this.eof();
      const c = this.s[this.i]!;
      let v: Value;
      if (c === "{" || c === "[") {
        if (stack.length >= MAX_DEPTH) this.invalid("exceeded max depth");
        this.i++;
        this.skipSpace();
        if (this.i >= this.s.length) this.eof();
        if (this.s[this.i] === (c === "{" ? "}" : "]")) {
          this.i++;
          v = c === "{" ? newPlainObject() : [];
        } else if (c === "[") {
          stack.push({ arr: [] });
          continue;
        } else {
          const frame: Frame = { obj: newPlainObject(), key: "" };
          this.objectKey(frame);
          stack.push(frame);
          continue;
        }
      } else if (c === '"') v = this.string();
      else if (c === "-" || (c >= "0" && c <= "9")) v = this.number();
      else if (c === "t") v = this.literal("true", true);
      else if (c === "f") v = this.literal("false", false);
      else if (c === "n") v = this.literal("null", null);
      else this.invalid("looking for beginning of value");
      // Attach the finished value to its parents, closing the ones that end here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return v;
        if (top.arr) top.arr.push(v);
        else top.obj![top.key!] = v; // a null-prototype object: `__proto__` is an ordinary key
        this.skipSpace();
        if (this.i >= this.s.length) this.eof();
        const d = this.s[this.i];
        this.i++;
        if (d === (top.arr ? "]" : "}")) {
          v = top.arr ?? top.obj!;
          stack.pop();
          continue;
        }
        if (d !== ",") {
          this.i--;
          this.invalid(top.arr ? "after array element" : "after object key:value pair");
        }
        if (top.obj) this.objectKey(top);
        break;
      }
    }
  }

  /** A key and its colon, into the frame. */
  private objectKey(frame: Frame): void {
    this.skipSpace();
    if (this.i >= this.s.length) this.eof();
    if (this.s[this.i] !== '"') this.invalid("looking for beginning of object key string");
    frame.key = this.string();
    this.skipSpace();
    if (this.i >= this.s.length) this.eof();
    if (this.s[this.i] !== ":") this.invalid("after object key");
    this.i++;
  }

  private literal(word: string, v: Value): Value {
    for (let k = 1; k < word.length; k++) {
      this.i++;
      if (this.i >= this.s.length) this.eof();
      if (this.s[this.i] !== word[k]) this.invalid(`in literal ${word} (expecting ${quoteChar(word[k]!)})`);
    }
    this.i++;
    return v;
  }

  private digits(): number {
    const s = this.s;
    const from = this.i;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c < 0x30 || c > 0x39) break;
      this.i++;
    }
    return this.i - from;
  }

  /** At least one digit must follow (Go names the character that is not one). */
  private needDigits(context: string): void {
    if (this.i >= this.s.length) this.eof();
    if (this.digits() === 0) this.invalid(context);
  }

  private number(): Value {
    const start = this.i;
    const s = this.s;
    if (s.charCodeAt(this.i) === 0x2d) {
      this.i++;
      if (this.i >= s.length) this.eof();
      const c = s.charCodeAt(this.i);
      if (c < 0x30 || c > 0x39) this.invalid("in numeric literal");
    }
    if (s.charCodeAt(this.i) === 0x30) this.i++;
    else this.digits();
    if (s.charCodeAt(this.i) === 0x2e) {
      this.i++;
      this.needDigits("after decimal point in numeric literal");
    }
    const e = s.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = s.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      this.needDigits("in exponent of numeric literal");
    }
    const text = s.slice(start, this.i);
    if (text.length <= 15) {
      // A short decimal whose double prints back as the same text is that double (canonical form).
      const d = Number(text);
      if (String(d) === text) return d;
    }
    return numberFromText(text) ?? Number(text);
  }

  private string(): string {
    const s = this.s;
    this.i++; // opening quote
    PLAIN_RUN.lastIndex = this.i;
    PLAIN_RUN.test(s);
    let start = this.i;
    this.i = PLAIN_RUN.lastIndex;
    if (s.charCodeAt(this.i) === 0x22) {
      // The common case: no escapes, no control characters.
      const out = s.slice(start, this.i);
      this.i++;
      return SURROGATE.test(out) ? fixSurrogates(out) : out;
    }
    let out = "";
    for (;;) {
      if (this.i >= s.length) this.eof();
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(start, this.i);
        this.i++;
        return SURROGATE.test(out) ? fixSurrogates(out) : out;
      }
      if (c < 0x20) this.invalid("in string literal");
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(start, this.i);
      this.i++;
      if (this.i >= s.length) this.eof();
      const e = s[this.i]!;
      const simple = SIMPLE_ESCAPES.get(e);
      if (simple !== undefined) {
        out += simple;
        this.i++;
      } else if (e === "u") {
        // Surrogate halves are joined or replaced by U+FFFD (as Go does) once the string is read.
        out += String.fromCharCode(this.hex4());
      } else this.invalid("in string escape code");
      start = this.i;
    }
  }

  private hex4(): number {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      this.i++;
      if (this.i >= this.s.length) this.eof();
      const h = parseInt(this.s[this.i]!, 16);
      if (Number.isNaN(h)) this.invalid("in \\u hexadecimal character escape");
      v = v * 16 + h;
    }
    this.i++;
    return v;
  }

  /** What OPA's check after the first value sees: a decoder Token (Go's %s of it) or nothing. */
  trailing(): void {
    this.skipSpace();
    if (this.i >= this.s.length) return;
    const c = this.s[this.i]!;
    if (c === "{" || c === "[") this.fail(`error: invalid character '${c}' after top-level value`);
    if (c === "]" || c === "}" || c === "," || c === ":") this.invalid("looking for beginning of value");
    const start = this.i;
    const v = this.value();
    if (v === null) return; // a null token is nil: OPA's check lets it pass
    const text = typeof v === "string" ? v : typeof v === "boolean" ? `%!s(bool=${v})` : this.s.slice(start, this.i);
    this.fail(`error: invalid character '${text}' after top-level value`);
  }
}

/** OPA's util.UnmarshalJSON: one JSON value (then at most a null), exact numbers; JsonSyntaxError. */
export function unmarshal(text: string): Value {
  const r = new Reader(text);
  r.skipSpace();
  if (r.i >= text.length) throw new JsonSyntaxError("EOF");
  const v = r.value();
  r.trailing();
  return v;
}

/** encoding/json.Valid. */
export function isValidJson(text: string): boolean {
  const r = new Reader(text);
  try {
    r.value();
    r.skipSpace();
    return r.i === text.length;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return false;
    throw e;
  }
}
