// JSON the way OPA's Go code reads and writes it in this group: decoding keeps numbers exact and,
// like Go's encoding/json, lets the last of duplicate keys win (JWT headers/payloads rely on it);
// encoding is json.Marshal of ast.JSON(v): sorted keys, sets as arrays, HTML characters escaped.
import { builtinError } from "../args.js";
import { BigNum, numberFromText, numberText } from "../../value/number.js";
import { RegoObject } from "../../value/object.js";
import { RegoSet } from "../../value/set.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../../value/value.js";

export class GoJSONError extends Error {}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Value {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) throw this.unexpected("after top-level value");
    return v;
  }

  private ws(): void {
    while (this.i < this.s.length && " \t\r\n".includes(this.s[this.i]!)) this.i++;
  }

  private unexpected(context: string): GoJSONError {
    if (this.i >= this.s.length) return new GoJSONError("unexpected end of JSON input");
    const c = this.s[this.i]!;
    const shown = c === "'" ? "'\\''" : `'${c}'`;
    return new GoJSONError(`invalid character ${shown} ${context}`);
  }

  private value(): Value {
    const c = this.s[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [lit, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.s.startsWith(lit, this.i)) {
        this.i += lit.length;
        return v;
      }
    }
    throw this.unexpected("looking for beginning of value");
  }

  private object(): PlainObject {
    const o = newPlainObject();
    this.i++;
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return o;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') throw this.unexpected("looking for beginning of object key string");
      const k = this.string();
      this.ws();
      if (this.s[this.i] !== ":") throw this.unexpected("after object key");
      this.i++;
      this.ws();
      setOwn(o, k, this.value());
      this.ws();
      const c = this.s[this.i];
      this.i++;
      if (c === "}") return o;
      if (c !== ",") {
        this.i--;
        throw this.unexpected("after object key:value pair");
      }
    }
  }

  private array(): Value[] {
    const out: Value[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      const c = this.s[this.i];
      this.i++;
      if (c === "]") return out;
      if (c !== ",") {
        this.i--;
        throw this.unexpected("after array element");
      }
    }
  }

  private string(): string {
    const start = this.i;
    this.i++;
    for (;;) {
      if (this.i >= this.s.length) throw new GoJSONError("unexpected end of JSON input");
      const c = this.s.charCodeAt(this.i);
      if (c === 0x22) break;
      if (c < 0x20) throw new GoJSONError(`invalid character ${JSON.stringify(this.s[this.i])} in string literal`);
      this.i += c === 0x5c ? 2 : 1;
    }
    this.i++;
    try {
      return JSON.parse(this.s.slice(start, this.i)) as string;
    } catch {
      throw new GoJSONError("invalid character in string escape code");
    }
  }

  private number(): Value {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (!m) {
      this.i++;
      throw this.unexpected("in numeric literal");
    }
    this.i += m[0].length;
    const n = numberFromText(m[0]);
    if (n === undefined) throw new GoJSONError(`invalid number ${m[0]}`);
    return n;
  }
}

/** Parses JSON text; throws GoJSONError with Go's message on a syntax error. */
export function parseGoJSON(text: string): Value {
  return new Parser(text).parse();
}

/** Whether `text` is valid JSON (Go's json.Valid). */
export function validJSON(text: string): boolean {
  try {
    parseGoJSON(text);
    return true;
  } catch {
    return false;
  }
}

function escapeString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** json.Marshal(ast.JSON(v)); non-string object keys are an error, as in ast.JSON. */
export function marshalGo(v: Value, what = "value"): string {
  switch (typeof v) {
    case "string":
      return escapeString(v);
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return numberText(v);
    default:
      break;
  }
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map((e) => marshalGo(e, what)).join(",")}]`;
  if (v instanceof BigNum) return v.toString();
  if (v instanceof RegoSet) return `[${v.sorted().map((e) => marshalGo(e, what)).join(",")}]`;
  if (v instanceof RegoObject) {
    const entries = v.sorted().map(([k, val]) => {
      if (typeof k !== "string") throw builtinError(`${what}: object key must be a string, got ${JSON.stringify(k)}`);
      return [k, val] as const;
    });
    return `{${entries.map(([k, val]) => `${escapeString(k)}:${marshalGo(val, what)}`).join(",")}}`;
  }
  const o = v as PlainObject;
  // Go sorts map keys by their UTF-8 bytes (code point order).
  const keys = Object.keys(o).sort((a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
  return `{${keys.map((k) => `${escapeString(k)}:${marshalGo(o[k]!, what)}`).join(",")}}`;
}
